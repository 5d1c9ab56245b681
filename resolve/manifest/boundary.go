package manifest

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Boundary is the trust boundary of a run: the directories whose files may
// be read. Inputs are often a pull request's, written by someone who must
// not learn what else the machine holds, so a symbolic link, a chart's
// .Files, a values file or a kustomization that leads out of the boundary
// is an error at the link, and its target is never read.
//
// By default (BoundaryFor) each input's root is the git work tree it is in,
// else the directory it names (or a named file's directory): a repository
// may link between its own folders, as Flux and Argo CD read it, and nothing
// else. NewBoundary widens it on purpose (--root).
type Boundary struct {
	// roots are absolute and free of symbolic links, so that a path's
	// target, also resolved, is compared with them as plain text.
	roots []string
}

// NewBoundary is the boundary of the given directories.
func NewBoundary(roots ...string) Boundary {
	var b Boundary
	for _, r := range roots {
		b.add(r)
	}
	return b
}

// BoundaryFor is the default boundary of a run over paths: for each, the
// git work tree it is in (the nearest directory above it holding .git),
// else the path itself when it is a directory, else its directory. "-"
// (stdin) adds nothing.
func BoundaryFor(paths ...string) Boundary {
	var b Boundary
	for _, p := range paths {
		if p == "-" {
			continue
		}
		b.add(rootOf(p))
	}
	return b
}

// rootOf is the default root of one input path.
func rootOf(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	// Looked for lexically, from the path as named: a link named as an
	// input is judged by where it is, not by where it leads.
	for dir := abs; ; {
		if _, err := os.Lstat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			break
		}
		dir = parent
	}
	if info, err := os.Stat(abs); err == nil && info.IsDir() {
		return abs
	}
	return filepath.Dir(abs)
}

func (b *Boundary) add(root string) {
	abs, ok := canonical(root)
	if ok && !slices.Contains(b.roots, abs) {
		b.roots = append(b.roots, abs)
	}
}

// canonical is path absolute, its symbolic links resolved when it exists.
func canonical(path string) (string, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	return abs, true
}

// Roots are the boundary's directories, absolute.
func (b Boundary) Roots() []string { return slices.Clone(b.roots) }

// Whole reports whether paths name each of the boundary's roots: the
// whole of each repository rather than a part of it.
func (b Boundary) Whole(paths ...string) bool {
	named := map[string]bool{}
	for _, p := range paths {
		if abs, ok := canonical(p); ok {
			named[abs] = true
		}
	}
	return !slices.ContainsFunc(b.roots, func(root string) bool { return !named[root] })
}

// RootOf is the boundary's root that holds path (the deepest, when roots
// nest), as Check follows its links (a path that is not there yet too);
// "" when none does.
func (b Boundary) RootOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	if abs, err = evalExisting(abs); err != nil {
		return ""
	}
	best := ""
	for _, r := range b.roots {
		if (abs == r || strings.HasPrefix(abs, r+string(filepath.Separator))) && len(r) > len(best) {
			best = r
		}
	}
	return best
}

// IsZero reports whether the boundary has no root: nothing was named.
func (b Boundary) IsZero() bool { return len(b.roots) == 0 }

// ErrOutside is what Check's error wraps when a path leads out of the
// boundary.
var ErrOutside = errors.New("leads outside the inputs' root")

// Check returns nil when path, with every symbolic link on the way
// followed, is within one of the boundary's roots; an error wrapping
// ErrOutside when it leads elsewhere. A path that does not exist is left
// for its reader to report (nil), unless a link on its way already
// leads out. The error names the roots but never the link's target, which
// may itself be what must not be shown.
func (b Boundary) Check(path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	resolved, err := evalExisting(abs)
	if err != nil {
		return nil
	}
	if b.contains(resolved) {
		return nil
	}
	return &OutsideError{Path: path, roots: b.roots}
}

// contains reports whether resolved (absolute, free of links) is within a
// root.
func (b Boundary) contains(resolved string) bool {
	for _, r := range b.roots {
		if resolved == r || strings.HasPrefix(resolved, r+string(filepath.Separator)) || r == string(filepath.Separator) {
			return true
		}
	}
	return false
}

// evalExisting resolves the links of the longest existing prefix of abs
// and appends the rest: a file that does not exist yet cannot hide a link,
// but the directories on its way can.
func evalExisting(abs string) (string, error) {
	var rest []string
	for p := abs; ; {
		resolved, err := filepath.EvalSymlinks(p)
		if err == nil {
			slices.Reverse(rest)
			return filepath.Join(append([]string{resolved}, rest...)...), nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return "", err
		}
		parent := filepath.Dir(p)
		if parent == p {
			return "", err
		}
		rest = append(rest, filepath.Base(p))
		p = parent
	}
}

// OutsideError is a path whose links lead out of the boundary.
type OutsideError struct {
	Path  string
	roots []string
}

func (e *OutsideError) Error() string {
	roots := make([]string, len(e.roots))
	for i, r := range e.roots {
		roots[i] = shownRoot(r)
	}
	return fmt.Sprintf("%s (%s), through a symbolic link or '..': not read; widen the root with --root if it is meant to be",
		ErrOutside, strings.Join(roots, ", "))
}

// shownRoot is a root as the inputs are shown: relative to the working
// directory when within it.
func shownRoot(root string) string {
	wd, err := os.Getwd()
	if err != nil {
		return root
	}
	if resolved, err := filepath.EvalSymlinks(wd); err == nil {
		wd = resolved
	}
	if rel, err := filepath.Rel(wd, root); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		return rel
	}
	return root
}

func (e *OutsideError) Unwrap() error { return ErrOutside }
