package render

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/konfig"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/kustomize/kyaml/openapi"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// includingFields are the fields of a kustomization that name other
// kustomizations (directories) or resource files.
var includingFields = []string{"resources", "bases", "components"}

// fileFields are the other fields of a kustomization whose entries (a
// string, or an object's path) name files kustomize reads, and so may be
// URLs it would download: patches, the plugin configurations of
// transformers, generators and validators, CRD schemas, name-reference
// configurations and replacement sources.
var fileFields = []string{"patches", "patchesStrategicMerge", "patchesJson6902",
	"transformers", "generators", "validators", "crds", "configurations", "replacements"}

// remoteHelp says what becomes of a remote entry and how to have it
// checked.
const remoteHelp = "is remote: gwlint fetches nothing, so what it holds is unknown and the rest is built without it; vendor it into the repository to have it checked"

// mapValue is the value of key in mapping m, nil when m has none.
func mapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// includes is what one kustomization names in includingFields.
type includes struct {
	dirs  []string // local directories (kustomizations)
	files []string // local files
	// errs are errors, and notes (ReadError.Unknown) of what a build
	// leaves out: what kustomize would fetch.
	errs []*manifest.ReadError
}

// readIncludes reads the kustomization file of dir and sorts what its
// includingFields name: local directories, local files, and errors for
// what is neither here. kustomize would fetch a remote entry (a base, a
// patch) or a chart that helmCharts names and chartHome lacks over the
// network, which gwlint never uses: each is noted as unknown, and a build
// leaves it out (see offlineFS).
func readIncludes(dir string, b manifest.Boundary) includes {
	file := manifest.KustomizationFile(dir, nil)
	var inc includes
	data, err := readKustomization(file, b)
	if err != nil {
		inc.errs = append(inc.errs, asReadError(file, "", err))
		return inc
	}
	m := kustomizationMapping(data)
	if m == nil {
		return inc // kustomize reports what it cannot read
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		if key.Value == "helmCharts" {
			for _, c := range helmChartsOf(dir, m) {
				switch {
				case c.err != nil:
					inc.errs = append(inc.errs, &manifest.ReadError{File: file, Pos: manifest.Pos{Line: c.node.Line, Col: c.node.Column},
						Msg: "helmCharts: " + c.err.Error()})
				case !c.vendored(b):
					inc.errs = append(inc.errs, unknownAt(file, c.node, fmt.Sprintf(
						"helmCharts: chart %q is not in %s: kustomize would pull it, gwlint fetches nothing, so what it renders is unknown; vendor it there to have it checked",
						c.Name, c.shownDir())))
				}
			}
		}
		for _, item := range pathEntries(key.Value, val) {
			if slices.Contains(includingFields, key.Value) {
				inc.add(dir, file, item)
			} else {
				inc.refuseRemote(file, item)
			}
		}
	}
	return inc
}

// KustomizationPaths returns the local paths that a kustomization file
// (its text) names, relative to its directory: its resources, bases and
// components, and the files and kustomizations of its other fields
// (patches, generators, transformers, ...). A build reads files below
// the kustomization's directory and these, so they say which other parts
// of a repository a build needs.
func KustomizationPaths(data []byte) []string {
	m := kustomizationMapping(data)
	if m == nil {
		return nil
	}
	var paths []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		for _, item := range pathEntries(m.Content[i].Value, m.Content[i+1]) {
			if !remote(item.Value) {
				paths = append(paths, entryPath(item.Value))
			}
		}
	}
	return paths
}

// kustomizationMapping is the top-level mapping of a kustomization file,
// nil when it has none.
func kustomizationMapping(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// pathEntries returns the entries of a kustomization's field (its name
// and value) that name a path or a URL: the items of includingFields and
// fileFields (an object's path), openapi's path, the chart home and the
// values files of helmCharts. Other values are kustomize's to report.
func pathEntries(field string, val *yaml.Node) []*yaml.Node {
	var items []*yaml.Node
	switch {
	case slices.Contains(includingFields, field) && val.Kind == yaml.SequenceNode:
		items = slices.Clone(val.Content)
	case slices.Contains(fileFields, field) && val.Kind == yaml.SequenceNode:
		for _, item := range val.Content {
			if item.Kind == yaml.MappingNode {
				item = mapValue(item, "path")
			}
			items = append(items, item)
		}
	case field == "openapi" && val.Kind == yaml.MappingNode:
		items = append(items, mapValue(val, "path"))
	case field == "helmGlobals" && val.Kind == yaml.MappingNode:
		items = append(items, mapValue(val, "chartHome"))
	case field == "helmCharts" && val.Kind == yaml.SequenceNode:
		for _, c := range val.Content {
			items = append(items, helmChart{node: c}.valuesEntries()...)
		}
	case slices.Contains(generatorFields, field) && val.Kind == yaml.SequenceNode:
		for _, g := range val.Content {
			items = append(items, generatorSources(g)...)
		}
	}
	return slices.DeleteFunc(items, func(n *yaml.Node) bool {
		return n == nil || n.Kind != yaml.ScalarNode || n.Value == ""
	})
}

// generatorFields are the generators whose sources are files kustomize
// reads, or fetches: files and envs entries ("key=path" or "path") and
// the older env.
var generatorFields = []string{"configMapGenerator", "secretGenerator"}

// generatorSources are the nodes of a generator's files, envs and env.
func generatorSources(g *yaml.Node) []*yaml.Node {
	if g.Kind != yaml.MappingNode {
		return nil
	}
	var items []*yaml.Node
	for _, key := range []string{"files", "envs"} {
		if v := mapValue(g, key); v != nil && v.Kind == yaml.SequenceNode {
			items = append(items, v.Content...)
		}
	}
	if v := mapValue(g, "env"); v != nil {
		items = append(items, v)
	}
	return items
}

// entryPath is the path or URL an entry names: a generator's "key=path"
// less its key.
func entryPath(entry string) string {
	if key, path, ok := strings.Cut(entry, "="); ok && key != "" && !strings.ContainsAny(key, "/:?") {
		return path
	}
	return entry
}

// refuseRemote notes an entry that names a file kustomize would fetch.
func (inc *includes) refuseRemote(file string, item *yaml.Node) {
	if remote(item.Value) {
		inc.errs = append(inc.errs, unknownAt(file, item, fmt.Sprintf("%q %s", item.Value, remoteHelp)))
	}
}

// unknownAt is a note, at node n of file, of what a build leaves out.
func unknownAt(file string, n *yaml.Node, msg string) *manifest.ReadError {
	return &manifest.ReadError{File: file, Pos: manifest.Pos{Line: n.Line, Col: n.Column}, Msg: msg, Unknown: true}
}

// add sorts one entry of an including field.
func (inc *includes) add(dir, file string, item *yaml.Node) {
	p := filepath.Join(dir, item.Value)
	info, err := os.Stat(p)
	switch {
	case err == nil && info.IsDir():
		inc.dirs = append(inc.dirs, p)
	case err == nil:
		inc.files = append(inc.files, p)
	case remote(item.Value):
		inc.errs = append(inc.errs, unknownAt(file, item, fmt.Sprintf("%q %s", item.Value, remoteHelp)))
	default:
		inc.errs = append(inc.errs, &manifest.ReadError{File: file, Pos: manifest.Pos{Line: item.Line, Col: item.Column},
			Msg: fmt.Sprintf("%q is not a file or directory here", item.Value)})
	}
}

// remote reports whether a kustomization entry names something kustomize
// would fetch: a URL or a git repository.
func remote(entry string) bool {
	entry = entryPath(entry)
	for _, prefix := range []string{"http://", "https://", "git@", "git::", "ssh://", "file://", "oci://", "github.com/", "gitlab.com/", "bitbucket.org/"} {
		if strings.HasPrefix(entry, prefix) {
			return true
		}
	}
	return strings.Contains(entry, "?ref=") || strings.Contains(entry, ".git//")
}

// offline checks what building dir would fetch: it returns a note
// (ReadError.Unknown) for each remote entry and each chart to pull of the
// kustomizations it reaches, which the build leaves out, and an error for
// each entry that is neither local nor remote.
func offline(dir string, b manifest.Boundary) []*manifest.ReadError {
	var errs []*manifest.ReadError
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[filepath.Clean(dir)] || manifest.KustomizationFile(dir, nil) == "" {
			return // a directory without one is kustomize's to report
		}
		seen[filepath.Clean(dir)] = true
		inc := readIncludes(dir, b)
		errs = append(errs, inc.errs...)
		for _, d := range inc.dirs {
			visit(d)
		}
	}
	visit(dir)
	return errs
}

// Roots returns the kustomizations, of those given (read within the
// boundary b), that no other one
// includes: each is built and judged on its own, and the others through
// them (a base through its overlays). It also returns the resource files
// that the given kustomizations include, which their builds read, so a
// walk need not read them again.
//
// Kustomizations that include each other in a cycle, with none outside it
// including them, are roots too: kustomize refuses the cycle, and that
// error is reported rather than nothing being checked at all.
func Roots(kustomizations []string, b manifest.Boundary) (roots, included []string) {
	includedDir := map[string]bool{}
	dirs := map[string][]string{} // kustomization → the directories it includes
	for _, k := range kustomizations {
		inc := readIncludes(k, b)
		for _, d := range inc.dirs {
			includedDir[clean(d)] = true
			dirs[clean(k)] = append(dirs[clean(k)], clean(d))
		}
		for _, f := range inc.files {
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
		if !includedDir[clean(k)] {
			roots = append(roots, k)
			reach(clean(k))
		}
	}
	for _, k := range kustomizations {
		if !reached[clean(k)] {
			roots = append(roots, k)
			reach(clean(k))
		}
	}
	slices.Sort(included)
	return roots, slices.Compact(included)
}

// clean is a directory's absolute path, to compare directories named from
// different places.
func clean(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
}

// Kustomize builds the kustomization in dir, as `kustomize build dir`
// would with its default options but fetching nothing and reading nothing
// outside the boundary, and returns the objects of the build placed in
// their source files (see the package documentation). A build that fails
// is one error, at the kustomization file; what would need the network is
// refused at the line that names it.
func (r *Renderer) Kustomize(dir string) ([]*manifest.Object, []*manifest.ReadError) {
	file := manifest.KustomizationFile(dir, nil)
	return r.placeBuild(dir, file, r.run(request{Kustomize: true, Dir: dir}, file))
}

// placeBuild places the resources of a build of dir in their source
// files; errors are at file unless they name their own.
func (r *Renderer) placeBuild(dir, file string, resp response) ([]*manifest.Object, []*manifest.ReadError) {
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
		o, err := b.place(dir, file, sources)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		objs = append(objs, o)
	}
	return objs, errs
}

// built is one resource of a build, as a worker sends it.
type built struct {
	ID                    string // kustomize's resource id, for errors
	Kind, Name, Namespace string
	// The file it came from, relative to the kustomization built: Path, or
	// the generator's ConfiguredIn; neither when it came from elsewhere
	// (Repo).
	Path, ConfiguredIn, Repo string
	YAML                     string
}

// buildKustomization builds req.Dir inside a worker: everything that reads
// the kustomization's files and runs its generators and transformers
// happens here. It builds as Flux's kustomize-controller does (Flux's own
// Build: no load restriction of kustomize's, no plugins), and, for a Flux
// Kustomization (req.Flux), with the kustomization Flux generates for it
// and its post-build substitutions.
func buildKustomization(req request, b manifest.Boundary) response {
	dir := req.Dir
	file := manifest.KustomizationFile(dir, nil)
	notes := offline(dir, b)
	if slices.ContainsFunc(notes, func(e *manifest.ReadError) bool { return !e.Unknown }) {
		return response{Errors: notes}
	}
	var fsys filesys.FileSystem = boundedFS{FileSystem: filesys.MakeFsOnDisk(), boundary: b}
	if req.Flux != nil {
		generated, kfile, err := req.Flux.kustomization(dir)
		if err != nil {
			return failed(req.Flux.File, "flux: "+err.Error())
		}
		fsys = generatedFS{FileSystem: fsys, file: clean(kfile), data: generated}
		file = kfile
	}
	local := &offlineFS{FileSystem: fsys, boundary: b, output: req.Output, virtual: map[string]virtualFile{}, served: map[string][]byte{}}
	resources, err := fluxBuild(originFS{FileSystem: local, root: clean(file)}, dir)
	if err != nil && len(local.leftOut) > 0 && patchTargetMissing(err) {
		// A patch of what was left out cannot apply: build again without
		// the patches of the kustomizations that left something out.
		local = &offlineFS{FileSystem: fsys, boundary: b, output: req.Output, virtual: map[string]virtualFile{}, served: map[string][]byte{}, dropPatches: true}
		if resources, err = fluxBuild(originFS{FileSystem: local, root: clean(file)}, dir); err == nil {
			for _, kfile := range local.leftOut {
				notes = append(notes, &manifest.ReadError{File: kfile, Unknown: true,
					Msg: "its patches are not applied: they target what a remote entry or an unvendored chart would create, which is unknown"})
			}
		}
	}
	errorFile := file
	if req.Flux != nil {
		errorFile = req.Flux.File // a generated kustomization is in no file
	}
	resp := response{Errors: append(notes, local.errs...)}
	if err != nil {
		resp.Errors = append(resp.Errors, asReadError(errorFile, "kustomize build: ", err))
		return resp
	}
	var subst *substitution
	if req.Flux != nil {
		if subst, err = req.Flux.substitution(resources.Resources()); err != nil {
			return failed(errorFile, "flux: "+err.Error())
		}
	}
	size := 0
	for _, abs := range slices.Sorted(maps.Keys(local.virtual)) {
		v := local.virtual[abs]
		size += len(v.text)
		resp.Inflated = append(resp.Inflated, template{Name: relativeTo(dir, v.template), Text: string(v.text)})
	}
	for _, res := range resources.Resources() {
		origin, err := res.GetOrigin()
		if err == nil {
			err = res.SetOrigin(nil)
		}
		if err == nil && subst != nil {
			err = subst.apply(res)
		}
		var data []byte
		if err == nil {
			data, err = res.AsYAML()
		}
		if err != nil {
			return failed(errorFile, "kustomize build: "+err.Error())
		}
		if size += len(data); size > req.Output {
			return failed(errorFile, fmt.Sprintf("kustomize build: the build is larger than %d MiB, the limit of one render", req.Output>>20))
		}
		out := built{ID: res.CurId().String(), Kind: res.GetKind(), Name: res.GetName(), Namespace: res.GetNamespace(), YAML: string(data)}
		if origin != nil {
			out.Path, out.ConfiguredIn, out.Repo = origin.Path, origin.ConfiguredIn, origin.Repo
			if v, ok := local.virtual[clean(filepath.Join(dir, origin.Path))]; ok {
				// A template of a chart of helmCharts.
				out.Path = relativeTo(dir, v.template)
			}
		}
		resp.Resources = append(resp.Resources, out)
	}
	return resp
}

// relativeTo is the absolute path p relative to dir, as a build's origin
// annotations name the files they came from.
func relativeTo(dir, p string) string {
	if rel, err := filepath.Rel(clean(dir), p); err == nil {
		return rel
	}
	return p
}

// fluxBuild builds dir as Flux's kustomize.Build does, with the same
// options: no load restriction of kustomize's own (the boundary, in
// boundedFS, is the restriction: the repository, not the kustomization's
// directory) and no plugins but the built-in ones. Like it, no build sees
// the OpenAPI schema another one chose (its openapi field); unlike it, the
// built-in schema is not parsed again for every build (a tenth of a second
// each), only after a build that chose another.
func fluxBuild(fs filesys.FileSystem, dir string) (resources resmap.ResMap, err error) {
	defer func() {
		// kustomize panics on some invalid input, as Flux's Build knows.
		if v := recover(); v != nil {
			err = fmt.Errorf("kustomize panicked: %v", v)
		}
		if openapi.GetSchemaVersion() != openapi.DefaultOpenAPI {
			openapi.ResetOpenAPI()
		}
	}()
	return krusty.MakeKustomizer(&krusty.Options{
		LoadRestrictions: types.LoadRestrictionsNone,
		PluginConfig:     types.DisabledPluginConfig(),
	}).Run(fs, dir)
}

// place turns one resource of a build into the object it is, placed in
// the file it came from.
func (b built) place(dir, kustomization string, sources sourceFiles) (*manifest.Object, *manifest.ReadError) {
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

// originFS is the file system with one change: the root kustomization asks
// for origin annotations (buildMetadata: [originAnnotations]), which say
// which file each resource came from. kustomize passes the setting on to
// every kustomization the root includes.
type originFS struct {
	filesys.FileSystem
	root string // absolute path of the root kustomization file
}

func (f originFS) ReadFile(path string) ([]byte, error) {
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || clean(path) != f.root {
		return data, err
	}
	// Edited as a node tree, not a map, so that every other value keeps
	// its text (a map turns newTag: 1.10 into 1.1).
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return data, nil // kustomize reports it
	}
	top := doc.Content[0]
	var meta *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		if top.Content[i].Value == "buildMetadata" {
			meta = top.Content[i+1]
		}
	}
	origin := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: types.OriginAnnotations}
	switch {
	case meta == nil:
		top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "buildMetadata"},
			&yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{origin}})
	case meta.Kind != yaml.SequenceNode:
		return data, nil // kustomize reports it
	case !slices.ContainsFunc(meta.Content, func(n *yaml.Node) bool { return n.Value == types.OriginAnnotations }):
		meta.Content = append(meta.Content, origin)
	}
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return data, nil
	}
	return out, nil
}

// disconnect makes the process's HTTP clients on the default transport, and
// its host name lookups, fail: a render must not reach the network from a
// CI runner, whatever a chart or a kustomization names (kustomize's remote
// bases and files are refused before, at their line). It is called once,
// in a worker, before its first render.
func disconnect() {
	http.DefaultTransport = offlineTransport{}
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errOffline
	}}
}

var errOffline = errors.New("gwlint fetches nothing")

// offlineFS serves each kustomization file as a build without the network
// reads it: without the entries that are remote (which offline notes as
// unknown), and with its helmCharts whose chart is vendored inflated into
// files it lists among its resources (the others are noted by offline),
// since kustomize would run helm, and pull charts, to inflate them.
// The rest of each file is as written.
type offlineFS struct {
	filesys.FileSystem
	boundary manifest.Boundary
	output   int                    // the limit of one render's text
	virtual  map[string]virtualFile // the rendered templates, by absolute path
	served   map[string][]byte      // the kustomization files, edited, by absolute path
	errs     []*manifest.ReadError  // the charts that failed to render
	// leftOut are the kustomization files it left something out of.
	leftOut []string
	// dropPatches leaves out the patches of those files too.
	dropPatches bool
}

func (f *offlineFS) ReadFile(path string) ([]byte, error) {
	abs := clean(path)
	if v, ok := f.virtual[abs]; ok {
		return slices.Clone(v.text), nil
	}
	if data, ok := f.served[abs]; ok {
		return slices.Clone(data), nil
	}
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || !slices.Contains(konfig.RecognizedKustomizationFileNames(), filepath.Base(path)) {
		return data, err
	}
	data = f.localize(abs, data)
	f.served[abs] = data
	return slices.Clone(data), nil
}

func (f *offlineFS) Exists(path string) bool {
	_, ok := f.virtual[clean(path)]
	return ok || f.FileSystem.Exists(path)
}

// localize edits the kustomization file kfile (absolute) as offlineFS
// serves it.
func (f *offlineFS) localize(kfile string, data []byte) []byte {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return data // kustomize reports it
	}
	m := doc.Content[0]
	var drop []string
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i].Value, m.Content[i+1]
		switch {
		case key == "openapi" && slices.ContainsFunc(pathEntries(key, val), isRemote):
			drop = append(drop, key) // kustomize's built-in schema
		case key == "helmCharts":
			drop = append(drop, key, "helmGlobals")
		case slices.Contains(generatorFields, key) && val.Kind == yaml.SequenceNode:
			for _, g := range val.Content {
				if g.Kind != yaml.MappingNode {
					continue
				}
				for _, field := range []string{"files", "envs"} {
					if v := mapValue(g, field); v != nil && v.Kind == yaml.SequenceNode {
						n := len(v.Content)
						v.Content = slices.DeleteFunc(v.Content, isRemote)
						if len(v.Content) != n {
							drop = append(drop, "") // changed
						}
					}
				}
			}
		case (slices.Contains(includingFields, key) || slices.Contains(fileFields, key)) && val.Kind == yaml.SequenceNode:
			n := len(val.Content)
			val.Content = slices.DeleteFunc(val.Content, func(item *yaml.Node) bool {
				if item.Kind == yaml.MappingNode {
					item = mapValue(item, "path")
				}
				return item != nil && isRemote(item)
			})
			if len(val.Content) != n {
				drop = append(drop, "") // changed
			}
		}
	}
	if len(drop) == 0 {
		return data
	}
	f.leftOut = append(f.leftOut, kfile)
	if f.dropPatches {
		drop = append(drop, "patches", "patchesStrategicMerge", "patchesJson6902", "replacements")
	}
	// A resources field, empty if need be: kustomize refuses a
	// kustomization left with nothing as empty, where what it named is
	// unknown, not missing.
	resources := mapValue(m, "resources")
	if resources == nil {
		resources = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Style: yaml.FlowStyle}
		m.Content = append(m.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: "resources"}, resources)
	}
	if slices.Contains(drop, "helmCharts") {
		for _, name := range f.inflate(kfile, m) {
			resources.Content = append(resources.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: name})
		}
	}
	kept := m.Content[:0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if !slices.Contains(drop, m.Content[i].Value) {
			kept = append(kept, m.Content[i], m.Content[i+1])
		}
	}
	m.Content = kept
	out, err := yaml.Marshal(&doc)
	if err != nil {
		return data
	}
	return out
}

// inflate renders the vendored charts of the kustomization file kfile
// (its top-level mapping m) and returns the files, relative to kfile's
// directory, that stand for the charts' templates, sorted.
func (f *offlineFS) inflate(kfile string, m *yaml.Node) []string {
	var names []string
	for _, c := range helmChartsOf(filepath.Dir(kfile), m) {
		if c.err != nil || !c.vendored(f.boundary) || slices.ContainsFunc(c.valuesEntries(), isRemote) {
			continue // offline says why
		}
		files, errs := c.inflate(kfile, f.boundary, f.output)
		f.errs = append(f.errs, errs...)
		for name, v := range files {
			f.virtual[filepath.Join(c.kdir, name)] = v
			names = append(names, filepath.ToSlash(name))
		}
	}
	slices.Sort(names)
	return names
}

// patchTargetMissing reports whether a build failed because a patch or a
// replacement found nothing to apply to.
func patchTargetMissing(err error) bool {
	msg := err.Error()
	for _, s := range []string{"failed to find unique target for patch", "no matches for Id", "no resource matches strategic merge patch", "nothing selected by"} {
		if strings.Contains(msg, s) {
			return true
		}
	}
	return false
}

// isRemote reports whether an entry's node names something kustomize
// would fetch.
func isRemote(n *yaml.Node) bool { return remote(n.Value) }

type offlineTransport struct{}

func (offlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), errOffline)
}

// maxKustomization bounds a kustomization file: real ones are a few
// kilobytes, and each is read whole, as a tree, before kustomize runs.
const maxKustomization = 1 << 20

// readKustomization reads a kustomization file within the boundary.
func readKustomization(file string, b manifest.Boundary) ([]byte, error) {
	if err := b.Check(file); err != nil {
		return nil, &manifest.ReadError{File: file, Msg: err.Error()}
	}
	info, err := os.Stat(file)
	if err != nil {
		return nil, err
	}
	if info.Size() > maxKustomization {
		return nil, &manifest.ReadError{File: file, Msg: fmt.Sprintf("a kustomization file larger than %d MiB", maxKustomization>>20)}
	}
	return os.ReadFile(file)
}

// boundedFS is the file system a build reads: only within the boundary,
// manifest-sized files whose aliases do not explode, and no writes.
type boundedFS struct {
	filesys.FileSystem
	boundary manifest.Boundary
}

// refuse is the error for path when it is outside the boundary.
func (f boundedFS) refuse(path string) error {
	if err := f.boundary.Check(path); err != nil {
		return &manifest.ReadError{File: path, Msg: err.Error()}
	}
	return nil
}

func (f boundedFS) ReadFile(path string) ([]byte, error) {
	if err := f.refuse(path); err != nil {
		return nil, err
	}
	if info, err := os.Stat(path); err == nil && !info.Mode().IsRegular() {
		return nil, &manifest.ReadError{File: path, Msg: "not a regular file"}
	} else if err == nil && info.Size() > manifest.MaxFileSize {
		return nil, &manifest.ReadError{File: path, Msg: fmt.Sprintf("file is larger than %d MiB", manifest.MaxFileSize>>20)}
	}
	data, err := f.FileSystem.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if e := manifest.CheckAliases(path, data); e != nil {
		return nil, e
	}
	return data, nil
}

func (f boundedFS) Open(path string) (filesys.File, error) {
	if err := f.refuse(path); err != nil {
		return nil, err
	}
	return f.FileSystem.Open(path)
}

func (f boundedFS) ReadDir(path string) ([]string, error) {
	if err := f.refuse(path); err != nil {
		return nil, err
	}
	return f.FileSystem.ReadDir(path)
}

func (f boundedFS) Walk(path string, walkFn filepath.WalkFunc) error {
	if err := f.refuse(path); err != nil {
		return err
	}
	return f.FileSystem.Walk(path, walkFn)
}

// Glob lists only what is within the boundary: names are a leak too.
func (f boundedFS) Glob(pattern string) ([]string, error) {
	found, err := f.FileSystem.Glob(pattern)
	return slices.DeleteFunc(found, func(p string) bool { return f.boundary.Check(p) != nil }), err
}

func (f boundedFS) IsDir(path string) bool {
	return f.boundary.Check(path) == nil && f.FileSystem.IsDir(path)
}

func (f boundedFS) Exists(path string) bool {
	return f.boundary.Check(path) == nil && f.FileSystem.Exists(path)
}

// errReadOnly: a build only reads.
var errReadOnly = errors.New("gwlint builds read only: nothing is written")

func (boundedFS) Create(string) (filesys.File, error) { return nil, errReadOnly }
func (boundedFS) Mkdir(string) error                  { return errReadOnly }
func (boundedFS) MkdirAll(string) error               { return errReadOnly }
func (boundedFS) RemoveAll(string) error              { return errReadOnly }
func (boundedFS) WriteFile(string, []byte) error      { return errReadOnly }
