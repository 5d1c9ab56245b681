package gittree

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

func TestSelected(t *testing.T) {
	for _, c := range []struct {
		file   string
		wanted []string
		want   bool
	}{
		{"a/b.yaml", []string{"."}, true},
		{"a/b.yaml", []string{"a"}, true},
		{"ab/c.yaml", []string{"a"}, false},
		{"a/b.txt", []string{"a"}, false},
		{"a/b.txt", []string{"a/b.txt"}, true}, // named exactly
		{"a/b.JSON", []string{"a"}, true},
	} {
		if got := selected(c.file, c.wanted); got != c.want {
			t.Errorf("selected(%q, %q) = %v", c.file, c.wanted, got)
		}
	}
}

// TestOpen writes out a revision from a subdirectory of a temporary
// repository and maps paths both ways.
func TestOpen(t *testing.T) {
	if !Installed() {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	for name, data := range map[string]string{"sub/m/a.yaml": "old", "sub/m/notes.txt": "x", "other/b.yaml": "b"} {
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := clitest.Git(t, repo)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "one"}} {
		git(args...)
	}
	if err := os.WriteFile(filepath.Join(repo, "sub", "m", "a.yaml"), []byte("work tree"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Join(repo, "sub"))
	if !IsRevision("HEAD") || IsRevision("nope") || IsRevision("-h") {
		t.Error("IsRevision")
	}
	tree, err := Open("HEAD", []string{"m"})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()
	paths, err := tree.Paths([]string{"m/a.yaml"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(paths[0]); err != nil || string(got) != "old" {
		t.Errorf("%s = %q, %v; want the committed content", paths[0], got, err)
	}
	if rel := tree.Rel(paths[0]); rel != filepath.Join("m", "a.yaml") {
		t.Errorf("Rel = %q", rel)
	}
	for _, notWritten := range []string{"sub/m/notes.txt", "other/b.yaml"} {
		if _, err := os.Stat(filepath.Join(tree.Dir, notWritten)); err == nil {
			t.Errorf("%s written, not asked for", notWritten)
		}
	}
	if _, err := tree.Paths([]string{"../../x"}); err == nil {
		t.Error("a path outside the repository is accepted")
	}
	if _, err := tree.Paths([]string{"-"}); err == nil {
		t.Error("stdin is accepted")
	}
	dir := tree.Dir
	tree.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("Close left %s", dir)
	}
}
