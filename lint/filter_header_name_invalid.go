package lint

import "github.com/gwlint/gwlint/resolve"

var filterHeaderNameInvalid = &Rule{
	ID: "filter-header-name-invalid", Severity: Warning,
	Summary: "a header modifier removes what is not an HTTP header name",
	Doc: Doc{
		Text: `"The value of Remove is a list of HTTP header names." A header name is an
RFC 9110 token, as the CRD requires of the names added and set, but it does not
check those removed: a name with ':', '/', a space or other separators
(":authority", "x-debug: 1") matches no header and removes nothing. Envoy
Gateway refuses it and drops the rule (route-filter-refused reports that
instead under its profile).

Fix: name the header alone:`,
		Example: `requestHeaderModifier:
  remove:
  - x-debug        # not "x-debug: 1"`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				if !droppedForFilters(r, rule) {
					reportRemovedNotAHeader(p, r, rule.FilterProblems)
				}
				for i, b := range rule.Backends {
					if b.Problem != resolve.FiltersRefused {
						reportRemovedNotAHeader(p, r, rule.BackendRefs[i].FilterProblems)
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

func reportRemovedNotAHeader(p *Pass, r *resolve.RouteResult, problems []resolve.FilterProblem) {
	for _, prob := range problems {
		if prob.Check == resolve.RemovedNotAHeader {
			p.ReportValue(&r.Meta, prob.Path, nil, "%s", prob.Message)
		}
	}
}
