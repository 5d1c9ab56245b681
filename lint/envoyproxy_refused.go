package lint

import (
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

var envoyProxyRefused = &Rule{
	ID: "envoyproxy-refused", Severity: Error,
	Summary: "Envoy Gateway refuses the EnvoyProxy a Gateway takes",
	Doc: Doc{
		Text: `Envoy Gateway's EnvoyProxy (gateway.envoyproxy.io), named by a GatewayClass's
parametersRef or a Gateway's infrastructure.parametersRef, is checked with the
small rules of Envoy Gateway's validation: an access-log sink of type File or
OpenTelemetry without its settings, a Text format without text, an
OpenTelemetry metrics sink without settings, a clusterStatName with an
unsupported operator, a provider type other than Kubernetes or Host (which needs
host), an unknown proxy Service type, loadBalancerIP, loadBalancerSourceRanges
or allocateLoadBalancerNodePorts on a Service that is not a LoadBalancer, a
patch without a value or of another type. The GatewayClass whose EnvoyProxy it
is, and every Gateway that takes it (its own, else its class's), are
Accepted=False/InvalidParameters, and nothing those Gateways declare is served.

Fix: complete or correct the field, or remove it.`,
		Example: `apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec:
  telemetry:
    accessLog:
      settings:
      - sinks:
        - type: File   # before: no file; after: add file: {path: /dev/stdout}`,
	},
	Run: func(p *Pass) {
		users := map[*resolve.EnvoyProxy][]string{}
		for _, c := range p.Graph.GatewayClasses {
			if c.Proxy != nil {
				users[c.Proxy] = append(users[c.Proxy], "GatewayClass "+c.Ref.Name)
			}
		}
		for _, gw := range p.Graph.Gateways {
			if gw.Proxy != nil {
				users[gw.Proxy] = append(users[gw.Proxy], "Gateway "+gw.Ref.NamespacedName())
			}
		}
		for _, obj := range p.Graph.Objects {
			proxy, ok := obj.(*resolve.EnvoyProxy)
			if !ok {
				continue
			}
			for _, problem := range proxy.Problems {
				p.Report(&proxy.Meta, problem.Path, nil, "EnvoyProxy %s: %s; Envoy Gateway refuses it and what takes it (%s)",
					proxy.Ref.NamespacedName(), problem.Message, strings.Join(users[proxy], ", "))
			}
		}
	},
}
