package lint

import (
	"fmt"
	"sort"

	"github.com/gwlint/gwlint/internal/parallel"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Severity orders findings by how much they matter.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning":
		return Warning, nil
	case "info":
		return Info, nil
	}
	return 0, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// Rule is one check.
type Rule struct {
	// ID is stable forever, kebab-case.
	ID       string
	Severity Severity
	// Summary is one line of at most 60 characters.
	Summary string
	// Doc says why it matters and how to fix it, with a before/after
	// example kept as data.
	Doc Doc
	// ReportsViolations marks the rules that report what the API server
	// refuses (CRD violations): they are the one finding at a refused
	// field, where every other rule stays silent.
	ReportsViolations bool
	Run               func(*Pass)
}

// Position is a place in a manifest.
type Position struct {
	File string
	Line int
	Col  int
}

func (p Position) String() string { return fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col) }

// Related is another place that explains a finding, such as the listener
// a parentRef failed to match.
type Related struct {
	Position
	Message string
}

// Finding is one problem found by a rule. It has no encoding of its own:
// each machine format (gwlint's JSON, SARIF) maps it to its own versioned
// field names.
type Finding struct {
	Rule     string
	Severity Severity
	Position
	// Object is the object the finding is about: "HTTPRoute ns/name".
	Object string
	// Path is the field path: "spec.rules[0].backendRefs[1].port".
	Path    string
	Message string
	Related []Related
	// IgnoredRule is, in an unused-ignore finding, the rule id the ignore
	// names and suppressed no finding of: a command that lints several
	// worlds drops the finding when another world used the ignore for it.
	IgnoredRule string
}

// Pass is what a rule's Run sees: the graph and a way to report.
type Pass struct {
	Graph    *resolve.Graph
	rule     *Rule
	findings []Finding
}

// Report records a finding about obj at path, with related locations
// built with Relate. A field that crd-validation reports is its finding
// alone: the API server refuses the value, so another rule's finding at
// that field, or inside it, is the same problem told twice (a backendRef
// port of 70000 is not also a port the Service lacks).
func (p *Pass) Report(obj *resolve.Meta, path string, related []Related, format string, args ...any) {
	if !p.rule.ReportsViolations && refusedField(obj, path) {
		return
	}
	p.findings = append(p.findings, Finding{
		Rule:     p.rule.ID,
		Severity: p.rule.Severity,
		Position: position(obj, path),
		Object:   obj.Ref.String(),
		Path:     path,
		Message:  fmt.Sprintf(format, args...),
		Related:  related,
	})
}

// ReportAt records a finding about no object, at a place in the inputs
// that says how the cluster is set up (a CRD, a remote entry).
func (p *Pass) ReportAt(file string, pos manifest.Pos, format string, args ...any) {
	p.findings = append(p.findings, Finding{
		Rule:     p.rule.ID,
		Severity: p.rule.Severity,
		Position: Position{File: file, Line: pos.Line, Col: pos.Col},
		Message:  fmt.Sprintf(format, args...),
	})
}

// refusedField reports whether crd-validation reports a violation of obj
// at path. Only at path: a violation of a list or object (a CEL rule on
// spec.listeners, say) is one problem, and the findings about the fields
// inside it are others.
func refusedField(obj *resolve.Meta, path string) bool {
	for _, v := range obj.Violations {
		if !schemaViolation(v) || v.Message == portlessServiceMessage {
			continue // not crd-validation's to report
		}
		if path == v.Path {
			return true
		}
	}
	return false
}

// ReportValue is Report pointing at the value of path rather than its key.
func (p *Pass) ReportValue(obj *resolve.Meta, path string, related []Related, format string, args ...any) {
	n := len(p.findings)
	p.Report(obj, path, related, format, args...)
	if pos, ok := obj.Positions.ValuePos(path); ok && len(p.findings) > n {
		f := &p.findings[len(p.findings)-1]
		f.Line, f.Col = pos.Line, pos.Col
	}
}

// Relate points at path in obj as a related location.
func Relate(obj *resolve.Meta, path, format string, args ...any) Related {
	return Related{Position: position(obj, path), Message: fmt.Sprintf(format, args...)}
}

func position(obj *resolve.Meta, path string) Position {
	pos := obj.Position(path)
	return Position{File: obj.Source.File, Line: pos.Line, Col: pos.Col}
}

// Run applies every rule to the graph and returns the findings sorted by
// file, line, column, rule and message, without duplicates.
//
// Rules only read the graph, so they run concurrently; their findings are
// gathered in rule order before sorting, so the output never depends on
// scheduling.
func Run(g *resolve.Graph, rules []*Rule) []Finding {
	passes := make([]*Pass, len(rules))
	for i, r := range rules {
		passes[i] = &Pass{Graph: g, rule: r}
	}
	parallel.For(len(rules), func(i int) { rules[i].Run(passes[i]) })
	var all []Finding
	for _, p := range passes {
		all = append(all, p.findings...)
	}
	return Sort(all)
}

// Sort sorts findings by file, line, column, rule and message, and drops
// duplicates.
func Sort(findings []Finding) []Finding {
	sort.SliceStable(findings, func(i, j int) bool { return less(findings[i], findings[j]) })
	out := findings[:0]
	for i, f := range findings {
		if i > 0 && sameFinding(findings[i-1], f) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func less(a, b Finding) bool {
	switch {
	case a.File != b.File:
		return a.File < b.File
	case a.Line != b.Line:
		return a.Line < b.Line
	case a.Col != b.Col:
		return a.Col < b.Col
	case a.Rule != b.Rule:
		return a.Rule < b.Rule
	default:
		return a.Message < b.Message
	}
}

func sameFinding(a, b Finding) bool {
	return a.Position == b.Position && a.Rule == b.Rule && a.Message == b.Message
}
