package lint

var routeRegexInvalid = &Rule{
	ID: "route-regex-invalid", Severity: Warning,
	Summary: "RegularExpression match does not compile as RE2",
	Doc: Doc{
		Text: `The regular expression dialect of path, header, query parameter and gRPC
method matches is implementation-specific; Envoy-based implementations use
RE2. A value RE2 cannot compile ("*.example.com", look-arounds,
back-references) never matches there: Envoy Gateway drops the rule
(PartiallyInvalid, or Accepted=False/UnsupportedValue when no rule is left),
and gwctl shows that when the route is judged by its profile. It is a
warning because other dialects (NGINX's PCRE) may accept look-arounds.

Fix: write an RE2 expression, or a PathPrefix or Exact match:`,
		Example: `matches:
- path:
    type: RegularExpression
    value: "/api/v[0-9]+/.*"   # not "*/api/..."`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				for _, problem := range rule.RegexProblems {
					p.ReportValue(&r.Meta, problem.Path, nil, "%s", problem.Message)
				}
			}
		}
	},
}
