package lint

import "github.com/gwlint/gwlint/resolve"

var policyConflicted = &Rule{
	ID: "policy-conflicted", Severity: Error,
	Summary: "an older policy of the kind already targets this object",
	Doc: Doc{
		Text: `Where an implementation does not merge policies of a kind, only one
applies to a target and sectionName: the oldest by creationTimestamp, then
the first by namespace/name (GEP-713). The others are written
Accepted=False/Conflicted and their settings are silently unused: Envoy
Gateway's SecurityPolicy, BackendTrafficPolicy, ClientTrafficPolicy and
EnvoyExtensionPolicy, NGINX Gateway Fabric's ObservabilityPolicy. A policy
on a listener (sectionName) and one on the whole Gateway do not conflict:
the listener's overrides the Gateway's there.

Fix: merge the policies into the one that applies, or target distinct
sections.`,
		Example: `# one BackendTrafficPolicy per Gateway, listener or route
targetRefs:
- {group: gateway.networking.k8s.io, kind: Gateway, name: gw, sectionName: https}`,
	},
	Run: func(p *Pass) {
		for _, pol := range p.Graph.Policies {
			if pol.Known == nil || pol.TLS != nil {
				continue
			}
			for _, t := range pol.Targets {
				if t.Problem == resolve.PolicyConflicted {
					p.Report(pol.Meta(), t.Path, []Related{Relate(t.HeldBy.Meta(), "metadata.name", "the policy that applies")},
						"%s %s is not applied: %s", pol.Kind, pol.Ref.NamespacedName(), t.Message)
				}
			}
		}
	},
}
