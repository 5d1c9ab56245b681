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

// TestNewFromRevReadsWhatTheBuildReads commits a bundled tree under
// deploy/ and changes, in the work tree, only a file outside the path
// named: the base of an overlay, or a chart's values file kept beside it.
// REV's build must read REV's version of that file (and the rest of the
// chart: its partials), so that the finding REV had is not new and the one
// the change adds is, with the same paths as the work tree's run.
func TestNewFromRevReadsWhatTheBuildReads(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	// betaRoute is added to the base: it names a listener the base's
	// Gateway lacks.
	const betaRoute = `---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: store-beta
spec:
  parentRefs:
  - name: web
    sectionName: https
  hostnames:
  - beta.store.example.com
  rules:
  - backendRefs:
    - name: store
      port: 8080
`
	for _, c := range []struct {
		name string
		tree string // under the repository's testdata, committed as deploy/
		dir  string // where gwlint runs, from the top level
		args []string
		// The work tree changes file (under deploy/) with edit.
		file       string
		edit       func(string) string
		had, added string // in the findings REV had, and in the one the change adds
	}{
		{
			name: "overlay whose base changed", tree: "kustomize", dir: ".", args: []string{"deploy/overlays/prod"},
			file: "base/store.yaml", edit: func(s string) string { return s + betaRoute },
			had:   `deploy/base/store.yaml:23:7: error: Service store-prod/store has no port 9090`,
			added: `deploy/base/store.yaml:33:5: error: Gateway store-prod/web has no listener named "https"`,
		},
		{
			name: "overlay named from a subdirectory", tree: "kustomize", dir: "deploy/overlays", args: []string{"prod"},
			file: "base/store.yaml", edit: func(s string) string { return s + betaRoute },
			had:   `../base/store.yaml:23:7: error: Service store-prod/store has no port 9090`,
			added: `../base/store.yaml:33:5: error: Gateway store-prod/web has no listener named "https"`,
		},
		{
			name: "chart whose values file changed", tree: "helm", dir: ".", args: []string{"deploy/store", "--values", "deploy/prod-values.yaml"},
			file: "prod-values.yaml", edit: func(s string) string { return strings.Replace(s, "shop.example.com", "shop_example.com", 1) },
			had:   `deploy/store/templates/httproute.yaml:19:7: error: Service default/release-name-store has no port 8080`,
			added: `deploy/store/templates/httproute.yaml:11:5: error: spec.hostnames[0]: Invalid value: "shop_example.com"`,
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := t.TempDir()
			deploy := filepath.Join(repo, "deploy")
			if err := os.CopyFS(deploy, os.DirFS(filepath.Join("..", "..", "testdata", c.tree))); err != nil {
				t.Fatal(err)
			}
			git := clitest.Git(t, repo)
			git("init", "-q")
			git("add", ".")
			git("commit", "-q", "-m", c.tree)
			changed := filepath.Join(deploy, filepath.FromSlash(c.file))
			data, err := os.ReadFile(changed)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(changed, []byte(c.edit(string(data))), 0o644); err != nil {
				t.Fatal(err)
			}
			t.Chdir(filepath.Join(repo, filepath.FromSlash(c.dir)))

			args := append([]string{"check", "--no-config"}, c.args...)
			all, _, code := clitest.Run(newRootCmd, "", args...)
			if code != 1 || !strings.Contains(all, c.had) || !strings.Contains(all, c.added) {
				t.Fatalf("without --new-from-rev: exit %d, want both findings\n%s", code, all)
			}
			stdout, stderr, code := clitest.Run(newRootCmd, "", append(args, "--new-from-rev", "HEAD")...)
			if code != 1 || stderr != "" || strings.Contains(stdout, c.had) || !strings.Contains(stdout, c.added) {
				t.Errorf("--new-from-rev HEAD: exit %d, stderr %q; want only %q\n%s", code, stderr, c.added, stdout)
			}
		})
	}
}

// What REV cannot read had no findings there: --new-from-rev says so on
// stderr, since every finding in it then counts as new.
func TestNewFromRevWarnsOfWhatRevCannotRead(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	git := clitest.Git(t, repo)
	write := func(content string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(repo, "web.yaml"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web\n")
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "broken")
	write("apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web, namespace: shop}\nspec: {parentRefs: [{name: edge}]}\n")
	t.Chdir(repo)
	_, stderr, _ := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD", ".")
	if !strings.Contains(stderr, "gwlint: warning: HEAD: web.yaml could not be read or rendered there (1 error); its findings count as new") {
		t.Errorf("stderr %q, want the warning that HEAD cannot read web.yaml", stderr)
	}
}

// A revision whose tree holds entries that would be paths outside the
// directory it is written to (a pull request can push such a commit): none
// is written, and each is named on stderr, quoted.
func TestNewFromRevRefusesHostileEntries(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo, untouched := clitest.Sandbox(t)
	writeTree(t, repo, map[string]string{"web.yaml": unnamespacedRoute})
	type entry = clitest.TreeEntry
	hostile := clitest.Commit(t, repo, []entry{
		{Name: "..", Dir: []entry{{Name: "escaped.yaml", File: unnamespacedRoute}}},
		{Name: "x/../../\x1b[2J.yaml", File: unnamespacedRoute},
		{Name: "web.yaml", File: unnamespacedRoute},
	})
	t.Chdir(repo)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", hostile, ".")
	for _, want := range []string{
		"gwlint: warning: " + hostile + `: entry ".." not written out: its name is ..` + "\n",
		"gwlint: warning: " + hostile + `: entry "x/../../\x1b[2J.yaml" not written out: its name holds a /` + "\n",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr)
		}
	}
	if code != 0 || strings.Contains(stderr, "\x1b") || !strings.Contains(stdout, "0 errors") {
		t.Errorf("exit %d, stdout:\n%s\nstderr %q", code, stdout, stderr)
	}
	untouched()
}

// A file that neither REV nor the work tree can read is still reported:
// the exit status is 2 for it, so the output must show the
// invalid-manifest finding, in every format, even though REV had it too.
func TestNewFromRevKeepsInputErrors(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	writeTree(t, repo, map[string]string{"web.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web\n"})
	git := clitest.Git(t, repo)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "broken")
	t.Chdir(repo)
	for _, c := range []struct{ output, want string }{
		{"text", "invalid-manifest"},
		{"json", `"rule": "invalid-manifest"`},
	} {
		stdout, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD", "-o", c.output, ".")
		if code != 2 || !strings.Contains(stdout, c.want) {
			t.Errorf("-o %s: exit %d, want 2 and the finding:\n%s", c.output, code, stdout)
		}
	}
}

// In a shallow clone (actions/checkout's default fetch-depth: 1) the
// parent commit is not there: --new-from-rev says why, and how to fetch
// it, rather than that HEAD~1 is no revision.
func TestNewFromRevShallowClone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	full := t.TempDir()
	writeTree(t, full, map[string]string{"web.yaml": unnamespacedRoute})
	git := clitest.Git(t, full)
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "one")
	git("commit", "-q", "--allow-empty", "-m", "two")
	shallow := filepath.Join(t.TempDir(), "shallow")
	git("clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(full), shallow)
	t.Chdir(shallow)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--new-from-rev", "HEAD~1", ".")
	want := "HEAD~1 is neither a file nor a git revision in this shallow clone (its history was cut at fetch time); " +
		"fetch more history: actions/checkout with fetch-depth: 0, or git fetch --unshallow"
	if code != 2 || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}
}
