package lint

var routeNotAttached = &Rule{
	ID: "route-not-attached", Severity: Warning,
	Summary: "route has no parentRefs: it attaches to nothing",
	Doc: Doc{
		Text: `A route reaches traffic only through its parentRefs (Gateways, ListenerSets, or
Services for mesh routing). Without any — and without useDefaultGateways — no
controller will ever program it. Under an implementation with HTTPRoute
delegation (kgateway), a child route that a parent route among the inputs
delegates to needs none.

Fix:`,
		Example: `spec:
  parentRefs:
  - name: shared-gateway
    namespace: infra`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			if len(r.ParentRefs) > 0 {
				continue
			}
			if _, ok := r.Positions.Lookup("spec.useDefaultGateways"); ok {
				continue
			}
			if len(p.Graph.RoutesHandingTo(r.Route)) > 0 {
				continue // a child route attaches through its parent route
			}
			p.Report(&r.Meta, "spec", nil, "%s has no parentRefs, so it attaches to no Gateway or Service", r.Ref)
		}
	},
}
