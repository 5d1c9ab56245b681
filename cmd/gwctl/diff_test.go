package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// Each pair under testdata/diff holds one kind of change: canary (shares
// 80/20 → 50/50, a share that becomes HTTP 500, a backend added, a new
// finding), attach (an attachment lost and one gained, listener and parent
// conditions, new and fixed findings), mesh (a Service port gained, a
// backend removed from the split), requests (a new route's Exact match and
// a TLSRoute's exact hostname take requests from older routes: the
// requests that would now go elsewhere), hostnames (a route's effective
// hostnames gained and lost on a listener it stays attached to),
// backendtls (a BackendTLSPolicy's CA goes missing: its backend's share
// fails, under Backends too), policies (a route's own policy removed: the
// Gateway's reaches it instead; a typo in a target fixed), same (objects
// reordered: no change).
// canaryConfig owns namespace shop of the canary pair: its missing Service
// is missing, not unlisted.
const canaryConfig = "testdata/diff/canary/.gwlint.yaml"

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

func TestDiffGolden(t *testing.T) {
	var cases []clitest.GoldenCase
	for _, pair := range []struct {
		name string
		code int
	}{{"canary", 1}, {"attach", 1}, {"mesh", 1}, {"requests", 1}, {"hostnames", 1}, {"backendtls", 1}, {"policies", 1}, {"same", 0}} {
		dirs := []string{"diff", "testdata/diff/" + pair.name + "/old", "testdata/diff/" + pair.name + "/new", "--exit-code"}
		if config := "testdata/diff/" + pair.name + "/.gwlint.yaml"; fileExists(config) {
			dirs = slices.Clip(append(dirs, "--config", config)) // its ownedNamespaces
		}
		cases = append(cases,
			clitest.GoldenCase{Name: "diff-" + pair.name, Args: dirs, Code: pair.code},
			clitest.GoldenCase{Name: "diff-" + pair.name + "-json", Args: append(dirs, "-o", "json"), Code: pair.code},
			clitest.GoldenCase{Name: "diff-" + pair.name + "-markdown", Args: append(dirs, "-o", "markdown"), Code: pair.code},
		)
	}
	cases = append(cases,
		// Without --exit-code a change is not a failure.
		clitest.GoldenCase{Name: "diff-canary-no-exit-code", Args: []string{"diff", "testdata/diff/canary/old", "testdata/diff/canary/new", "--config", canaryConfig}, Code: 0},
		// Two files; and -f within two directories.
		clitest.GoldenCase{Name: "diff-files", Args: []string{"diff", "testdata/diff/canary/old/shop.yaml", "testdata/diff/canary/new/shop.yaml", "--config", canaryConfig}, Code: 0},
		// A manifest that fails to read: its error on stderr, prefixed by
		// the side, an invalid-manifest finding, and exit 2.
		clitest.GoldenCase{Name: "diff-broken", Args: []string{"diff", "testdata/diff/canary/old", "testdata/broken", "--exit-code"}, Code: 2},
		clitest.GoldenCase{Name: "diff-filename", Args: []string{"diff", "testdata/diff/attach/old", "testdata/diff/attach/new", "-f", "gateway.yaml"}, Code: 0},
	)
	golden.RunCases(t, newRootCmd, cases)
}

func TestDiffErrors(t *testing.T) {
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "one argument", Args: []string{"diff", "testdata/diff/same/old"}, Code: 2, StdoutNone: true},
		{Name: "neither path nor revision", Args: []string{"diff", "testdata/diff/nope", "testdata/diff/same/new"}, Code: 2,
			StderrHas: "testdata/diff/nope is neither a file, a directory nor a git revision", StdoutNone: true},
		{Name: "-f with files", Args: []string{"diff", "testdata/diff/canary/old/shop.yaml", "testdata/diff/canary/new/shop.yaml", "-f", "x"}, Code: 2,
			StderrHas: "is a file", StdoutNone: true},
		{Name: "-f in neither", Args: []string{"diff", "testdata/diff/same/old", "testdata/diff/same/new", "-f", "nope.yaml"}, Code: 2,
			StderrHas: "-f nope.yaml: not found in", StdoutNone: true},
		{Name: "bad -o", Args: []string{"diff", "testdata/diff/same/old", "testdata/diff/same/new", "-o", "yaml"}, Code: 2,
			StderrHas: `invalid value "yaml" for --output`},
	})
}

// TestDiffGitRevisions diffs two commits of a temporary repository, from a
// subdirectory, while the work tree holds neither: the revisions are read
// from git, not checked out.
func TestDiffGitRevisions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	oldYAML, err := os.ReadFile("testdata/diff/canary/old/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	newYAML, err := os.ReadFile("testdata/diff/canary/new/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	repo := t.TempDir()
	manifests := filepath.Join(repo, "deploy", "manifests")
	if err := os.MkdirAll(manifests, 0o755); err != nil {
		t.Fatal(err)
	}
	git := clitest.Git(t, repo)
	write := func(data []byte) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(manifests, "shop.yaml"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q", "-b", "main")
	// Something besides the manifests keeps deploy/ when they are removed.
	if err := os.WriteFile(filepath.Join(repo, "deploy", "README"), []byte("deploy\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	// The repository keeps every object of namespace shop.
	if err := os.WriteFile(filepath.Join(repo, ".gwlint.yaml"), []byte("ownedNamespaces: [shop]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write(oldYAML)
	git("add", ".")
	git("commit", "-q", "-m", "canary 80/20")
	write(newYAML)
	git("commit", "-q", "-am", "canary 50/50")
	// The work tree holds something else again.
	write([]byte("# work in progress\n"))
	t.Chdir(filepath.Join(repo, "deploy"))

	stdout, stderr, code := clitest.Run(newRootCmd, "", "diff", "HEAD~1", "HEAD", "-f", "manifests/", "--exit-code")
	if code != 1 || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, "diff-git.golden", stdout)

	// The same change against the directories: only the names differ.
	want, _, _ := clitest.Run(newRootCmd, "", "diff", "HEAD~1", "main", "-f", "manifests/shop.yaml", "-o", "json")
	if !strings.Contains(want, `"backend": "Service shop/checkout-v2:8080"`) || !strings.Contains(want, `"old": "HEAD~1"`) {
		t.Errorf("diff of a file in two revisions:\n%s", want)
	}

	// A path a revision does not hold is empty there.
	git("rm", "-q", "-r", "-f", "deploy/manifests")
	git("commit", "-q", "-m", "remove")
	stdout, stderr, code = clitest.Run(newRootCmd, "", "diff", "HEAD~1", "HEAD", "-f", "manifests/", "-o", "json")
	var removed diffView
	if err := json.Unmarshal([]byte(stdout), &removed); err != nil || code != 0 || stderr != "" || len(removed.Backends) == 0 {
		t.Fatalf("removed tree: exit %d, stderr %q, %v\n%s", code, stderr, err, stdout)
	}
	for _, b := range removed.Backends {
		if b.Old == nil || b.New != nil {
			t.Errorf("removed tree: backend %s is not only in the old side", b.Backend)
		}
	}
}

// TestDiffGitKustomize diffs an overlay between two commits that change
// only its base, outside the -f path: each revision's build reads that
// revision's base, so the diff is the base's change as the overlay builds
// it (in its namespace, with its patch), and nothing else.
func TestDiffGitKustomize(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	deploy := filepath.Join(repo, "deploy")
	if err := os.CopyFS(deploy, os.DirFS(filepath.Join("..", "..", "testdata", "kustomize"))); err != nil {
		t.Fatal(err)
	}
	git := clitest.Git(t, repo)
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "store")
	base := filepath.Join(deploy, "base", "store.yaml")
	store, err := os.ReadFile(base)
	if err != nil {
		t.Fatal(err)
	}
	admin := `---
apiVersion: v1
kind: Service
metadata:
  name: store-admin
spec:
  selector:
    app: store-admin
  ports:
  - name: http
    port: 8080
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: store-admin
spec:
  parentRefs:
  - name: web
  hostnames:
  - store.example.com
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /admin
    backendRefs:
    - name: store-admin
      port: 8080
`
	if err := os.WriteFile(base, append(store, admin...), 0o644); err != nil {
		t.Fatal(err)
	}
	git("commit", "-q", "-am", "store admin")
	t.Chdir(repo)

	stdout, stderr, code := clitest.Run(newRootCmd, "", "diff", "HEAD~1", "HEAD", "-f", "deploy/overlays/prod", "--exit-code")
	if code != 1 || stderr != "" {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
	golden.Check(t, "diff-git-kustomize.golden", stdout)
}

func TestDiffFlags(t *testing.T) {
	clitest.RunFlagCases(t, newDiffCmd, []clitest.FlagCase[diffOptions]{
		{Args: []string{"a", "b"}, Want: diffOptions{inputOptions: defaultInputs, Output: "text", Color: "auto", Old: "a", New: "b"}},
		{Args: []string{"main", "HEAD", "-f", "m/", "-o", "markdown", "--exit-code"}, Want: diffOptions{
			inputOptions: inputOptions{Filenames: []string{"m/"}, ControllerName: defaultInputs.ControllerName, Channel: "standard"},
			Output:       "markdown", Color: "auto", ExitCode: true, Old: "main", New: "HEAD", filenamesSet: true}},
		{Args: []string{"a"}, WantErr: "accepts 2 arg(s), received 1"},
		{Args: []string{"a", "b", "-o", "yaml"}, WantErr: `invalid value "yaml" for --output: must be one of text, json, markdown`},
	})
}

// TestDiffGitRefusesHostileEntries diffs a commit whose tree holds an
// entry named "..", as a pull request can push it: nothing is written
// outside the directory the revision is written to, and stderr names the
// entry.
func TestDiffGitRefusesHostileEntries(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	shop, err := os.ReadFile("testdata/diff/canary/old/shop.yaml")
	if err != nil {
		t.Fatal(err)
	}
	repo, untouched := clitest.Sandbox(t)
	type entry = clitest.TreeEntry
	good := clitest.Commit(t, repo, []entry{{Name: "shop.yaml", File: string(shop)}})
	hostile := clitest.Commit(t, repo, []entry{
		{Name: "..", Dir: []entry{{Name: "escaped.yaml", File: string(shop)}}},
		{Name: "shop.yaml", File: string(shop)},
	})
	t.Chdir(repo)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "diff", hostile, good)
	if want := hostile + `: warning: entry ".." not written out: its name is ..` + "\n"; code != 0 || stderr != want {
		t.Errorf("exit %d, stderr %q; want 0 and %q\n%s", code, stderr, want, stdout)
	}
	untouched()
}

// In a shallow clone (actions/checkout's default fetch-depth: 1) the
// parent commit is not there: gwctl diff says why, and how to fetch it.
func TestDiffGitShallowClone(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	full := t.TempDir()
	git := clitest.Git(t, full)
	git("init", "-q")
	git("commit", "-q", "--allow-empty", "-m", "one")
	git("commit", "-q", "--allow-empty", "-m", "two")
	shallow := filepath.Join(t.TempDir(), "shallow")
	git("clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(full), shallow)
	t.Chdir(shallow)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "diff", "HEAD~1", "HEAD")
	want := "HEAD~1 is neither a file, a directory nor a git revision in this shallow clone (its history was cut at fetch time); " +
		"fetch more history: actions/checkout with fetch-depth: 0, or git fetch --unshallow"
	if code != 2 || stdout != "" || !strings.Contains(stderr, want) {
		t.Errorf("exit %d, stdout %q, stderr %q; want 2 and %q", code, stdout, stderr, want)
	}
}
