package gittree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

func TestPathSetHolds(t *testing.T) {
	for _, c := range []struct {
		file  string
		paths []string
		want  bool
	}{
		{"a/b.yaml", []string{"."}, true},
		{"a/b.yaml", []string{"a"}, true},
		{"a/b/c.txt", []string{"x", "a"}, true},
		{"ab/c.yaml", []string{"a"}, false},
		{"a/b.txt", []string{"a/b.txt"}, true}, // the path itself
		{"a", []string{"a/b"}, false},
		{"a/b.txt", nil, false},
	} {
		s := pathSet{}
		for _, p := range c.paths {
			s[p] = true
		}
		if got := s.holds(c.file); got != c.want {
			t.Errorf("holds(%q) of %q = %v", c.file, c.paths, got)
		}
	}
}

// TestOpen writes out a revision from a subdirectory of a temporary
// repository, for the paths a run reads, and maps paths both ways.
func TestOpen(t *testing.T) {
	if !Installed() {
		t.Skip("git not installed")
	}
	// revision is the repository's files: a loose manifest directory, an
	// overlay whose base includes a component from outside the path named, a
	// chart and its values file kept elsewhere, and files nothing reads.
	revision := map[string]string{
		"sub/m/a.yaml":    "old",
		"sub/m/notes.txt": "not a manifest, and no kustomization or chart reads it",
		"sub/deploy/overlays/prod/kustomization.yaml":    "resources:\n- ../../base\npatches:\n- path: port.yaml\nconfigMapGenerator:\n- name: env\n  envs:\n  - app.env\n",
		"sub/deploy/overlays/prod/port.yaml":             "kind: HTTPRoute\n",
		"sub/deploy/overlays/prod/app.env":               "MODE=prod\n",
		"sub/deploy/overlays/staging/kustomization.yaml": "resources:\n- ../../base\n",
		"sub/deploy/base/kustomization.yaml":             "resources:\n- store.yaml\ncomponents:\n- ../../../shared/tls\n",
		"sub/deploy/base/store.yaml":                     "kind: HTTPRoute\n",
		"shared/tls/kustomization.yaml":                  "kind: Component\nresources:\n- github.com/example/infra//tls?ref=v1\n",
		"shared/tls/listener.yaml":                       "kind: Gateway\n",
		"shared/other.yaml":                              "kind: Gateway\n",
		"sub/apps/store/Chart.yaml":                      "apiVersion: v2\nname: store\n",
		"sub/apps/store/templates/_helpers.tpl":          "{{- define \"store.name\" -}}store{{- end }}\n",
		"sub/apps/store/templates/route.yaml":            "kind: HTTPRoute\n",
		"sub/apps/store/.helmignore":                     "*.bak\n",
		"values/prod.values":                             "replicas: 2\n",
		"values/staging.yaml":                            "replicas: 1\n",
	}
	repo := t.TempDir()
	write := func(name, data string) {
		t.Helper()
		p := filepath.Join(repo, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for name, data := range revision {
		write(name, data)
	}
	git := clitest.Git(t, repo)
	for _, args := range [][]string{{"init", "-q"}, {"add", "."}, {"commit", "-q", "-m", "one"}} {
		git(args...)
	}
	write("sub/m/a.yaml", "work tree")
	t.Chdir(filepath.Join(repo, "sub"))
	if !IsRevision("HEAD") || IsRevision("nope") || IsRevision("-h") {
		t.Error("IsRevision")
	}
	outside := filepath.Join(t.TempDir(), "values.yaml")
	tree, err := Open("HEAD", []string{"m", "deploy/overlays/prod", "apps", "../values/prod.values", outside, "-"})
	if err != nil {
		t.Fatal(err)
	}
	defer tree.Close()

	// What the walks, the build of prod and the render of the chart
	// read (a rendered directory whole), and nothing else.
	want := []string{
		"sub/apps/store/.helmignore", "sub/apps/store/Chart.yaml", "sub/apps/store/templates/_helpers.tpl", "sub/apps/store/templates/route.yaml",
		"shared/tls/kustomization.yaml", "shared/tls/listener.yaml",
		"sub/deploy/base/kustomization.yaml", "sub/deploy/base/store.yaml",
		"sub/deploy/overlays/prod/app.env", "sub/deploy/overlays/prod/kustomization.yaml", "sub/deploy/overlays/prod/port.yaml",
		"sub/m/a.yaml", "values/prod.values",
	}
	slices.Sort(want)
	var got []string
	err = filepath.WalkDir(tree.Dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(tree.Dir, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil || !slices.Equal(got, want) {
		t.Errorf("written: %q, %v\nwant %q", got, err, want)
	}

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
	if got := tree.Versioned([]string{"../values/prod.values", outside}); got[0] != filepath.Join(tree.Dir, "values", "prod.values") || got[1] != outside {
		t.Errorf("Versioned = %q; want the revision's file, and the one outside the repository as it is", got)
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

// TestOpenRefusesHostileEntries writes out commits whose trees hold what
// git would refuse to check out, as a pull request can push them: nothing
// may be written outside the temporary directory, nothing through a
// symbolic link, and every entry refused is reported. The good file
// beside them is still written.
func TestOpenRefusesHostileEntries(t *testing.T) {
	if !Installed() {
		t.Skip("git not installed")
	}
	type entry = clitest.TreeEntry
	escaped := func(name string) entry { return entry{Name: name, File: "escaped"} }
	dir := func(name string, entries ...entry) entry {
		return entry{Name: name, Dir: append([]entry{}, entries...)}
	}
	root := t.TempDir()
	outside := filepath.Join(root, "outside")
	for _, c := range []struct {
		name    string
		entries []entry
		read    string
		// refused are the entries reported, by path.
		refused []string
		// err is part of the error Open gives for a tree git refuses to
		// list.
		err string
	}{
		{name: "parent", entries: []entry{dir("..", escaped("escaped.yaml"))}, read: ".", refused: []string{".."}},
		{name: "parent below the path read", entries: []entry{dir("deploy", dir("..", dir("..", escaped("escaped.yaml"))))}, read: "deploy",
			refused: []string{"deploy/.."}},
		{name: "dot", entries: []entry{dir(".", dir("..", escaped("escaped.yaml")))}, read: ".", refused: []string{"."}},
		{name: "slashes in a name", entries: []entry{escaped("../../escaped.yaml"), dir("deploy", escaped("../../../escaped.yaml"))}, read: ".",
			refused: []string{"../../escaped.yaml", "deploy/../../../escaped.yaml"}},
		{name: "absolute name", entries: []entry{escaped(filepath.ToSlash(outside) + "/escaped.yaml")}, read: ".",
			refused: []string{filepath.ToSlash(outside) + "/escaped.yaml"}},
		{name: "empty name", entries: []entry{dir("", escaped("escaped.yaml"))}, read: ".", err: "empty filename in tree entry"},
		{name: "git directory", entries: []entry{dir(".git", escaped("config")), dir("deploy", dir(".GIT", escaped("hooks.yaml")))}, read: ".",
			refused: []string{".git", "deploy/.GIT"}},
		{name: "backslash", entries: []entry{escaped(`..\..\escaped.yaml`)}, read: ".", refused: []string{`..\..\escaped.yaml`}},
		// A link is never written, so a file below a directory of the
		// same name stays in the tree, and a path through it is refused.
		{name: "file below a link", entries: []entry{{Name: "a", Link: outside}, dir("a", escaped("b.yaml")), {Name: "l", Link: "../../.."}, escaped("l/escaped.yaml")},
			read: ".", refused: []string{"l/escaped.yaml"}},
		// The first entry of a name stands; O_EXCL refuses the rest.
		{name: "same name twice", entries: []entry{{Name: "twice.yaml", File: "first"}, escaped("twice.yaml"), {Name: "f.yaml", File: "a file"}, dir("f.yaml", escaped("below-a-file.yaml"))},
			read: ".", refused: []string{"twice.yaml", "f.yaml/below-a-file.yaml"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			repo := filepath.Join(t.TempDir(), "repo")
			tmp := filepath.Join(root, "tmp")
			for _, d := range []string{repo, tmp, outside} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			t.Setenv("TMPDIR", tmp)
			// What a case writes must not look like the next one's doing.
			t.Cleanup(func() {
				written, _ := os.ReadDir(root)
				for _, e := range written {
					if err := os.RemoveAll(filepath.Join(root, e.Name())); err != nil {
						t.Error(err)
					}
				}
			})
			clitest.Git(t, repo)("init", "-q")
			entries := append(slices.Clone(c.entries), dir("deploy", entry{Name: "good.yaml", File: "good"}))
			commit := clitest.Commit(t, repo, entries)
			t.Chdir(repo)
			tree, err := Open(commit, []string{c.read})
			if c.err != "" {
				if err == nil || !strings.Contains(err.Error(), c.err) {
					t.Errorf("Open: %v, want an error containing %q", err, c.err)
				}
				checkWritten(t, root, "")
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer tree.Close()

			var refused []string
			for _, r := range tree.Refused {
				refused = append(refused, r.Path)
				if s := r.String(); !strings.HasPrefix(s, "entry "+strconv.Quote(r.Path)+" not written out: ") {
					t.Errorf("refusal %q does not quote the path", s)
				}
			}
			if !slices.Equal(refused, c.refused) {
				t.Errorf("refused %q, want %q", refused, c.refused)
			}
			if good, err := os.ReadFile(filepath.Join(tree.Dir, "deploy", "good.yaml")); string(good) != "good" {
				t.Errorf("deploy/good.yaml = %q, %v", good, err)
			}
			checkWritten(t, root, tree.Dir)
		})
	}
}

// checkWritten fails the test for a file below root that is not below dir
// ("": none may be), and for a symbolic link anywhere below root.
func checkWritten(t *testing.T, root, dir string) {
	t.Helper()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.Type()&fs.ModeSymlink != 0:
			t.Errorf("a link is written: %s", p)
		case dir != "" && (p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))):
		case !d.IsDir():
			t.Errorf("written outside the tree: %s", p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestNotFound: a revision that is not found is only that in a full
// clone; in a shallow one (actions/checkout's default) the message says
// that the history may be missing and how to fetch it.
func TestNotFound(t *testing.T) {
	if !Installed() {
		t.Skip("git not installed")
	}
	full := t.TempDir()
	git := clitest.Git(t, full)
	git("init", "-q")
	for _, m := range []string{"one", "two"} {
		git("commit", "-q", "--allow-empty", "-m", m)
	}
	shallow := filepath.Join(t.TempDir(), "shallow")
	git("clone", "-q", "--depth", "1", "file://"+filepath.ToSlash(full), shallow)
	for _, c := range []struct {
		name, dir, rev, want string
	}{
		{"full clone", full, "HEAD~2", "HEAD~2 is neither a file nor a git revision"},
		{"shallow clone", shallow, "HEAD~1", "HEAD~1 is neither a file nor a git revision in this shallow clone (its history was cut at fetch time); " +
			"fetch more history: actions/checkout with fetch-depth: 0, or git fetch --unshallow"},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Chdir(c.dir)
			if tree, err := Open(c.rev, nil); err == nil || err.Error() != c.want {
				if err == nil {
					tree.Close()
				}
				t.Errorf("Open(%s): %v, want %q", c.rev, err, c.want)
			}
		})
	}
}
