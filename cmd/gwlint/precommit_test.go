package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestPreCommitHooks: the hooks pre-commit reads are golang hooks that run
// gwlint check.
func TestPreCommitHooks(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "..", ".pre-commit-hooks.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var hooks []struct {
		ID       string `yaml:"id"`
		Language string `yaml:"language"`
		Entry    string `yaml:"entry"`
	}
	if err := yaml.Unmarshal(data, &hooks); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, h := range hooks {
		ids = append(ids, h.ID)
		if h.Language != "golang" || h.Entry != "gwlint check" {
			t.Errorf("hook %s: language %q, entry %q; want golang, gwlint check", h.ID, h.Language, h.Entry)
		}
	}
	if !slices.Equal(ids, []string{"gwlint", "gwlint-repo"}) {
		t.Errorf("hooks %v, want gwlint and gwlint-repo", ids)
	}
}

// TestPreCommitInstall checks the repository as pre-commit's golang
// language installs a hook: `go install ./...` in a fresh clone. Only
// gwlint, gwctl and gwlint-render (the render worker, which gwlint finds
// beside it) may be main packages of that build (the generators and
// benchmark tools need -tags gwlintdev), and a gwlint built in the clone
// must name the commit it was built from in `gwlint version`, which the Go
// toolchain stamps from the clone's .git. (Building all of ./... in the
// clone took two minutes on a loaded machine; go list names the same
// packages, and gwlint is the binary that matters.)
func TestPreCommitInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("clones the repository and builds gwlint")
	}
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	head, err := exec.Command(git, "-C", root, "rev-parse", "HEAD").Output()
	if err != nil {
		t.Skipf("not a git checkout: %v", err)
	}
	commit := strings.TrimSpace(string(head))

	dir := t.TempDir()
	clone := filepath.Join(dir, "repo")
	// VCS stamping is Go's default (-buildvcs=auto); a GOFLAGS in go env
	// may have turned it off here, as it is on some build machines.
	env := []string{"GOFLAGS=-buildvcs=auto"}
	run := func(dir string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = dir, append(os.Environ(), env...)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run(dir, git, "clone", "--quiet", "--no-hardlinks", root, clone)
	run(clone, git, "checkout", "--quiet", commit)

	mains := strings.Fields(run(clone, "go", "list", "-f", "{{if eq .Name \"main\"}}{{.ImportPath}}{{end}}", "./..."))
	want := []string{"github.com/gwlint/gwlint/cmd/gwctl", "github.com/gwlint/gwlint/cmd/gwlint", "github.com/gwlint/gwlint/cmd/gwlint-render"}
	if !slices.Equal(mains, want) {
		t.Errorf("go install ./... would build %v, want only %v", mains, want)
	}

	bin := filepath.Join(dir, "gwlint")
	run(clone, "go", "build", "-o", bin, "./cmd/gwlint")
	version := run(dir, bin, "version")
	if !strings.Contains(version, "(commit "+commit+",") || strings.Contains(version, "unknown") {
		t.Errorf("gwlint version = %q, want the version and date of commit %s", version, commit)
	}
}
