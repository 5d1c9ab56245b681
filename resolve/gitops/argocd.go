package gitops

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

const groupArgo = "argoproj.io"

// application is an Argo CD Application, or an ApplicationSet: the one
// deploys its sources, the other makes Applications (its generators over
// its template).
type application struct {
	raw             *manifest.Object
	name, namespace string
	spec            applicationSpec
	set             *applicationSet // for an ApplicationSet
	// made says which ApplicationSet made it, for the Applications an
	// ApplicationSet makes: they have no file of their own.
	made string
	unit string
}

type applicationSpec struct {
	Source      *applicationSource  `json:"source"`
	Sources     []applicationSource `json:"sources"`
	Destination struct {
		Namespace string `json:"namespace"`
	} `json:"destination"`
}

type applicationSource struct {
	RepoURL string `json:"repoURL"`
	Path    string `json:"path"`
	Chart   string `json:"chart"`
	// Ref names the source for the others' helm.valueFiles ($REF/PATH):
	// without a path, it deploys nothing.
	Ref       string `json:"ref"`
	Directory *struct {
		Recurse bool   `json:"recurse"`
		Include string `json:"include"`
		Exclude string `json:"exclude"`
	} `json:"directory"`
	Kustomize *struct {
		NamePrefix string `json:"namePrefix"`
		NameSuffix string `json:"nameSuffix"`
		Namespace  string `json:"namespace"`
	} `json:"kustomize"`
	Helm *struct {
		ReleaseName             string   `json:"releaseName"`
		ValueFiles              []string `json:"valueFiles"`
		IgnoreMissingValueFiles bool     `json:"ignoreMissingValueFiles"`
		Parameters              []struct {
			Name        string `json:"name"`
			Value       string `json:"value"`
			ForceString bool   `json:"forceString"`
		} `json:"parameters"`
		Values       string          `json:"values"`
		ValuesObject json.RawMessage `json:"valuesObject"`
	} `json:"helm"`
	Plugin json.RawMessage `json:"plugin"`
}

// gitPath selects directories or files of a git generator's repository.
type gitPath struct {
	Path    string `json:"path"`
	Exclude bool   `json:"exclude"`
}

type applicationSet struct {
	GoTemplate bool            `json:"goTemplate"`
	Generators []generator     `json:"generators"`
	Template   json.RawMessage `json:"template"`
}

// generator is one of an ApplicationSet's generators.
type generator struct {
	Git *struct {
		RepoURL     string    `json:"repoURL"`
		Directories []gitPath `json:"directories"`
		Files       []gitPath `json:"files"`
		// Values are more parameters, values.NAME, made from the
		// others.
		Values map[string]string `json:"values"`
	} `json:"git"`
	List *struct {
		Elements []map[string]any `json:"elements"`
	} `json:"list"`
	// Selector keeps the parameter sets it selects, as labels.
	Selector *metav1.LabelSelector `json:"selector"`
}

// selects reports whether the generator's selector keeps params, and says
// why not when the selector cannot be read (Argo CD makes nothing then).
func (g generator) selects(params map[string]string) (bool, error) {
	if g.Selector == nil {
		return true, nil
	}
	sel, err := metav1.LabelSelectorAsSelector(g.Selector)
	if err != nil {
		return false, err
	}
	return sel.Matches(labels.Set(params)), nil
}

// buildsKustomization reports whether its plugin builds the kustomization
// in dir as gwlint builds one: a plugin named for kustomize
// (kustomize-build-with-helm and the like, the usual plugin to inflate
// helmCharts), on a directory that holds a kustomization and no chart. A
// chart there is rendered by the plugin's own means first (as
// kustomized-helm's helm template > all.yaml), for its kustomization to
// read: what that gives is unknown.
func (src applicationSource) buildsKustomization(dir string) bool {
	var plugin struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(src.Plugin, &plugin) // no name: not one
	return strings.Contains(plugin.Name, "kustomize") && manifest.KustomizationFile(dir, nil) != "" && !isFile(filepath.Join(dir, "Chart.yaml"))
}

// parseApplications is raw as an Application or an ApplicationSet, nil
// when it is neither.
func parseApplications(raw *manifest.Object) []*application {
	doc, ok := readHeader(raw, groupArgo, "Application", "ApplicationSet")
	if !ok || doc.Spec == nil {
		return nil
	}
	app := &application{raw: raw, name: doc.Metadata.Name, namespace: doc.Metadata.Namespace}
	if raw.Kind == "ApplicationSet" {
		app.set = &applicationSet{}
		if json.Unmarshal(doc.Spec, app.set) != nil {
			return nil
		}
	} else if json.Unmarshal(doc.Spec, &app.spec) != nil {
		return nil
	}
	return []*application{app}
}

func (a *application) identity() string {
	return absolute(a.raw.Source.File) + "\x00" + a.raw.Kind + "\x00" + a.made + "\x00" + a.name
}
func (a *application) version() string {
	spec, _ := json.Marshal(a.spec)
	return a.identity() + "\x00" + string(a.raw.JSON) + "\x00" + string(spec)
}
func (a *application) folder() string           { return folderOf(a.raw, a.unit) }
func (a *application) object() *manifest.Object { return a.raw }

// sources are its sources: spec.sources, else spec.source.
func (a *application) sources() []applicationSource {
	if len(a.spec.Sources) > 0 {
		return a.spec.Sources
	}
	if a.spec.Source != nil {
		return []applicationSource{*a.spec.Source}
	}
	return nil
}

// deploys is the directory of its first source in the repository, or
// the folder an ApplicationSet's directories or files are found in.
func (a *application) deploys(b *builder) (string, bool) {
	if a.set != nil {
		for _, g := range a.set.Generators {
			if paths := g.gitPaths(); len(paths) > 0 {
				rel := literalPrefix(paths[0].Path)
				root, ok := b.sourceRoot(a.raw.Source.File, rel)
				return filepath.Join(root, rel), ok
			}
		}
		return "", false
	}
	for _, src := range a.sources() {
		if rel, err := render.Path(src.Path); err == nil && src.Chart == "" {
			root, ok := b.sourceRoot(a.raw.Source.File, rel)
			return filepath.Join(root, rel), ok
		}
	}
	return "", false
}

// deploy renders what an Application deploys from this repository, as
// Argo CD does (a kustomization built, a chart rendered, or a directory's
// manifests read), or makes an ApplicationSet's Applications.
func (a *application) deploy(b *builder) *build {
	res := &build{in: &resolve.Inputs{Skipped: map[string]int{}}}
	what := a.raw.Kind + " " + a.name
	if a.made != "" {
		what = "Application " + a.name + " (made by ApplicationSet " + a.made + ")"
	}
	unknown := func(path, format string, args ...any) {
		e := a.raw.Errorf(path, "%s: %s", what, fmt.Sprintf(format, args...))
		e.Unknown = true
		res.in.Unknowns = append(res.in.Unknowns, e)
	}
	if a.set != nil {
		res.children, res.in.Errors = a.generate(b, unknown)
		return res
	}
	for i, src := range a.sources() {
		field := "spec.source"
		if len(a.spec.Sources) > 0 {
			field = "spec.sources[" + strconv.Itoa(i) + "]"
		}
		if a.made != "" {
			field = "spec.template.spec"
		}
		rel, err := render.Path(src.Path)
		root, ok := b.sourceRoot(a.raw.Source.File, rel)
		ok = ok && err == nil
		dir := filepath.Join(root, rel)
		switch {
		case src.Ref != "" && src.Path == "" && src.Chart == "":
			continue // "solely as a source of value files" (Argo CD)
		case src.Chart != "":
			unknown(field+".chart", "chart %s from %s is not in the repository: what it deploys is unknown", src.Chart, src.RepoURL)
			continue
		case src.Plugin != nil && !(ok && src.buildsKustomization(dir)):
			unknown(field+".plugin", "a config management plugin renders %s: what it deploys is unknown", src.Path)
			if ok && isFile(filepath.Join(dir, "Chart.yaml")) {
				// Applied only as the plugin renders it, with values
				// of its own: not on its own, with its defaults alone.
				res.charts = append(res.charts, absolute(dir))
			}
			continue
		case !ok:
			unknown(field+".path", "path %s is not a directory of this repository (%s may be another repository): what it deploys is unknown", src.Path, src.RepoURL)
			continue
		}
		if i, missing := a.missingValueFile(b, src, dir); missing != "" {
			unknown(fmt.Sprintf("%s.helm.valueFiles[%d]", field, i),
				"values file %s is not in this repository (it may be another repository's): what the chart deploys with it is unknown", missing)
			continue
		}
		res.dir = render.Shown(dir, a.raw.Source.File)
		res.in.Merge(a.render(b, src, root, res.dir))
	}
	res.children = deployers(res.in.Kept, a.unit)
	return res
}

// render renders one source at dir (as the inputs are named).
func (a *application) render(b *builder, src applicationSource, root, dir string) *resolve.Inputs {
	namespace := a.spec.Destination.Namespace
	opts := b.a.Options
	opts.DefaultNamespace = cmp.Or(namespace, opts.DefaultNamespace)
	var objs []*manifest.Object
	var errs []*manifest.ReadError
	switch {
	case manifest.KustomizationFile(dir, nil) != "":
		ks := map[string]any{"spec": map[string]any{}}
		if k := src.Kustomize; k != nil {
			spec := ks["spec"].(map[string]any)
			for field, v := range map[string]string{"namePrefix": k.NamePrefix, "nameSuffix": k.NameSuffix, "targetNamespace": k.Namespace} {
				if v != "" {
					spec[field] = v
				}
			}
		}
		objs, errs = b.a.Renderer.Flux(dir, render.FluxBuild{Object: ks, Root: root, File: a.raw.Source.File, ArgoCD: true})
	case isFile(filepath.Join(dir, "Chart.yaml")):
		objs, errs = a.renderChart(b, src, dir)
	default:
		files, errs := directoryFiles(dir, src, b.a.Renderer.Boundary)
		in := resolve.Load(files, nil, opts)
		in.Errors = append(in.Errors, errs...)
		return in
	}
	for _, o := range objs {
		if namespace != "" {
			inNamespace(o, namespace)
		}
	}
	return resolve.LoadObjects(objs, errs, opts)
}

// renderChart renders a chart source as Argo CD's helm template does: its
// release name (the Application's by default), its valueFiles (relative
// to the chart, or $REF/PATH), values, valuesObject and parameters, in the
// destination namespace.
func (a *application) renderChart(b *builder, src applicationSource, dir string) ([]*manifest.Object, []*manifest.ReadError) {
	rel := render.Release{Name: a.name, Namespace: cmp.Or(a.spec.Destination.Namespace, b.a.Options.DefaultNamespace, "default")}
	if h := src.Helm; h != nil {
		rel.Name = cmp.Or(h.ReleaseName, rel.Name)
		for _, f := range h.ValueFiles {
			file, ok := a.valueFile(b, src, dir, f)
			if !ok {
				continue // missing, and ignored (missingValueFile)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				continue
			}
			rel.Values, rel.ValuesFrom = append(rel.Values, data), append(rel.ValuesFrom, file)
		}
		if h.Values != "" {
			rel.Values, rel.ValuesFrom = append(rel.Values, []byte(h.Values)), append(rel.ValuesFrom, a.raw.Source.File)
		}
		if len(h.ValuesObject) > 0 {
			if data, err := yaml.JSONToYAML(h.ValuesObject); err == nil {
				rel.Values, rel.ValuesFrom = append(rel.Values, data), append(rel.ValuesFrom, a.raw.Source.File)
			}
		}
		for _, p := range h.Parameters {
			rel.Set = append(rel.Set, render.Parameter{Name: p.Name, Value: p.Value, ForceString: p.ForceString})
		}
	}
	return b.a.Renderer.Release(dir, rel, crd.APIVersions(b.a.Options.Release))
}

// valueFile is the file of this repository that a helm.valueFiles entry f
// of a chart source src at dir names: relative to dir, or, written
// $REF/PATH, to the root of the source whose ref is REF, when that source
// is of src's repository; false when there is none within the boundary.
func (a *application) valueFile(b *builder, src applicationSource, dir, f string) (string, bool) {
	file := filepath.Join(dir, f)
	if ref, p, ok := strings.Cut(f, "/"); ok && strings.HasPrefix(ref, "$") {
		if !slices.ContainsFunc(a.sources(), func(s applicationSource) bool {
			return s.Ref == ref[1:] && sameRepository(s.RepoURL, src.RepoURL)
		}) {
			return "", false
		}
		file = filepath.Join(b.repositoryOf(a.raw.Source.File), p)
	}
	return file, b.a.Renderer.Boundary.Check(file) == nil && isFile(file)
}

// missingValueFile is the first helm.valueFiles entry of a chart source at
// dir that names no file of this repository, and its index: another
// repository's, or a URL. Argo CD renders with it, or fails without it,
// unless ignoreMissingValueFiles; what the chart deploys is then unknown.
// "" when each is there, and for a source that is no chart.
func (a *application) missingValueFile(b *builder, src applicationSource, dir string) (int, string) {
	if src.Helm == nil || src.Helm.IgnoreMissingValueFiles || !isFile(filepath.Join(dir, "Chart.yaml")) || manifest.KustomizationFile(dir, nil) != "" {
		return 0, ""
	}
	for i, f := range src.Helm.ValueFiles {
		if _, ok := a.valueFile(b, src, dir, f); !ok {
			return i, f
		}
	}
	return 0, ""
}

// directoryFiles are the manifests Argo CD reads from a plain directory:
// its .yaml, .yml and .json files, below it too with recurse, matching
// include and not exclude (globs of file names, {a,b} alternatives). A
// link among them that leads out of the boundary is an error, unread.
func directoryFiles(dir string, src applicationSource, boundary manifest.Boundary) ([]string, []*manifest.ReadError) {
	var files []string
	var errs []*manifest.ReadError
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (strings.HasPrefix(d.Name(), ".") || src.Directory == nil || !src.Directory.Recurse) {
				return fs.SkipDir
			}
			return nil
		}
		if !manifest.IsManifestName(d.Name()) || strings.HasPrefix(d.Name(), ".") {
			return nil
		}
		if src.Directory != nil {
			if src.Directory.Include != "" && !globs(src.Directory.Include, d.Name()) ||
				src.Directory.Exclude != "" && globs(src.Directory.Exclude, d.Name()) {
				return nil
			}
		}
		if err := boundary.Check(p); err != nil {
			errs = append(errs, &manifest.ReadError{File: p, Msg: err.Error()})
			return nil
		}
		files = append(files, p)
		return nil
	})
	return files, errs
}

// globs reports whether name matches pattern, or one of {a,b,...}.
func globs(pattern, name string) bool {
	alternatives := []string{pattern}
	if strings.HasPrefix(pattern, "{") && strings.HasSuffix(pattern, "}") {
		alternatives = strings.Split(pattern[1:len(pattern)-1], ",")
	}
	return slices.ContainsFunc(alternatives, func(p string) bool {
		ok, _ := path.Match(strings.TrimSpace(p), name)
		return ok
	})
}

// generate makes an ApplicationSet's Applications: its git directory,
// git file and list generators over its template. Other generators'
// parameters come from a cluster or an API, and what they make is
// unknown. A file a git file generator cannot read is an error: Argo CD
// then makes none of its Applications.
func (a *application) generate(b *builder, unknown func(path, format string, args ...any)) ([]deployer, []*manifest.ReadError) {
	var apps []deployer
	var errs []*manifest.ReadError
	for i, g := range a.set.Generators {
		field := "spec.generators[" + strconv.Itoa(i) + "]"
		var params []map[string]string
		switch paths := g.gitPaths(); {
		case len(paths) > 0:
			root, ok := b.sourceRoot(a.raw.Source.File, literalPrefix(paths[0].Path))
			if !ok {
				unknown(field, "its git generator reads another repository: what it makes is unknown")
				continue
			}
			if len(g.Git.Directories) > 0 {
				for _, dir := range gitDirectories(root, g.Git.Directories) {
					params = append(params, pathParams(dir))
				}
				break
			}
			files, fileErrs := gitFileParams(root, g.Git.Files, b.a.Renderer.Boundary)
			for _, e := range fileErrs {
				e.Msg = "ApplicationSet " + a.name + ": its git file generator cannot read it: " + e.Msg
			}
			errs = append(errs, fileErrs...)
			if len(fileErrs) > 0 {
				continue
			}
			for _, p := range files {
				params = append(params, withValues(p, g.Git.Values))
			}
		case g.List != nil:
			for _, e := range g.List.Elements {
				p := map[string]string{}
				for k, v := range e {
					if s, ok := v.(string); ok {
						p[k] = s
					}
				}
				params = append(params, p)
			}
		default:
			unknown(field, "its generator's parameters come from outside the repository: what it makes is unknown")
			continue
		}
		unevaluated := ""
		for _, p := range params {
			if ok, err := g.selects(p); err != nil {
				unknown(field+".selector", "its selector cannot be read (%v): what it makes is unknown", err)
				break
			} else if !ok {
				continue
			}
			app, left := a.fromTemplate(p)
			if app != nil {
				apps = append(apps, app)
			}
			unevaluated = cmp.Or(unevaluated, left)
		}
		if unevaluated != "" {
			unknown("spec.template.spec", "its template's sources hold %s, which gwlint does not evaluate: what they deploy is unknown", unevaluated)
		}
	}
	return apps, errs
}

// gitDirectories are the directories of the repository at root that a git
// generator's directories select, relative and /-separated, sorted.
func gitDirectories(root string, patterns []gitPath) []string {
	var dirs []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") && p != root {
			return fs.SkipDir
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		included := false
		for _, pat := range patterns {
			if matchPath(pat.Path, rel) {
				included = !pat.Exclude
				if pat.Exclude {
					break
				}
			}
		}
		if included {
			dirs = append(dirs, rel)
		}
		return nil
	})
	slices.Sort(dirs)
	return dirs
}

// literalPrefix is the directory a glob's matches are all below: its
// segments before the first that holds a wildcard.
func literalPrefix(pattern string) string {
	var fixed []string
	for _, seg := range strings.Split(pattern, "/") {
		if strings.ContainsAny(seg, "*?[{") {
			break
		}
		fixed = append(fixed, seg)
	}
	return filepath.FromSlash(strings.Join(fixed, "/"))
}

// matchPath matches a /-separated path against a glob whose ** matches
// any number of segments.
func matchPath(pattern, p string) bool {
	pp, ps := strings.Split(pattern, "/"), strings.Split(p, "/")
	var match func(i, j int) bool
	match = func(i, j int) bool {
		if i == len(pp) {
			return j == len(ps)
		}
		if pp[i] == "**" {
			for k := j; k <= len(ps); k++ {
				if match(i+1, k) {
					return true
				}
			}
			return false
		}
		if j == len(ps) {
			return false
		}
		ok, _ := path.Match(pp[i], ps[j])
		return ok && match(i+1, j+1)
	}
	return match(0, 0)
}

// pathParams are the parameters of a git directory generator for dir:
// path, path.basename, path.basenameNormalized, path[N].
func pathParams(dir string) map[string]string {
	base := path.Base(dir)
	p := map[string]string{"path": dir, "path.path": dir, "path.basename": base, "path.basenameNormalized": normalized(base)}
	for i, seg := range strings.Split(dir, "/") {
		p["path["+strconv.Itoa(i)+"]"] = seg
		p["index .path.segments "+strconv.Itoa(i)] = seg
	}
	return p
}

// gitPaths are the directories or files a git generator selects.
func (g generator) gitPaths() []gitPath {
	if g.Git == nil {
		return nil
	}
	return append(slices.Clip(g.Git.Directories), g.Git.Files...)
}

// gitFileParams are the parameters a git file generator makes, as Argo CD
// (applicationset/generators/git.go) makes them: from each file of the
// repository at root that a path selects and no excluding one does (git
// ls-files' matching, where * and ? match / too), in the order of their
// paths, one set per object the file holds (a JSON or YAML object, or a
// list of them): its fields flattened (cluster.name), and path,
// path.basename, path.filename, path[N] and their go template forms,
// path being the file's directory. A file outside the boundary, too
// large (render.ReadBounded), or neither is an error.
func gitFileParams(root string, patterns []gitPath, boundary manifest.Boundary) ([]map[string]string, []*manifest.ReadError) {
	matches := make([]func(string) bool, len(patterns))
	for i, pat := range patterns {
		matches[i] = lsFilesMatcher(pat.Path)
	}
	var files []string
	_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if d.Name() == ".git" {
				return fs.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		included := false
		for i, pat := range patterns {
			if matches[i](rel) {
				if pat.Exclude {
					return nil
				}
				included = true
			}
		}
		if included {
			files = append(files, rel)
		}
		return nil
	})
	slices.Sort(files)
	var out []map[string]string
	var errs []*manifest.ReadError
	for _, rel := range files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		objs, err := readConfigFile(p, boundary)
		if err != nil {
			errs = append(errs, &manifest.ReadError{File: p, Msg: err.Error()})
			continue
		}
		for _, obj := range objs {
			params := pathParams(path.Dir(rel))
			params["path.filename"] = path.Base(rel)
			params["path.filenameNormalized"] = normalized(path.Base(rel))
			flatten("", obj, params)
			out = append(out, params)
		}
	}
	return out, errs
}

// readConfigFile reads a git file generator's file: one object, or a list
// of them. Only a regular file: a FIFO in the repository would block the
// read for ever (render.ReadBounded takes pipes, for --values).
func readConfigFile(p string, boundary manifest.Boundary) ([]map[string]any, error) {
	if err := boundary.Check(p); err != nil {
		return nil, err
	}
	if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
		return nil, cmp.Or(err, errors.New("not a regular file"))
	}
	data, err := render.ReadBounded(p, boundary)
	if err != nil {
		var re *manifest.ReadError
		if errors.As(err, &re) {
			return nil, errors.New(re.Msg)
		}
		return nil, err
	}
	one := map[string]any{}
	if err := yaml.Unmarshal(data, &one); err == nil {
		return []map[string]any{one}, nil
	}
	var list []map[string]any
	if err := yaml.Unmarshal(data, &list); err != nil {
		return nil, fmt.Errorf("neither an object nor a list of objects: %v", err)
	}
	return list, nil
}

// flatten adds v's fields to params, nested ones joined with dots
// (jeremywohl/flatten's DotStyle, which Argo CD uses), each value as
// fmt's %v writes it.
func flatten(prefix string, v any, params map[string]string) {
	switch x := v.(type) {
	case map[string]any:
		for k, c := range x {
			flatten(joinKey(prefix, k), c, params)
		}
	case []any:
		for i, c := range x {
			flatten(joinKey(prefix, strconv.Itoa(i)), c, params)
		}
	default:
		if prefix != "" {
			params[prefix] = fmt.Sprint(x)
		}
	}
}

func joinKey(prefix, k string) string {
	if prefix == "" {
		return k
	}
	return prefix + "." + k
}

// withValues adds a git generator's values to params, as values.NAME,
// each with the others' {{ }} replaced.
func withValues(params, values map[string]string) map[string]string {
	for k, v := range values {
		params["values."+k] = replaceParams(v, params)
	}
	return params
}

// lsFilesMatcher matches /-separated paths against a git pathspec as git
// ls-files does without glob magic (fnmatch without FNM_PATHNAME): *
// and ? match any characters, / included; a pattern without wildcards
// also matches the files below the directory it names. A pattern that
// cannot be read matches nothing.
func lsFilesMatcher(pattern string) func(string) bool {
	pattern = strings.TrimPrefix(pattern, "/")
	if !strings.ContainsAny(pattern, "*?[") {
		return func(p string) bool {
			return p == pattern || strings.HasPrefix(p, strings.TrimSuffix(pattern, "/")+"/")
		}
	}
	var re strings.Builder
	re.WriteString("^")
	for i := 0; i < len(pattern); i++ {
		switch c := pattern[i]; c {
		case '*':
			re.WriteString(".*")
		case '?':
			re.WriteString(".")
		case '[':
			if j := strings.IndexByte(pattern[i+1:], ']'); j > 0 {
				class := pattern[i+1 : i+1+j]
				if strings.HasPrefix(class, "!") {
					class = "^" + class[1:]
				}
				re.WriteString("[" + class + "]")
				i += j + 1
				continue
			}
			re.WriteString(regexp.QuoteMeta("["))
		default:
			re.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	re.WriteString("$")
	compiled, err := regexp.Compile(re.String())
	if err != nil {
		return func(string) bool { return false }
	}
	return compiled.MatchString
}

// normalized is a path parameter's Normalized form.
func normalized(name string) string {
	return strings.ToLower(strings.NewReplacer("_", "-", ".", "-").Replace(name))
}

// fromTemplate is the Application the template makes with params: each
// {{ name }} (fasttemplate) or {{ .name }} (goTemplate) of the template
// replaced; one that names no parameter stays as written, unknown.
//
// Sources that still hold an action after that (a Go template function,
// `{{ dig "chart" "name" "" . }}`, which gwlint does not evaluate) make an
// Application whose sources are unknown: left is that action, and the
// Application nil. Elsewhere (a destination namespace) an action stays,
// a placeholder (package placeholder).
func (a *application) fromTemplate(params map[string]string) (app *application, left string) {
	text := replaceParams(string(a.set.Template), params)
	var tmpl struct {
		Metadata struct {
			Name string `json:"name"`
		} `json:"metadata"`
		Spec json.RawMessage `json:"spec"`
	}
	if json.Unmarshal([]byte(text), &tmpl) != nil {
		return nil, ""
	}
	var sources struct {
		Source  json.RawMessage `json:"source"`
		Sources json.RawMessage `json:"sources"`
	}
	_ = json.Unmarshal(tmpl.Spec, &sources) // the spec's own decoding below says
	for _, src := range []json.RawMessage{sources.Source, sources.Sources} {
		if i := bytes.Index(src, []byte("{{")); i >= 0 {
			action := src[i:]
			if j := bytes.Index(action, []byte("}}")); j >= 0 {
				action = action[:j+2]
			}
			return nil, strings.ReplaceAll(string(action), `\"`, `"`)
		}
	}
	var spec applicationSpec
	if json.Unmarshal(tmpl.Spec, &spec) != nil {
		return nil, ""
	}
	return &application{raw: a.raw, name: tmpl.Metadata.Name, namespace: a.namespace, spec: spec,
		made: a.name, unit: a.unit}, ""
}

// replaceParams replaces each {{ name }} (fasttemplate) or {{ .name }}
// (goTemplate) in text, JSON, with the parameter's value, as a JSON
// string's text.
func replaceParams(text string, params map[string]string) string {
	for name, value := range params {
		quoted, _ := json.Marshal(value)
		v := string(quoted[1 : len(quoted)-1])
		for _, form := range []string{"{{" + name + "}}", "{{ " + name + " }}", "{{." + name + "}}", "{{ ." + name + " }}"} {
			text = strings.ReplaceAll(text, form, v)
		}
	}
	return text
}

// isFile reports whether p is a regular file.
func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}
