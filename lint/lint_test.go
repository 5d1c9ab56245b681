package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
)

// Fixtures: testdata/<rule-id>/*.yaml, loaded together with
// testdata/base.yaml, state their expectations inline, analysistest-style:
//
//	- name: web-v3 # want: backend-not-found "Service app/web-v3 not found"
//
// Every finding of the rule must be wanted on its line and every want must
// be matched. Files named ok*.yaml hold what the rule must not flag.

var wantRE = regexp.MustCompile(`#\s*want:\s*(.*)$`)
var expectationRE = regexp.MustCompile(`([a-z0-9-]+)\s+"((?:[^"\\]|\\.)*)"`)

type expectation struct {
	file    string
	line    int
	rule    string
	pattern *regexp.Regexp
	matched bool
}

func readExpectations(t *testing.T, dir string) []*expectation {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	var out []*expectation
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(data), "\n") {
			m := wantRE.FindStringSubmatch(line)
			if m == nil {
				continue
			}
			for _, e := range expectationRE.FindAllStringSubmatch(m[1], -1) {
				pattern := strings.ReplaceAll(e[2], `\"`, `"`)
				out = append(out, &expectation{file: f, line: i + 1, rule: e[1], pattern: regexp.MustCompile(pattern)})
			}
		}
	}
	return out
}

func lintDir(t *testing.T, dir string) []Finding {
	t.Helper()
	in := resolve.Load([]string{"testdata/base.yaml", dir}, nil, resolve.Options{Validate: true})
	for _, err := range in.Errors {
		t.Fatalf("fixture does not load: %v", err)
	}
	return Run(resolve.Resolve(in, resolve.Options{}), Rules())
}

func TestRuleFixtures(t *testing.T) {
	for _, rule := range Rules() {
		t.Run(rule.ID, func(t *testing.T) {
			dir := filepath.Join("testdata", rule.ID)
			wants := readExpectations(t, dir)
			for _, f := range lintDir(t, dir) {
				if f.Rule != rule.ID {
					continue
				}
				found := false
				for _, w := range wants {
					if w.rule == f.Rule && w.line == f.Line && filepath.Clean(w.file) == filepath.Clean(f.File) && w.pattern.MatchString(f.Message) {
						w.matched, found = true, true
					}
				}
				if !found {
					t.Errorf("%s: unexpected finding: %s [%s]", f.Position, f.Message, f.Rule)
				}
			}
			for _, w := range wants {
				if w.rule == rule.ID && !w.matched {
					t.Errorf("%s:%d: no %s finding matching %q", w.file, w.line, w.rule, w.pattern)
				}
			}
		})
	}
}

// TestBaseIsClean keeps the shared fixture world free of problems, so every
// finding in a rule's fixtures comes from that rule's files.
func TestBaseIsClean(t *testing.T) {
	in := resolve.Load([]string{"testdata/base.yaml"}, nil, resolve.Options{Validate: true})
	for _, f := range Run(resolve.Resolve(in, resolve.Options{}), Rules()) {
		t.Errorf("base.yaml: %s: %s [%s]", f.Position, f.Message, f.Rule)
	}
}

func TestRulesAreDocumentedAndTested(t *testing.T) {
	idRE := regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
	seen := map[string]bool{}
	prev := ""
	for _, r := range Rules() {
		switch {
		case !idRE.MatchString(r.ID):
			t.Errorf("rule id %q is not kebab-case", r.ID)
		case seen[r.ID]:
			t.Errorf("rule id %q is listed twice", r.ID)
		case r.ID < prev:
			t.Errorf("Rules() is not sorted by id: %q after %q", r.ID, prev)
		}
		seen[r.ID], prev = true, r.ID
		checkRuleDocs(t, r)
		if r.Run == nil {
			t.Errorf("%s: no check", r.ID)
		}
		dir := filepath.Join("testdata", r.ID)
		wanted := 0
		for _, w := range readExpectations(t, dir) {
			if w.rule == r.ID {
				wanted++
			}
		}
		if wanted == 0 {
			t.Errorf("%s: no fixture in %s wants a finding", r.ID, dir)
		}
		if oks, _ := filepath.Glob(filepath.Join(dir, "ok*.yaml")); len(oks) == 0 {
			t.Errorf("%s: no ok*.yaml fixture of what it must not flag", r.ID)
		}
	}
	entries, _ := os.ReadDir("testdata")
	for _, e := range entries {
		if e.IsDir() && !seen[e.Name()] {
			t.Errorf("testdata/%s has no rule", e.Name())
		}
	}
}

// checkRuleDocs holds a rule (or pseudo-rule) to the documentation every
// rule needs: a one-line summary and a doc that explains and shows the fix.
func checkRuleDocs(t *testing.T, r *Rule) {
	t.Helper()
	if r.Summary == "" || len(r.Summary) > 60 || strings.Contains(r.Summary, "\n") {
		t.Errorf("%s: summary must be one line of at most 60 characters: %q", r.ID, r.Summary)
	}
	if len(r.Doc) < 80 || !strings.Contains(r.Doc, "\n") {
		t.Errorf("%s: doc must say why it matters and how to fix it", r.ID)
	}
}

func TestFindingsAreSortedAndUnique(t *testing.T) {
	fs := []Finding{
		{Rule: "b", Position: Position{File: "a.yaml", Line: 2, Col: 1}, Message: "x"},
		{Rule: "a", Position: Position{File: "a.yaml", Line: 2, Col: 1}, Message: "x"},
		{Rule: "a", Position: Position{File: "a.yaml", Line: 1, Col: 5}, Message: "x"},
	}
	rules := []*Rule{{ID: "t", Run: func(p *Pass) { p.findings = append(p.findings, fs...); p.findings = append(p.findings, fs[0]) }}}
	got := Run(&resolve.Graph{}, rules)
	var keys []string
	for _, f := range got {
		keys = append(keys, fmt.Sprintf("%d:%s", f.Line, f.Rule))
	}
	if strings.Join(keys, " ") != "1:a 2:a 2:b" {
		t.Errorf("findings = %v, want sorted by position then rule, duplicates dropped", keys)
	}
}
