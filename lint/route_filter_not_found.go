package lint

import "github.com/gwlint/gwlint/resolve/implementations/envoygateway"

var routeFilterNotFound = &Rule{
	ID: "route-filter-not-found", Severity: Error,
	Summary: "ExtensionRef names an HTTPRouteFilter that does not exist",
	Doc: Doc{
		Text: `An ExtensionRef filter of group gateway.envoyproxy.io and kind HTTPRouteFilter
names an Envoy Gateway HTTPRouteFilter in the route's namespace. The inputs
hold that namespace whole (its Namespace object and its HTTPRouteFilters, or
it is listed under ownedNamespaces in .gwlint.yaml, or --strict-refs is
given) but not this one, so it does not exist: Envoy Gateway sets the route's
ResolvedRefs=False/UnsupportedValue and answers every request the rule
matches with HTTP 500. Reported when the route is judged by Envoy Gateway's
profile; under another, an ExtensionRef is the implementation's to read.

Fix: correct the name, or add the HTTPRouteFilter to the route's namespace.`,
		Example: `filters:
- type: ExtensionRef
  extensionRef:
    group: gateway.envoyproxy.io
    kind: HTTPRouteFilter
    name: maintenance-page   # before: maintenance (no such HTTPRouteFilter)`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				if v := envoygateway.RouteFilters(p.Graph, rule); v != nil && v.Unresolved != nil {
					p.Report(&r.Meta, v.Unresolved.Path, nil, "%s: %s answers every request of %s with HTTP 500",
						v.Unresolved.Message, v.By, rule.Label())
				}
			}
		}
	},
}
