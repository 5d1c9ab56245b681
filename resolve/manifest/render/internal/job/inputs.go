package job

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// IncludingFields are the fields of a kustomization that name other
// kustomizations (directories) or resource files.
var IncludingFields = []string{"resources", "bases", "components"}

// FileFields are the other fields of a kustomization whose entries (a
// string, or an object's path) name files kustomize reads, and so may be
// URLs it would download: patches, the plugin configurations of
// transformers, generators and validators, CRD schemas, name-reference
// configurations and replacement sources.
var FileFields = []string{"patches", "patchesStrategicMerge", "patchesJson6902",
	"transformers", "generators", "validators", "crds", "configurations", "replacements"}

// remoteHelp says what becomes of a remote entry and how to have it
// checked.
const remoteHelp = "is remote: gwlint fetches nothing, so what it holds is unknown and the rest is built without it; vendor it into the repository to have it checked"

// MapValue is the value of key in mapping m, nil when m has none.
func MapValue(m *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// Includes is what one kustomization names in IncludingFields.
type Includes struct {
	Dirs  []string // local directories (kustomizations)
	Files []string // local files
	// Charts are the directories of the vendored charts its helmCharts
	// inflate.
	Charts []string
	// Errs are errors, and notes (ReadError.Unknown) of what a build
	// leaves out: what kustomize would fetch.
	Errs []*manifest.ReadError
	// Ignored are the local paths it names that are not there because git
	// leaves them out of the repository (see Ignored): each is noted in
	// Errs too, and a build that needs them cannot say what it gives.
	Ignored []string
	// Plugins are notes of its generators and validators entries that
	// configure a plugin kustomize runs only with a flag
	// (PluginNeedingFlag), which a build for a deployer that may set it
	// leaves out. Flux sets none: its build fails on them, as
	// kustomize-controller's does.
	Plugins []*manifest.ReadError
}

// ReadIncludes reads the kustomization file of dir and sorts what its
// IncludingFields name: local directories, local files, and errors for
// what is neither here. kustomize would fetch a remote entry (a base, a
// patch) or a chart that helmCharts names and chartHome lacks over the
// network, which gwlint never uses: each is noted as unknown, and a build
// leaves it out (see the worker's offlineFS).
func ReadIncludes(dir string, b manifest.Boundary) Includes {
	file := manifest.KustomizationFile(dir, nil)
	var inc Includes
	data, err := readKustomization(file, b)
	if err != nil {
		inc.Errs = append(inc.Errs, AsReadError(file, "", err))
		return inc
	}
	m := KustomizationMapping(data)
	if m == nil {
		return inc // kustomize reports what it cannot read
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		key, val := m.Content[i], m.Content[i+1]
		if key.Value == "helmCharts" {
			for _, c := range HelmChartsOf(dir, m) {
				switch {
				case c.Err != nil:
					inc.Errs = append(inc.Errs, &manifest.ReadError{File: file, Pos: manifest.Pos{Line: c.node.Line, Col: c.node.Column},
						Msg: "helmCharts: " + c.Err.Error()})
				case !c.Vendored(b):
					e := unknownAt(file, c.node, fmt.Sprintf(
						"helmCharts: chart %q is not in %s: kustomize would pull it, gwlint fetches nothing, so what it renders is unknown; vendor it there to have it checked",
						c.Name, c.shownDir()))
					e.Release = c.release(m)
					inc.Errs = append(inc.Errs, e)
				default:
					// Named as dir is (relative, as a walk names it), so
					// that it is found among a walk's charts.
					chart := c.ChartDir()
					if rel, err := filepath.Rel(Clean(dir), chart); err == nil {
						chart = filepath.Join(dir, rel)
					}
					inc.Charts = append(inc.Charts, chart)
				}
			}
		}
		for _, item := range PathEntries(key.Value, val) {
			switch {
			case slices.Contains(IncludingFields, key.Value):
				inc.add(dir, file, item, b)
			case LeftOutPlugin(key.Value) != "":
				if plugin, ok := PluginNeedingFlag(dir, item, b); ok {
					inc.notePlugin(file, key.Value, item, plugin)
				}
				fallthrough
			default:
				inc.checkFile(dir, file, item, b)
			}
		}
	}
	return inc
}

// KustomizationMapping is the top-level mapping of a kustomization file,
// nil when it has none.
func KustomizationMapping(data []byte) *yaml.Node {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	return doc.Content[0]
}

// IsComponent reports whether the kustomization file of dir is a
// kustomize Component (kind: Component), which is built only as a part of
// the kustomizations that include it.
func IsComponent(dir string, b manifest.Boundary) bool {
	data, err := readKustomization(manifest.KustomizationFile(dir, nil), b)
	if err != nil {
		return false
	}
	m := KustomizationMapping(data)
	if m == nil {
		return false
	}
	kind := MapValue(m, "kind")
	return kind != nil && kind.Value == "Component"
}

// PathEntries returns the entries of a kustomization's field (its name
// and value) that name a path or a URL: the items of includingFields and
// fileFields (an object's path), openapi's path, the chart home and the
// values files of helmCharts. Other values are kustomize's to report.
func PathEntries(field string, val *yaml.Node) []*yaml.Node {
	var items []*yaml.Node
	switch {
	case slices.Contains(IncludingFields, field) && val.Kind == yaml.SequenceNode:
		items = slices.Clone(val.Content)
	case slices.Contains(FileFields, field) && val.Kind == yaml.SequenceNode:
		for _, item := range val.Content {
			if item.Kind == yaml.MappingNode {
				item = MapValue(item, "path")
			}
			items = append(items, item)
		}
	case field == "openapi" && val.Kind == yaml.MappingNode:
		items = append(items, MapValue(val, "path"))
	case field == "helmGlobals" && val.Kind == yaml.MappingNode:
		items = append(items, MapValue(val, "chartHome"))
	case field == "helmCharts" && val.Kind == yaml.SequenceNode:
		for _, c := range val.Content {
			items = append(items, HelmChart{node: c}.ValuesEntries()...)
		}
	case slices.Contains(GeneratorFields, field) && val.Kind == yaml.SequenceNode:
		for _, g := range val.Content {
			items = append(items, generatorSources(g)...)
		}
	}
	return slices.DeleteFunc(items, func(n *yaml.Node) bool {
		return n == nil || n.Kind != yaml.ScalarNode || n.Value == ""
	})
}

// GeneratorFields are the generators whose sources are files kustomize
// reads, or fetches: files and envs entries ("key=path" or "path") and
// the older env.
var GeneratorFields = []string{"configMapGenerator", "secretGenerator"}

// generatorSources are the nodes of a generator's files, envs and env.
func generatorSources(g *yaml.Node) []*yaml.Node {
	if g.Kind != yaml.MappingNode {
		return nil
	}
	var items []*yaml.Node
	for _, key := range []string{"files", "envs"} {
		if v := MapValue(g, key); v != nil && v.Kind == yaml.SequenceNode {
			items = append(items, v.Content...)
		}
	}
	if v := MapValue(g, "env"); v != nil {
		items = append(items, v)
	}
	return items
}

// EntryPath is the path or URL an entry names: a generator's "key=path"
// less its key.
func EntryPath(entry string) string {
	if key, path, ok := strings.Cut(entry, "="); ok && key != "" && !strings.ContainsAny(key, "/:?") {
		return path
	}
	return entry
}

// checkFile notes an entry that names a file kustomize would fetch, or one
// that git leaves out of the repository; kustomize reports any other that
// is missing.
func (inc *Includes) checkFile(dir, file string, item *yaml.Node, b manifest.Boundary) {
	switch p := filepath.Join(dir, EntryPath(item.Value)); {
	case Remote(item.Value):
		inc.refuseRemote(file, item)
	case !exists(p) && Ignored(p, b):
		inc.ignore(file, item, p)
	}
}

// refuseRemote notes an entry that names what kustomize would fetch.
func (inc *Includes) refuseRemote(file string, item *yaml.Node) {
	e := unknownAt(file, item, fmt.Sprintf("%q %s", item.Value, remoteHelp))
	e.Remote = item.Value
	inc.Errs = append(inc.Errs, e)
}

// ignore notes an entry, at p, that git leaves out of the repository.
func (inc *Includes) ignore(file string, item *yaml.Node, p string) {
	inc.Errs = append(inc.Errs, unknownAt(file, item, fmt.Sprintf(
		"%q is not in the repository: .gitignore leaves it out (it is kept where the repository is deployed, as a secret's file is), so what it holds is unknown", item.Value)))
	inc.Ignored = append(inc.Ignored, p)
}

// LeftOutPlugin is what a build leaves unknown when it leaves out a
// plugin (PluginNeedingFlag) of a kustomization's field ("generates" for
// generators), "" for a field whose plugins it never leaves out: a
// transformer changes what the rest of the build gives.
func LeftOutPlugin(field string) string {
	return map[string]string{"generators": "generates", "validators": "would refuse"}[field]
}

// notePlugin notes an entry of field that configures plugin.
func (inc *Includes) notePlugin(file, field string, item *yaml.Node, plugin FlaggedPlugin) {
	what := fmt.Sprintf("%q", item.Value)
	if strings.Contains(item.Value, "\n") {
		what = "an inline configuration"
	}
	inc.Plugins = append(inc.Plugins, unknownAt(file, item, fmt.Sprintf(
		"%s: %s configures the plugin %s, which kustomize runs only with %s and gwlint never runs: what it %s is unknown, and the rest is built without it",
		field, what, plugin.Kind, plugin.Flag, LeftOutPlugin(field))))
}

// exists reports whether p is there.
func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// unknownAt is a note, at node n of file, of what a build leaves out.
func unknownAt(file string, n *yaml.Node, msg string) *manifest.ReadError {
	return &manifest.ReadError{File: file, Pos: manifest.Pos{Line: n.Line, Col: n.Column}, Msg: msg, Unknown: true}
}

// add sorts one entry of an including field.
func (inc *Includes) add(dir, file string, item *yaml.Node, b manifest.Boundary) {
	p := filepath.Join(dir, item.Value)
	info, err := os.Stat(p)
	switch {
	case err == nil && info.IsDir():
		inc.Dirs = append(inc.Dirs, p)
	case err == nil:
		inc.Files = append(inc.Files, p)
	case Remote(item.Value):
		inc.refuseRemote(file, item)
	case Ignored(p, b):
		inc.ignore(file, item, p)
	default:
		inc.Errs = append(inc.Errs, &manifest.ReadError{File: file, Pos: manifest.Pos{Line: item.Line, Col: item.Column},
			Msg: fmt.Sprintf("%q is not a file or directory here", item.Value)})
	}
}

// Remote reports whether a kustomization entry names something kustomize
// would fetch: a URL or a git repository.
func Remote(entry string) bool {
	entry = EntryPath(entry)
	for _, prefix := range []string{"http://", "https://", "git@", "git::", "ssh://", "file://", "oci://", "github.com/", "gitlab.com/", "bitbucket.org/"} {
		if strings.HasPrefix(entry, prefix) {
			return true
		}
	}
	return strings.Contains(entry, "?ref=") || strings.Contains(entry, ".git//")
}

// Clean is a directory's absolute path, to compare directories named from
// different places.
func Clean(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		return abs
	}
	return filepath.Clean(dir)
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

// AsReadError is err as an error at file, or at the file it names when it
// is a ReadError already.
func AsReadError(file, prefix string, err error) *manifest.ReadError {
	var re *manifest.ReadError
	if errors.As(err, &re) {
		return re
	}
	return &manifest.ReadError{File: file, Msg: prefix + err.Error()}
}

// TemplateFile is the file of a template Helm names "chart/templates/x.yaml"
// (or "chart/charts/sub/templates/x.yaml"): the path under the chart's
// directory.
func TemplateFile(dir, name string) string {
	_, rest, _ := strings.Cut(name, "/")
	return filepath.Join(dir, filepath.FromSlash(rest))
}

// FlaggedPlugin is a plugin that kustomize runs only with a flag: an
// external one (not "builtin": ksops, a KRM function) with
// --enable-alpha-plugins, the builtin HelmChartInflationGenerator, which
// pulls its chart, with --enable-helm. gwlint runs neither (it renders the
// vendored charts that helmCharts names), and Flux's kustomize-controller
// sets neither flag.
type FlaggedPlugin struct{ Kind, Flag string }

// PluginNeedingFlag returns the first plugin configuration that an entry
// of a kustomization's generators, transformers or validators, in dir,
// holds inline or names in a file, which kustomize runs only with a flag
// (FlaggedPlugin); false when none, and for an entry naming a directory,
// anything but a regular file (a FIFO would block), or a file it cannot
// read, which kustomize reports.
func PluginNeedingFlag(dir string, entry *yaml.Node, b manifest.Boundary) (FlaggedPlugin, bool) {
	if entry.Kind != yaml.ScalarNode || Remote(entry.Value) {
		return FlaggedPlugin{}, false
	}
	data := []byte(entry.Value)
	var inline yaml.Node
	if yaml.Unmarshal(data, &inline) != nil || len(inline.Content) == 0 || inline.Content[0].Kind != yaml.MappingNode {
		p := filepath.Join(dir, entry.Value)
		if info, err := os.Stat(p); err != nil || !info.Mode().IsRegular() {
			return FlaggedPlugin{}, false
		}
		var err error
		if data, err = ReadBounded(p, b); err != nil {
			return FlaggedPlugin{}, false
		}
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc yaml.Node
		if dec.Decode(&doc) != nil {
			return FlaggedPlugin{}, false
		}
		if len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		m := doc.Content[0]
		apiVersion, kind := MapValue(m, "apiVersion"), MapValue(m, "kind")
		switch {
		case apiVersion == nil || kind == nil:
			continue // kustomize's to report
		case apiVersion.Value != "builtin":
			return FlaggedPlugin{Kind: kind.Value, Flag: "--enable-alpha-plugins"}, true
		case kind.Value == "HelmChartInflationGenerator":
			return FlaggedPlugin{Kind: kind.Value, Flag: "--enable-helm"}, true
		}
	}
}
