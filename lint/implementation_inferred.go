package lint

import "strings"

var implementationInferred = &Rule{
	ID: "implementation-inferred", Severity: Info,
	Summary: "the Gateway's implementation is inferred from evidence",
	Doc: Doc{
		Text: `No GatewayClass is among the inputs (a GitOps repository installs the
controller, and often its class, from a remote Helm chart), so which
implementation runs the Gateway is inferred: from its gatewayClassName,
when an implementation's documentation gives its class that name (Envoy
Gateway's eg or envoy), else from the world: objects of an API group only
one implementation serves, the Helm chart of one that a Flux HelmRelease or
its source installs (Envoy Gateway's gateway-helm, ...), and references to
kinds of its group. The
Gateway is judged by that implementation's profile (features it supports,
kinds it accepts); the message says which and from what. When the evidence
names several implementations, none is chosen, the message names them, and
the Gateway is judged by every feature and nothing implementation-specific.

Fix: nothing is wrong. To name the implementation rather than have it
inferred, add its GatewayClass to the inputs or set it:`,
		Example: `# .gwlint.yaml
implementation: envoy-gateway`,
	},
	Run: func(p *Pass) {
		for _, gw := range p.Graph.Gateways {
			switch in := gw.Inferred; {
			case in == nil:
			case in.Profile == nil:
				p.Report(&gw.Meta, "spec.gatewayClassName", nil, "%s is judged by no implementation's profile: the evidence names %s",
					gw.Ref, strings.Join(in.Candidates, " and "))
			default:
				p.Report(&gw.Meta, "spec.gatewayClassName", nil, "%s is judged by %s", gw.Ref, in)
			}
		}
	},
}
