package gitops

import (
	"bytes"
	"cmp"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gwlint/gwlint/internal/parallel"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// API groups whose objects say how a repository is deployed.
const (
	groupFluxKustomize = "kustomize.toolkit.fluxcd.io"
	groupFluxHelm      = "helm.toolkit.fluxcd.io"
	groupFluxSource    = "source.toolkit.fluxcd.io"
	// groupExternalSecrets is External Secrets Operator's.
	groupExternalSecrets = "external-secrets.io"
)

// Keep reports whether assembly needs an object as read
// (resolve.Options.Keep): Flux's Kustomizations, HelmReleases and sources,
// the ConfigMaps and Secrets their substitutions and values come from (and
// the ExternalSecrets that make such Secrets), and Argo CD's Applications
// and ApplicationSets.
func Keep(o *manifest.Object) bool {
	group, _, _ := strings.Cut(o.APIVersion, "/")
	switch group {
	case groupFluxKustomize, groupFluxHelm, groupFluxSource, groupArgo:
		return true
	case groupExternalSecrets:
		return o.Kind == "ExternalSecret"
	}
	return o.APIVersion == "v1" && (o.Kind == "ConfigMap" || o.Kind == "Secret")
}

// Unit is what part of the inputs is read as, before assembly: the plain
// files and charts (Root ""), loaded already (In), or one root
// kustomization (Root its directory), which Load builds when it is needed:
// one that a Flux Kustomization builds is not built on its own. Each is
// loaded with Options.Keep set to Keep.
type Unit struct {
	Root string
	In   *resolve.Inputs
	Load func() *resolve.Inputs
}

// loadAll loads the units that are not loaded yet, in parallel.
func loadAll(units []*Unit) {
	var todo []*Unit
	for _, u := range units {
		if u.In == nil {
			todo = append(todo, u)
		}
	}
	parallel.For(len(todo), func(i int) { todo[i].In = todo[i].Load() })
}

// Assembler assembles the worlds of a repository.
type Assembler struct {
	// Renderer builds the Kustomizations; its boundary's roots are the
	// repositories their spec.path is relative to.
	Renderer *render.Renderer
	// Options load what the builds produce; Keep is set to Keep.
	Options resolve.Options
	// Charts are local copies of the charts HelmReleases install from
	// outside the repository: chart reference → directory (see
	// lint.Config.Charts).
	Charts map[string]string
	// Included are the files that the root kustomizations among the units
	// include, which their builds read: the Flux Kustomizations among them
	// say, before any build, which root kustomizations another builds.
	Included []string
	// Partial says that the units are a part of a repository: an entry
	// point may then be one that a Kustomization outside them builds, and
	// patches (as a cluster-apps Kustomization adds substituteFrom to
	// every app's), so the variables its own postBuild does not set are
	// unknown rather than empty.
	Partial bool
}

// Assemble returns the worlds units deploy, each to be resolved on its
// own: one per Flux entry point's folder (see the package
// documentation), then the units, less what the clusters hold, as they
// were. Without Flux Kustomizations among the units, they are the worlds,
// unchanged.
func (a *Assembler) Assemble(units []*Unit) []*resolve.Inputs {
	a.Options.Keep = Keep
	b := &builder{a: a, vars: values{}, sources: sources{}, done: map[string]*build{}}
	var candidates []deployer
	seen := map[string]bool{}
	found := func(units []*Unit) {
		for _, u := range units {
			b.vars.add(u.In.Kept)
			b.sources.add(u.In.Kept)
			for _, d := range deployers(u.In.Kept, u.Root) {
				if !seen[d.identity()] {
					seen[d.identity()] = true
					candidates = append(candidates, d)
				}
			}
		}
	}
	// The plain files first: a root kustomization within the spec.path of
	// a Kustomization they hold, or that another root kustomization's
	// files hold (ahead), is most likely built by it, and is built on its
	// own only if it is not.
	var loaded, deferred []*Unit
	for _, u := range units {
		if u.In != nil {
			loaded = append(loaded, u)
		}
	}
	found(loaded)
	// Which GitRepository is this repository is guessed from every
	// Kustomization known, those that will be built too.
	ahead, aheadSources := a.ahead()
	b.sources.add(aheadSources)
	known := func() []deployer {
		ids := map[string]bool{}
		for _, d := range candidates {
			ids[d.identity()] = true
		}
		return append(slices.Clone(candidates), slices.DeleteFunc(slices.Clone(ahead), func(d deployer) bool { return ids[d.identity()] })...)
	}
	b.thisSource = mostUsedSource(known())
	var roots, pending []*Unit
	for _, u := range units {
		switch {
		case u.In != nil:
		case b.withinPath(absolute(u.Root), candidates):
			deferred = append(deferred, u)
		default:
			pending = append(pending, u)
		}
	}
	later := b.builtByOthers(pending, ahead)
	for _, u := range pending {
		if later[u] {
			deferred = append(deferred, u)
		} else {
			roots = append(roots, u)
		}
	}
	loadAll(roots)
	found(roots)
	b.thisSource = mostUsedSource(known())
	if len(candidates) == 0 {
		loadAll(deferred)
		worlds := make([]*resolve.Inputs, len(units))
		for i, u := range units {
			worlds[i] = u.In
		}
		return worlds
	}
	covered := &coverage{files: map[string]bool{}, groups: map[string]*resolve.Inputs{}}
	reached := map[string]bool{}
	worlds := b.clusters(candidates, reached, covered)
	// What was deferred but not built after all is built on its own, and
	// the clusters of what it deploys join the others.
	deferred = slices.DeleteFunc(deferred, func(u *Unit) bool { return covered.builtWithin(absolute(u.Root)) })
	loadAll(deferred)
	n := len(candidates)
	found(deferred)
	more := slices.DeleteFunc(slices.Clone(candidates[n:]), func(k deployer) bool { return reached[k.identity()] })
	worlds = append(worlds, b.clusters(more, reached, covered)...)
	return append(worlds, covered.rest(units)...)
}

// clusters builds the worlds of candidates, one per folder of entry
// points. Entry points are the Kustomizations no other one builds. Those
// whose file is within another's spec.path are most likely built by it,
// so the others go first; what their clusters do not reach is an entry
// point of its own in the next round. Each Kustomization is then built
// once, as its parent's build gives it.
func (b *builder) clusters(candidates []deployer, reached map[string]bool, covered *coverage) []*resolve.Inputs {
	groups := map[string][]deployer{}
	var order []string
	for pending := candidates; len(pending) > 0; {
		var entries, rest []deployer
		for _, k := range pending {
			if b.insideAnother(k, pending) {
				rest = append(rest, k)
			} else {
				entries = append(entries, k)
			}
		}
		if len(entries) == 0 { // they build each other in a cycle
			entries, rest = rest[:1], rest[1:]
		}
		found := make([]map[string]bool, len(entries))
		for i, k := range entries {
			if k, ok := k.(*kustomization); ok {
				k.entry = true
			}
			found[i] = b.reach(k, reached)
		}
		for i, k := range entries {
			if builtByAnother(i, entries, found) {
				if k, ok := k.(*kustomization); ok {
					k.entry = false
				}
				continue
			}
			g := k.folder()
			if groups[g] == nil {
				order = append(order, g)
			}
			groups[g] = append(groups[g], k)
		}
		pending = slices.DeleteFunc(rest, func(k deployer) bool { return reached[k.identity()] })
	}
	slices.Sort(order)
	var worlds []*resolve.Inputs
	for _, g := range order {
		w := b.cluster(groups[g], covered)
		covered.groups[absolute(g)] = w
		worlds = append(worlds, w)
	}
	return worlds
}

// ahead are the Flux Kustomizations of the files that the root
// kustomizations include (Assembler.Included), read as they are written,
// before any build, with the Flux sources there: which root kustomizations
// another's build holds. Only a file that names a Flux group is read.
func (a *Assembler) ahead() ([]deployer, []*manifest.Object) {
	var files []string
	for _, f := range a.Included {
		if data, err := os.ReadFile(f); err == nil && bytes.Contains(data, []byte("toolkit.fluxcd.io")) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		return nil, nil
	}
	kept := resolve.Load(files, nil, a.Options).Kept
	return deployers(kept, ""), kept
}

// builtByOthers are the root kustomizations of units that another's build
// most likely holds, so that they need not be built on their own first: a
// unit is within the spec.path of a Kustomization of ahead that another
// unit holds, and that unit is built, or held in turn by one that is. A
// unit no one holds is built; so is one of a ring of units that hold each
// other, none held from outside it (as each is, without this).
func (b *builder) builtByOthers(units []*Unit, ahead []deployer) map[*Unit]bool {
	holders := map[*Unit][]*Unit{} // unit → the units whose Kustomizations deploy a path holding it
	for _, k := range ahead {
		path, ok := k.deploys(b)
		if !ok {
			continue
		}
		holder := innermost(units, absolute(k.object().Source.File))
		for _, u := range units {
			if u != holder && holder != nil && within(absolute(u.Root), path) {
				holders[u] = append(holders[u], holder)
			}
		}
	}
	later := map[*Unit]bool{}
	var hold func(u *Unit)
	hold = func(u *Unit) {
		for _, v := range units {
			if !later[v] && holders[v] != nil && slices.Contains(holders[v], u) {
				later[v] = true
				hold(v)
			}
		}
	}
	for _, u := range units {
		if holders[u] == nil {
			hold(u)
		}
	}
	return later
}

// innermost is the unit whose root holds file, the deepest; nil when none
// does.
func innermost(units []*Unit, file string) *Unit {
	var best *Unit
	for _, u := range units {
		if root := absolute(u.Root); within(file, root) && (best == nil || len(root) > len(absolute(best.Root))) {
			best = u
		}
	}
	return best
}

// insideAnother reports whether k's file is within the path another of
// ks deploys, which most likely holds it.
func (b *builder) insideAnother(k deployer, ks []deployer) bool {
	return b.withinPath(absolute(k.object().Source.File), slices.DeleteFunc(slices.Clone(ks), func(o deployer) bool { return o.identity() == k.identity() }))
}

// withinPath reports whether path (absolute) is within the path one of ks
// deploys.
func (b *builder) withinPath(path string, ks []deployer) bool {
	for _, k := range ks {
		if dir, ok := k.deploys(b); ok && within(path, dir) {
			return true
		}
	}
	return false
}

// reach builds k and everything its builds hold, marking their keys, and
// returns the keys of the deployers its builds gave (those reached before
// too).
func (b *builder) reach(k deployer, reached map[string]bool) map[string]bool {
	found := map[string]bool{}
	for level := []deployer{k}; len(level) > 0; {
		level = slices.DeleteFunc(level, func(k deployer) bool { return reached[k.identity()] })
		b.buildAll(level)
		var next []deployer
		for _, k := range level {
			if reached[k.identity()] {
				continue
			}
			reached[k.identity()] = true
			res := b.done[k.version()]
			b.vars.add(res.in.Kept) // for the builds below it
			b.sources.add(res.in.Kept)
			for _, c := range res.children {
				found[c.identity()] = true
			}
			next = append(next, res.children...)
		}
		level = next
	}
	return found
}

// builtByAnother reports whether entry i is no entry point after all: the
// build of another entry gave it (a cluster's Kustomization that
// includes its folder with ../), and it did not give that one (as in a
// cycle, where the first reached stays). The other's cluster holds it,
// built as its parent gives it, with the parent's patches.
func builtByAnother(i int, entries []deployer, found []map[string]bool) bool {
	id := entries[i].identity()
	for j, other := range entries {
		if j != i && found[j][id] && !found[i][other.identity()] {
			return true
		}
	}
	return false
}

// kustomization is a Flux Kustomization as read or as a build produced it.
type kustomization struct {
	raw  *manifest.Object
	data map[string]any // raw's JSON
	name string
	// namespace is where Flux looks up its substituteFrom: as written,
	// else where its parent's build put it.
	namespace string
	spec      struct {
		Path      string `json:"path"`
		SourceRef struct {
			Kind      string `json:"kind"`
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"sourceRef"`
		PostBuild *struct {
			Substitute     map[string]string `json:"substitute"`
			SubstituteFrom []struct {
				Kind     string `json:"kind"`
				Name     string `json:"name"`
				Optional bool   `json:"optional"`
			} `json:"substituteFrom"`
		} `json:"postBuild"`
	}
	// key is its file and name: the same Kustomization whether read
	// alone or built by its parent.
	key  string
	unit string // the unit it was read in ("" for the plain files)
	// entry: it is an entry point, which no Kustomization of the units
	// builds.
	entry bool
}

// parseKustomization is raw as a Flux Kustomization, nil when it is not
// one or cannot be read as one (its own findings say why).
func parseKustomization(raw *manifest.Object) *kustomization {
	doc, ok := readHeader(raw, groupFluxKustomize, "Kustomization")
	if !ok {
		return nil
	}
	k := &kustomization{raw: raw}
	if json.Unmarshal(raw.JSON, &k.data) != nil || (doc.Spec != nil && json.Unmarshal(doc.Spec, &k.spec) != nil) {
		return nil
	}
	k.name, k.namespace = doc.Metadata.Name, doc.Metadata.Namespace
	k.key = absolute(raw.Source.File) + "\x00" + k.name
	return k
}

func (k *kustomization) identity() string { return k.key }
func (k *kustomization) version() string {
	return k.key + "\x00" + strconv.FormatBool(k.entry) + "\x00" + string(k.raw.JSON)
}
func (k *kustomization) folder() string           { return folderOf(k.raw, k.unit) }
func (k *kustomization) object() *manifest.Object { return k.raw }

// deploys is the directory its spec.path names, and whether the
// repository holds it: never when its source is another (flux-manifests,
// an OCIRepository whose path ./ would otherwise hold the whole
// repository).
func (k *kustomization) deploys(b *builder) (string, bool) {
	if k.spec.SourceRef.Kind != "GitRepository" || b.otherRepository(k.spec.SourceRef.Name, cmp.Or(k.spec.SourceRef.Namespace, k.namespace)) != "" {
		return "", false
	}
	rel, err := render.Path(k.spec.Path)
	if err != nil {
		return "", false
	}
	root, ok := b.sourceRoot(k.raw.Source.File, rel)
	return filepath.Join(root, rel), ok
}

// absolute is a path made absolute, to compare paths named from different
// places.
func absolute(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return p
}

// build is what building one Kustomization gave.
type build struct {
	in       *resolve.Inputs
	children []deployer // the Kustomizations and Applications it holds
	dir      string     // spec.path, as the inputs are named; "" when not built
	// charts are the chart directories it deploys by means gwlint does
	// not follow (absolute): judged alone, they are not what is applied.
	charts []string
}

// builder builds Kustomizations, each version once.
type builder struct {
	a       *Assembler
	vars    values
	sources sources // Flux's sources: which GitRepository is this repository
	// thisSource is the GitRepository most Kustomizations build from.
	thisSource string
	// origin is thisURL, read once.
	origin struct {
		sync.Once
		url string
	}
	mu   sync.Mutex
	done map[string]*build // by deployer.version
}

// buildAll builds every Kustomization of ks that is not built yet, in
// parallel (the renderer bounds how many at once).
func (b *builder) buildAll(ks []deployer) {
	var todo []deployer
	for _, k := range ks {
		b.mu.Lock()
		_, ok := b.done[k.version()]
		if !ok {
			b.done[k.version()] = nil // claimed
			todo = append(todo, k)
		}
		b.mu.Unlock()
	}
	parallel.For(len(todo), func(i int) {
		res := todo[i].deploy(b)
		b.mu.Lock()
		b.done[todo[i].version()] = res
		b.mu.Unlock()
	})
}

// cluster is the world of one group of entry points: everything their
// builds reach, and the plain files of their folder that no build holds.
func (b *builder) cluster(entries []deployer, covered *coverage) *resolve.Inputs {
	world := &resolve.Inputs{Skipped: map[string]int{}}
	visited := map[string]bool{}
	level := entries
	for len(level) > 0 {
		b.buildAll(level)
		var next []deployer
		for _, k := range level {
			if visited[k.identity()] {
				continue
			}
			visited[k.identity()] = true
			covered.files[absolute(k.object().Source.File)] = true
			res := b.done[k.version()]
			if res.dir != "" {
				covered.dirs = append(covered.dirs, absolute(res.dir))
			}
			world.Merge(res.in)
			covered.charts = append(covered.charts, res.charts...)
			for _, o := range res.in.Objects {
				covered.files[absolute(o.Metadata().Source.File)] = true
			}
			next = append(next, res.children...)
		}
		level = next
	}
	covered.charts = append(covered.charts, b.releases(world)...)
	world.Cluster = entries[0].folder()
	return world
}

// deploy builds the Kustomization at its spec.path, or says why what it
// deploys is unknown.
func (k *kustomization) deploy(b *builder) *build {
	res := &build{in: &resolve.Inputs{Skipped: map[string]int{}}}
	unknown := func(path, msg string) *build {
		e := k.raw.Errorf(path, "Kustomization %s: %s", k.name, msg)
		e.Unknown = true
		res.in.Unknowns = append(res.in.Unknowns, e)
		return res
	}
	if kind := k.spec.SourceRef.Kind; kind != "GitRepository" {
		return unknown("spec.sourceRef.kind", "its source is a "+kind+", not this repository: what it deploys is unknown")
	}
	if url := b.otherRepository(k.spec.SourceRef.Name, cmp.Or(k.spec.SourceRef.Namespace, k.namespace)); url != "" {
		res = unknown("spec.sourceRef.name", "its source is GitRepository "+k.spec.SourceRef.Name+", another repository ("+url+"): what it deploys is unknown")
		res.in.Unknowns[0].Remote = b.sources.remote(cmp.Or(k.spec.SourceRef.Namespace, k.namespace), k.spec.SourceRef.Name, k.spec.Path, k.raw.Source.File)
		return res
	}
	rel, err := render.Path(k.spec.Path)
	if err != nil {
		res.in.Errors = append(res.in.Errors, k.raw.Errorf("spec.path", "%s", err))
		return res
	}
	root, ok := b.sourceRoot(k.raw.Source.File, rel)
	dir := filepath.Join(root, rel)
	if !ok {
		return unknown("spec.path", "spec.path "+k.spec.Path+" is not a directory of this repository (its GitRepository "+
			k.spec.SourceRef.Name+" may be another repository): what it deploys is unknown")
	}
	res.dir = render.Shown(dir, k.raw.Source.File)
	fb := render.FluxBuild{Object: k.data, Root: root, File: k.raw.Source.File}
	if pb := k.spec.PostBuild; pb != nil {
		fb.Substitute = true
		fb.Vars = map[string]string{}
		for _, from := range pb.SubstituteFrom {
			v, known := b.vars.of(from.Kind, cmp.Or(k.namespace, b.a.Options.DefaultNamespace, "default"), from.Name)
			fb.Unknown = fb.Unknown || !known
			for name, value := range v.data {
				fb.Vars[name] = value
			}
			for _, name := range v.unknown {
				fb.Vars[name] = "${" + name + "}"
			}
		}
		// An entry point of a part of a repository may be built by a
		// Kustomization outside it that patches its substituteFrom.
		fb.Unknown = fb.Unknown || k.entry && b.a.Partial
		for name, value := range pb.Substitute {
			fb.Vars[name] = strings.ReplaceAll(value, "\n", "")
		}
	}
	objs, errs := b.a.Renderer.Flux(res.dir, fb)
	for _, e := range errs {
		if e.File == k.raw.Source.File && e.Pos.Line == 0 {
			pos, _ := k.raw.Positions.Nearest("spec.path")
			e.Pos = pos
		}
	}
	res.in = resolve.LoadObjects(objs, errs, b.a.Options)
	res.children = deployers(res.in.Kept, k.unit)
	for _, child := range res.children {
		if child, ok := child.(*kustomization); ok && child.namespace == "" {
			child.namespace = k.namespace
		}
	}
	return res
}

// sourceRoot is the directory a Kustomization's spec.path (rel) is
// relative to, and whether it holds that path: the repository's root
// (what a GitRepository source of it holds), else the nearest directory
// above the Kustomization's file that holds it (a repository within
// another's folder, as in gwlint's own test data).
func (b *builder) sourceRoot(file, rel string) (string, bool) {
	isDir := func(root string) bool {
		info, err := os.Stat(filepath.Join(root, rel))
		return err == nil && info.IsDir()
	}
	top := b.repositoryOf(file)
	if isDir(top) {
		return top, true
	}
	for dir := filepath.Dir(absolute(file)); within(dir, top) && dir != top; dir = filepath.Dir(dir) {
		if isDir(dir) {
			return dir, true
		}
	}
	return top, false
}

// repositoryOf is the root of the boundary that holds file: what a
// GitRepository source of this repository holds.
func (b *builder) repositoryOf(file string) string {
	return cmp.Or(b.a.Renderer.Boundary.RootOf(file), filepath.Dir(absolute(file)))
}

// coverage is what the clusters hold: the units keep the rest.
type coverage struct {
	files map[string]bool // what the builds read, absolute
	dirs  []string        // the spec.paths built, absolute
	// charts are the directories of the charts HelmReleases installed,
	// or Argo CD's plugins render, absolute: they are applied only as
	// those render them, so their templates rendered on their own, with
	// the charts' defaults alone, are left out.
	charts []string
	// groups are the clusters by their entry points' folder, absolute: a
	// file there that no build reads is one flux bootstrap applies (the
	// folder's other objects), and is the cluster's too.
	groups map[string]*resolve.Inputs
}

// groupOf is the cluster whose entry points' folder holds file (absolute),
// the innermost; nil when none does.
func (c *coverage) groupOf(file string) *resolve.Inputs {
	best := ""
	for g := range c.groups {
		if within(file, g) && len(g) > len(best) {
			best = g
		}
	}
	return c.groups[best]
}

// rest is units less what the clusters hold: what a build read is left
// out; what lies in an entry point's folder moves to its cluster; a root
// kustomization within a spec.path that was built is left out (one that
// the path's kustomization does not list is not applied either), and one
// that a build read from is left out whole, less what moves; the rest
// stays as it was.
func (c *coverage) rest(units []*Unit) []*resolve.Inputs {
	var out []*resolve.Inputs
	for _, u := range units {
		if u.In == nil {
			continue
		}
		if u.Root != "" && c.reachedDir(absolute(u.Root)) {
			// A Flux Kustomization found only in another build built it,
			// with its components and patches: what it gave on its own
			// (an error, objects) is not what is applied.
			continue
		}
		if u.Root != "" && !c.readFrom(u.In) {
			out = append(out, c.undeployed(u.In))
			continue
		}
		left := *u.In
		// keep says whether what file defines stays with the unit: not
		// read by a build, and in no cluster's folder (where it moves).
		keep := func(file string, move func(*resolve.Inputs)) bool {
			abs := absolute(file)
			if c.files[abs] || slices.ContainsFunc(c.charts, func(d string) bool { return within(abs, d) }) {
				return false
			}
			if w := c.groupOf(abs); w != nil {
				move(w)
				return false
			}
			return u.Root == "" // a reached root kustomization leaves with its build
		}
		left.Objects = slices.DeleteFunc(slices.Clone(left.Objects), func(o resolve.Object) bool {
			return !keep(o.Metadata().Source.File, func(w *resolve.Inputs) { w.Objects = append(w.Objects, o) })
		})
		left.Errors = slices.DeleteFunc(slices.Clone(left.Errors), func(e *manifest.ReadError) bool {
			return !keep(e.File, func(w *resolve.Inputs) { w.Errors = append(w.Errors, e) })
		})
		left.Unknowns = slices.DeleteFunc(slices.Clone(left.Unknowns), func(e *manifest.ReadError) bool {
			return !keep(e.File, func(w *resolve.Inputs) { w.Unknowns = append(w.Unknowns, e) })
		})
		if len(left.Objects) > 0 || len(left.Errors) > 0 || len(left.Unknowns) > 0 || len(left.NotManifests) > 0 {
			// The plain files no deployer reaches: which of them are
			// applied together (by hand, to which cluster) is unknown.
			left.Unreached = u.Root == "" && len(c.groups) > 0
			out = append(out, &left)
		}
	}
	return out
}

// undeployed is a root kustomization that no deployer reaches, judged on
// its own: in a repository whose deployers make clusters, its errors say
// that nothing of it deploys it (an archived app, a template another tool
// fills), for its owner to weigh them.
func (c *coverage) undeployed(in *resolve.Inputs) *resolve.Inputs {
	if len(c.groups) == 0 || len(in.Errors) == 0 {
		return in
	}
	out := *in
	out.Errors = make([]*manifest.ReadError, len(in.Errors))
	for i, e := range in.Errors {
		copied := *e
		copied.Msg += " (no Flux Kustomization or Argo CD Application of the repository deploys this kustomization)"
		out.Errors[i] = &copied
	}
	return &out
}

// readFrom reports whether a build read a file of a root kustomization's
// objects.
func (c *coverage) readFrom(in *resolve.Inputs) bool {
	return slices.ContainsFunc(in.Objects, func(o resolve.Object) bool { return c.files[absolute(o.Metadata().Source.File)] })
}

// reachedDir reports whether dir (absolute) is within a spec.path that
// was built.
func (c *coverage) reachedDir(dir string) bool {
	return slices.ContainsFunc(c.dirs, func(d string) bool { return within(dir, d) })
}

// builtWithin reports whether a build deployed dir (absolute), or a folder
// or file below it: a spec.path that holds dir may still leave it out,
// when its kustomization lists other folders.
func (c *coverage) builtWithin(dir string) bool {
	if slices.ContainsFunc(c.dirs, func(d string) bool { return within(d, dir) }) {
		return true
	}
	for f := range c.files {
		if within(f, dir) {
			return true
		}
	}
	return false
}

// within reports whether path is dir or below it (both absolute).
func within(path, dir string) bool {
	return path == dir || strings.HasPrefix(path, dir+string(filepath.Separator))
}
