package worker

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
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
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// offline checks what building dir would fetch: it returns a note
// (ReadError.Unknown) for each remote entry and each chart to pull of the
// kustomizations it reaches, which the build leaves out, for each plugin
// that needs a flag it leaves out (job.FlaggedPlugin) unless
// refusesPlugins, and for each entry git leaves out of the repository
// (also returned in ignored), and an error for each entry that is none of
// these and not there.
func offline(dir string, b manifest.Boundary, refusesPlugins bool) (notes []*manifest.ReadError, ignored []string) {
	seen := map[string]bool{}
	var visit func(dir string)
	visit = func(dir string) {
		if seen[filepath.Clean(dir)] || manifest.KustomizationFile(dir, nil) == "" {
			return // a directory without one is kustomize's to report
		}
		seen[filepath.Clean(dir)] = true
		inc := job.ReadIncludes(dir, b)
		notes, ignored = append(notes, inc.Errs...), append(ignored, inc.Ignored...)
		if !refusesPlugins {
			notes = append(notes, inc.Plugins...)
		}
		for _, d := range inc.Dirs {
			visit(d)
		}
	}
	visit(dir)
	return notes, ignored
}

// buildKustomization builds req.Dir inside a worker: everything that reads
// the kustomization's files and runs its generators and transformers
// happens here. It builds as Flux's kustomize-controller does (Flux's own
// Build: no load restriction of kustomize's, no plugins), and, for a Flux
// Kustomization (req.Flux), with the kustomization Flux generates for it
// and its post-build substitutions.
func buildKustomization(req job.Request, b manifest.Boundary) job.Response {
	dir := req.Dir
	file := manifest.KustomizationFile(dir, nil)
	// Flux runs no plugin that needs a flag; another deployer may
	// (leavesOutPlugin).
	fluxOnly := req.Flux != nil && !req.Flux.ArgoCD
	notes, ignored := offline(dir, b, fluxOnly)
	if slices.ContainsFunc(notes, func(e *manifest.ReadError) bool { return !e.Unknown }) {
		return job.Response{Errors: notes}
	}
	var fsys filesys.FileSystem = boundedFS{FileSystem: filesys.MakeFsOnDisk(), boundary: b}
	if req.Flux != nil {
		generated, kfile, err := fluxKustomization(req.Flux, dir)
		if err != nil {
			return job.Failed(req.Flux.File, "flux: "+err.Error())
		}
		fsys = generatedFS{FileSystem: fsys, file: job.Clean(kfile), data: generated}
		file = kfile
	}
	local := &offlineFS{FileSystem: fsys, boundary: b, output: req.Output, virtual: map[string]virtualFile{}, served: map[string][]byte{}, refusesPlugins: fluxOnly}
	resources, err := fluxBuild(originFS{FileSystem: local, root: job.Clean(file)}, dir)
	if err != nil && len(local.leftOut) > 0 && patchTargetMissing(err) {
		// A patch of what was left out cannot apply: build again without
		// the patches of the kustomizations that left something out.
		local = &offlineFS{FileSystem: fsys, boundary: b, output: req.Output, virtual: map[string]virtualFile{}, served: map[string][]byte{}, refusesPlugins: fluxOnly, dropPatches: true}
		if resources, err = fluxBuild(originFS{FileSystem: local, root: job.Clean(file)}, dir); err == nil {
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
	resp := job.Response{Errors: append(notes, local.errs...)}
	if err != nil {
		e := job.AsReadError(errorFile, "kustomize build: ", stable(err))
		switch {
		case len(ignored) > 0:
			// Kustomize refuses a build whose file is not there; where
			// the repository leaves it out on purpose, what the build
			// gives is unknown, not wrong.
			e.Unknown = true
			e.Msg = fmt.Sprintf("cannot be built without %s, which .gitignore leaves out of the repository (%s): what it builds is unknown",
				relativeTo(dir, job.Clean(ignored[0])), e.Msg)
		case req.Flux == nil && toolTemplate(file, b):
			// No deployer builds it, and no one would before that tool
			// renders it (boilerplate's {{ .app_name }}).
			e.Unknown = true
			e.Msg = "the kustomization is another tool's template ({{ }} that Helm does not render), which kustomize cannot read until that tool renders it (" + e.Msg + "): what it builds is unknown"
		case !fluxOnly && pluginsRefused(err):
			// Another deployer may run it (see leavesOutPlugin); a
			// transformer changes what the rest gives.
			e.Unknown = true
			e.Msg = "it runs a plugin that kustomize runs only with a flag (--enable-alpha-plugins, --enable-helm), and gwlint never runs (" + e.Msg + "): what it builds is unknown"
		case pluginsRefused(err):
			e.Msg += "; Flux's kustomize-controller sets neither --enable-alpha-plugins nor --enable-helm"
		case req.Flux == nil && job.IsComponent(dir, b):
			// A component built as a root is one that no kustomization
			// of the inputs includes: built alone, it has no base for
			// its generators to merge into or its patches to apply to.
			e.Unknown = true
			e.Msg = "a component that no kustomization of the inputs includes fails to build alone (" + e.Msg + "): what it adds is known only where a kustomization includes it"
		}
		resp.Errors = append(resp.Errors, e)
		return resp
	}
	var subst *substitution
	if req.Flux != nil {
		if subst, err = newSubstitution(req.Flux, resources.Resources()); err != nil {
			return job.Failed(errorFile, "flux: "+err.Error())
		}
	}
	size := 0
	for _, abs := range slices.Sorted(maps.Keys(local.virtual)) {
		v := local.virtual[abs]
		size += len(v.text)
		resp.Inflated = append(resp.Inflated, job.Template{Name: relativeTo(dir, v.template), Text: string(v.text)})
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
			return job.Failed(errorFile, "kustomize build: "+stable(err).Error())
		}
		if size += len(data); size > req.Output {
			return job.Failed(errorFile, fmt.Sprintf("kustomize build: the build is larger than %d MiB, the limit of one render", req.Output>>20))
		}
		out := job.Built{ID: res.CurId().String(), Kind: res.GetKind(), Name: res.GetName(), Namespace: res.GetNamespace(), YAML: string(data)}
		if origin != nil {
			out.Path, out.ConfiguredIn, out.Repo = origin.Path, origin.ConfiguredIn, origin.Repo
			if v, ok := local.virtual[job.Clean(filepath.Join(dir, origin.Path))]; ok {
				// A template of a chart of helmCharts.
				out.Path = relativeTo(dir, v.template)
			}
		}
		resp.Resources = append(resp.Resources, out)
	}
	return resp
}

// toolTemplate reports whether the kustomization file is another tool's
// template (see manifest.ToolTemplate).
func toolTemplate(file string, b manifest.Boundary) bool {
	data, err := job.ReadBounded(file, b)
	return err == nil && manifest.ToolTemplate(data)
}

// relativeTo is the absolute path p relative to dir, as a build's origin
// annotations name the files they came from.
func relativeTo(dir, p string) string {
	if rel, err := filepath.Rel(job.Clean(dir), p); err == nil {
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
	if err != nil || job.Clean(path) != f.root {
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

// goPointers are Go's rendering of a struct of pointers, which kustomize
// prints in some errors ("merging from generator &{0xc000123 0xc000456}").
var goPointers = regexp.MustCompile(` ?&\{0x[0-9a-f]+(?: 0x[0-9a-f]+)*\}`)

// stable is err without the pointers kustomize prints: they differ in every
// run, and gwlint's output must not.
func stable(err error) error {
	var re *manifest.ReadError
	if errors.As(err, &re) || !goPointers.MatchString(err.Error()) {
		return err
	}
	return errors.New(goPointers.ReplaceAllString(err.Error(), ""))
}

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
	// refusesPlugins is set for a Flux Kustomization's build, which runs no
	// plugin that needs a flag (job.FlaggedPlugin): one fails it, as it
	// fails kustomize-controller's.
	refusesPlugins bool
	// leftOut are the kustomization files it left something out of.
	leftOut []string
	// dropPatches leaves out the patches of those files too.
	dropPatches bool
}

func (f *offlineFS) ReadFile(path string) ([]byte, error) {
	abs := job.Clean(path)
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
	_, ok := f.virtual[job.Clean(path)]
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
		case key == "openapi" && slices.ContainsFunc(job.PathEntries(key, val), isRemote):
			drop = append(drop, key) // kustomize's built-in schema
		case key == "helmCharts":
			drop = append(drop, key, "helmGlobals")
		case slices.Contains(job.GeneratorFields, key) && val.Kind == yaml.SequenceNode:
			for _, g := range val.Content {
				if g.Kind != yaml.MappingNode {
					continue
				}
				for _, field := range []string{"files", "envs"} {
					if v := job.MapValue(g, field); v != nil && v.Kind == yaml.SequenceNode {
						n := len(v.Content)
						v.Content = slices.DeleteFunc(v.Content, isRemote)
						if len(v.Content) != n {
							drop = append(drop, "") // changed
						}
					}
				}
			}
		case (slices.Contains(job.IncludingFields, key) || slices.Contains(job.FileFields, key)) && val.Kind == yaml.SequenceNode:
			n := len(val.Content)
			val.Content = slices.DeleteFunc(val.Content, func(item *yaml.Node) bool {
				if item.Kind == yaml.MappingNode {
					item = job.MapValue(item, "path")
				}
				return item != nil && (isRemote(item) || f.leavesOutPlugin(kfile, key, item))
			})
			if len(val.Content) != n {
				drop = append(drop, "") // changed
			}
		}
	}
	if len(drop) == 0 {
		return data
	}
	// An entry left out may hold an anchor that another field names
	// (`releaseName: &name web` in helmCharts, `*name` in
	// commonAnnotations): the aliases become what they stand for.
	if !expandAliases(m, maxExpandedNodes) {
		return data // kustomize reports the aliases it cannot follow
	}
	f.leftOut = append(f.leftOut, kfile)
	if f.dropPatches {
		drop = append(drop, "patches", "patchesStrategicMerge", "patchesJson6902", "replacements")
	}
	// A resources field, empty if need be: kustomize refuses a
	// kustomization left with nothing as empty, where what it named is
	// unknown, not missing.
	resources := job.MapValue(m, "resources")
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

// leavesOutPlugin reports whether an entry of field of the kustomization
// file kfile configures a plugin that kustomize runs only with a flag
// (job.FlaggedPlugin), which the build leaves out (offline notes it). A
// deployer other than Flux may run such a plugin (Argo CD with
// --enable-alpha-plugins in its kustomize.buildOptions runs ksops, which
// decrypts SOPS files into Secrets); gwlint runs none, so what a generator
// gives is unknown, and the rest is still built.
func (f *offlineFS) leavesOutPlugin(kfile, field string, entry *yaml.Node) bool {
	if f.refusesPlugins || job.LeftOutPlugin(field) == "" {
		return false
	}
	_, ok := job.PluginNeedingFlag(filepath.Dir(kfile), entry, f.boundary)
	return ok
}

// pluginsRefused reports whether a build failed on a plugin kustomize runs
// only with a flag (a transformer's, or one a generators directory holds).
func pluginsRefused(err error) bool {
	return strings.Contains(err.Error(), "external plugins disabled") || strings.Contains(err.Error(), "must specify --enable-helm")
}

// maxExpandedNodes bounds what expandAliases may write: a kustomization
// file is small, and aliases of aliases can stand for billions of nodes.
const maxExpandedNodes = 100_000

// expandAliases replaces each alias below n by a copy of the node it names,
// and drops the anchors, within a budget of nodes; false when it runs out.
// A tree without aliases is left as it is, whatever its size.
func expandAliases(n *yaml.Node, budget int) bool {
	if !hasAlias(n) {
		return true
	}
	var expand func(n *yaml.Node) bool
	expand = func(n *yaml.Node) bool {
		if budget--; budget < 0 {
			return false
		}
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			target := *n.Alias
			target.Content = slices.Clone(target.Content)
			*n = target
		}
		n.Anchor = ""
		for i, c := range n.Content {
			// A copy: one node may be named by several aliases.
			cp := *c
			n.Content[i] = &cp
			if !expand(&cp) {
				return false
			}
		}
		return true
	}
	return expand(n)
}

// hasAlias reports whether any node below n is an alias.
func hasAlias(n *yaml.Node) bool {
	return n.Kind == yaml.AliasNode || slices.ContainsFunc(n.Content, hasAlias)
}

// inflate renders the vendored charts of the kustomization file kfile
// (its top-level mapping m) and returns the files, relative to kfile's
// directory, that stand for the charts' templates, sorted.
func (f *offlineFS) inflate(kfile string, m *yaml.Node) []string {
	var names []string
	for _, c := range job.HelmChartsOf(filepath.Dir(kfile), m) {
		if c.Err != nil || !c.Vendored(f.boundary) || slices.ContainsFunc(c.ValuesEntries(), isRemote) {
			continue // offline says why
		}
		files, errs := inflate(c, kfile, f.boundary, f.output)
		f.errs = append(f.errs, errs...)
		for name, v := range files {
			f.virtual[filepath.Join(c.Dir, name)] = v
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
func isRemote(n *yaml.Node) bool { return job.Remote(n.Value) }

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

func (boundedFS) Mkdir(string) error { return errReadOnly }

func (boundedFS) MkdirAll(string) error { return errReadOnly }

func (boundedFS) RemoveAll(string) error { return errReadOnly }

func (boundedFS) WriteFile(string, []byte) error { return errReadOnly }
