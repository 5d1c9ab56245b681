package clitest

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git returns a function that runs git in repo to build a test's
// repository: a fixed identity, no signing and no system or user
// configuration, so that the machine's git setup cannot change it. A git
// failure fails the test.
func Git(t testing.TB, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		gitOutput(t, repo, nil, args...)
	}
}

// gitOutput runs git as Git does, with stdin, and returns its output
// without the final newline.
func gitOutput(t testing.TB, repo string, stdin []byte, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = repo
	cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+repo)
	cmd.Stdin = bytes.NewReader(stdin)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.TrimSuffix(string(out), "\n")
}

// TreeEntry is an entry of a tree that Commit writes: a regular file
// holding File, a symbolic link to Link when that is set, or a directory
// holding Dir when that is not nil.
type TreeEntry struct {
	Name string
	File string
	Link string
	Dir  []TreeEntry
}

// Commit writes a commit of entries into repo and returns its id. The
// trees are written as git hash-object --literally does, without the
// checks of git mktree and git add, so that a test can build what a
// hostile pull request can push: entries named "..", ".git", "" or "a/b",
// two entries of the same name, in any order.
func Commit(t testing.TB, repo string, entries []TreeEntry) string {
	t.Helper()
	tree := writeTree(t, repo, entries)
	return gitOutput(t, repo, nil, "commit-tree", "-m", "hostile", tree)
}

func writeTree(t testing.TB, repo string, entries []TreeEntry) string {
	t.Helper()
	var raw bytes.Buffer
	for _, e := range entries {
		var mode, id string
		switch {
		case e.Dir != nil:
			mode, id = "40000", writeTree(t, repo, e.Dir)
		case e.Link != "":
			mode, id = "120000", gitOutput(t, repo, []byte(e.Link), "hash-object", "-w", "--stdin")
		default:
			mode, id = "100644", gitOutput(t, repo, []byte(e.File), "hash-object", "-w", "--stdin")
		}
		bin, err := hex.DecodeString(id)
		if err != nil {
			t.Fatalf("object id %q: %v", id, err)
		}
		fmt.Fprintf(&raw, "%s %s\x00%s", mode, e.Name, bin)
	}
	return gitOutput(t, repo, raw.Bytes(), "hash-object", "-t", "tree", "--literally", "-w", "--stdin")
}

// Sandbox makes, in a new directory, an empty git repository and a
// TMPDIR beside it (set for the test), for tests that a revision's files
// are written nowhere else. untouched fails the test if anything is left
// in TMPDIR, or written beside the two.
func Sandbox(t testing.TB) (repo string, untouched func()) {
	t.Helper()
	root := t.TempDir()
	repo, tmp := filepath.Join(root, "repo"), filepath.Join(root, "tmp")
	for _, d := range []string{repo, tmp} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("TMPDIR", tmp)
	Git(t, repo)("init", "-q")
	return repo, func() {
		t.Helper()
		for _, dir := range []string{root, tmp} {
			names, err := os.ReadDir(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range names {
				if dir == tmp || (n.Name() != "repo" && n.Name() != "tmp") {
					t.Errorf("left or written: %s", filepath.Join(dir, n.Name()))
				}
			}
		}
	}
}
