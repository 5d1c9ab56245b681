package job

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/fluxcd/pkg/sourceignore"
	"github.com/fluxcd/pkg/sourceignore/gitignore"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Ignored reports whether git leaves path out of the repository that holds
// it: a pattern of .git/info/exclude, or of a .gitignore from the work
// tree's top down to the path's directory, matches it (as a file or as a
// directory: a path that is not there is either). Such a path is kept on
// the machines that deploy the repository, not in it: a secret's env
// file, a local configuration. Only .gitignore files within the boundary
// are read; a path in no git work tree there is not ignored.
func Ignored(path string, b manifest.Boundary) bool {
	abs := Clean(path)
	root := b.RootOf(abs)
	if root == "" {
		return false
	}
	top := ""
	for dir := filepath.Dir(abs); ; dir = filepath.Dir(dir) {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			top = dir
			break
		}
		if dir == root || dir == filepath.Dir(dir) {
			return false
		}
	}
	rel, err := filepath.Rel(top, abs)
	if err != nil || rel == "." {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	// Later patterns win: the exclude file, then each .gitignore from the
	// top down, as git reads them.
	patterns, _ := sourceignore.ReadIgnoreFile(filepath.Join(top, ".git", "info", "exclude"), nil)
	for i := range parts {
		domain := slices.Clone(parts[:i])
		ps, _ := sourceignore.ReadIgnoreFile(filepath.Join(top, filepath.Join(domain...), ".gitignore"), domain)
		patterns = append(patterns, ps...)
	}
	m := gitignore.NewMatcher(patterns)
	return m.Match(parts, false) || m.Match(parts, true)
}
