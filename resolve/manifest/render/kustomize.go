package render

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// KustomizationPaths returns the local paths that a kustomization file
// (its text) names, relative to its directory: its resources, bases and
// components, and the files and kustomizations of its other fields
// (patches, generators, transformers, ...). A build reads files below
// the kustomization's directory and these, so they say which other parts
// of a repository a build needs.
func KustomizationPaths(data []byte) []string {
	m := job.KustomizationMapping(data)
	if m == nil {
		return nil
	}
	var paths []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		for _, item := range job.PathEntries(m.Content[i].Value, m.Content[i+1]) {
			if !job.Remote(item.Value) {
				paths = append(paths, job.EntryPath(item.Value))
			}
		}
	}
	return paths
}

// Roots returns the kustomizations, of those given (read within the
// boundary b), that no other one
// includes: each is built and judged on its own, and the others through
// them (a base through its overlays). It also returns the resource files
// that the given kustomizations include, and the vendored charts their
// helmCharts inflate, which their builds read: a walk need not read them
// again, nor render those charts alone, with their defaults, as no one
// applies them.
//
// Kustomizations that include each other in a cycle, with none outside it
// including them, are roots too: kustomize refuses the cycle, and that
// error is reported rather than nothing being checked at all.
func Roots(kustomizations []string, b manifest.Boundary) (roots, included []string) {
	includedDir := map[string]bool{}
	dirs := map[string][]string{} // kustomization → the directories it includes
	for _, k := range kustomizations {
		inc := job.ReadIncludes(k, b)
		for _, d := range inc.Dirs {
			includedDir[job.Clean(d)] = true
			dirs[job.Clean(k)] = append(dirs[job.Clean(k)], job.Clean(d))
		}
		for _, f := range slices.Concat(inc.Files, inc.Charts) {
			// A file outside the boundary is refused by the build; the
			// walk does not read it either.
			if b.Check(f) == nil {
				included = append(included, filepath.Clean(f))
			}
		}
	}
	reached := map[string]bool{}
	var reach func(dir string)
	reach = func(dir string) {
		if reached[dir] {
			return
		}
		reached[dir] = true
		for _, d := range dirs[dir] {
			reach(d)
		}
	}
	for _, k := range kustomizations {
		if !includedDir[job.Clean(k)] {
			roots = append(roots, k)
			reach(job.Clean(k))
		}
	}
	for _, k := range kustomizations {
		if !reached[job.Clean(k)] {
			roots = append(roots, k)
			reach(job.Clean(k))
		}
	}
	slices.Sort(included)
	return roots, slices.Compact(included)
}

// Kustomize builds the kustomization in dir, as `kustomize build dir`
// would with its default options but fetching nothing and reading nothing
// outside the boundary, and returns the objects of the build placed in
// their source files (see the package documentation). A build that fails
// is one error, at the kustomization file; what would need the network is
// refused at the line that names it.
func (r *Renderer) Kustomize(dir string) ([]*manifest.Object, []*manifest.ReadError) {
	file := manifest.KustomizationFile(dir, nil)
	return r.placeBuild(dir, file, r.run(job.Request{Kustomize: true, Dir: dir}, file))
}

// placeBuild places the resources of a build of dir in their source
// files; errors are at file unless they name their own.
func (r *Renderer) placeBuild(dir, file string, resp job.Response) ([]*manifest.Object, []*manifest.ReadError) {
	sources := sourceFiles{boundary: r.Boundary, read: map[string][]*manifest.Object{}}
	for _, t := range resp.Inflated {
		// A chart's template is the source of what it rendered, placed
		// there as Helm's renders are.
		file := filepath.Join(dir, t.Name)
		if r.Boundary.Check(file) == nil {
			placed, _ := placeTemplate(file, []byte(t.Text)) // kustomize read it already
			sources.read[file] = append(sources.read[file], placed...)
		}
	}
	var objs []*manifest.Object
	errs := resp.Errors
	for _, b := range resp.Resources {
		o, err := place(b, dir, file, sources)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		objs = append(objs, o)
	}
	return objs, errs
}

// place turns b, one resource of a build, into the object it is, placed in
// the file it came from.
func place(b job.Built, dir, kustomization string, sources sourceFiles) (*manifest.Object, *manifest.ReadError) {
	file := kustomization
	switch {
	case b.Repo != "":
	case b.Path != "":
		file = filepath.Join(dir, b.Path)
	case b.ConfiguredIn != "":
		file = filepath.Join(dir, b.ConfiguredIn)
	}
	rendered, errs := manifest.Parse(file, []byte(b.YAML))
	if len(errs) > 0 || len(rendered) != 1 {
		return nil, &manifest.ReadError{File: file, Msg: fmt.Sprintf("kustomize build %s: its output for %s cannot be read", dir, b.ID)}
	}
	out := rendered[0]
	src := sources.find(file, b.Kind, b.Name, b.Namespace)
	if src == nil {
		return relocated(out, manifest.Source{File: file}, nil, func(string, manifest.KeyValue, manifest.Pos) manifest.KeyValue {
			return manifest.KeyValue{Key: firstLine, Value: firstLine}
		}), nil
	}
	same := sameValues(decoded(out), decoded(src))
	written := src.Positions.Written()
	return relocated(out, src.Source, src.Ignores, func(path string, _ manifest.KeyValue, parent manifest.Pos) manifest.KeyValue {
		if path == "" {
			return manifest.KeyValue{Key: src.Source.Pos, Value: src.Source.Pos}
		}
		if at, ok := written[path]; ok && same(path) {
			return at
		}
		return manifest.KeyValue{Key: parent, Value: parent}
	}), nil
}

// sourceFiles holds the source files read so far, by name; only those
// within the boundary are read.
type sourceFiles struct {
	boundary manifest.Boundary
	read     map[string][]*manifest.Object
}

// find returns the object of file with that kind and name, the name it
// has after the build: the one of that name, else the one whose name the
// build's name contains longest (a namePrefix, a nameSuffix or a
// generator's hash added to it). kustomize forgets the names it changed by
// the end of a build. Of two with the name, the one in the namespace.
// nil when there is none.
func (s sourceFiles) find(file, kind, name, namespace string) *manifest.Object {
	objs, ok := s.read[file]
	if !ok {
		if s.boundary.Check(file) == nil {
			objs, _ = manifest.Read([]string{file}, nil) // what cannot be read is placed at line 1
		}
		s.read[file] = objs
	}
	var best *manifest.Object
	bestLen, bestNS := -1, false
	for _, o := range objs {
		if o.Kind != kind {
			continue
		}
		n, ns := metadataName(o)
		if n == "" || !strings.Contains(name, n) {
			continue
		}
		inNS := ns == namespace
		if len(n) > bestLen || (len(n) == bestLen && inNS && !bestNS) {
			best, bestLen, bestNS = o, len(n), inNS
		}
	}
	return best
}
