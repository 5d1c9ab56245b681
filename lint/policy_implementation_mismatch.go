package lint

import (
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

var policyImplementationMismatch = &Rule{
	ID: "policy-implementation-mismatch", Severity: Error,
	Summary: "policy of one implementation targets another's Gateway",
	Doc: Doc{
		Text: `A policy kind is read by one implementation's controller: an Envoy Gateway
SecurityPolicy by Envoy Gateway, an Istio AuthorizationPolicy by Istio.
Its target is a Gateway, or a route attached only to Gateways, whose
GatewayClass belongs to another implementation: no controller reads the
policy for it, and its settings apply nowhere, with no status saying so.

Fix: use the policy kind of the Gateway's implementation, or target a
Gateway of the policy's.`,
		Example: `# Gateway gw: gatewayClassName: istio
apiVersion: security.istio.io/v1   # before: gateway.envoyproxy.io/v1alpha1 SecurityPolicy
kind: AuthorizationPolicy`,
	},
	Run: func(p *Pass) {
		for _, pol := range p.Graph.Policies {
			if pol.Known == nil || pol.Known.Implementation == "" {
				continue
			}
			for _, t := range pol.Targets {
				if !t.Applies() {
					continue
				}
				if others := otherImplementations(p.Graph, t.Object, pol.Known.Implementation); others != "" {
					p.Report(pol.Meta(), t.Path, nil, "%s %s is read by %s, but %s", pol.Kind, pol.Ref.NamespacedName(), pol.Known.Implementation, others)
				}
			}
		}
	},
}

// otherImplementations says which Gateways of implementations other than
// impl obj is, or a route is attached to, when none is impl's: "" when one
// is, or when a Gateway's implementation is not known from a GatewayClass
// among the inputs.
func otherImplementations(g *resolve.Graph, obj resolve.Object, impl string) string {
	var gateways []*resolve.GatewayResult
	switch o := obj.(type) {
	case *resolve.Gateway:
		gateways = append(gateways, g.Gateway(o.Ref.Namespace, o.Ref.Name))
	case *resolve.Route:
		for _, r := range g.RoutesIn(o.Kind(), o.Ref.Namespace) {
			if r.Route != o {
				continue
			}
			for _, parent := range r.Parents {
				if gw := parent.ManagedGateway(); gw != nil && parent.Accepted.True() {
					gateways = append(gateways, gw)
				}
			}
		}
	}
	var others []string
	for _, gw := range gateways {
		if gw == nil || gw.Class == nil || gw.Judge.Name == "" {
			return ""
		}
		if gw.Judge.Name == impl {
			return ""
		}
		others = append(others, gw.Ref.String()+" is "+gw.Judge.Name+"'s (GatewayClass "+gw.Class.Ref.Name+")")
	}
	return strings.Join(others, ", ")
}
