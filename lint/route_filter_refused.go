package lint

import "github.com/gwlint/gwlint/resolve"

var routeFilterRefused = &Rule{
	ID: "route-filter-refused", Severity: Error,
	Summary: "the implementation refuses a filter the CRDs admit",
	Doc: Doc{
		Text: `The CRDs check a filter's shape, not everything an implementation can
translate. Envoy Gateway refuses a RequestHeaderModifier or
ResponseHeaderModifier that adds, sets or removes Host (rewrite it with
URLRewrite's hostname) or a pseudo-header, or writes a value that is not
visible ASCII words separated by single spaces; a redirect or rewrite to an
IP address; a rule that both mirrors and redirects; and a filter type it does
not translate (ExternalAuth). It drops such a rule (PartiallyInvalid, or
Accepted=False/UnsupportedValue when no rule is left) and answers its
requests with HTTP 500. On a backendRef it takes header modifiers and a
hostname URLRewrite only: another filter makes the backendRef invalid
(ResolvedRefs=False/UnsupportedRefValue, or InvalidBackendFilters), and its
share of requests gets HTTP 500. Reported when the route is judged by such an
implementation's profile.

Envoy Gateway reads the HTTPRouteFilters a rule's ExtensionRef filters name
and drops the rule, too, for one whose ReplaceRegexMatch or PathRegex rewrite
lacks its pattern or does not compile as RE2, whose Header hostname rewrite
names no header, that rewrites a path or hostname another filter of the rule
rewrites, or whose direct response body (a ConfigMap) or injected credential
(a Secret, with key "credential") does not exist; and for a direct response
beside a RequestMirror (IncompatibleFilters) or, on a GRPCRoute, with a 2xx
status. On a backendRef, an HTTPRouteFilter that does not exist or that it
refuses makes the backendRef invalid (InvalidBackendFilters).

Fix: move the filter to the rule, or rewrite the Host with URLRewrite:`,
		Example: `filters:
- type: URLRewrite
  urlRewrite: {hostname: api.internal}   # not requestHeaderModifier.set Host`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			reported := map[string]bool{}
			for _, parent := range r.Parents {
				for _, d := range parent.Dropped {
					if d.Filter && !reported[d.Path] {
						reported[d.Path] = true
						p.ReportValue(&r.Meta, d.Path, nil, "%s drops %s: %s", d.By, d.Rule.Label(), d.Message)
					}
				}
			}
		}
		reportBackends(resolve.FiltersRefused, ".filters")(p)
	},
}
