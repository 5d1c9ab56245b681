package cli

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/gwlint/gwlint/internal/parallel"

	"github.com/spf13/pflag"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/gitops"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// Inputs are what the arguments name, sorted out: files to read one by
// one, kustomizations to build and Helm charts to render.
type Inputs struct {
	// Files are read one by one, in the order resolve.Load reads them;
	// "-" is stdin.
	Files []string
	// Kustomizations are the root kustomizations (render.Roots): each is
	// built and judged on its own.
	Kustomizations []string
	// Charts are the Helm chart directories, rendered.
	Charts []string
	// Included are the files the root kustomizations include, which their
	// builds read (see gitops.Assembler.Included).
	Included []string
	// Values are the Helm values files (--values) rendered over every
	// chart's defaults, in order.
	Values []string
	// ChartCopies are local copies of remote charts that HelmReleases
	// install (lint.Config.ChartDirs).
	ChartCopies map[string]string
	// Boundary is what may be read (see manifest.Boundary): the roots
	// --root names, else each input's git work tree or its own directory.
	Boundary manifest.Boundary
	// Partial says that the inputs are a part of a repository (a folder
	// or a file in it, stdin), not the whole of one: what builds them may
	// lie outside (see gitops.Assembler.Partial).
	Partial bool
	// EachDir judges the files of each directory as a world of its own
	// (--each-dir), and each chart: a folder of independent examples.
	EachDir bool
	// LoadFile, when set, loads each file read one by one in place of
	// resolve.Load: a language server serves the files it holds already
	// and its editor's unsaved text (package lsp). It loads as
	// resolve.Load would, with opts, and is called on every core at once.
	LoadFile func(file string, opts resolve.Options) *resolve.Inputs
	// roots are --root's directories, nil without it.
	roots []string
}

// AddEachDirFlag adds --each-dir.
func AddEachDirFlag(fs *pflag.FlagSet, eachDir *bool) {
	fs.BoolVar(eachDir, "each-dir", false,
		"judge the manifests of each directory on their own, each directory as a cluster of its own (a folder of independent examples); kustomizations and charts are each judged on their own")
}

// plainGroups are the files read one by one, as the worlds they form:
// all together, or with EachDir one per directory ("-" alone). Without
// EachDir there is one when there are files or charts, or nothing else.
func (in Inputs) plainGroups() [][]string {
	if !in.EachDir {
		if len(in.Files) > 0 || len(in.Charts) > 0 || len(in.Kustomizations) == 0 {
			return [][]string{in.Files}
		}
		return nil
	}
	var groups [][]string
	index := map[string]int{}
	for _, f := range in.Files {
		dir := f
		if f != "-" {
			dir = filepath.Dir(filepath.Clean(f))
		}
		i, ok := index[dir]
		if !ok {
			i = len(groups)
			index[dir] = i
			groups = append(groups, nil)
		}
		groups[i] = append(groups[i], f)
	}
	if len(groups) == 0 && len(in.Charts) == 0 && len(in.Kustomizations) == 0 {
		groups = [][]string{nil} // nothing to read: one empty world
	}
	return groups
}

// AddRootFlag adds --root, which widens the trust boundary on purpose.
// It is a flag and never a configuration key: the configuration file is
// part of the repository that the boundary keeps in.
func AddRootFlag(fs *pflag.FlagSet, roots *[]string) {
	fs.StringArrayVar(roots, "root", nil,
		"DIR whose files the inputs may read through symbolic links, kustomization paths and Helm charts (repeatable; default: the git work tree of each input, else the input itself)")
}

// boundaryOf is the boundary of paths: --root's, else their own.
func (in Inputs) boundaryOf(paths ...string) manifest.Boundary {
	if len(in.roots) > 0 {
		return manifest.NewBoundary(in.roots...)
	}
	return manifest.BoundaryFor(paths...)
}

// AddValuesFlag adds --values, the Helm values files.
func AddValuesFlag(fs *pflag.FlagSet, values *[]string) {
	fs.StringArrayVar(values, "values", nil,
		"Helm values FILE rendered over the defaults of every chart among the inputs (repeatable; a later file wins)")
}

// FindInputs expands the arguments: a directory becomes the manifest files
// under it (.yaml, .yml, .json, skipping hidden files and directories,
// sorted by path) and the kustomizations and Helm charts under it (see
// manifest.Walk), a directory that is itself a kustomization or a chart
// included. Of the kustomizations, only the roots are kept, and the files
// they include are not read again one by one. Paths excluded reports
// are left out, whether named or found, and a file named twice is
// read once. Paths that cannot be read are kept, for resolve.Load to
// report; what a directory walk cannot walk, and what leads out of the
// boundary (roots, --root, when not empty), is returned as errors.
// excluded says which paths the configuration excludes
// (lint.Config.Excludes).
func FindInputs(args []string, excluded func(path string) bool, roots []string) (Inputs, []*manifest.ReadError) {
	in := Inputs{roots: roots}
	in.Boundary = in.boundaryOf(args...)
	in.Partial = slices.Contains(args, "-") || !in.Boundary.Whole(args...)
	var kustomizations []string
	var errs []*manifest.ReadError
	for _, arg := range args {
		if arg == "-" {
			in.Files = append(in.Files, arg)
			continue
		}
		if excluded(arg) {
			continue
		}
		if err := in.Boundary.Check(arg); err != nil {
			errs = append(errs, &manifest.ReadError{File: arg, Msg: err.Error()})
			continue
		}
		info, err := os.Stat(arg)
		if err != nil || !info.IsDir() {
			in.Files = append(in.Files, arg)
			continue
		}
		tree, walkErrs := manifest.Walk(arg, excluded, in.Boundary)
		in.Files = append(in.Files, tree.Files...)
		kustomizations = append(kustomizations, tree.Kustomizations...)
		in.Charts = append(in.Charts, tree.Charts...)
		errs = append(errs, walkErrs...)
	}
	kustomizationRoots, included := render.Roots(unique(kustomizations), in.Boundary)
	in.Kustomizations, in.Included = kustomizationRoots, included
	isIncluded := func(path string) bool {
		_, found := slices.BinarySearch(included, filepath.Clean(path))
		return found
	}
	in.Charts = slices.DeleteFunc(unique(in.Charts), isIncluded)
	in.Files = slices.DeleteFunc(unique(in.Files), isIncluded)
	return in, errs
}

// unique drops the paths named before, in order.
func unique(paths []string) []string {
	seen := map[string]bool{}
	return slices.DeleteFunc(paths, func(p string) bool {
		key := p
		if p != "-" {
			key = filepath.Clean(p)
		}
		if seen[key] {
			return true
		}
		seen[key] = true
		return false
	})
}

// Paths are every path the inputs read: files, kustomizations and charts.
func (in Inputs) Paths() []string {
	return slices.Concat(in.Files, in.Kustomizations, in.Charts)
}

// Load reads and renders the inputs into worlds, each to be resolved on its
// own: the clusters that the Flux Kustomizations among them deploy (see
// package gitops), then what none of them deploys: the files and charts
// together (when there are any, or nothing else), and each root
// kustomization alone, so that the overlays of one base never meet as
// duplicates. Charts are rendered in the namespace opts gives objects that
// name none. Renders run in parallel, each in a worker process within the
// boundary and render.DefaultLimits.
//
// Where a flag or the configuration did not choose the release or the
// channel (opts.ReleaseAssumed, opts.ChannelAssumed), the CRDs of a
// Gateway API release that a world's inputs install choose them
// (resolve.Inputs.InstalledCRDs): the world is loaded again with them,
// since every object is validated as it is read.
func (in Inputs) Load(stdin io.Reader, opts resolve.Options) []*resolve.Inputs {
	if !opts.ReleaseAssumed && !opts.ChannelAssumed {
		return in.load(stdin, opts)
	}
	if stdin != nil && slices.Contains(in.Files, "-") {
		// Kept, within the size limit, to be read again when the inputs
		// choose.
		stdin = manifest.KeepStdin(stdin)
	}
	worlds := in.load(stdin, opts)
	// A choice is the options a world is loaded again with; worlds that
	// make the same one share a reading.
	type choice struct {
		opts   resolve.Options
		bundle resolve.CRDBundle
		worlds []int
	}
	var choices []*choice
	byKey := map[string]*choice{}
	for i, w := range worlds {
		bundle, crds, ok := w.InstalledCRDs()
		if !ok {
			continue
		}
		if !opts.ReleaseAssumed {
			crds.Release = opts.Release
		}
		if !opts.ChannelAssumed {
			crds.Channel = opts.Channel
		}
		o := opts
		o.Release, o.Channel, o.ReleaseAssumed, o.ChannelAssumed = crds.Release, crds.Channel, false, false
		if opts.ReleaseAssumed && opts.ChannelAssumed {
			// Each kind whose own CRD is there by its CRD, when neither
			// flag nor configuration said what the cluster runs.
			o.KindCRDs = w.InstalledKinds(crds)
		}
		key := o.CRDChoice()
		if byKey[key] == nil {
			byKey[key] = &choice{opts: o, bundle: bundle}
			choices = append(choices, byKey[key])
		}
		byKey[key].worlds = append(byKey[key].worlds, i)
	}
	for _, c := range choices {
		reloaded := in.load(stdin, c.opts)
		if len(reloaded) != len(worlds) {
			continue // never: the same inputs make the same worlds
		}
		for _, i := range c.worlds {
			worlds[i] = reloaded[i]
			worlds[i].CRDsFrom = &c.bundle
		}
	}
	return worlds
}

func (in Inputs) load(stdin io.Reader, opts resolve.Options) []*resolve.Inputs {
	opts.Keep, opts.HelmChart = gitops.Keep, gitops.HelmChart
	r := render.NewRenderer(in.Boundary)
	// The values files are named one by one: each within its own root,
	// or --root.
	r.Values = manifest.NewBoundary(append(manifest.BoundaryFor(in.Values...).Roots(), in.roots...)...)
	defer r.Close()
	// The charts render while the files load, on as many goroutines as
	// there are cores; a panic in either waits for the other, so that no
	// render outlives r.
	charts := make([]*resolve.Inputs, len(in.Charts))
	var units []*gitops.Unit
	parallel.Beside(func() {
		parallel.For(len(in.Charts), func(i int) {
			objs, errs := r.Helm(in.Charts[i], in.Values, cmp.Or(opts.DefaultNamespace, "default"), crd.APIVersions(opts.Release))
			charts[i] = resolve.LoadObjects(objs, errs, opts)
		})
	}, func() {
		for _, files := range in.plainGroups() {
			units = append(units, &gitops.Unit{In: in.loadFiles(files, stdin, opts)})
		}
	})
	for _, c := range charts {
		if in.EachDir {
			units = append(units, &gitops.Unit{In: c})
		} else {
			units[0].In.Merge(c)
		}
	}
	for _, k := range in.Kustomizations {
		units = append(units, &gitops.Unit{Root: k, Load: func() *resolve.Inputs {
			objs, errs := r.Kustomize(k)
			return resolve.LoadObjects(objs, errs, opts)
		}})
	}
	a := gitops.Assembler{Renderer: r, Options: opts, Charts: in.ChartCopies, Included: in.Included, Partial: in.Partial}
	return a.Assemble(units)
}

// loadFiles loads files read one by one, with LoadFile when it is set:
// their Inputs merged in order are what resolve.Load makes of them all.
func (in Inputs) loadFiles(files []string, stdin io.Reader, opts resolve.Options) *resolve.Inputs {
	if in.LoadFile == nil || slices.Contains(files, "-") {
		return resolve.Load(files, stdin, opts)
	}
	each := make([]*resolve.Inputs, len(files))
	parallel.For(len(files), func(i int) { each[i] = in.LoadFile(files[i], opts) })
	all := &resolve.Inputs{Skipped: map[string]int{}}
	all.Merge(each...)
	return all
}

// LoadOne is Load with every world in one, for the commands that explain a
// single graph.
func (in Inputs) LoadOne(stdin io.Reader, opts resolve.Options) *resolve.Inputs {
	worlds := in.Load(stdin, opts)
	all := worlds[0]
	for _, w := range worlds[1:] {
		all.Merge(w)
	}
	return all
}
