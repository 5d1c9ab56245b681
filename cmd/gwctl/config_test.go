package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestConfig checks that gwctl reads .gwlint.yaml as gwlint check does:
// found from the -f paths upward to the top of the repository, its
// excludes and resolve settings honoured, flags overriding them. These
// tests change directory, so they do not run in parallel.
func TestConfig(t *testing.T) {
	repo, err := filepath.Abs("../gwlint/testdata/repo")
	if err != nil {
		t.Fatal(err)
	}
	root := t.TempDir()
	files := map[string]string{
		"r/.git/x": "",
		"r/.gwlint.yaml": `namespace: shop
strictRefs: true
exclude: ["broken/**"]
`,
		"r/app/route.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: web
spec:
  parentRefs:
  - name: shared
    namespace: infra
`,
		"r/broken/bad.yaml": "kind: [\n",
	}
	for name, content := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	r := filepath.Join(root, "r")
	tests := []struct {
		name      string
		dir       string
		args      []string
		code      int
		stdoutHas string
		stderrHas string
		stderrNot string
	}{
		// The chart template the repository's config excludes is not read
		// (it would be an input error); apps/legacy/broken.yaml is not
		// excluded, and gwlint check reports it too.
		{name: "excludes in the working directory", dir: repo, args: []string{"explain", "route", "store"}, code: 2,
			stdoutHas: "HTTPRoute store/store", stderrHas: "apps/legacy/broken.yaml", stderrNot: "charts/"},
		{name: "excludes from -f", dir: root, args: []string{"explain", "route", "store", "-f", repo}, code: 2,
			stdoutHas: "HTTPRoute store/store", stderrNot: "charts/"},
		{name: "namespace and strictRefs from the config", dir: r, args: []string{"explain", "route", "web"}, code: 1,
			stdoutHas: "HTTPRoute shop/web", stderrHas: "not accepted"},
		{name: "found from -f", dir: root, args: []string{"explain", "route", "web", "-f", "r/app/route.yaml", "-o", "yaml"}, code: 1,
			stdoutHas: "namespace: shop"},
		{name: "flags override it", dir: r, args: []string{"explain", "route", "web", "-n", "web", "--strict-refs=false", "-o", "yaml"}, code: 0,
			stdoutHas: "namespace: web"},
		{name: "--no-config", dir: r, args: []string{"explain", "route", "web", "--no-config"}, code: 2,
			stdoutHas: "HTTPRoute default/web", stderrHas: "broken/bad.yaml"},
		{name: "--config and --no-config", dir: r, args: []string{"status", "--config", ".gwlint.yaml", "--no-config"}, code: 2,
			stderrHas: "--config and --no-config cannot be used together"},
		{name: "config error", dir: r, args: []string{"graph", "--config", "app/route.yaml"}, code: 2,
			stderrHas: `app/route.yaml:1:1: unknown key "apiVersion"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Chdir(tt.dir)
			stdout, stderr, code := clitest.Run(newRootCmd, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.stdoutHas) {
				t.Errorf("stdout does not contain %q:\n%s", tt.stdoutHas, stdout)
			}
			if !strings.Contains(stderr, tt.stderrHas) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderrHas, stderr)
			}
			if tt.stderrNot != "" && strings.Contains(stderr, tt.stderrNot) {
				t.Errorf("stderr contains %q:\n%s", tt.stderrNot, stderr)
			}
		})
	}
}
