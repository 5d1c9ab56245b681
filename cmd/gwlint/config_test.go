package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// writeTree writes files (path → content) under dir; a path ending in /
// is an empty directory.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if strings.HasSuffix(name, "/") {
			if err := os.MkdirAll(p, 0o755); err != nil {
				t.Fatal(err)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// A route in the default namespace whose parent Gateway is outside the
// inputs (external, unless strictRefs) and whose second backend is
// missing.
const unnamespacedRoute = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  ports:
  - port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: shared
    namespace: infra
  rules:
  - backendRefs:
    - name: web
      port: 8080
    - name: web-v2
      port: 8080
`

const brokenYAML = "kind: [\n"

// TestConfigDiscovery runs gwlint from inside a repository, which is how
// pre-commit and CI run it. These tests change directory, so they do not
// run in parallel.
func TestConfigDiscovery(t *testing.T) {
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		// Above the repository: never read.
		".gwlint.yaml": "bogus: true\n",
		"repo/.git/":   "",
		"repo/.gwlint.yaml": `# backend-not-found is only a warning here
rules:
  backend-not-found: warning
namespace: shop
ownedNamespaces: [shop]
exclude:
- "generated/**"
- "**/skip.yaml"
`,
		"repo/deploy/app/route.yaml":  unnamespacedRoute,
		"repo/deploy/app/skip.yaml":   brokenYAML,
		"repo/generated/broken.yaml":  brokenYAML,
		"other/.git/":                 "",
		"other/route.yaml":            unnamespacedRoute,
		"bad/.git/":                   "",
		"bad/.gwlint.yaml":            "rules:\n  backend-not-fund: off\n",
		"bad/deploy/route.yaml":       unnamespacedRoute,
		"strict/.git/":                "",
		"strict/.gwlint.yaml":         "strictRefs: true\nfailOn: warning\n",
		"strict/route.yaml":           unnamespacedRoute,
		"repo/deploy/app/nested/x.md": "not a manifest",
	})

	tests := []struct {
		name      string
		dir       string // relative to root
		args      []string
		code      int
		stdoutHas []string
		stderrHas string
	}{
		{name: "found two levels up", dir: "repo/deploy/app", args: []string{"check"}, code: 0,
			stdoutHas: []string{
				"route.yaml:21:7: warning: Service shop/web-v2 not found", // severity and namespace from the config
				"in 1 file (2 objects)",                                   // skip.yaml is excluded
			}},
		{name: "exclude applies to walked directories", dir: "repo", args: []string{"check"}, code: 0,
			stdoutHas: []string{"deploy/app/route.yaml:21:7: warning:", "in 1 file (2 objects)"}},
		{name: "exclude applies to named files", dir: "repo", args: []string{"check", "generated/broken.yaml", "deploy/app/skip.yaml"}, code: 0,
			stdoutHas: []string{"in 0 files (0 objects)"}},
		{name: "flags override the config", dir: "repo/deploy/app", args: []string{"check", "-n", "web", "--fail-on", "warning", "-o", "json"}, code: 1,
			stdoutHas: []string{`"object": "HTTPRoute web/web"`, `"severity": "warning"`}},
		{name: "--no-config", dir: "repo/deploy/app", args: []string{"check", "--no-config"}, code: 2,
			stdoutHas: []string{"route.yaml:21:7: warning: Service default/web-v2 is not among the inputs", "skip.yaml:1: error:"}},
		{name: "--config", dir: "other", args: []string{"check", "--config", "../repo/.gwlint.yaml"}, code: 0,
			stdoutHas: []string{"warning: Service shop/web-v2 not found"}},
		{name: "stops at .git", dir: "other", args: []string{"check"}, code: 0,
			stdoutHas: []string{"warning: Service default/web-v2 is not among the inputs"}},
		{name: "config error names the file and line", dir: "bad/deploy", args: []string{"check"}, code: 2,
			stderrHas: `Error: ../.gwlint.yaml:2:3: unknown rule "backend-not-fund" (did you mean backend-not-found?) (see gwlint rules)`},
		{name: "found from the path, not the working directory", dir: ".", args: []string{"check", "repo/deploy/app"}, code: 0,
			stdoutHas: []string{"repo/deploy/app/route.yaml:21:7: warning: Service shop/web-v2 not found", "in 1 file (2 objects)"}},
		{name: "found from a named file", dir: "other", args: []string{"check", "../repo/deploy/app/route.yaml", "../repo/deploy/app/skip.yaml"}, code: 0,
			stdoutHas: []string{"warning: Service shop/web-v2 not found", "in 1 file (2 objects)"}},
		{name: "paths with different configs", dir: ".", args: []string{"check", "repo/deploy", "strict"}, code: 2,
			stderrHas: "Error: repo/deploy is configured by repo/.gwlint.yaml but strict by strict/.gwlint.yaml: lint them in separate runs, or choose one with --config"},
		{name: "a path without one shares it", dir: ".", args: []string{"check", "other", "repo/deploy"}, code: 0,
			stdoutHas: []string{"repo/deploy/app/route.yaml:21:7: warning: Service shop/web-v2 not found", "in 2 files (4 objects)"}},
		{name: "strictRefs and failOn from the config", dir: "strict", args: []string{"check"}, code: 1,
			stdoutHas: []string{"error: Gateway infra/shared not found"}},
		{name: "--strict-refs=false overrides strictRefs", dir: "strict", args: []string{"check", "--strict-refs=false"}, code: 1,
			stdoutHas: []string{"0 errors, 1 warning"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(filepath.Join(root, filepath.FromSlash(tt.dir)))
			stdout, stderr, code := clitest.Run(newRootCmd, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			for _, want := range tt.stdoutHas {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout does not contain %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, tt.stderrHas) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderrHas, stderr)
			}
		})
	}
}

// TestShowConfig: every key with its value and source, from the
// configuration the path finds and the flags given.
func TestShowConfig(t *testing.T) {
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		{Name: "show-config", Args: []string{"check", "--show-config", "-n", "shop", "--implementation", "istio", "testdata/repo"}, Code: 0},
		{Name: "show-config-json", Args: []string{"check", "--show-config", "-o", "json", "--strict-refs", "--without-features", "HTTPRouteCORS", "testdata/repo/apps"}, Code: 0},
		{Name: "show-config-none", Args: []string{"check", "--show-config", "--no-config", "--fail-on", "warning", "testdata/repo"}, Code: 0},
		{Name: "show-config-sarif", Args: []string{"check", "--show-config", "-o", "sarif"}, Code: 2},
	})
}

// gwlint features reads what check reads: the configuration's excludes
// keep testdata/repo's unrendered chart out, and --no-config lets it in.
func TestFeaturesHonoursConfig(t *testing.T) {
	const chartError = "charts/echo/templates/httproute.yaml:8: could not find expected ':'"
	_, stderr, code := clitest.Run(newRootCmd, "", "features", "testdata/repo")
	if code != 2 || strings.Contains(stderr, chartError) || !strings.Contains(stderr, "apps/legacy/broken.yaml:10") {
		t.Errorf("with the configuration: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, _ = clitest.Run(newRootCmd, "", "features", "--no-config", "testdata/repo")
	if !strings.Contains(stderr, chartError) {
		t.Errorf("--no-config: the chart was not read; stderr:\n%s", stderr)
	}
	if _, stderr, code := clitest.Run(newRootCmd, "", "features", ""); code != 2 || !strings.Contains(stderr, "an empty path") {
		t.Errorf("an empty path: exit %d, stderr:\n%s", code, stderr)
	}
	_, stderr, code = clitest.Run(newRootCmd, "", "features", "--config", "testdata/missing.yaml", "testdata/repo")
	if code != 2 || !strings.Contains(stderr, "missing.yaml") {
		t.Errorf("--config naming no file: exit %d, stderr:\n%s", code, stderr)
	}
}
