package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestNewFromRev commits a route with one mistake, adds a second in the
// work tree, and checks that --new-from-rev HEAD reports only the second,
// even though the first moved down a few lines.
func TestNewFromRev(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	dir := filepath.Join(repo, "manifests")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	git := clitest.Git(t, repo)
	route := func(name, section string) string {
		return `---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ` + name + `
  namespace: web
spec:
  parentRefs:
  - name: edge
    sectionName: ` + section + `
`
	}
	gateway := `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: edge
  namespace: web
spec:
  gatewayClassName: example
  listeners:
  - name: http
    protocol: HTTP
    port: 80
`
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, "web.yaml"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(gateway + route("old", "nope"))
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "root")
	git("add", ".")
	git("commit", "-q", "-m", "one mistake")
	write(gateway + route("fresh", "nada") + route("old", "nope"))
	t.Chdir(repo)

	all, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", "manifests")
	if code != 1 || !strings.Contains(all, `"nope"`) || !strings.Contains(all, `"nada"`) {
		t.Fatalf("without --new-from-rev: exit %d\n%s", code, all)
	}
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD", "manifests")
	if code != 1 || stderr != "" || strings.Contains(stdout, `"nope"`) || !strings.Contains(stdout, `"nada"`) {
		t.Errorf("--new-from-rev HEAD: exit %d, stderr %q\n%s", code, stderr, stdout)
	}
	sarif, _, _ := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD", "-o", "sarif", "manifests")
	validateSARIF(t, "--new-from-rev HEAD -o sarif", []byte(sarif))
	checkBaselineStates(t, []byte(sarif), 1)
	// Against a revision without the manifests, everything is new.
	stdout, _, _ = clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD~1", "manifests/web.yaml")
	if !strings.Contains(stdout, `"nope"`) || !strings.Contains(stdout, `"nada"`) {
		t.Errorf("against a revision without the file:\n%s", stdout)
	}
	_, stderr, code = clitest.Run(newRootCmd, "", "check", "--new-from-rev", "no-such-rev", "manifests")
	if code != 2 || !strings.Contains(stderr, "no-such-rev is neither a file nor a git revision") {
		t.Errorf("unknown revision: exit %d, %q", code, stderr)
	}
}
