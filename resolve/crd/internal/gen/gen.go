// Package gen turns the Gateway API CRD YAMLs of every known release into
// the Go schema tables of package crd (zz_generated_schemas.go).
//
// It is strict on purpose: any schema keyword, format, bound or
// x-kubernetes-validations field the crd package does not implement makes it
// fail, so bumping the gateway-api module cannot silently drop a check.
package gen

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"go/format"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path"
	"slices"
	"strconv"
	"strings"
	"testing/fstest"

	"sigs.k8s.io/yaml"
)

// Module is the Go module whose CRDs are compiled.
const Module = "sigs.k8s.io/gateway-api"

// Releases are the releases of Module whose CRDs are compiled, oldest
// first. The one go.mod pins must be among them: it is crd's default (the
// zero crd.Release). To add the next release, append it here and run
// go generate ./resolve/crd.
var Releases = []string{
	"v1.0.0",
	"v1.1.0",
	"v1.2.0", "v1.2.1",
	"v1.3.0",
	"v1.4.0", "v1.4.1",
	"v1.5.0", "v1.5.1",
	"v1.6.0", "v1.6.1", "v1.6.2", "v1.6.3",
	"v1.7.0",
}

// Channels maps the crd.Channel constant names to their CRD directories.
var Channels = []struct{ Const, Dir string }{
	{"Standard", "config/crd/standard"},
	{"Experimental", "config/crd/experimental"},
}

// ModuleDir returns the directory and version of the gateway-api module
// pinned by the go.mod of the current directory (from the module cache).
func ModuleDir() (dir, version string, err error) {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", Module).Output()
	if err != nil {
		return "", "", fmt.Errorf("go list -m %s: %w", Module, err)
	}
	dir, version, _ = strings.Cut(strings.TrimSpace(string(out)), " ")
	if dir == "" {
		return "", "", fmt.Errorf("go list -m %s: module not downloaded", Module)
	}
	return dir, version, nil
}

// Schema is the subset of apiextensions JSONSchemaProps the CRDs use. Decoding
// disallows unknown keys, which is what makes the generator fail loudly on a
// keyword it does not know.
type Schema struct {
	Type                 string             `json:"type"`
	Format               string             `json:"format"`
	Description          string             `json:"description"`
	Enum                 []any              `json:"enum"`
	Pattern              string             `json:"pattern"`
	MinLength            *int64             `json:"minLength"`
	MaxLength            *int64             `json:"maxLength"`
	MinItems             *int64             `json:"minItems"`
	MaxItems             *int64             `json:"maxItems"`
	MinProperties        *int64             `json:"minProperties"`
	MaxProperties        *int64             `json:"maxProperties"`
	Minimum              *json.Number       `json:"minimum"`
	Maximum              *json.Number       `json:"maximum"`
	ExclusiveMinimum     bool               `json:"exclusiveMinimum"`
	ExclusiveMaximum     bool               `json:"exclusiveMaximum"`
	Required             []string           `json:"required"`
	Properties           map[string]*Schema `json:"properties"`
	Items                *Schema            `json:"items"`
	AdditionalProperties *Schema            `json:"additionalProperties"`
	Default              json.RawMessage    `json:"default"`
	Nullable             bool               `json:"nullable"`
	ListType             string             `json:"x-kubernetes-list-type"`
	ListMapKeys          []string           `json:"x-kubernetes-list-map-keys"`
	MapType              string             `json:"x-kubernetes-map-type"`
	Validations          []Rule             `json:"x-kubernetes-validations"`
	OneOf                []*Schema          `json:"oneOf"`
	AnyOf                []*Schema          `json:"anyOf"`
	Not                  *Schema            `json:"not"`
}

// Rule is one x-kubernetes-validations entry. Only rule and message are
// used by the Gateway API CRDs; anything else fails decoding.
type Rule struct {
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// CRD is the part of a CustomResourceDefinition the generator reads.
type CRD struct {
	Kind string `json:"kind"`
	Spec struct {
		Group string `json:"group"`
		Names struct {
			Kind string `json:"kind"`
		} `json:"names"`
		Scope    string `json:"scope"`
		Versions []struct {
			Name               string  `json:"name"`
			Served             bool    `json:"served"`
			Deprecated         bool    `json:"deprecated"`
			DeprecationWarning *string `json:"deprecationWarning"`
			Schema             struct {
				OpenAPIV3Schema json.RawMessage `json:"openAPIV3Schema"`
			} `json:"schema"`
		} `json:"versions"`
	} `json:"spec"`
}

// Version is one CRD version of one channel, schema decoded.
type Version struct {
	Channel    string // crd.Channel constant name
	File       string // path relative to the module
	Group      string
	Kind       string
	Version    string
	Served     bool
	Namespaced bool
	// Deprecation is the warning the API server sends for a version the
	// CRD marks deprecated: its deprecationWarning, or the API server's
	// default text when it has none. Empty when not deprecated.
	Deprecation string
	Schema      *Schema
	Raw         json.RawMessage // the openAPIV3Schema as the CRD writes it
}

// Open returns the files under config/crd of one release of Module, read
// from the module zip that the go command downloads into its module cache.
// The zip rather than the extracted module: the go command extracts no
// release whose go.mod asks for a newer Go than the one running, but
// downloads its zip all the same, and only the YAML is needed.
func Open(version string) (fs.FS, error) {
	cmd := exec.Command("go", "mod", "download", "-json", Module+"@"+version)
	cmd.Dir = os.TempDir() // outside any module: nothing to update
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod")
	out, runErr := cmd.Output() // fails on a too new go line, zip downloaded
	var info struct{ Zip, Error string }
	if err := json.Unmarshal(out, &info); err != nil || info.Zip == "" {
		return nil, fmt.Errorf("go mod download %s@%s: %v %s", Module, version, runErr, info.Error)
	}
	zr, err := zip.OpenReader(info.Zip)
	if err != nil {
		return nil, fmt.Errorf("%s@%s: %w (%s)", Module, version, err, info.Error)
	}
	defer zr.Close()
	prefix := Module + "@" + version + "/"
	files := fstest.MapFS{}
	for _, f := range zr.File {
		name, ok := strings.CutPrefix(f.Name, prefix)
		if !ok || !strings.HasPrefix(name, "config/crd/") {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", f.Name, err)
		}
		files[name] = &fstest.MapFile{Data: data, Mode: 0o444}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no config/crd", info.Zip)
	}
	return files, nil
}

// Release is the CRDs of one release.
type Release struct {
	Version  string // "v1.6.3"
	Versions []Version
}

// LoadReleases loads every release of Releases and returns them with the
// version go.mod pins.
func LoadReleases() (pinned string, rels []Release, err error) {
	if _, pinned, err = ModuleDir(); err != nil {
		return "", nil, err
	}
	if !slices.Contains(Releases, pinned) {
		return "", nil, fmt.Errorf("go.mod pins %s@%s, which gen.Releases does not list", Module, pinned)
	}
	for _, version := range Releases {
		fsys, err := Open(version)
		if err != nil {
			return "", nil, err
		}
		vs, err := Load(fsys)
		if err != nil {
			return "", nil, fmt.Errorf("%s: %w", version, err)
		}
		rels = append(rels, Release{version, vs})
	}
	return pinned, rels, nil
}

// Load reads every CRD version (served or not) of both channels, in a
// deterministic order, from a release's files (a module directory, or
// Open's).
func Load(fsys fs.FS) ([]Version, error) {
	var out []Version
	for _, ch := range Channels {
		files, err := fs.Glob(fsys, path.Join(ch.Dir, "*.yaml"))
		if err != nil {
			return nil, err
		}
		slices.Sort(files)
		for _, rel := range files {
			data, err := fs.ReadFile(fsys, rel)
			if err != nil {
				return nil, err
			}
			for _, doc := range splitYAML(data) {
				js, err := yaml.YAMLToJSON(doc)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", rel, err)
				}
				var crd CRD
				if err := json.Unmarshal(js, &crd); err != nil {
					return nil, fmt.Errorf("%s: %w", rel, err)
				}
				if crd.Kind != "CustomResourceDefinition" {
					continue // kustomization, ValidatingAdmissionPolicy...
				}
				for _, v := range crd.Spec.Versions {
					dec := json.NewDecoder(bytes.NewReader(v.Schema.OpenAPIV3Schema))
					dec.DisallowUnknownFields()
					dec.UseNumber()
					var s Schema
					if err := dec.Decode(&s); err != nil {
						return nil, fmt.Errorf("%s %s %s: %w", rel, crd.Spec.Names.Kind, v.Name, err)
					}
					out = append(out, Version{
						Channel: ch.Const, File: rel, Group: crd.Spec.Group, Kind: crd.Spec.Names.Kind,
						Version: v.Name, Served: v.Served, Namespaced: crd.Spec.Scope == "Namespaced",
						Deprecation: deprecation(crd.Spec.Group, v.Name, crd.Spec.Names.Kind, v.Deprecated, v.DeprecationWarning),
						Schema:      &s, Raw: v.Schema.OpenAPIV3Schema,
					})
				}
			}
		}
	}
	return out, nil
}

// deprecation is the warning the API server sends for a CRD version:
// apiextensions-apiserver's default is "<group>/<version> <Kind> is
// deprecated" when deprecationWarning is not set.
func deprecation(group, version, kind string, deprecated bool, warning *string) string {
	switch {
	case !deprecated:
		return ""
	case warning != nil:
		return *warning
	}
	return group + "/" + version + " " + kind + " is deprecated"
}

// splitYAML splits a multi-document YAML stream on `---` lines.
func splitYAML(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() {
		if len(bytes.TrimSpace(cur.Bytes())) > 0 {
			docs = append(docs, bytes.Clone(cur.Bytes()))
		}
		cur.Reset()
	}
	for _, line := range bytes.SplitAfter(data, []byte("\n")) {
		if t := bytes.TrimRight(line, " \r\n"); bytes.Equal(t, []byte("---")) {
			flush()
			continue
		}
		cur.Write(line)
	}
	flush()
	return docs
}

// RuleUse is one x-kubernetes-validations rule at one schema location.
type RuleUse struct {
	Version *Version
	Path    string // schema path like .spec.rules[].filters[]
	Rule    Rule
}

// Rules lists every x-kubernetes-validations rule of every version, served
// or not.
func Rules(vs []Version) []RuleUse {
	var out []RuleUse
	for i := range vs {
		v := &vs[i]
		var walk func(s *Schema, path string)
		walk = func(s *Schema, path string) {
			if s == nil {
				return
			}
			for _, r := range s.Validations {
				out = append(out, RuleUse{v, path, r})
			}
			for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
				walk(s.Properties[k], path+"."+k)
			}
			walk(s.Items, path+"[]")
			walk(s.AdditionalProperties, path+"{}")
			for _, x := range s.OneOf {
				walk(x, path)
			}
			for _, x := range s.AnyOf {
				walk(x, path)
			}
			walk(s.Not, path)
		}
		walk(v.Schema, "")
	}
	return out
}

// Generate returns the gofmt'ed source of zz_generated_schemas.go for the
// served versions of both channels of each release (oldest first), pinned
// being the default one. A node identical in several places, releases or
// channels is emitted once.
func Generate(pinned string, rels []Release) ([]byte, error) {
	g := &generator{vars: map[string]string{}, patterns: map[string]int{}, rules: map[Rule]int{}}
	var rows bytes.Buffer
	pinnedSeq := -1
	for seq, rel := range rels {
		if rel.Version == pinned {
			pinnedSeq = seq
		}
		fmt.Fprintf(&rows, "\t{ // %s\n", rel.Version)
		for _, ch := range Channels {
			fmt.Fprintf(&rows, "\t\t%s: {\n", ch.Const)
			for i := range rel.Versions {
				v := &rel.Versions[i]
				if !v.Served || v.Channel != ch.Const {
					continue
				}
				ref, err := g.node(v.Schema, "")
				if err != nil {
					return nil, fmt.Errorf("%s %s %s %s: %w", rel.Version, v.File, v.Kind, v.Version, err)
				}
				fmt.Fprintf(&rows, "\t\t\t{%q, %q, %q, %t, %s, %q},\n", v.Group, v.Version, v.Kind, v.Namespaced, ref, v.Deprecation)
			}
			rows.WriteString("\t\t},\n")
		}
		rows.WriteString("\t},\n")
	}
	if pinnedSeq < 0 {
		return nil, fmt.Errorf("pinned release %s not among the releases", pinned)
	}

	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/gen from %s %s to %s config/crd; DO NOT EDIT.\n\n", Module, rels[0].Version, rels[len(rels)-1].Version)
	b.WriteString("package crd\n\nimport \"encoding/json\"\n\n")
	b.WriteString("// releaseNames are the releases whose CRDs are compiled, oldest first.\nvar releaseNames = [...]string{\n")
	for _, rel := range rels {
		fmt.Fprintf(&b, "\t%q,\n", rel.Version)
	}
	b.WriteString("}\n\n")
	fmt.Fprintf(&b, "// pinnedSeq is the index in releaseNames of the release go.mod pins (%s): the zero Release.\nconst pinnedSeq = %d\n\n", pinned, pinnedSeq)
	b.WriteString("// crdVersions lists every served CRD version of each release (in\n// releaseNames' order) and channel.\nvar crdVersions = [len(releaseNames)][2][]crdVersion{\n")
	b.Write(rows.Bytes())
	b.WriteString("}\n\n")
	b.WriteString("// patterns are the distinct schema patterns.\nvar patterns = [...]pattern{\n")
	for _, p := range g.patternList {
		fmt.Fprintf(&b, "\t{src: %s},\n", quote(p))
	}
	b.WriteString("}\n\n")
	b.WriteString("// celRules are the distinct x-kubernetes-validations (rule, message) pairs.\nvar celRules = [...]celRule{\n")
	for _, r := range g.ruleList {
		fmt.Fprintf(&b, "\t{%s, %s},\n", quote(r.Rule), quote(r.Message))
	}
	b.WriteString("}\n\n")
	b.WriteString("var (\n")
	for _, d := range g.decls {
		b.WriteString(d)
	}
	b.WriteString(")\n")
	src, err := format.Source(b.Bytes())
	if err != nil {
		return nil, fmt.Errorf("gofmt generated code: %w", err)
	}
	return src, nil
}

// generator emits one package-level var per distinct node; identical
// subtrees (parentRefs, backendRefs, conditions... repeated across kinds,
// versions and channels) are shared.
type generator struct {
	vars        map[string]string // node literal -> var name
	decls       []string
	patterns    map[string]int
	patternList []string
	rules       map[Rule]int
	ruleList    []Rule
}

// node returns the name of the var holding s.
func (g *generator) node(s *Schema, path string) (string, error) {
	var f []string
	add := func(format string, args ...any) { f = append(f, fmt.Sprintf(format, args...)) }

	switch s.Type {
	case "":
	case "object", "array", "string", "integer", "number", "boolean":
		add("typ: t%s", strings.ToUpper(s.Type[:1])+s.Type[1:])
	default:
		return "", fmt.Errorf("%s: unsupported type %q", path, s.Type)
	}
	if ft, err := formatFor(s); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	} else if ft != "" {
		add("format: %s", ft)
	}
	if s.Nullable {
		add("nullable: true")
	}
	if len(s.Enum) > 0 {
		// The API server holds enum values as decoded by apimachinery's
		// json: strings, bools, and int64 for integral numbers.
		var vals []string
		for _, e := range s.Enum {
			switch e := e.(type) {
			case string:
				vals = append(vals, quote(e))
			case json.Number:
				i, err := e.Int64()
				if err != nil {
					return "", fmt.Errorf("%s: non-integral enum value %s", path, e)
				}
				vals = append(vals, fmt.Sprintf("int64(%d)", i))
			case bool: // v1.3.0's CORS allowCredentials: [true]
				vals = append(vals, strconv.FormatBool(e))
			default:
				return "", fmt.Errorf("%s: unsupported enum value %v", path, e)
			}
		}
		add("enum: []any{%s}", strings.Join(vals, ", "))
	}
	if s.Pattern != "" {
		i, ok := g.patterns[s.Pattern]
		if !ok {
			i = len(g.patternList)
			g.patterns[s.Pattern] = i
			g.patternList = append(g.patternList, s.Pattern)
		}
		add("pattern: &patterns[%d]", i)
	}
	for _, l := range []struct {
		name string
		v    *int64
	}{{"minLength", s.MinLength}, {"maxLength", s.MaxLength}, {"minItems", s.MinItems}, {"maxItems", s.MaxItems}, {"minProperties", s.MinProperties}, {"maxProperties", s.MaxProperties}} {
		if l.v != nil {
			add("%s: bound{true, %d}", l.name, *l.v)
		}
	}
	for _, l := range []struct {
		name string
		v    *json.Number
	}{{"minimum", s.Minimum}, {"maximum", s.Maximum}} {
		if l.v != nil {
			i, err := l.v.Int64()
			if err != nil {
				return "", fmt.Errorf("%s: non-integral %s %s", path, l.name, *l.v)
			}
			add("%s: bound{true, %d}", l.name, i)
		}
	}
	if s.ExclusiveMinimum {
		add("exclusiveMin: true")
	}
	if s.ExclusiveMaximum {
		add("exclusiveMax: true")
	}
	if len(s.Required) > 0 {
		add("required: []string{%s}", quoteAll(s.Required))
	}
	if len(s.Properties) > 0 {
		var ps []string
		for _, k := range slices.Sorted(maps.Keys(s.Properties)) {
			ref, err := g.node(s.Properties[k], path+"."+k)
			if err != nil {
				return "", err
			}
			ps = append(ps, fmt.Sprintf("{%s, %s}", quote(k), ref))
		}
		add("props: []prop{%s}", strings.Join(ps, ", "))
	}
	if s.AdditionalProperties != nil {
		ref, err := g.node(s.AdditionalProperties, path+"{}")
		if err != nil {
			return "", err
		}
		add("additional: %s", ref)
	}
	if s.Items != nil {
		ref, err := g.node(s.Items, path+"[]")
		if err != nil {
			return "", err
		}
		add("items: %s", ref)
	}
	switch s.ListType {
	case "", "atomic":
	case "set":
		add("listType: listSet")
	case "map":
		if len(s.ListMapKeys) == 0 {
			return "", fmt.Errorf("%s: list-type map without keys", path)
		}
		add("listType: listMap")
		add("mapKeys: []string{%s}", quoteAll(s.ListMapKeys))
	default:
		return "", fmt.Errorf("%s: unsupported list type %q", path, s.ListType)
	}
	if len(s.Default) > 0 {
		lit, err := defaultLiteral(s.Default)
		if err != nil {
			return "", fmt.Errorf("%s: default: %w", path, err)
		}
		add("def: func() any { return %s }", lit)
	}
	for _, kw := range []struct {
		name string
		xs   []*Schema
	}{{"oneOf", s.OneOf}, {"anyOf", s.AnyOf}} {
		if len(kw.xs) == 0 {
			continue
		}
		var refs []string
		for _, x := range kw.xs {
			ref, err := g.node(x, path+"|"+kw.name)
			if err != nil {
				return "", err
			}
			refs = append(refs, ref)
		}
		add("%s: []*node{%s}", kw.name, strings.Join(refs, ", "))
	}
	if s.Not != nil {
		ref, err := g.node(s.Not, path+"|not")
		if err != nil {
			return "", err
		}
		add("not: %s", ref)
	}
	if len(s.Validations) > 0 {
		var ids []string
		for _, r := range s.Validations {
			if strings.TrimSpace(r.Rule) == "" {
				return "", fmt.Errorf("%s: empty rule", path)
			}
			i, ok := g.rules[r]
			if !ok {
				i = len(g.ruleList)
				g.rules[r] = i
				g.ruleList = append(g.ruleList, r)
			}
			ids = append(ids, strconv.Itoa(i))
		}
		add("rules: []uint16{%s}", strings.Join(ids, ", "))
	}

	// Nodes are values referred to by address, which the linker resolves:
	// a reference to a pointer variable's value would need init code (92
	// KB of it, 0.3 ms of every start).
	lit := "node{" + strings.Join(f, ", ") + "}"
	if name, ok := g.vars[lit]; ok {
		return "&" + name, nil
	}
	name := fmt.Sprintf("n%d", len(g.decls))
	g.vars[lit] = name
	g.decls = append(g.decls, fmt.Sprintf("\t%s = %s\n", name, lit))
	return "&" + name, nil
}

// formatFor mirrors StripUnsupportedFormatsPostProcessor: the API server
// ignores formats it does not support for the type; the supported ones the
// crd package does not implement are an error.
func formatFor(s *Schema) (string, error) {
	if s.Format == "" {
		return "", nil
	}
	switch s.Type {
	case "", "string":
		switch s.Format {
		case "ipv4":
			return "fmtIPv4", nil
		case "ipv6":
			return "fmtIPv6", nil
		case "date-time":
			return "fmtDateTime", nil
		}
		if apiserverStringFormats[strings.ReplaceAll(s.Format, "-", "")] {
			return "", fmt.Errorf("string format %q is enforced by the API server but not implemented", s.Format)
		}
		return "", nil
	case "integer":
		switch s.Format {
		case "int32":
			return "fmtInt32", nil
		case "int64":
			return "fmtInt64", nil
		}
		return "", nil
	case "number":
		if s.Format == "float" || s.Format == "double" {
			return "", fmt.Errorf("number format %q not implemented", s.Format)
		}
		return "", nil
	}
	return "", nil // formats on other types are stripped
}

// apiserverStringFormats are the string formats the API server validates
// (apiextensions-apiserver validation/formats.go), dashes removed.
var apiserverStringFormats = map[string]bool{
	"bsonobjectid": true, "uri": true, "email": true, "hostname": true, "ipv4": true, "ipv6": true,
	"cidr": true, "mac": true, "uuid": true, "uuid3": true, "uuid4": true, "uuid5": true, "isbn": true,
	"isbn10": true, "isbn13": true, "creditcard": true, "ssn": true, "hexcolor": true, "rgbcolor": true,
	"byte": true, "password": true, "date": true, "duration": true, "datetime": true,
	"k8s-short-name": true, "k8s-long-name": true,
}

// defaultLiteral renders a JSON default as a Go expression building a fresh
// value, with numbers as json.Number.
func defaultLiteral(raw json.RawMessage) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return "", err
	}
	var lit func(v any) (string, error)
	lit = func(v any) (string, error) {
		switch v := v.(type) {
		case string:
			return quote(v), nil
		case json.Number:
			return fmt.Sprintf("json.Number(%q)", v), nil
		case bool:
			return strconv.FormatBool(v), nil
		case []any:
			var xs []string
			for _, x := range v {
				s, err := lit(x)
				if err != nil {
					return "", err
				}
				xs = append(xs, s)
			}
			return "[]any{" + strings.Join(xs, ", ") + "}", nil
		case map[string]any:
			var xs []string
			for _, k := range slices.Sorted(maps.Keys(v)) {
				s, err := lit(v[k])
				if err != nil {
					return "", err
				}
				xs = append(xs, quote(k)+": "+s)
			}
			return "map[string]any{" + strings.Join(xs, ", ") + "}", nil
		}
		return "", fmt.Errorf("unsupported default value %#v", v)
	}
	return lit(v)
}

// quote prefers a raw string literal, which keeps regexps and CEL rules
// readable in the generated file.
func quote(s string) string {
	if !strings.ContainsAny(s, "`\r") && strconv.CanBackquote(s) && strings.ContainsAny(s, `\"`) {
		return "`" + s + "`"
	}
	return strconv.Quote(s)
}

func quoteAll(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = quote(x)
	}
	return strings.Join(q, ", ")
}
