package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// Fixtures: testdata/<rule-id>/*.yaml, loaded together with
// testdata/base.yaml, state their expectations inline, analysistest-style:
//
//	- name: web-v3 # want: backend-not-found "Service app/web-v3 not found"
//
// Every finding of the rule must be wanted on its line and every want must
// be matched. Files named ok*.yaml hold what the rule must not flag. The
// fixtures are linted under the standard channel, those in an experimental/
// subdirectory under the experimental channel, and each file of an alone/
// subdirectory by itself, without base.yaml: a repository's files with no
// GatewayClass among them.

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
	experimental, _ := filepath.Glob(filepath.Join(dir, experimentalDir, "*.yaml"))
	alone, _ := filepath.Glob(filepath.Join(dir, aloneDir, "*.yaml"))
	files = append(append(files, experimental...), alone...)
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

// experimentalDir holds a rule's fixtures for the experimental channel;
// aloneDir those linted one file at a time without base.yaml.
const (
	experimentalDir = "experimental"
	aloneDir        = "alone"
)

// lintDir lints a fixture directory with base.yaml, its experimental
// subdirectory under the experimental channel, and each file of its alone
// subdirectory by itself. The directory's
// options.yaml, if any, sets the resolver's options (strictRefs,
// ownedNamespaces); being no Kubernetes object, the reader skips it.
func lintDir(t *testing.T, dir string) []Finding {
	t.Helper()
	var opts resolve.Options
	if data, err := os.ReadFile(filepath.Join(dir, "options.yaml")); err == nil {
		if err := yaml.UnmarshalStrict(data, &opts); err != nil {
			t.Fatalf("%s/options.yaml: %v", dir, err)
		}
	}
	findings := lintFiles(t, opts, crd.Standard, withBase(dir))
	if sub := filepath.Join(dir, experimentalDir); isDir(sub) {
		findings = append(findings, lintFiles(t, opts, crd.Experimental, withBase(sub))...)
	}
	alone, _ := filepath.Glob(filepath.Join(dir, aloneDir, "*.yaml"))
	for _, f := range alone {
		findings = append(findings, lintFiles(t, opts, crd.Standard, []string{f})...)
	}
	return findings
}

// withBase is base.yaml and the fixtures directly in dir.
func withBase(dir string) []string {
	files, _ := filepath.Glob(filepath.Join(dir, "*.yaml"))
	return append([]string{"testdata/base.yaml"}, files...)
}

// lintFiles lints files under the channel ch.
func lintFiles(t *testing.T, opts resolve.Options, ch crd.Channel, files []string) []Finding {
	t.Helper()
	// As gwlint check resolves: every implementation's reading.
	opts.Validate, opts.Channel, opts.Implementations = true, ch, implementations.All()
	in := resolve.Load(files, nil, opts)
	for _, err := range in.Errors {
		t.Fatalf("fixture does not load: %v", err)
	}
	return Run(resolve.Resolve(in, opts), Rules())
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
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
		// testdata/fuzz is go test's corpus of FuzzResolve's failures.
		if e.IsDir() && !seen[e.Name()] && e.Name() != "fuzz" {
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
	d := r.Doc
	if len(d.Text) < 80 || !strings.Contains(d.Text, "\n") {
		t.Errorf("%s: doc text must say why it matters and how to fix it", r.ID)
	}
	for _, s := range []string{d.Text, d.Example, d.Note} {
		if s != strings.TrimSpace(s) {
			t.Errorf("%s: doc parts must not start or end with blank space: %q", r.ID, s)
		}
	}
	// The example is data: an indented block in the prose would be
	// rendered as prose, not as YAML.
	if indentedBlock.MatchString(d.Text) || indentedBlock.MatchString(d.Note) {
		t.Errorf("%s: doc text holds an indented example; put it in Doc.Example", r.ID)
	}
	if d.Note != "" && d.Example == "" {
		t.Errorf("%s: doc has a note but no example for it to follow", r.ID)
	}
	switch _, prose := fixInProse[r.ID]; {
	case d.Example == "" && !prose:
		t.Errorf("%s: doc needs an example of the fix (or an entry in fixInProse)", r.ID)
	case d.Example != "" && prose:
		t.Errorf("%s: doc has an example; remove it from fixInProse", r.ID)
	case d.Example == "" && strings.HasSuffix(d.Text, ":"):
		t.Errorf("%s: doc text announces an example it does not have", r.ID)
	}
}

// indentedBlock is a line indented as a code block after a blank line.
var indentedBlock = regexp.MustCompile(`\n\n    `)

// fixInProse lists the rules and pseudo-rules whose doc says the fix in
// words, without an example: every other one shows it.
var fixInProse = map[string]bool{
	"backend-unsupported-kind":      true,
	"gatewayclass-not-found":        true,
	"input-unknown":                 true,
	"listener-certificate-expired":  true,
	"listener-conflict":             true,
	"listener-invalid-route-kinds":  true,
	"listener-no-routes":            true,
	"listener-unsupported-protocol": true,
	"mesh-hostnames-ignored":        true,
	"mesh-route-type-conflict":      true,
	"mesh-rule-to-parent":           true,
	"object-duplicate":              true,
	"parentref-hostname-mismatch":   true,
	"referencegrant-unused":         true,
	"rule-all-weights-zero":         true,
	"rule-name-duplicate":           true,
	"unused-ignore":                 true,
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

// TestUnservedVersionIsOneFinding: an object in a version the channel does
// not serve is read as its successor and resolved, so the version is the
// one finding about it (no crd-validation, no deprecated-api-version, no
// finding of a reference it makes or permits).
func TestUnservedVersionIsOneFinding(t *testing.T) {
	for _, ch := range []crd.Channel{crd.Standard, crd.Experimental} {
		in := resolve.Load([]string{"testdata/base.yaml", "testdata/api-version-not-served/retired.yaml"}, nil, resolve.Options{Validate: true, Channel: ch})
		var got []string
		for _, f := range Run(resolve.Resolve(in, resolve.Options{}), Rules()) {
			got = append(got, fmt.Sprintf("%d:%d %s %s", f.Line, f.Col, f.Rule, f.Path))
		}
		want := "2:1 api-version-not-served apiVersion; 26:1 api-version-not-served apiVersion; 56:1 api-version-not-served apiVersion"
		if strings.Join(got, "; ") != want {
			t.Errorf("channel %d: findings %q, want %q", ch, got, want)
		}
	}
}

// TestRefusedFieldIsOneFinding: a value the CRD validation refuses is
// crd-validation's finding alone, never also another rule's about the same
// field (the zero or nonsense value it leaves behind is no evidence).
func TestRefusedFieldIsOneFinding(t *testing.T) {
	for _, tc := range []struct {
		name, doc string
		want      string // "line rule" of every finding, sorted
	}{
		{"ReferenceGrant without from", `apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata: {name: nofrom, namespace: app}
spec:
  to: [{group: "", kind: Service}]`, "4 crd-validation"},
		{"ReferenceGrant without to", `apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata: {name: noto, namespace: app}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: infra}]`, "4 crd-validation"},
		{"backendRef kind and group the API refuses", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: kinds, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [kinds.example.com]
  rules:
  - backendRefs:
    - {name: web, port: 8080, kind: "Serv ice"}
    - {name: web, port: 8080, group: UPPER_case}`, "9 crd-validation; 10 crd-validation"},
		{"backendRef port out of range", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: port, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [port.example.com]
  rules:
  - backendRefs: [{name: web, port: 70000}]`, "8 crd-validation"},
		// Still two problems, still two findings: a valid but unknown kind.
		{"an unsupported kind the API admits", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: bucket, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [bucket.example.com]
  rules:
  - backendRefs: [{name: web, port: 8080, weight: 1000001}, {name: b, group: example.com, kind: Bucket}]`,
			"8 crd-validation; 8 backend-unsupported-kind"},
		{"a rule on a list refuses the list, not what is inside it", `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: lists, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - {name: e, protocol: HTTPS, port: 443, hostname: e.example.com, tls: {mode: Passthrough}}
  - {name: g, protocol: HTTPS, port: 443, hostname: g.example.com}`,
			"6 crd-validation; 8 listener-certificate-invalid"},
	} {
		in := resolve.Load([]string{"testdata/base.yaml", "-"}, strings.NewReader(tc.doc), resolve.Options{Validate: true})
		var got []string
		for _, f := range Run(resolve.Resolve(in, resolve.Options{}), Rules()) {
			if f.File == "<stdin>" {
				got = append(got, fmt.Sprintf("%d %s", f.Line, f.Rule))
			}
		}
		if strings.Join(got, "; ") != tc.want {
			t.Errorf("%s: findings %q, want %q", tc.name, got, tc.want)
		}
	}
}

// TestInferredImplementation lints GitOps-like files alone (no base.yaml,
// whose GatewayClass would turn inference off): the implementation is
// inferred and named with its evidence, and with no evidence an
// implementation's backend kind is neither unsupported nor HTTP 500.
func TestInferredImplementation(t *testing.T) {
	for file, want := range map[string][]string{
		"inferred.yaml":               {`feature-unsupported:HTTPRoute media/radarr needs HTTPRouteRequestTimeout, which nginx-gateway-fabric@v2.6.0 (inferred from 1 object of gateway.nginx.org) does not support (implementations that do: `},
		"implementation-unknown.yaml": nil,
	} {
		path := filepath.Join("testdata/feature-unsupported/alone", file)
		in := resolve.Load([]string{path}, nil, resolve.Options{})
		var got []string
		for _, f := range Run(resolve.Resolve(in, resolve.Options{}), Rules()) {
			if f.Severity != Info {
				got = append(got, f.Rule+":"+f.Message)
			}
		}
		if len(got) != len(want) {
			t.Errorf("%s: findings %q, want %d", file, got, len(want))
			continue
		}
		for i := range want {
			if !strings.HasPrefix(got[i], want[i]) {
				t.Errorf("%s: %q, want %q...", file, got[i], want[i])
			}
		}
	}
}
