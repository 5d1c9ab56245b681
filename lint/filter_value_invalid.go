package lint

import "github.com/gwlint/gwlint/resolve"

var filterValueInvalid = &Rule{
	ID: "filter-value-invalid", Severity: Warning,
	Summary: "a filter value the API rules out and the CRD admits",
	Doc: Doc{
		Text: `Some rules of the API its CRDs do not check:

- "The value of Remove is a list of HTTP header names." A header name is an
  RFC 9110 token, as the CRD requires of the names added and set, not of those
  removed: a name with ':', '/', a space or other separators (":authority",
  "x-debug: 1") matches no header and removes nothing.
- A RequestRedirect's or URLRewrite's hostname is a PreciseHostname: "numeric
  IP addresses are not allowed", and a label has at most 63 characters
  (RFC 1123).

Envoy Gateway refuses both and drops the rule; under its profile
route-filter-refused reports that instead.

Fix: name the header alone, and redirect or rewrite to a DNS name:`,
		Example: `requestHeaderModifier:
  remove:
  - x-debug        # not "x-debug: 1"`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				if !droppedForFilters(r, rule) {
					reportRuledOut(p, r, rule.FilterProblems)
				}
				for i, b := range rule.Backends {
					if b.Problem != resolve.FiltersRefused {
						reportRuledOut(p, r, rule.BackendRefs[i].FilterProblems)
					}
				}
			}
		}
	},
}

// droppedForFilters reports whether an implementation judging the route
// drops the rule for its filters, which route-filter-refused reports.
func droppedForFilters(r *resolve.RouteResult, rule *resolve.RuleResult) bool {
	for _, parent := range r.Parents {
		for _, d := range parent.Dropped {
			if d.Rule == rule && d.Filter {
				return true
			}
		}
	}
	return false
}

func reportRuledOut(p *Pass, r *resolve.RouteResult, problems []resolve.FilterProblem) {
	for _, prob := range problems {
		if prob.Check.APIRulesOut() {
			p.ReportValue(&r.Meta, prob.Path, nil, "%s", prob.Message)
		}
	}
}
