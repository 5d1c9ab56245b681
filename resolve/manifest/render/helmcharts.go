package render

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"strconv"

	"go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// helmChart is one entry of a kustomization's helmCharts: a chart that
// kustomize's HelmChartInflationGenerator renders with `helm template`,
// after pulling it into the chart home when it is not there. gwlint
// renders it with its own Helm renderer when it is there, and notes it as
// unknown when it is not.
type helmChart struct {
	types.HelmChart
	node  *yaml.Node // the entry
	index int        // its index in helmCharts
	kdir  string     // the kustomization's directory, absolute
	home  string     // where kustomize looks for the chart's directory
	// absHome says chartHome is written as an absolute path.
	absHome bool
	err     error // an entry kustomize could not read
}

// helmChartsOf returns the helmCharts entries of a kustomization (its
// top-level mapping m) in directory kdir, each with the directory that
// kustomize looks for its chart in: helmGlobals.chartHome (default
// "charts", relative to the kustomization), and below it
// <name>-<version> for a chart that names a repo and a version.
func helmChartsOf(kdir string, m *yaml.Node) []helmChart {
	charts := mapValue(m, "helmCharts")
	if charts == nil || charts.Kind != yaml.SequenceNode {
		return nil
	}
	var globals types.HelmGlobals
	var globalsErr error
	if g := mapValue(m, "helmGlobals"); g != nil {
		globalsErr = g.Decode(&globals)
	}
	home := cmp.Or(globals.ChartHome, types.HelmDefaultHome)
	absHome := filepath.IsAbs(home)
	if !absHome {
		home = filepath.Join(clean(kdir), home)
	}
	out := make([]helmChart, 0, len(charts.Content))
	for i, n := range charts.Content {
		c := helmChart{node: n, index: i, kdir: clean(kdir), home: home, absHome: absHome, err: globalsErr}
		if c.err == nil {
			c.err = n.Decode(&c.HelmChart)
		}
		if c.err == nil && c.Name == "" {
			c.err = fmt.Errorf("chart name cannot be empty")
		}
		if c.Version != "" && c.Repo != "" {
			c.home = filepath.Join(home, c.Name+"-"+c.Version)
		}
		out = append(out, c)
	}
	return out
}

// chartDir is the chart's directory, as kustomize looks for it.
func (c helmChart) chartDir() string { return filepath.Join(c.home, c.Name) }

// shownDir is the chart's directory as the kustomization names it:
// relative to it unless chartHome is absolute.
func (c helmChart) shownDir() string {
	if rel, err := filepath.Rel(c.kdir, c.chartDir()); err == nil && !c.absHome {
		return filepath.ToSlash(rel)
	}
	return c.chartDir()
}

// vendored reports whether the chart is in the chart home, where kustomize
// renders it from rather than pulling it. Outside the boundary it is not
// looked at: its render says why it cannot be read.
func (c helmChart) vendored(b manifest.Boundary) bool {
	if b.Check(c.chartDir()) != nil {
		return true
	}
	info, err := os.Stat(c.chartDir())
	return err == nil && info.IsDir()
}

// valuesEntries are the nodes of the entry that name its values files:
// valuesFile and the items of additionalValuesFiles.
func (c helmChart) valuesEntries() []*yaml.Node {
	if c.node.Kind != yaml.MappingNode {
		return nil
	}
	var items []*yaml.Node
	if v := mapValue(c.node, "valuesFile"); v != nil {
		items = append(items, v)
	}
	if v := mapValue(c.node, "additionalValuesFiles"); v != nil && v.Kind == yaml.SequenceNode {
		items = append(items, v.Content...)
	}
	return items
}

// request is the render of the chart as kustomize's `helm template` runs
// it: releaseName (a stand-in for --generate-name's random name when
// there is none), namespace, apiVersions, includeCRDs, and the values
// over the chart's defaults in kustomize's order: valuesFile and
// valuesInline merged as valuesMerge says (override: inline wins; merge:
// the file wins; replace: inline alone), then additionalValuesFiles.
// kfile names the kustomization, where an error in valuesInline is.
func (c helmChart) request(kfile string, b manifest.Boundary, output int) (request, error) {
	req := request{Dir: c.chartDir(), Namespace: cmp.Or(c.Namespace, "default"), ReleaseName: c.ReleaseName,
		APIVersions: c.ApiVersions, CRDs: c.IncludeCRDs, Output: output}
	add := func(name string, data []byte) {
		req.ValueFiles = append(req.ValueFiles, name)
		req.Values = append(req.Values, data)
	}
	file := func(name string) error {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.kdir, p)
		}
		data, err := readBounded(p, b)
		if err != nil {
			return err
		}
		add(p, data)
		return nil
	}
	var inline []byte
	if len(c.ValuesInline) > 0 {
		var err error
		if inline, err = yaml.Marshal(c.ValuesInline); err != nil {
			return req, err
		}
	}
	merge := cmp.Or(c.ValuesMerge, "override")
	switch {
	case merge != "override" && merge != "merge" && merge != "replace":
		return req, fmt.Errorf("valuesMerge must be one of [merge override replace]")
	case inline != nil && merge == "merge":
		add(kfile, inline)
	}
	if c.ValuesFile != "" && (inline == nil || merge != "replace") {
		if err := file(c.ValuesFile); err != nil {
			return req, err
		}
	}
	if inline != nil && merge != "merge" {
		add(kfile, inline)
	}
	for _, f := range c.AdditionalValuesFiles {
		if err := file(f); err != nil {
			return req, err
		}
	}
	return req, nil
}

// inflate renders the chart inside a worker and returns its templates as
// files that the kustomization lists among its resources in place of the
// entry: kustomize then applies the kustomization's transformers to them
// as it does to a generator's output. Each file is named after its
// template, below a directory of the entry's own, so that the template
// each rendered object came from is known (virtualFile.template).
func (c helmChart) inflate(kfile string, b manifest.Boundary, output int) (map[string]virtualFile, []*manifest.ReadError) {
	req, err := c.request(kfile, b, output)
	if err != nil {
		return nil, []*manifest.ReadError{asReadError(kfile, fmt.Sprintf("helmCharts[%d]: ", c.index), err)}
	}
	resp := renderChart(req, b)
	if len(resp.Errors) > 0 {
		return nil, resp.Errors
	}
	files := map[string]virtualFile{}
	for _, t := range resp.Templates {
		name := filepath.Join(virtualDir, strconv.Itoa(c.index), filepath.FromSlash(t.Name))
		files[name] = virtualFile{text: []byte(t.Text), template: templateFile(req.Dir, t.Name)}
	}
	return files, nil
}

// virtualDir is the directory, below a kustomization's, of the files that
// stand for its rendered helmCharts. A leading dot keeps it from meeting a
// directory of the repository's.
const virtualDir = ".gwlint-helmCharts"

// virtualFile is one rendered template of a chart that a kustomization's
// helmCharts names.
type virtualFile struct {
	text     []byte
	template string // the template file, absolute
}
