package gitops

import (
	"cmp"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// helmRelease is a Flux HelmRelease (helm.toolkit.fluxcd.io) as a cluster's
// builds give it.
type helmRelease struct {
	raw             *manifest.Object
	name, namespace string
	spec            struct {
		ReleaseName     string `json:"releaseName"`
		TargetNamespace string `json:"targetNamespace"`
		Chart           *struct {
			Spec struct {
				Chart     string    `json:"chart"`
				SourceRef sourceRef `json:"sourceRef"`
			} `json:"spec"`
		} `json:"chart"`
		ChartRef   *sourceRef      `json:"chartRef"`
		Values     json.RawMessage `json:"values"`
		ValuesFrom []struct {
			Kind       string `json:"kind"`
			Name       string `json:"name"`
			ValuesKey  string `json:"valuesKey"`
			TargetPath string `json:"targetPath"`
			Literal    bool   `json:"literal"`
			Optional   bool   `json:"optional"`
		} `json:"valuesFrom"`
	}
}

type sourceRef struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Namespace string `json:"namespace"`
}

// parseHelmRelease is raw as a HelmRelease, nil when it is not one.
func parseHelmRelease(raw *manifest.Object) *helmRelease {
	doc, ok := readHeader(raw, groupFluxHelm, "HelmRelease")
	if !ok {
		return nil
	}
	h := &helmRelease{raw: raw}
	if doc.Spec != nil && json.Unmarshal(doc.Spec, &h.spec) != nil {
		return nil
	}
	h.name, h.namespace = doc.Metadata.Name, doc.Metadata.Namespace
	return h
}

// release is how Flux installs it: the release's name (releaseName, else
// [targetNamespace-]name) and namespace (targetNamespace, else its own).
func (h *helmRelease) release(defaultNamespace string) (name, namespace string) {
	namespace = cmp.Or(h.spec.TargetNamespace, h.namespace, defaultNamespace)
	name = h.spec.ReleaseName
	if name == "" {
		name = h.name
		if h.spec.TargetNamespace != "" {
			name = h.spec.TargetNamespace + "-" + h.name
		}
	}
	return name, namespace
}

// sources indexes Flux's sources (GitRepository, OCIRepository,
// HelmRepository) by kind, namespace and name: their URLs name the charts.
// Each name keeps every definition, in the order read: the folders of
// several clusters may define the same source differently.
type sources map[string][]*manifest.Object

func (s sources) add(kept []*manifest.Object) {
	for _, raw := range kept {
		if doc, ok := readHeader(raw, groupFluxSource); ok {
			key := raw.Kind + "/" + doc.Metadata.Namespace + "/" + doc.Metadata.Name
			s[key] = append(s[key], raw)
		}
	}
}

// nearest is the definition of a source in the folder nearest file's
// (the one sharing the longest directory prefix with it), the last read
// when file is "" or on a tie; nil when the inputs lack the source. A
// source written without a namespace, as no build has placed it, is in
// the namespace of the build that applies it: any.
func (s sources) nearest(kind, namespace, name, file string) *manifest.Object {
	var best *manifest.Object
	most := -1
	defs := s[kind+"/"+namespace+"/"+name]
	if len(defs) == 0 {
		defs = s[kind+"//"+name]
	}
	for _, raw := range defs {
		if n := sharedDirs(raw.Source.File, file); n >= most {
			best, most = raw, n
		}
	}
	return best
}

// sharedDirs counts the leading directories two paths share.
func sharedDirs(a, b string) int {
	da, db := strings.Split(filepath.ToSlash(filepath.Dir(a)), "/"), strings.Split(filepath.ToSlash(filepath.Dir(b)), "/")
	n := 0
	for n < len(da) && n < len(db) && da[n] == db[n] {
		n++
	}
	return n
}

// sourceSpec is what a source's spec says of where it fetches from.
type sourceSpec struct {
	URL string `json:"url"`
	Ref struct {
		Tag    string `json:"tag"`
		Branch string `json:"branch"`
	} `json:"ref"`
}

// spec is the spec of a source, as defined nearest file (see nearest);
// ok false when the inputs lack it.
func (s sources) spec(kind, namespace, name, file string) (spec sourceSpec, ok bool) {
	raw := s.nearest(kind, namespace, name, file)
	if raw == nil {
		return spec, false
	}
	var doc struct {
		Spec sourceSpec `json:"spec"`
	}
	_ = json.Unmarshal(raw.JSON, &doc) // a source without a URL names nothing
	doc.Spec.URL = strings.TrimSuffix(doc.Spec.URL, "/")
	return doc.Spec, true
}

// url is the spec.url of a source, "" when the inputs lack it.
func (s sources) url(kind, namespace, name string) string {
	spec, _ := s.spec(kind, namespace, name, "")
	return spec.URL
}

// remote names directory path of the GitRepository at its reference as
// kustomize names a remote directory: "URL//path?ref=TAG"; the reference
// is the tag, else the branch, else none. The GitRepository is the one
// defined nearest file, the Kustomization that deploys path.
func (s sources) remote(namespace, name, path, file string) string {
	spec, ok := s.spec("GitRepository", namespace, name, file)
	if !ok {
		return ""
	}
	out := strings.TrimSuffix(spec.URL, ".git") + "//" + strings.TrimPrefix(path, "./")
	if ref := cmp.Or(spec.Ref.Tag, spec.Ref.Branch); ref != "" {
		out += "?ref=" + ref
	}
	return out
}

// chartRefs are the references a release's chart is known by, most
// specific first, for Assembler.Charts; and its directory when the chart
// is in this repository (a GitRepository source).
func (b *builder) chartRefs(h *helmRelease, srcs sources) (refs []string, dir string) {
	ns := h.namespace
	switch {
	case h.spec.ChartRef != nil:
		ref := h.spec.ChartRef
		if url := srcs.url(ref.Kind, cmp.Or(ref.Namespace, ns), ref.Name); url != "" {
			refs = append(refs, url, url[strings.LastIndex(url, "/")+1:])
		}
	case h.spec.Chart != nil:
		spec := h.spec.Chart.Spec
		if spec.SourceRef.Kind == "GitRepository" {
			rel, err := render.Path(spec.Chart)
			if url := b.otherRepository(spec.SourceRef.Name, cmp.Or(spec.SourceRef.Namespace, ns)); url != "" {
				// Another repository's chart (samcday/home-cluster's
				// forgejo-helm from Codeberg), which no directory here
				// holds, whatever its path.
				ref := strings.TrimSuffix(url, ".git")
				if err == nil && rel != "" {
					ref += "//" + filepath.ToSlash(rel)
				}
				return []string{ref}, ""
			}
			if err == nil {
				if root, ok := b.sourceRoot(h.raw.Source.File, rel); ok {
					return nil, filepath.Join(root, rel)
				}
			}
			return nil, ""
		}
		if url := srcs.url(spec.SourceRef.Kind, cmp.Or(spec.SourceRef.Namespace, ns), spec.SourceRef.Name); url != "" {
			refs = append(refs, url+"/"+spec.Chart)
		}
		refs = append(refs, spec.Chart)
	}
	return refs, ""
}

// releases renders the HelmReleases of a cluster whose charts are in the
// repository or have a local copy (Assembler.Charts), and says of the
// others that what they create is unknown. It returns the directories of
// the charts it rendered, absolute.
func (b *builder) releases(world *resolve.Inputs) (charts []string) {
	srcs := sources{}
	srcs.add(world.Kept)
	var hrs []*helmRelease
	for _, raw := range world.Kept {
		if h := parseHelmRelease(raw); h != nil {
			hrs = append(hrs, h)
		}
	}
	rendered := make([]*resolve.Inputs, len(hrs))
	var jobs []func()
	for i, h := range hrs {
		refs, dir := b.chartRefs(h, srcs)
		copied := dir == ""
		if copied {
			dir = b.localCopy(refs)
		}
		if dir == "" {
			what, field := "its chart", "spec.chart"
			if len(refs) > 0 {
				what = "its chart " + refs[0]
			}
			if h.spec.ChartRef != nil {
				field = "spec.chartRef"
			}
			e := h.raw.Errorf(field, "HelmRelease %s: %s is not in the repository: what it creates is unknown (name a local copy under charts: in .gwlint.yaml)", h.name, what)
			e.Unknown = true
			world.Unknowns = append(world.Unknowns, e)
			continue
		}
		jobs = append(jobs, func() { rendered[i] = b.render(h, dir, copied) })
		charts = append(charts, absolute(dir))
	}
	run(jobs)
	// A release rendered is no longer one that may create what its chart
	// names: its objects are among the inputs.
	renderedAt := map[manifest.Source]bool{}
	for i, in := range rendered {
		if in != nil {
			world.Merge(in)
			renderedAt[hrs[i].raw.Source] = true
		}
	}
	world.Creators = slices.DeleteFunc(world.Creators, func(c *resolve.Creator) bool { return renderedAt[c.Source] })
	return charts
}

// localCopy is the directory Assembler.Charts names for the first of refs
// it knows, "" when none.
func (b *builder) localCopy(refs []string) string {
	for _, ref := range refs {
		for _, r := range []string{ref, strings.TrimPrefix(ref, "oci://")} {
			if dir, ok := b.a.Charts[r]; ok {
				return dir
			}
		}
	}
	return ""
}

// render renders one release: the chart in dir with valuesFrom's values,
// then spec.values, over its defaults, as Flux merges them. The objects of
// a local copy of a remote chart are placed in the HelmRelease, which is
// what a person edits.
func (b *builder) render(h *helmRelease, dir string, copied bool) *resolve.Inputs {
	name, namespace := h.release(cmp.Or(b.a.Options.DefaultNamespace, "default"))
	rel := render.Release{Name: name, Namespace: namespace}
	var unknownFrom string // the first valuesFrom whose values are unknown
	for _, from := range h.spec.ValuesFrom {
		set, known := b.vars.of(from.Kind, cmp.Or(h.namespace, b.a.Options.DefaultNamespace, "default"), from.Name)
		value, ok := set.data[cmp.Or(from.ValuesKey, "values.yaml")]
		if !known || !ok {
			// Unknown values: the chart's defaults stand in for them.
			if unknownFrom == "" {
				unknownFrom = from.Kind + " " + from.Name
			}
			continue
		}
		rel.Values = append(rel.Values, []byte(value))
		rel.ValuesFrom = append(rel.ValuesFrom, h.raw.Source.File)
		rel.TargetPaths = append(rel.TargetPaths, render.TargetPath{Path: from.TargetPath, Literal: from.Literal})
	}
	if len(h.spec.Values) > 0 {
		values, err := yaml.JSONToYAML(h.spec.Values)
		if err == nil {
			rel.Values = append(rel.Values, values)
			rel.ValuesFrom = append(rel.ValuesFrom, h.raw.Source.File)
		}
	}
	objs, errs := b.a.Renderer.Release(render.Shown(absolute(dir), h.raw.Source.File), rel, crd.APIVersions(b.a.Options.Release))
	if unknownFrom != "" {
		// The chart's defaults in place of the values the repository
		// cannot show (an encrypted Secret's) may fail where those would
		// not (samcday/home-cluster's required bootstrap token).
		for _, e := range errs {
			if !e.Unknown {
				e.Unknown = true
				e.Msg = fmt.Sprintf("HelmRelease %s takes values from %s, which the repository cannot show, and without them the chart fails (%s): what it creates is unknown", h.name, unknownFrom, e.Msg)
			}
		}
	}
	for _, o := range objs {
		inNamespace(o, namespace)
	}
	if copied {
		placeInValues(objs, h)
	}
	return resolve.LoadObjects(objs, errs, b.a.Options)
}

// run runs jobs in parallel, as many at once as there are cores.
func run(jobs []func()) {
	units := make([]*Unit, len(jobs))
	for i, job := range jobs {
		units[i] = &Unit{Load: func() *resolve.Inputs { job(); return &resolve.Inputs{} }}
	}
	loadAll(units)
}

// placeInValues places the fields of objects rendered from a chart
// outside the repository (a local copy of a remote one, which is not what
// a person edits) in the HelmRelease's spec.values where it writes them:
// a field whose value spec.values writes under the same key points there,
// any other at its parent, and the object at spec.values.
func placeInValues(objs []*manifest.Object, h *helmRelease) {
	root, ok := h.raw.Positions.Lookup("spec.values")
	if !ok {
		root, _ = h.raw.Positions.Lookup("")
	}
	written := h.raw.Positions.Written()
	var values any
	_ = json.Unmarshal(h.spec.Values, &values) // no values: every field at the root
	byLeaf := map[string][]string{}            // "key=value" → the paths of spec.values that write it
	var walk func(v any, path, key string)
	walk = func(v any, path, key string) {
		switch v := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(v))
			for k := range v {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(v[k], path+"."+k, k)
			}
		case []any:
			for i, item := range v {
				walk(item, path+"["+strconv.Itoa(i)+"]", key)
			}
		default:
			leaf, _ := json.Marshal(v)
			byLeaf[key+"="+string(leaf)] = append(byLeaf[key+"="+string(leaf)], "spec.values"+path)
		}
	}
	walk(values, "", "")
	for i, o := range objs {
		decoded := map[string]any{}
		_ = json.Unmarshal(o.JSON, &decoded)
		placed := *o
		placed.Source = manifest.Source{File: h.raw.Source.File, Doc: h.raw.Source.Doc, Pos: root}
		placed.Ignores = h.raw.Ignores
		placed.Positions = o.Positions.Relocate(func(path string, _ manifest.KeyValue, parent manifest.Pos) manifest.KeyValue {
			if path == "" {
				return manifest.KeyValue{Key: root, Value: root}
			}
			if v, ok := manifest.ValueAt(decoded, path); ok {
				leaf, _ := json.Marshal(v)
				key := path[strings.LastIndexAny(path, ".]")+1:]
				if at := byLeaf[key+"="+string(leaf)]; len(at) > 0 {
					if kv, ok := written[at[0]]; ok {
						return kv
					}
				}
			}
			return manifest.KeyValue{Key: parent, Value: parent}
		})
		objs[i] = &placed
	}
}

// clusterScoped are the kinds of cluster-scoped objects a chart may
// render that gwlint reads or that are common: no namespace is theirs.
var clusterScoped = map[string]bool{"Namespace": true, "GatewayClass": true, "ClusterRole": true,
	"ClusterRoleBinding": true, "CustomResourceDefinition": true, "PriorityClass": true, "StorageClass": true,
	"IngressClass": true, "ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true}

// inNamespace puts an object that names no namespace in the release's, as
// Helm installs it there.
func inNamespace(o *manifest.Object, namespace string) {
	if clusterScoped[o.Kind] {
		return
	}
	var doc map[string]any
	if json.Unmarshal(o.JSON, &doc) != nil {
		return
	}
	meta, _ := doc["metadata"].(map[string]any)
	if meta == nil || meta["namespace"] != nil {
		return
	}
	meta["namespace"] = namespace
	if data, err := json.Marshal(doc); err == nil {
		o.JSON = data
	}
}
