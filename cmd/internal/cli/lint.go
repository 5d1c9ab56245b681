package cli

import (
	"slices"

	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
)

// LintWorlds lints each world (see Inputs.Load), resolved into the graph
// of the same index, and merges what they found: a finding that several
// worlds make (about a base that two overlays include) is reported once,
// and an ignore comment that one world used is not unused because another
// did not need it.
func LintWorlds(worlds []*resolve.Inputs, graphs []*resolve.Graph, rules []*lint.Rule) ([]lint.Finding, []lint.Suppressed) {
	var findings []lint.Finding
	var suppressed []lint.Suppressed
	// With several clusters (package gitops), a finding says which one it
	// is about: the same line may be right in one and wrong in another.
	clusters := 0
	for _, in := range worlds {
		if in.Cluster != "" {
			clusters++
		}
	}
	for i, in := range worlds {
		g := graphs[i]
		kept, supp := lint.Suppress(g, lint.Run(g, rules), rules)
		if clusters > 1 && in.Cluster != "" {
			for i := range kept {
				kept[i].Message += " (in the cluster of " + in.Cluster + ")"
			}
		}
		findings = append(findings, kept...)
		findings = append(findings, lint.InvalidManifests(in.Errors)...)
		findings = append(findings, lint.InputUnknowns(in.Unknowns)...)
		suppressed = append(suppressed, supp...)
	}
	if len(worlds) > 1 {
		// An ignore is unused for a rule only if no world used it for
		// that rule.
		type use struct {
			at   lint.Position
			rule string
		}
		used := map[use]bool{}
		for _, sp := range suppressed {
			used[use{sp.By.Position, sp.Rule}] = true
		}
		findings = slices.DeleteFunc(findings, func(f lint.Finding) bool {
			return f.Rule == lint.UnusedIgnore.ID && used[use{f.Position, f.IgnoredRule}]
		})
		slices.SortStableFunc(suppressed, func(a, b lint.Suppressed) int { return lint.Compare(a.Finding, b.Finding) })
		suppressed = slices.CompactFunc(suppressed, func(a, b lint.Suppressed) bool {
			return lint.Compare(a.Finding, b.Finding) == 0 && a.By.Position == b.By.Position
		})
	}
	return lint.Sort(findings), suppressed
}
