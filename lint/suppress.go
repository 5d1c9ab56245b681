package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gwlint/gwlint/internal/suggest"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// IgnoreAnnotation, on an object, suppresses the named rules' findings
// about that object: `gwlint.io/ignore: rule-id[,rule-id]`.
const IgnoreAnnotation = "gwlint.io/ignore"

// ignoreAnnotationPath is where IgnoreAnnotation is written, for positions.
const ignoreAnnotationPath = "metadata.annotations[" + IgnoreAnnotation + "]"

// Pseudo-rules are findings that gwlint makes about its inputs and about
// ignore directives rather than about the graph. They are Rule values so
// that `gwlint rules`, docs/rules.md and SARIF describe them like any other,
// and so that .gwlint.yaml can change their severity or turn them off
// (except invalid-manifest). Their Run does nothing: Suppress and
// InvalidManifests report them.

// IgnoreWithoutReason reports an ignore comment that says no why.
var IgnoreWithoutReason = &Rule{
	ID: "ignore-without-reason", Severity: Warning,
	Summary: "gwlint:ignore comment gives no reason",
	Doc: Doc{
		Text: `An ignore comment hides a finding from everyone who reads the output later;
its reason is what tells them whether it still holds. Write the reason after
the rule ids:`,
		Example: `# gwlint:ignore listener-no-routes reserved for the partner launch`,
		Note:    `The comment still suppresses the finding.`,
	},
	Run: func(*Pass) {},
}

// IgnoreUnknownRule reports an ignore comment or annotation that names a
// rule that does not exist, or none at all.
var IgnoreUnknownRule = &Rule{
	ID: "ignore-unknown-rule", Severity: Warning,
	Summary: "ignore comment or annotation names an unknown rule",
	Doc: Doc{
		Text: `A gwlint:ignore comment or gwlint.io/ignore annotation names a rule id that
does not exist (a typo, or a rule that was renamed), names none, or names a
pseudo-rule, which cannot be ignored. It suppresses nothing for that id.

Fix: use an id that ` + "`gwlint rules`" + ` lists, comma-separated, no spaces:`,
		Example: `# gwlint:ignore backend-not-found,backend-port-not-found migrating in Q3`,
		Note:    `Pseudo-rules such as unused-ignore are turned off in .gwlint.yaml instead.`,
	},
	Run: func(*Pass) {},
}

// UnusedIgnore reports an ignore comment or annotation that suppressed
// nothing.
var UnusedIgnore = &Rule{
	ID: "unused-ignore", Severity: Warning,
	Summary: "ignore comment or annotation suppressed nothing",
	Doc: Doc{
		Text: `The problem it was written for is gone, or the ignore is in the wrong place:
a trailing comment applies to its own line, a comment on a line of its own to
the next line that is neither blank nor a comment, and the finding must be
reported on that line (the line gwlint prints). An annotation applies to
findings about its own object. A stale ignore would silently hide the problem
if it came back.

Fix: remove it, or move it to the line of the finding. Ignores of rules turned
off in .gwlint.yaml are not reported.`,
	},
	Run: func(*Pass) {},
}

// InvalidManifest reports a file or document that could not be read.
var InvalidManifest = &Rule{
	ID: "invalid-manifest", Severity: Error,
	Summary: "manifest cannot be read",
	Doc: Doc{
		Text: `A file is not valid YAML or JSON, a document is not a Kubernetes object
(no apiVersion or kind), names a kind that a Gateway API group does not have
(a typo such as HTTPRoutez) or a version of a Gateway API kind that no
release up to the pinned one served with the fields it has now (see
api-version-not-served), or has a field of the wrong type. Unrendered
Helm or Go templates ({{ ... }}) are the usual cause. The rest of the inputs
is still checked, but gwlint exits 2: the objects that were lost may cause or
hide other findings.

Fix: correct the file, render templates first (helm template, kustomize build),
or exclude such files in .gwlint.yaml:`,
		Example: `exclude: ["charts/**"]`,
		Note:    `It cannot be turned off or ignored.`,
	},
	Run: func(*Pass) {},
}

// MetaRules returns the pseudo-rules, sorted by id. They are not in Rules.
func MetaRules() []*Rule {
	return []*Rule{IgnoreUnknownRule, IgnoreWithoutReason, InputUnknown, InvalidManifest, UnusedIgnore}
}

func isMetaRule(id string) bool {
	for _, r := range MetaRules() {
		if r.ID == id {
			return true
		}
	}
	return false
}

// InvalidManifests turns read errors into invalid-manifest findings. An
// unknown line or column is 0.
func InvalidManifests(errs []*manifest.ReadError) []Finding {
	return readFindings(InvalidManifest, errs)
}

// readFindings are findings of rule at what reading said: a file, its
// line and column when known (else 0), and the message.
func readFindings(rule *Rule, errs []*manifest.ReadError) []Finding {
	out := make([]Finding, 0, len(errs))
	for _, e := range errs {
		out = append(out, Finding{
			Rule:     rule.ID,
			Severity: rule.Severity,
			Position: Position{File: e.File, Line: e.Pos.Line, Col: e.Pos.Col},
			Message:  e.Msg,
		})
	}
	return out
}

// Suppression says why a finding is not reported.
type Suppression struct {
	// Kind is "comment" for a gwlint:ignore comment, "annotation" for the
	// gwlint.io/ignore annotation.
	Kind string
	// Position is where the comment or annotation is.
	Position
	Reason string
}

// Suppressed is a finding that an ignore comment or annotation suppressed.
type Suppressed struct {
	Finding
	By Suppression
}

// Compare orders findings as Sort does, for slices.SortFunc.
func Compare(a, b Finding) int {
	switch {
	case less(a, b):
		return -1
	case less(b, a):
		return 1
	}
	return 0
}

// ignore is one comment or annotation, and which of its rule ids matched.
type ignore struct {
	kind   string   // "comment" or "annotation"
	pos    Position // where it is written
	target int      // comment: the line it applies to (0: none)
	object string   // the object it belongs to
	path   string   // annotation: its field path
	ids    []string
	reason string
	used   map[string]bool
}

// Suppress applies the ignore comments and annotations of the graph's
// objects to findings (the result of Run with rules) and reports the
// ignores that are malformed or suppressed nothing. It returns the findings
// still reported, with those reports, sorted; and those suppressed.
//
// rules are the rules in effect: an ignore of a rule that is not among them
// (turned off) is not reported as unused, and the pseudo-rules are reported
// with their severity there, or not at all when absent. Pseudo-rule
// findings cannot themselves be suppressed.
func Suppress(g *resolve.Graph, findings []Finding, rules []*Rule) (kept []Finding, suppressed []Suppressed) {
	enabled := map[string]*Rule{}
	for _, r := range rules {
		enabled[r.ID] = r
	}
	ignores := collectIgnores(g)
	byLine := map[Position][]*ignore{} // comments by file and target line
	byObject := map[string][]*ignore{} // annotations by file and object
	for _, ig := range ignores {
		switch {
		case ig.kind == "annotation":
			k := ig.pos.File + "\x00" + ig.object
			byObject[k] = append(byObject[k], ig)
		case ig.target > 0:
			k := Position{File: ig.pos.File, Line: ig.target}
			byLine[k] = append(byLine[k], ig)
		}
	}

	for _, f := range findings {
		var by *ignore
		if !isMetaRule(f.Rule) {
			for _, ig := range byLine[Position{File: f.File, Line: f.Line}] {
				by = ig.match(f.Rule, by)
			}
			for _, ig := range byObject[f.File+"\x00"+f.Object] {
				by = ig.match(f.Rule, by)
			}
		}
		if by == nil {
			kept = append(kept, f)
			continue
		}
		suppressed = append(suppressed, Suppressed{Finding: f, By: Suppression{Kind: by.kind, Position: by.pos, Reason: by.reason}})
	}

	report := func(r *Rule, ig *ignore, format string, args ...any) *Finding {
		if r = enabled[r.ID]; r == nil {
			return nil
		}
		kept = append(kept, Finding{
			Rule: r.ID, Severity: r.Severity, Position: ig.pos,
			Object: ig.object, Path: ig.path, Message: fmt.Sprintf(format, args...),
		})
		return &kept[len(kept)-1]
	}
	unused := func(ig *ignore, id, why string) {
		if f := report(UnusedIgnore, ig, "%s for %s suppresses nothing: %s", ig.describe(), id, why); f != nil {
			f.IgnoredRule = id
		}
	}
	for _, ig := range ignores {
		what := ig.describe()
		if len(ig.ids) == 0 {
			report(IgnoreUnknownRule, ig, "%s names no rule; write the rule ids first, then the reason", what)
			continue
		}
		if ig.kind == "comment" && ig.reason == "" {
			report(IgnoreWithoutReason, ig, "%s for %s gives no reason; say why the finding does not apply", what, strings.Join(ig.ids, ","))
		}
		for _, id := range ig.ids {
			switch {
			case isMetaRule(id):
				report(IgnoreUnknownRule, ig, "%s names %s, which cannot be ignored; turn it off in .gwlint.yaml instead", what, id)
			case Lookup(id) == nil:
				report(IgnoreUnknownRule, ig, "%s names unknown rule %q%s", what, id, didYouMean(id, Rules()))
			case enabled[id] == nil || ig.used[id]:
				// Turned off, or did its job.
			case ig.kind == "comment" && ig.target == 0:
				unused(ig, id, "no line follows it")
			case ig.kind == "comment":
				unused(ig, id, fmt.Sprintf("no such finding on line %d", ig.target))
			default:
				unused(ig, id, "no such finding about "+ig.object)
			}
		}
	}
	return Sort(kept), suppressed
}

// match records that the ignore suppresses a finding of rule, and returns
// what suppressed it first.
func (ig *ignore) match(rule string, first *ignore) *ignore {
	for _, id := range ig.ids {
		if id == rule {
			ig.used[id] = true
			if first == nil {
				return ig
			}
		}
	}
	return first
}

func (ig *ignore) describe() string {
	if ig.kind == "comment" {
		return "gwlint:ignore comment"
	}
	return IgnoreAnnotation + " annotation"
}

// collectIgnores gathers the ignore comments of every file (each object
// carries those of its whole file; an object a renderer could not place in
// its source file carries none) and the ignore annotations of every
// object, in file and line order.
func collectIgnores(g *resolve.Graph) []*ignore {
	var out []*ignore
	// The objects of a file are kept only for a file with ignore comments,
	// to find the object each applies to: one file may hold hundreds of
	// thousands.
	type fileObjects struct {
		name    string
		ignores []manifest.IgnoreDirective
		objs    []*resolve.Meta
	}
	var files []fileObjects
	index := map[string]int{} // into files, by name
	for _, obj := range g.Objects {
		m := obj.Metadata()
		if len(m.Ignores) > 0 {
			if _, seen := index[m.Source.File]; !seen {
				index[m.Source.File] = len(files)
				files = append(files, fileObjects{name: m.Source.File, ignores: m.Ignores})
			}
		}
		if v, ok := m.Annotations.Lookup(IgnoreAnnotation); ok {
			out = append(out, &ignore{
				kind: "annotation", pos: position(m, ignoreAnnotationPath), path: ignoreAnnotationPath,
				object: m.Ref.String(), ids: parseIgnore(v), used: map[string]bool{},
			})
		}
	}
	// Every object of those files, ignores or not (a rendered object not
	// found in its source carries none): most repositories have no file
	// with ignore comments, and skip this.
	if len(files) > 0 {
		for _, obj := range g.Objects {
			m := obj.Metadata()
			if i, ok := index[m.Source.File]; ok {
				files[i].objs = append(files[i].objs, m)
			}
		}
	}
	for _, f := range files {
		for _, d := range f.ignores {
			ig := &ignore{
				kind: "comment", pos: Position{File: f.name, Line: d.Line, Col: d.Col}, target: d.Target,
				ids: d.Rules, reason: d.Reason, used: map[string]bool{},
			}
			if m := objectAt(f.objs, d); m != nil {
				ig.object = m.Ref.String()
			}
			out = append(out, ig)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].pos, out[j].pos
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Line < b.Line
	})
	return out
}

// objectAt returns the object whose document holds the line an ignore
// comment applies to: the last one that starts at or before it.
func objectAt(objs []*resolve.Meta, d manifest.IgnoreDirective) *resolve.Meta {
	line := d.Target
	if line == 0 {
		line = d.Line
	}
	var best *resolve.Meta
	for _, m := range objs {
		if start := m.Source.Pos.Line; start <= line && (best == nil || start > best.Source.Pos.Line) {
			best = m
		}
	}
	return best
}

// parseIgnore reads an annotation value: rule ids separated by commas,
// with optional spaces.
func parseIgnore(v string) []string {
	var ids []string
	for _, id := range strings.Split(v, ",") {
		if id = strings.TrimSpace(id); id != "" {
			ids = append(ids, id)
		}
	}
	return ids
}

// didYouMean names the rule id among rules closest to a misspelt one, if any
// is close.
func didYouMean(id string, rules []*Rule) string {
	ids := make([]string, len(rules))
	for i, r := range rules {
		ids[i] = r.ID
	}
	if best := suggest.Closest(id, ids); best != "" {
		return " (did you mean " + best + "?)"
	}
	return ""
}
