package lint

import (
	"strings"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
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

Envoy Gateway also refuses a Gateway (InvalidParameters) whose EnvoyProxy sends
access logs, traces or metrics to a Service that does not exist, is of type
ExternalName or lacks the port; and fails the TLS connections to backends that a
BackendTLSPolicy verifies when the client certificate the EnvoyProxy offers them
(backendTLS.clientCertificateRef) is in another namespace or does not exist.

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
		users := map[*envoygateway.EnvoyProxy][]string{}
		for _, c := range p.Graph.GatewayClasses {
			if proxy := envoygateway.ClassProxy(p.Graph, c); proxy != nil {
				users[proxy] = append(users[proxy], "GatewayClass "+c.Ref.Name)
			}
		}
		type finding struct {
			proxy *envoygateway.EnvoyProxy
			path  string
		}
		gateways := map[finding][]string{}
		messages := map[finding]string{}
		var order []finding
		for _, gw := range p.Graph.Gateways {
			proxy := envoygateway.Proxy(p.Graph, gw)
			if proxy == nil {
				continue
			}
			name := "Gateway " + gw.Ref.NamespacedName()
			users[proxy] = append(users[proxy], name)
			for _, problem := range []struct {
				of   *resolve.ParametersProblem
				what string
			}{{gw.ParametersRefusal, "Envoy Gateway refuses"}, {gw.ClientCertificateProblem, "Envoy Gateway fails TLS to the backends a BackendTLSPolicy verifies, from"}} {
				if problem.of == nil {
					continue
				}
				f := finding{proxy, problem.of.Path}
				if _, ok := messages[f]; !ok {
					order = append(order, f)
					messages[f] = problem.of.Message + "; " + problem.what
				}
				gateways[f] = append(gateways[f], name)
			}
		}
		for _, f := range order {
			p.Report(&f.proxy.Meta, f.path, nil, "%s %s", messages[f], strings.Join(gateways[f], ", "))
		}
		for _, obj := range p.Graph.Objects {
			proxy, ok := obj.(*envoygateway.EnvoyProxy)
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
