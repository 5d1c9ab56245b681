package corpus

import (
	"fmt"
	"os"
	"path/filepath"
)

// cacheVersion changes whenever Generate's output changes, so stale cached
// corpora are never used.
const cacheVersion = 2

// CacheRoot is where Cached keeps corpora: $GWLINT_CORPUS_CACHE, else
// gwlint-corpus under the system's temporary directory. Corpora are never
// committed; a large one is 270 MB.
func CacheRoot() string {
	if d := os.Getenv("GWLINT_CORPUS_CACHE"); d != "" {
		return d
	}
	return filepath.Join(os.TempDir(), "gwlint-corpus")
}

// Key names the corpus opts generates.
func (o Options) Key() string {
	size := o.Size
	if size == "" {
		size = Small
	}
	return fmt.Sprintf("v%d-%s-seed%d-r%d-g%d-s%d-n%d-inv%g-sem%g", cacheVersion, size, o.Seed, o.Routes, o.Gateways, o.Services, o.Namespaces, o.InvalidRate, o.SemanticRate)
}

// Cached returns the directory of the corpus for opts under CacheRoot,
// generating it first if no earlier run did. Concurrent callers (test
// binaries of several packages) are safe: each generates into a temporary
// directory and renames it into place, and a loser of the race drops its
// copy.
func Cached(opts Options) (string, error) {
	root := CacheRoot()
	dir := filepath.Join(root, opts.Key())
	if _, err := os.Stat(dir); err == nil {
		return dir, nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.MkdirTemp(root, ".tmp-"+opts.Key()+"-")
	if err != nil {
		return "", err
	}
	if _, err := Generate(opts, tmp); err != nil {
		os.RemoveAll(tmp)
		return "", err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dir); statErr == nil {
			return dir, nil // another process won
		}
		return "", err
	}
	return dir, nil
}
