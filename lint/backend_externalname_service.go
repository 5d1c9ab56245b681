package lint

import "github.com/gwlint/gwlint/resolve"

var backendExternalNameService = &Rule{
	ID: "backend-externalname-service", Severity: Warning,
	Summary: "backendRef names an ExternalName Service",
	Doc: Doc{
		Text: `An ExternalName Service is a DNS alias that may point outside the cluster.
The API: "Implementations SHOULD NOT support ExternalName Services"
(CVE-2021-25740: they can forward to destinations the route's author may not
reach otherwise). Support is implementation-specific: Envoy Gateway refuses
them (ResolvedRefs=False/UnsupportedValue, HTTP 500 for the share), Istio
routes to them.

Fix: on Envoy Gateway use a Backend with an FQDN endpoint; elsewhere make
sure the implementation supports ExternalName and that the alias is trusted.`,
		Example: `apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: payments-api, namespace: app}
spec:
  endpoints: [{fqdn: {hostname: api.payments.example.com, port: 443}}]
---
backendRefs:
- {group: gateway.envoyproxy.io, kind: Backend, name: payments-api}`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				for _, b := range rule.AllBackends() {
					if b.Service == nil || !b.Service.ExternalName() {
						continue
					}
					msg := "Service " + b.Target.NamespacedName() + " is of type ExternalName (an alias of " + b.Service.Spec.ExternalName +
						"); implementations should not support it"
					if b.Problem == resolve.ExternalNameRefused {
						msg = withShare(r, rule, b)
					}
					p.Report(&r.Meta, b.Path+".name", nil, "%s", msg)
				}
			}
		}
	},
}
