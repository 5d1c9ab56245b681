package render

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// ReleaseName is the release a chart is rendered as, `helm template`'s
// default.
const ReleaseName = job.ReleaseName

// Helm renders the chart in dir as `helm template` would, offline: with
// its default values and then each of valueFiles over them (a later file
// wins), as release ReleaseName in namespace, and with no cluster to look
// anything up in (`lookup` finds nothing). NOTES.txt and partials
// (_helpers.tpl) are not manifests. The objects are placed in their
// template files (see the package documentation). A chart that cannot be
// loaded or rendered is an error at the file and line Helm names; one that
// reaches out of the boundary, or past the limits, at the file it happened
// in.
//
// apiVersions are the API versions the cluster serves beyond Kubernetes'
// own, added to .Capabilities.APIVersions: a chart that renders its routes
// only when `.Capabilities.APIVersions.Has "gateway.networking.k8s.io/v1"`
// renders them, as it would when installed where the Gateway API CRDs are.
func (r *Renderer) Helm(dir string, valueFiles []string, namespace string, apiVersions []string) ([]*manifest.Object, []*manifest.ReadError) {
	rel := Release{Name: ReleaseName, Namespace: namespace, ValuesFrom: valueFiles}
	for _, f := range valueFiles {
		data, err := job.ReadBounded(f, r.Values)
		if err != nil {
			return nil, []*manifest.ReadError{job.AsReadError(f, "helm values: ", err)}
		}
		rel.Values = append(rel.Values, data)
	}
	return r.Release(dir, rel, apiVersions)
}

// ReadBounded reads a small file that a deployer names in the repository
// (a Helm values file, an ApplicationSet's git file generator's file):
// within the boundary, a regular file or a pipe no larger than Helm reads
// of a chart's file, with YAML that does not expand past what a manifest
// may.
func ReadBounded(p string, b manifest.Boundary) ([]byte, error) { return job.ReadBounded(p, b) }

// Release is how a chart is installed: as a release of a name, in a
// namespace, with values over the chart's defaults (a later one wins).
type Release struct {
	Name, Namespace string
	Values          [][]byte // YAML
	// ValuesFrom names where each of Values was read, for its errors.
	ValuesFrom []string
	// TargetPaths, beside Values, set each at a path in place of merging
	// it (Flux's valuesFrom.targetPath); a zero one merges.
	TargetPaths []TargetPath
	// Set are values set by name after Values (helm --set).
	Set []Parameter
}

// TargetPath is where a value is set (Flux's valuesFrom.targetPath).
type TargetPath = job.TargetPath

// Parameter is a value set by name (helm --set).
type Parameter = job.Parameter

// Release renders the chart in dir as rel, as Helm does (see Helm).
func (r *Renderer) Release(dir string, rel Release, apiVersions []string) ([]*manifest.Object, []*manifest.ReadError) {
	req := job.Request{Dir: dir, ReleaseName: rel.Name, Namespace: rel.Namespace, APIVersions: apiVersions,
		ValueFiles: rel.ValuesFrom, Values: rel.Values, TargetPaths: rel.TargetPaths, Set: rel.Set}
	resp := r.run(req, filepath.Join(dir, job.ChartFile))
	var objs []*manifest.Object
	errs := resp.Errors
	for _, t := range resp.Templates {
		file := job.TemplateFile(dir, t.Name)
		if err := r.Boundary.Check(file); err != nil {
			errs = append(errs, &manifest.ReadError{File: file, Msg: err.Error()})
			continue
		}
		o, e := placeTemplate(file, []byte(t.Text))
		objs, errs = append(objs, o...), append(errs, e...)
	}
	return objs, errs
}

// placeTemplate reads the rendered text of one template and places its
// objects in the template file.
func placeTemplate(file string, rendered []byte) ([]*manifest.Object, []*manifest.ReadError) {
	objs, errs := manifest.Parse(file, rendered)
	for _, e := range errs {
		// The position is in the rendered text, which no one can open.
		if e.Pos.Line > 0 {
			e.Msg = fmt.Sprintf("line %d of its rendered output: %s", e.Pos.Line, e.Msg)
		}
		e.Pos = manifest.Pos{}
	}
	tmpl, err := os.ReadFile(file)
	if err != nil {
		tmpl = nil // a dependency packed in a .tgz: everything at line 1
	}
	a := newAligner(rendered, tmpl)
	ignores := manifest.IgnoreDirectives(tmpl)
	for i, o := range objs {
		objs[i] = relocated(o, manifest.Source{File: file, Doc: o.Source.Doc}, ignores, a.place(o))
	}
	return objs, errs
}

// aligner places the lines of a template's rendered output on the lines of
// the template, in order.
type aligner struct {
	rendered, template []string
	cursor             int // index of the template line placed last
	// budget is how many more template lines find may look at. A field
	// that no later line writes costs a scan to the template's end, so a
	// large template whose output is written differently (or a hostile
	// one) would cost time quadratic in its size; past the budget, fields
	// point at their parents.
	budget int
}

// alignBudget is the lines find may look at for each line of the rendered
// output and of the template: far more than a real chart needs.
const alignBudget = 64

func newAligner(rendered, template []byte) *aligner {
	a := &aligner{rendered: strings.Split(string(rendered), "\n")}
	if template != nil {
		a.template = strings.Split(string(template), "\n")
	}
	a.budget = alignBudget * (len(a.rendered) + len(a.template))
	return a
}

// place returns the relocation of one rendered object's paths: each
// written field to the first template line from the cursor on that writes
// the same text or the same key, else to its parent. An object's root that
// is not found after the cursor is looked for from the top (a range that
// renders the same template lines again), else placed at line 1.
func (a *aligner) place(o *manifest.Object) func(string, manifest.KeyValue, manifest.Pos) manifest.KeyValue {
	return func(p string, now manifest.KeyValue, parent manifest.Pos) manifest.KeyValue {
		key, val := now.Key, now.Value
		atParent := manifest.KeyValue{Key: parent, Value: parent}
		line := key.Line - 1
		if line < 0 || line >= len(a.rendered) {
			return atParent
		}
		text := a.rendered[line]
		at, col := a.find(text, key.Col, a.cursor)
		if at < 0 && p == "" {
			at, col = a.find(text, key.Col, 0)
		}
		if at < 0 {
			if p == "" {
				return manifest.KeyValue{Key: firstLine, Value: firstLine}
			}
			return atParent
		}
		a.cursor = at
		k := manifest.Pos{Line: at + 1, Col: col}
		v := k
		if val.Line == key.Line && strings.TrimSpace(a.template[at]) == strings.TrimSpace(text) {
			v.Col = col + val.Col - key.Col
		}
		return manifest.KeyValue{Key: k, Value: v}
	}
}

// find returns the index of the first template line from from on that
// matches text, the rendered line whose field starts at column col, and
// the column of the field there; -1 when none does.
func (a *aligner) find(text string, col, from int) (int, int) {
	if col < 1 || col > len(text)+1 {
		return -1, 0
	}
	field := text[col-1:] // "port: 80", "name: x", or an item's value
	prefix := strings.TrimSpace(text[:col-1])
	// A field is found by its key; a scalar item of a sequence, whose
	// value a template writes as it likes, by its "- " alone.
	want := field
	if k, _, ok := strings.Cut(field, ":"); ok && !strings.ContainsAny(k, " \"'{") {
		want = k + ":"
	} else if prefix != "" {
		want = ""
	}
	for i := from; i < len(a.template); i++ {
		if a.budget--; a.budget < 0 {
			return -1, 0
		}
		t := a.template[i]
		trimmed := strings.TrimLeft(t, " ")
		if prefix != "" { // a sequence item: "- "
			if !strings.HasPrefix(trimmed, prefix) {
				continue
			}
			trimmed = strings.TrimLeft(trimmed[len(prefix):], " ")
		}
		if strings.HasPrefix(trimmed, want) || trimmed == field {
			return i, len(t) - len(trimmed) + 1
		}
	}
	return -1, 0
}
