package lint

import "github.com/gwlint/gwlint/resolve"

// reportPolicyTargets reports, at field (a child of the target reference:
// "kind", "sectionName"; "" for the reference itself), every target of a
// policy of a known kind whose problem is one of problems. A kind no
// implementation declares is never judged, and BackendTLSPolicies have
// rules of their own.
func reportPolicyTargets(p *Pass, field func(*resolve.PolicyTargetResult) string, problems ...resolve.PolicyProblem) {
	for _, pol := range p.Graph.Policies {
		if pol.Known == nil || pol.TLS != nil {
			continue
		}
		for _, t := range pol.Targets {
			for _, problem := range problems {
				if t.Problem == problem {
					p.Report(pol.Meta(), fieldPath(t.Path, field(t)), nil, "%s %s: %s", pol.Kind, pol.Ref.NamespacedName(), t.Message)
				}
			}
		}
	}
}

// fieldPath is path's child field, path itself when field is "".
func fieldPath(path, field string) string {
	if field == "" {
		return path
	}
	return path + "." + field
}

// targetField reports a target reference's field of that name.
func targetField(name string) func(*resolve.PolicyTargetResult) string {
	return func(*resolve.PolicyTargetResult) string { return name }
}
