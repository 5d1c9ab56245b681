package lint

var listenerSelectorInvalid = &Rule{
	ID: "listener-selector-invalid", Severity: Error,
	Summary: "allowedRoutes selector is missing or does not parse",
	Doc: Doc{
		Text: `With allowedRoutes.namespaces.from: Selector, routes may attach only from
namespaces the selector matches. A missing selector, or one Kubernetes cannot
parse (an Exists or DoesNotExist expression with values, an In or NotIn
without), matches nothing; the CRDs accept both. The listener is not
programmed (Programmed=False/Invalid) and every route is refused
(NotAllowedByListeners).

Fix: write a selector that parses:`,
		Example: `allowedRoutes:
  namespaces:
    from: Selector
    selector:
      matchExpressions:
      - key: shared-gateway-access
        operator: Exists      # no values with Exists`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			if l.SelectorProblem != "" {
				p.Report(l.Owner(), l.Path+".allowedRoutes.namespaces", nil, "%s: %s", l, l.SelectorProblem)
			}
		}
	},
}
