package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// suppressFixture exercises every way an ignore can be written. Every
// listener of gw has no route, so each gets a listener-no-routes finding on
// its "- name:" line unless an ignore suppresses it.
const suppressFixture = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata:
  name: acme
spec:
  controllerName: example.com/acme
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: gw
  namespace: infra
spec:
  gatewayClassName: acme
  listeners:
  # gwlint:ignore listener-no-routes reserved for the partner launch
  - name: above
    protocol: HTTP
    port: 8001
  - name: trailing # gwlint:ignore listener-no-routes trailing, with a reason
    protocol: HTTP
    port: 8002
  # gwlint:ignore listener-no-routes

  # a blank line and a comment between the ignore and its line
  - name: no-reason
    protocol: HTTP
    port: 8003
  - name: stale
    # gwlint:ignore listener-no-routes the finding is one line up
    protocol: HTTP
    port: 8004
  - name: typo # gwlint:ignore listener-no-rotes,listener-no-routes one of two is misspelt
    protocol: HTTP
    port: 8005
  - name: meta # gwlint:ignore unused-ignore pseudo-rules cannot be ignored
    protocol: HTTP
    port: 8006
  - name: empty # gwlint:ignore
    protocol: HTTP
    port: 8007
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: annotated
  namespace: infra
  annotations:
    gwlint.io/ignore: listener-no-routes
spec:
  gatewayClassName: acme
  listeners:
  - name: http
    protocol: HTTP
    port: 9001
---
apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata:
  name: stale-grant
  namespace: infra
  annotations:
    gwlint.io/ignore: "referencegrant-unused, backend-not-found,backend-not-fuond"
spec:
  from:
  - group: gateway.networking.k8s.io
    kind: HTTPRoute
    namespace: app
  to:
  - group: ""
    kind: Service
# gwlint:ignore listener-no-routes at the end, with nothing after it
`

// lineOf returns the 1-based line of the fixture that contains s, or
// that is s (trimmed) when s ends with a newline.
func lineOf(t *testing.T, s string) int {
	t.Helper()
	exact, whole := strings.CutSuffix(s, "\n")
	for i, l := range strings.Split(suppressFixture, "\n") {
		if (whole && strings.TrimSpace(l) == strings.TrimSpace(exact)) || (!whole && strings.Contains(l, s)) {
			return i + 1
		}
	}
	t.Fatalf("fixture has no line with %q", s)
	return 0
}

func suppressGraph(t *testing.T) *resolve.Graph {
	t.Helper()
	file := filepath.Join(t.TempDir(), "gateways.yaml")
	if err := os.WriteFile(file, []byte(suppressFixture), 0o644); err != nil {
		t.Fatal(err)
	}
	in := resolve.Load([]string{file}, nil, resolve.Options{Implementations: implementations.All()})
	for _, err := range in.Errors {
		t.Fatal(err)
	}
	return resolve.Resolve(in, resolve.Options{Implementations: implementations.All()})
}

// describe renders findings as "line rule severity: message".
func describe(fs []Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, fmt.Sprintf("%d %s %s: %s", f.Line, f.Rule, f.Severity, f.Message))
	}
	return out
}

func TestSuppress(t *testing.T) {
	g := suppressGraph(t)
	rules := (*Config)(nil).Rules()
	kept, suppressed := Suppress(g, Run(g, rules), rules)

	var gotSuppressed []string
	for _, s := range suppressed {
		gotSuppressed = append(gotSuppressed, fmt.Sprintf("%d %s by %s at %d (%s)", s.Line, s.Rule, s.By.Kind, s.By.Line, s.By.Reason))
	}
	wantSuppressed := []string{
		fmt.Sprintf("%d listener-no-routes by comment at %d (reserved for the partner launch)", lineOf(t, "name: above"), lineOf(t, "partner launch")),
		fmt.Sprintf("%d listener-no-routes by comment at %d (trailing, with a reason)", lineOf(t, "name: trailing"), lineOf(t, "name: trailing")),
		fmt.Sprintf("%d listener-no-routes by comment at %d ()", lineOf(t, "name: no-reason"), lineOf(t, "# gwlint:ignore listener-no-routes\n")),
		fmt.Sprintf("%d listener-no-routes by comment at %d (one of two is misspelt)", lineOf(t, "name: typo"), lineOf(t, "name: typo")),
		fmt.Sprintf("%d listener-no-routes by annotation at %d ()", lineOf(t, "- name: http"), lineOf(t, "gwlint.io/ignore: listener-no-routes")),
		fmt.Sprintf("%d referencegrant-unused by annotation at %d ()", lineOf(t, "backend-not-fuond")+1, lineOf(t, "referencegrant-unused, backend")),
	}
	slices.Sort(gotSuppressed)
	slices.Sort(wantSuppressed)
	if !slices.Equal(gotSuppressed, wantSuppressed) {
		t.Errorf("suppressed\n got %s\nwant %s", strings.Join(gotSuppressed, "\n     "), strings.Join(wantSuppressed, "\n     "))
	}

	want := []string{
		fmt.Sprintf("%d ignore-without-reason warning: gwlint:ignore comment for listener-no-routes gives no reason; say why the finding does not apply",
			lineOf(t, "# gwlint:ignore listener-no-routes\n")),
		fmt.Sprintf("%d listener-no-routes info: Gateway infra/gw listener stale (8004/HTTP) has no attached routes", lineOf(t, "name: stale")),
		fmt.Sprintf("%d unused-ignore warning: gwlint:ignore comment for listener-no-routes suppresses nothing: no such finding on line %d",
			lineOf(t, "one line up"), lineOf(t, "one line up")+1),
		fmt.Sprintf("%d ignore-unknown-rule warning: gwlint:ignore comment names unknown rule \"listener-no-rotes\" (did you mean listener-no-routes?)", lineOf(t, "name: typo")),
		// On one line, the listener's key comes before the trailing comment.
		fmt.Sprintf("%d listener-no-routes info: Gateway infra/gw listener meta (8006/HTTP) has no attached routes", lineOf(t, "name: meta")),
		fmt.Sprintf("%d ignore-unknown-rule warning: gwlint:ignore comment names unused-ignore, which cannot be ignored; turn it off in .gwlint.yaml instead", lineOf(t, "name: meta")),
		fmt.Sprintf("%d listener-no-routes info: Gateway infra/gw listener empty (8007/HTTP) has no attached routes", lineOf(t, "name: empty")),
		fmt.Sprintf("%d ignore-unknown-rule warning: gwlint:ignore comment names no rule; write the rule ids first, then the reason", lineOf(t, "name: empty")),
		fmt.Sprintf("%d ignore-unknown-rule warning: gwlint.io/ignore annotation names unknown rule \"backend-not-fuond\" (did you mean backend-not-found?)", lineOf(t, "referencegrant-unused, backend")),
		fmt.Sprintf("%d unused-ignore warning: gwlint.io/ignore annotation for backend-not-found suppresses nothing: no such finding about ReferenceGrant infra/stale-grant", lineOf(t, "referencegrant-unused, backend")),
		fmt.Sprintf("%d unused-ignore warning: gwlint:ignore comment for listener-no-routes suppresses nothing: no line follows it", lineOf(t, "at the end")),
	}
	if got := describe(kept); !slices.Equal(got, want) {
		t.Errorf("findings\n got %s\nwant %s", strings.Join(got, "\n     "), strings.Join(want, "\n     "))
	}

	// Pseudo-rule findings name the object the ignore belongs to, and
	// an annotation's position is its key.
	for _, f := range kept {
		if f.Rule == UnusedIgnore.ID && strings.Contains(f.Message, "annotation") {
			if f.Object != "ReferenceGrant infra/stale-grant" || f.Path != "metadata.annotations[gwlint.io/ignore]" || f.Col != 5 {
				t.Errorf("annotation finding at %+v, object %q, path %q", f.Position, f.Object, f.Path)
			}
		}
		if f.Rule == IgnoreWithoutReason.ID && f.Object != "Gateway infra/gw" {
			t.Errorf("comment finding names object %q, want Gateway infra/gw", f.Object)
		}
	}

	// An unused-ignore finding carries the rule id it is about, and only
	// it does.
	var ignored []string
	for _, f := range kept {
		if f.IgnoredRule != "" || f.Rule == UnusedIgnore.ID {
			ignored = append(ignored, f.Rule+" "+f.IgnoredRule)
		}
	}
	wantIgnored := []string{"unused-ignore listener-no-routes", "unused-ignore backend-not-found", "unused-ignore listener-no-routes"}
	if !slices.Equal(ignored, wantIgnored) {
		t.Errorf("ignored rules\n got %s\nwant %s", strings.Join(ignored, "\n     "), strings.Join(wantIgnored, "\n     "))
	}
}

func TestSuppressFollowsConfig(t *testing.T) {
	g := suppressGraph(t)
	cfg, err := ParseConfig([]byte(`rules:
  backend-not-found: off       # its ignore is then not unused
  unused-ignore: off
  ignore-without-reason: error
`), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules := cfg.Rules()
	kept, _ := Suppress(g, Run(g, rules), rules)
	for _, f := range kept {
		switch f.Rule {
		case UnusedIgnore.ID:
			t.Errorf("unused-ignore is off but reported: %s", f.Message)
		case IgnoreWithoutReason.ID:
			if f.Severity != Error {
				t.Errorf("ignore-without-reason reported as %s, configured error", f.Severity)
			}
		}
	}
	if !slices.ContainsFunc(kept, func(f Finding) bool { return f.Rule == IgnoreWithoutReason.ID }) {
		t.Error("ignore-without-reason not reported")
	}
}

// TestSuppressNeverTouchesPseudoRules: a finding of a pseudo-rule is never
// suppressed, even by an ignore on its line that names it.
func TestSuppressNeverTouchesPseudoRules(t *testing.T) {
	g := suppressGraph(t)
	line := lineOf(t, "name: meta")
	var file string
	for _, o := range g.Objects {
		file = o.Metadata().Source.File
	}
	findings := []Finding{{Rule: UnusedIgnore.ID, Severity: Warning, Position: Position{File: file, Line: line, Col: 5}, Message: "x"}}
	rules := (*Config)(nil).Rules()
	kept, suppressed := Suppress(g, findings, rules)
	if len(suppressed) != 0 || !slices.ContainsFunc(kept, func(f Finding) bool { return f.Message == "x" }) {
		t.Errorf("a pseudo-rule finding was suppressed: %v", suppressed)
	}
}

func TestInvalidManifests(t *testing.T) {
	got := InvalidManifests([]*manifest.ReadError{
		{File: "a.yaml", Pos: manifest.Pos{Line: 3, Col: 1}, Msg: "missing \"kind\""},
		{File: "b.yaml", Msg: "permission denied"},
	})
	want := []Finding{
		{Rule: "invalid-manifest", Severity: Error, Position: Position{File: "a.yaml", Line: 3, Col: 1}, Message: "missing \"kind\""},
		{Rule: "invalid-manifest", Severity: Error, Position: Position{File: "b.yaml"}, Message: "permission denied"},
	}
	if !slices.EqualFunc(got, want, func(a, b Finding) bool { return fmt.Sprint(a) == fmt.Sprint(b) }) {
		t.Errorf("InvalidManifests = %+v, want %+v", got, want)
	}
}

// A file's ignore comments hold when its first object carries none, as a
// Kustomize build leaves an object it cannot place in its source file.
func TestSuppressWhenFirstObjectHasNoIgnores(t *testing.T) {
	objs, errs := manifest.Parse("gateways.yaml", []byte(suppressFixture))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	objs[0].Ignores = nil
	g := resolve.Resolve(resolve.LoadObjects(objs, nil, resolve.Options{Implementations: implementations.All()}), resolve.Options{Implementations: implementations.All()})
	rules := (*Config)(nil).Rules()
	_, suppressed := Suppress(g, Run(g, rules), rules)
	if len(suppressed) != 6 {
		t.Errorf("%d findings suppressed, want the 6 of TestSuppress", len(suppressed))
	}
}
