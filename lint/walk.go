package lint

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// reportBackends reports every backendRef (of a rule, or of a filter such
// as RequestMirror) with problem, at the field that is wrong: field is
// appended to the backendRef's path.
func reportBackends(problem resolve.BackendProblem, field string) func(*Pass) {
	return reportBackendsWith([]resolve.BackendProblem{problem}, field)
}

// reportBackendsWith is reportBackends for every backend that has one of
// problems, in one walk.
func reportBackendsWith(problems []resolve.BackendProblem, field string) func(*Pass) {
	return func(p *Pass) {
		for _, at := range p.Graph.ProblemBackends() {
			r, b := at.Route, at.Backend
			if !slices.Contains(problems, b.Problem) {
				continue
			}
			if b.Problem == resolve.UnsupportedRef && refusedField(&r.Meta, b.Path+".group") {
				continue // the group crd-validation refuses is the one problem
			}
			msg := withShare(r, at.Rule, b)
			if b.Problem == resolve.NotPermitted {
				msg += "; " + grantHint(r.Ref.Kind, r.Ref.Namespace, b.Group, b.Target)
			}
			var related []Related
			if obj, path := b.Object(), b.TargetPath(); obj != nil && path != "" {
				target := obj.Metadata()
				related = []Related{Relate(target, path, "%s of %s %s", path, b.Target.Kind, target.Ref.NamespacedName())}
			}
			p.Report(&r.Meta, b.Path+field, related, "%s", msg)
		}
	}
}

// grantHint names the ReferenceGrant that would permit a reference.
func grantHint(fromKind, fromNS, toGroup string, to resolve.ObjectRef) string {
	return fmt.Sprintf("to allow it, add a ReferenceGrant in namespace %q with from {group: %s, kind: %s, namespace: %s} and to {group: %q, kind: %s, name: %s}",
		to.Namespace, resolve.GroupGateway, fromKind, fromNS, toGroup, to.Kind, to.Name)
}

// withShare appends what happens to the traffic meant for an invalid backend.
func withShare(r *resolve.RouteResult, rule *resolve.RuleResult, b *resolve.BackendResult) string {
	if b.Share == 0 || !r.Answers500() {
		return b.Message
	}
	return b.Message + "; its " + percent(b.Share) + " share of " + rule.Label() + " gets HTTP 500"
}

// percent renders a share as "20%" or "33.3%".
func percent(share float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(share*100, 'f', 1, 64), ".0") + "%"
}
