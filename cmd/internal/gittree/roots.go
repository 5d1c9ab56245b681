package gittree

// Roots is the trust boundary (manifest.Boundary) of the revision's
// files: the directories that --root names, as the revision holds them,
// else the whole revision, as the work tree's default root is the whole
// work tree.
func (t *Tree) Roots(roots []string) []string {
	if len(roots) == 0 {
		return []string{t.Dir}
	}
	return t.Versioned(roots)
}
