// Package floor is the cost floor of a linter that reports file:line:col:
// find every manifest, read it and parse each YAML document into a yaml.v3
// Node tree (which keeps line and column), in parallel, and nothing else.
// gwlint's benchmarks and hack/bench.sh report every stage as a multiple of
// it ("x-floor"); see docs/performance.md.
//
// It walks directories the way manifest.Read does (.yaml, .yml and
// .json files, hidden entries skipped, lexical order) and drops each tree
// as soon as it is parsed: it holds at most one tree per worker.
package floor

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
)

// Result counts what was parsed.
type Result struct {
	Files, Docs, Nodes int
	Bytes              int64
	Errors             int // files that could not be read or parsed
}

// Files lists the manifest files of paths (files or directories), sorted
// within each directory argument.
func Files(paths []string) ([]string, error) {
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, err
		}
		if !info.IsDir() {
			out = append(out, p)
			continue
		}
		var found []string
		err = filepath.WalkDir(p, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if path != p && strings.HasPrefix(d.Name(), ".") {
				if d.IsDir() {
					return fs.SkipDir
				}
				return nil
			}
			if !d.IsDir() && isManifest(d.Name()) {
				found = append(found, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
		slices.Sort(found)
		out = append(out, found...)
	}
	return out, nil
}

func isManifest(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// Parse reads and parses files with the given number of workers (at least 1).
func Parse(files []string, workers int) Result {
	var next atomic.Int64
	var mu sync.Mutex
	var total Result
	var wg sync.WaitGroup
	for range max(1, min(workers, len(files))) {
		wg.Go(func() {
			var r Result
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					break
				}
				parseFile(files[i], &r)
			}
			mu.Lock()
			total.Files += r.Files
			total.Docs += r.Docs
			total.Nodes += r.Nodes
			total.Bytes += r.Bytes
			total.Errors += r.Errors
			mu.Unlock()
		})
	}
	wg.Wait()
	return total
}

// Run is Files then Parse.
func Run(paths []string, workers int) (Result, error) {
	files, err := Files(paths)
	if err != nil {
		return Result{}, err
	}
	return Parse(files, workers), nil
}

func parseFile(name string, r *Result) {
	data, err := os.ReadFile(name)
	if err != nil {
		r.Errors++
		return
	}
	r.Files++
	r.Bytes += int64(len(data))
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var root yaml.Node
		if err := dec.Decode(&root); err != nil {
			if !errors.Is(err, io.EOF) {
				r.Errors++
			}
			return
		}
		r.Docs++
		r.Nodes += count(&root)
	}
}

// count walks the tree, as any consumer of it must at least once.
func count(n *yaml.Node) int {
	c := 1
	for _, k := range n.Content {
		c += count(k)
	}
	return c
}
