package job

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"

	"go.yaml.in/yaml/v3"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// HelmChart is one entry of a kustomization's helmCharts: a chart that
// kustomize's HelmChartInflationGenerator renders with `helm template`,
// after pulling it into the chart home when it is not there. gwlint
// renders it with its own Helm renderer when it is there, and notes it as
// unknown when it is not.
type HelmChart struct {
	KustomizeHelmChart
	node  *yaml.Node // the entry
	Index int        // its index in helmCharts
	Dir   string     // the kustomization's directory, absolute
	home  string     // where kustomize looks for the chart's directory
	// absHome says chartHome is written as an absolute path.
	absHome bool
	Err     error // an entry kustomize could not read
}

// release is the release kustomize would inflate the chart as, in the
// kustomization m: its releaseName ("release-name" when none, as kustomize
// names it), in the kustomization's namespace, which kustomize sets on
// what the chart renders, else the entry's.
func (c HelmChart) release(m *yaml.Node) *manifest.Release {
	r := &manifest.Release{Name: cmp.Or(c.ReleaseName, "release-name"), Namespace: c.Namespace}
	if ns := MapValue(m, "namespace"); ns != nil && ns.Kind == yaml.ScalarNode && ns.Value != "" {
		r.Namespace = ns.Value
	}
	return r
}

// KustomizeHelmChart is an entry of helmCharts as kustomize reads it: its
// types.HelmChart (sigs.k8s.io/kustomize/api/types), copied field for field
// so that an entry is read, and refused, as kustomize does, without
// linking kustomize's packages here (the worker's tests check the copy).
type KustomizeHelmChart struct {
	Name                  string         `json:"name,omitempty" yaml:"name,omitempty"`
	Version               string         `json:"version,omitempty" yaml:"version,omitempty"`
	Repo                  string         `json:"repo,omitempty" yaml:"repo,omitempty"`
	ReleaseName           string         `json:"releaseName,omitempty" yaml:"releaseName,omitempty"`
	Namespace             string         `json:"namespace,omitempty" yaml:"namespace,omitempty"`
	AdditionalValuesFiles []string       `json:"additionalValuesFiles,omitempty" yaml:"additionalValuesFiles,omitempty"`
	ValuesFile            string         `json:"valuesFile,omitempty" yaml:"valuesFile,omitempty"`
	ValuesInline          map[string]any `json:"valuesInline,omitempty" yaml:"valuesInline,omitempty"`
	ValuesMerge           string         `json:"valuesMerge,omitempty" yaml:"valuesMerge,omitempty"`
	IncludeCRDs           bool           `json:"includeCRDs,omitempty" yaml:"includeCRDs,omitempty"`
	SkipHooks             bool           `json:"skipHooks,omitempty" yaml:"skipHooks,omitempty"`
	ApiVersions           []string       `json:"apiVersions,omitempty" yaml:"apiVersions,omitempty"`
	KubeVersion           string         `json:"kubeVersion,omitempty" yaml:"kubeVersion,omitempty"`
	NameTemplate          string         `json:"nameTemplate,omitempty" yaml:"nameTemplate,omitempty"`
	SkipTests             bool           `json:"skipTests,omitempty" yaml:"skipTests,omitempty"`
	Debug                 bool           `json:"debug,omitempty" yaml:"debug,omitempty"`
	Devel                 bool           `json:"devel,omitempty" yaml:"devel,omitempty"`
}

// KustomizeHelmGlobals is a kustomization's helmGlobals as kustomize reads
// it: its types.HelmGlobals, copied as KustomizeHelmChart is.
type KustomizeHelmGlobals struct {
	ChartHome  string `json:"chartHome,omitempty" yaml:"chartHome,omitempty"`
	ConfigHome string `json:"configHome,omitempty" yaml:"configHome,omitempty"`
}

// KustomizeHelmHome is kustomize's default chart home
// (types.HelmDefaultHome).
const KustomizeHelmHome = "charts"

// HelmChartsOf returns the helmCharts entries of a kustomization (its
// top-level mapping m) in directory kdir, each with the directory that
// kustomize looks for its chart in: helmGlobals.chartHome (default
// "charts", relative to the kustomization), and below it
// <name>-<version> for a chart that names a repo and a version.
func HelmChartsOf(kdir string, m *yaml.Node) []HelmChart {
	charts := MapValue(m, "helmCharts")
	if charts == nil || charts.Kind != yaml.SequenceNode {
		return nil
	}
	var globals KustomizeHelmGlobals
	var globalsErr error
	if g := MapValue(m, "helmGlobals"); g != nil {
		globalsErr = g.Decode(&globals)
	}
	home := cmp.Or(globals.ChartHome, KustomizeHelmHome)
	absHome := filepath.IsAbs(home)
	if !absHome {
		home = filepath.Join(Clean(kdir), home)
	}
	out := make([]HelmChart, 0, len(charts.Content))
	for i, n := range charts.Content {
		c := HelmChart{node: n, Index: i, Dir: Clean(kdir), home: home, absHome: absHome, Err: globalsErr}
		if c.Err == nil {
			c.Err = n.Decode(&c.KustomizeHelmChart)
		}
		if c.Err == nil && c.Name == "" {
			c.Err = fmt.Errorf("chart name cannot be empty")
		}
		if c.Version != "" && c.Repo != "" {
			c.home = filepath.Join(home, c.Name+"-"+c.Version)
		}
		out = append(out, c)
	}
	return out
}

// ChartDir is the chart's directory, as kustomize looks for it.
func (c HelmChart) ChartDir() string { return filepath.Join(c.home, c.Name) }

// shownDir is the chart's directory as the kustomization names it:
// relative to it unless chartHome is absolute.
func (c HelmChart) shownDir() string {
	if rel, err := filepath.Rel(c.Dir, c.ChartDir()); err == nil && !c.absHome {
		return filepath.ToSlash(rel)
	}
	return c.ChartDir()
}

// Vendored reports whether the chart is in the chart home, where kustomize
// renders it from rather than pulling it. Outside the boundary it is not
// looked at: its render says why it cannot be read.
func (c HelmChart) Vendored(b manifest.Boundary) bool {
	if b.Check(c.ChartDir()) != nil {
		return true
	}
	info, err := os.Stat(c.ChartDir())
	return err == nil && info.IsDir()
}

// ValuesEntries are the nodes of the entry that name its values files:
// valuesFile and the items of additionalValuesFiles.
func (c HelmChart) ValuesEntries() []*yaml.Node {
	if c.node.Kind != yaml.MappingNode {
		return nil
	}
	var items []*yaml.Node
	if v := MapValue(c.node, "valuesFile"); v != nil {
		items = append(items, v)
	}
	if v := MapValue(c.node, "additionalValuesFiles"); v != nil && v.Kind == yaml.SequenceNode {
		items = append(items, v.Content...)
	}
	return items
}
