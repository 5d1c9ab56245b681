package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"
)

// readStdinString reads s as stdin.
func readStdinString(s string) ([]*Object, []*ReadError) {
	return Read([]string{"-"}, strings.NewReader(s))
}

// rawNames lists "file#doc kind/name" for each object, to compare order.
func rawNames(t *testing.T, objs []*Object) []string {
	t.Helper()
	var out []string
	for _, o := range objs {
		var doc struct {
			Metadata struct{ Name string } `json:"metadata"`
		}
		if err := json.Unmarshal(o.JSON, &doc); err != nil {
			t.Fatalf("%s: invalid JSON %s: %v", o.Source.File, o.JSON, err)
		}
		out = append(out, fmt.Sprintf("%s#%d %s/%s", filepath.ToSlash(o.Source.File), o.Source.Doc, o.Kind, doc.Metadata.Name))
	}
	return out
}

func readErrorStrings(errs []*ReadError) []string {
	var out []string
	for _, e := range errs {
		out = append(out, filepath.ToSlash(e.Error()))
	}
	return out
}

func TestReadMultiDoc(t *testing.T) {
	const file = "../../testdata/read/multidoc.yaml"
	objs, errs := Read([]string{file}, nil)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	// Document 0 holds only a comment, document 2 is empty, document 4 is
	// an explicit null: all skipped, without shifting the indices.
	want := []struct {
		source     Source
		apiVersion string
		kind       string
		json       string
	}{
		{Source{file, 1, Pos{5, 1}}, "v1", "Service",
			`{"apiVersion":"v1","kind":"Service","metadata":{"name":"svc"},"spec":{"ports":[{"port":80}]}}`},
		{Source{file, 3, Pos{14, 1}}, "gateway.networking.k8s.io/v1", "Gateway",
			`{"apiVersion":"gateway.networking.k8s.io/v1","kind":"Gateway","metadata":{"name":"gw","namespace":"infra"}}`},
	}
	if len(objs) != len(want) {
		t.Fatalf("got %d objects %v, want %d", len(objs), rawNames(t, objs), len(want))
	}
	for i, w := range want {
		o := objs[i]
		if o.Source != w.source || o.APIVersion != w.apiVersion || o.Kind != w.kind || string(o.JSON) != w.json {
			t.Errorf("object %d = %+v %s %s %s\nwant %+v %s %s %s", i,
				o.Source, o.APIVersion, o.Kind, o.JSON, w.source, w.apiVersion, w.kind, w.json)
		}
	}
	if pos, _ := objs[1].Positions.Lookup("metadata.namespace"); pos != (Pos{16, 22}) {
		t.Errorf("flow mapping: metadata.namespace at %v, want 16:22", pos)
	}
}

func TestReadJSONFile(t *testing.T) {
	const file = "../../testdata/read/route.json"
	o := readOneObject(t, file)
	raw, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var got, want any
	if err := json.Unmarshal(o.JSON, &got); err != nil {
		t.Fatalf("invalid JSON %s: %v", o.JSON, err)
	}
	if err := json.Unmarshal(raw, &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("JSON round trip:\n got %s\nwant %s", o.JSON, raw)
	}
	// Key order is kept: compacting the input gives the same bytes, once
	// its one \u escape is written out.
	var compact bytes.Buffer
	if err := json.Compact(&compact, bytes.ReplaceAll(raw, []byte(`\u00e9`), []byte("é"))); err != nil {
		t.Fatal(err)
	}
	if string(o.JSON) != compact.String() {
		t.Errorf("JSON = %s\nwant %s", o.JSON, compact.Bytes())
	}
	if o.Kind != "HTTPRoute" || o.APIVersion != "gateway.networking.k8s.io/v1" {
		t.Errorf("got %s %s", o.APIVersion, o.Kind)
	}
	if pos, ok := o.Positions.Lookup("spec.rules[0].backendRefs[0].port"); !ok || pos != (Pos{8, 48}) {
		t.Errorf("port key at %v, want 8:48", pos)
	}
	if pos, ok := o.Positions.ValuePos("spec.rules[0].backendRefs[0].port"); !ok || pos != (Pos{8, 56}) {
		t.Errorf("port value at %v, want 8:56", pos)
	}
}

func TestReadList(t *testing.T) {
	const file = "../../testdata/read/list.yaml"
	objs, errs := Read([]string{file}, nil)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if got := rawNames(t, objs); !reflect.DeepEqual(got, []string{
		"../../testdata/read/list.yaml#0 HTTPRoute/a",
		"../../testdata/read/list.yaml#0 HTTPRoute/b",
	}) {
		t.Fatalf("objects = %q", got)
	}
	b := objs[1]
	if b.Source.Pos != (Pos{11, 3}) || b.APIVersion != "gateway.networking.k8s.io/v1" {
		t.Errorf("item 1: source %+v apiVersion %q", b.Source, b.APIVersion)
	}
	if want := `{"apiVersion":"gateway.networking.k8s.io/v1","kind":"HTTPRoute","metadata":{"name":"b","namespace":"default"},"spec":{}}`; string(b.JSON) != want {
		t.Errorf("item 1 JSON = %s\nwant %s", b.JSON, want)
	}
	// Paths are relative to the item, positions are in the file.
	for path, want := range map[string]Pos{"": {11, 3}, "metadata.name": {14, 5}, "spec": {16, 3}} {
		if got, ok := b.Positions.Lookup(path); !ok || got != want {
			t.Errorf("item 1: Lookup(%q) = %v, %v; want %v", path, got, ok, want)
		}
	}
	if _, ok := b.Positions.Lookup("items"); ok {
		t.Error("item positions include the List's fields")
	}
}

// readCase is an input on stdin, and exactly the objects ("file#doc
// kind/name") and errors reading it gives.
type readCase struct {
	name       string
	in         string
	objs, errs []string
}

func runReadCases(t *testing.T, tests []readCase) {
	t.Helper()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, errs := readStdinString(tt.in)
			if got := rawNames(t, objs); !reflect.DeepEqual(got, tt.objs) {
				t.Errorf("objects = %q, want %q", got, tt.objs)
			}
			if got := readErrorStrings(errs); !reflect.DeepEqual(got, tt.errs) {
				t.Errorf("errors = %q, want %q", got, tt.errs)
			}
		})
	}
}

func TestReadListForms(t *testing.T) {
	tests := []readCase{{
		name: "typed list",
		in: `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRouteList
items:
- {apiVersion: gateway.networking.k8s.io/v1, kind: HTTPRoute, metadata: {name: a}}
`,
		objs: []string{"<stdin>#0 HTTPRoute/a"},
	}, {
		name: "empty v1 List",
		in:   "apiVersion: v1\nkind: List\nitems:\n---\napiVersion: v1\nkind: List\nitems: []\n",
	}, {
		name: "kind ending in List without items is an object",
		in:   "apiVersion: example.com/v1\nkind: ShoppingList\nmetadata: {name: groceries}\n",
		objs: []string{"<stdin>#0 ShoppingList/groceries"},
	}, {
		name: "bad items are errors, good ones are read",
		in: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  metadata: {name: nokind}
- 42
- apiVersion: v1
  kind: Service
  metadata: {name: good}
- apiVersion: v1
  kind: Service
  metadata: {name: dup, name: dup}
`,
		objs: []string{"<stdin>#0 Service/good"},
		errs: []string{
			`<stdin>:4:3: items[0]: missing "kind"`,
			`<stdin>:6:3: items[1]: expected a Kubernetes object (a mapping), found a scalar`,
			`<stdin>:12:25: duplicate key "name" (first at line 12)`,
		},
	}, {
		name: "v1 List items must be a sequence",
		in:   "apiVersion: v1\nkind: List\nitems: {a: 1}\n",
		errs: []string{"<stdin>:3:8: the items of a List must be a sequence, found a mapping"},
	}, {
		name: "a List in a List: its items are objects too",
		in: `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: List
  items:
  - {apiVersion: v1, kind: Service, metadata: {name: inner}}
  - {apiVersion: v1, metadata: {name: nokind}}
- {apiVersion: v1, kind: Service, metadata: {name: outer}}
`,
		objs: []string{"<stdin>#0 Service/inner", "<stdin>#0 Service/outer"},
		errs: []string{`<stdin>:8:5: items[0].items[1]: missing "kind"`},
	}, {
		name: "a List that holds itself",
		in:   "&l {apiVersion: v1, kind: List, items: [*l]}\n",
		errs: []string{"<stdin>:1:41: Lists nested deeper than 1000 levels"},
	}}
	runReadCases(t, tests)
}

// listBomb is a List whose items are aliases of Lists whose items are
// aliases..., 2^40 objects if expanded.
func listBomb() string {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: List\nitems:\n- &l0 {apiVersion: v1, kind: Service, metadata: {name: s}}\n")
	for i := 1; i <= 40; i++ {
		fmt.Fprintf(&b, "- &l%d {apiVersion: v1, kind: List, items: [*l%d, *l%d]}\n", i, i-1, i-1)
	}
	return b.String()
}

func TestReadListBomb(t *testing.T) {
	objs, errs := readStdinString(listBomb())
	if got := readErrorStrings(errs); len(got) != 1 || !strings.HasSuffix(got[0], aliasBudgetExceeded) || len(objs) > minAliasBudget {
		t.Errorf("%d objects, errors %.300q; want one alias budget error", len(objs), got)
	}
}

func TestReadAnchorsAndMergeKeys(t *testing.T) {
	o := readOneObject(t, "../../testdata/read/anchors.yaml")
	// Merged keys come first, earlier merge sources win, own keys override.
	want := `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"anchors",` +
		`"labels":{"app":"web","tier":"front"},"annotations":{"app":"web","tier":"back","extra":"yes"}},` +
		`"data":{"base":"value","copy":"value","list":["a","b"],"again":["a","b"],"multi":{"x":"1","y":"1","z":"3"}}}`
	if string(o.JSON) != want {
		t.Errorf("JSON = %s\nwant %s", o.JSON, want)
	}
	for path, want := range map[string]Pos{
		"metadata.annotations.app":  {6, 5},  // merged: where the anchored key is
		"metadata.annotations.tier": {10, 5}, // overridden: the own key
		"data.copy":                 {14, 3},
		"data.again[1]":             {15, 16},
		"data.multi.y":              {18, 19}, // from the first source
	} {
		if got, ok := o.Positions.Lookup(path); !ok || got != want {
			t.Errorf("Lookup(%q) = %v, %v; want %v", path, got, ok, want)
		}
	}
	if got, _ := o.Positions.ValuePos("data.copy"); got != (Pos{14, 9}) {
		t.Errorf("ValuePos(data.copy) = %v, want the alias at 14:9", got)
	}
}

func TestReadAliasAbuse(t *testing.T) {
	var laughs strings.Builder
	laughs.WriteString("apiVersion: v1\nkind: X\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n")
	for i := 1; i <= 9; i++ {
		fmt.Fprintf(&laughs, "l%d: &l%d [", i, i)
		for j := range 10 {
			if j > 0 {
				laughs.WriteString(", ")
			}
			fmt.Fprintf(&laughs, "*l%d", i-1)
		}
		laughs.WriteString("]\n")
	}
	var merges strings.Builder
	merges.WriteString("apiVersion: v1\nkind: X\nm0: &m0 {k0: v}\n")
	for i := 1; i <= 2000; i++ {
		fmt.Fprintf(&merges, "m%d: &m%d {<<: *m%d, k%d: v}\n", i, i, i-1, i)
	}

	tests := []struct {
		name, in, err string
	}{
		{"billion laughs", laughs.String(), "aliases and merge keys expand to too many nodes"},
		{"merge chain", merges.String(), "aliases and merge keys expand to too many nodes"},
		{"alias cycle", "apiVersion: v1\nkind: X\na: &x [1, *x]\n", "<stdin>:3:11: alias *x refers to a node that contains it"},
		{"merge cycle", "apiVersion: v1\nkind: X\na: &x {b: 1, <<: *x}\n", "<stdin>:3:18: alias *x refers to a node that contains it"},
		{"merge of a scalar", "apiVersion: v1\nkind: X\na: {<<: 1}\n", "<stdin>:3:9: a merge key (<<) needs a mapping or a sequence of mappings, found a scalar"},
		{"unknown anchor", "apiVersion: v1\nkind: X\na: *nope\n", "<stdin>:3: unknown anchor 'nope' referenced"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, errs := readStdinString(tt.in)
			if len(objs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.err) {
				t.Errorf("got %d objects, errors %q; want one error containing %q", len(objs), readErrorStrings(errs), tt.err)
			}
		})
	}
}

func TestReadDuplicateKey(t *testing.T) {
	objs, errs := Read([]string{"../../testdata/read/duplicate.yaml"}, nil)
	if got := rawNames(t, objs); !reflect.DeepEqual(got, []string{"../../testdata/read/duplicate.yaml#1 Service/fine"}) {
		t.Errorf("objects = %q", got)
	}
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	want := ReadError{File: "../../testdata/read/duplicate.yaml", Pos: Pos{5, 3}, Msg: `duplicate key "name" (first at line 4)`}
	if *errs[0] != want {
		t.Errorf("error = %+v, want %+v", *errs[0], want)
	}

	// Big mappings find duplicates through a map instead of a scan.
	var big strings.Builder
	big.WriteString("apiVersion: v1\nkind: ConfigMap\ndata:\n")
	for i := range 40 {
		fmt.Fprintf(&big, "  k%d: v\n", i)
	}
	big.WriteString("  k7: again\n")
	_, errs = readStdinString(big.String())
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, []string{`<stdin>:44:3: duplicate key "k7" (first at line 11)`}) {
		t.Errorf("big mapping: errors = %q", got)
	}

	// Keys are compared as JSON sees them: 0x1F and 31 are the same key.
	_, errs = readStdinString("apiVersion: v1\nkind: X\ndata:\n  31: a\n  0x1F: b\n")
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, []string{`<stdin>:5:3: duplicate key "31" (first at line 4)`}) {
		t.Errorf("int keys: errors = %q", got)
	}
	_, errs = readStdinString("apiVersion: v1\nkind: X\nbase: &b {x: 1}\ndata: {<<: *b, y: 1, y: 2}\n")
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, []string{`<stdin>:4:22: duplicate key "y" (first at line 4)`}) {
		t.Errorf("merged mapping: errors = %q", got)
	}
}

func TestReadHelmTemplate(t *testing.T) {
	const file = "../../testdata/read/helm.yaml"
	objs, errs := Read([]string{file}, nil)
	if len(objs) != 0 || len(errs) != 1 {
		t.Fatalf("got %d objects, errors %v; want one error", len(objs), errs)
	}
	// yaml.v3 gives the line of a syntax error but no column.
	// yaml.v3 says line 5, the mapping the template falls out of.
	want := file + ":6: did not find expected node content: looks like an unrendered Helm template " +
		"({{ ... }} at line 4); render it with `helm template` first"
	if errs[0].Pos != (Pos{6, 0}) || errs[0].Error() != want {
		t.Errorf("error = %+v\n%s\nwant %s", *errs[0], errs[0], want)
	}

	tests := []struct{ name, in, want string }{{
		// Unquoted {{ }} is a flow mapping used as a key: valid YAML.
		name: "template that parses",
		in:   "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Values.name }}\n",
		want: "<stdin>:4:10: a mapping key must be a scalar, found a mapping: looks like an unrendered Helm template " +
			"({{ ... }} at line 4); render it with `helm template` first",
	}, {
		// yaml.v3 names no line here; faultLine finds it.
		name: "error without a line",
		in:   "  {{- if .Values.enabled }}\napiVersion: v1\n{{- end }}\n",
		want: "<stdin>:1: did not find expected node content: looks like an unrendered Helm template " +
			"({{ ... }} at line 1); render it with `helm template` first",
	}, {
		// An alert's own template, unquoted: a manifest with a mistake,
		// not another tool's template.
		name: "Prometheus template unquoted",
		in:   "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata: {name: gw}\nspec:\n  groups:\n  - name: gw\n    rules:\n    - alert: Down\n      annotations:\n        summary: {{ $labels.gateway }} is down\n",
		want: "<stdin>:10: did not find expected key: {{ ... }} at line 10 is a template for Prometheus or Alertmanager; quote the value, so that YAML reads it as a string",
	}, {
		name: "no template, no hint",
		in:   "apiVersion: v1\nkind: Service\nmetadata: {name: x}: y\n",
		want: "<stdin>:3: mapping values are not allowed in this context",
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, errs := readStdinString(tt.in)
			if got := readErrorStrings(errs); len(objs) != 0 || !reflect.DeepEqual(got, []string{tt.want}) {
				t.Errorf("got %d objects, errors %q\nwant %q", len(objs), got, tt.want)
			}
		})
	}
}

func TestReadDirectory(t *testing.T) {
	const dir = "../../testdata/read/dir"
	objs, errs := Read([]string{dir}, nil)
	// Hidden files and directories and other extensions are skipped; the
	// broken document of b.yaml is reported, the documents around it and
	// the other files are read.
	wantObjs := []string{
		dir + "/a.yaml#0 Service/a",
		dir + "/b.yaml#0 Service/b-good",
		dir + "/b.yaml#2 Service/b-lost",
		dir + "/c.yml#0 Service/c",
		dir + "/sub/d.json#0 Service/d",
	}
	if got := rawNames(t, objs); !reflect.DeepEqual(got, wantObjs) {
		t.Errorf("objects = %q\nwant %q", got, wantObjs)
	}
	wantErrs := []string{dir + "/b.yaml:10: mapping values are not allowed in this context"}
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, wantErrs) {
		t.Errorf("errors = %q\nwant %q", got, wantErrs)
	}

	// Argument order first; a file named explicitly is read whatever its
	// name; a missing path is an error in its place.
	objs, errs = Read([]string{dir + "/c.yml", dir + "/nope.yaml", dir + "/.dotfile.yaml", dir + "/sub"}, nil)
	wantObjs = []string{dir + "/c.yml#0 Service/c", dir + "/sub/d.json#0 Service/d"}
	if got := rawNames(t, objs); !reflect.DeepEqual(got, wantObjs) {
		t.Errorf("objects = %q\nwant %q", got, wantObjs)
	}
	wantErrs = []string{
		dir + "/nope.yaml: no such file or directory",
		dir + `/.dotfile.yaml:1:1: missing "apiVersion"`,
	}
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, wantErrs) {
		t.Errorf("errors = %q\nwant %q", got, wantErrs)
	}
}

func TestReadDeterministic(t *testing.T) {
	dir := t.TempDir()
	// Files of very different sizes finish in a different order than they
	// start.
	total := 0
	for i := range 40 {
		sub := filepath.Join(dir, fmt.Sprintf("d%d", i%4))
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		docs := 1 + (i*7)%13
		total += docs
		if err := os.WriteFile(filepath.Join(sub, fmt.Sprintf("f%02d.yaml", i)), benchRoutes(fmt.Sprintf("r%d-", i), docs), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "d1", "broken.yaml"), []byte("a: b: c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))

	var first []string
	var firstErrs []string
	for run, procs := range []int{1, 8, 3, 8} {
		runtime.GOMAXPROCS(procs)
		objs, errs := Read([]string{dir}, nil)
		got := rawNames(t, objs)
		if run == 0 {
			first, firstErrs = got, readErrorStrings(errs)
			if len(first) != total {
				t.Fatalf("read %d objects, want %d", len(first), total)
			}
			for i := 1; i < len(objs); i++ {
				a, b := objs[i-1].Source, objs[i].Source
				if a.File > b.File || (a.File == b.File && a.Doc >= b.Doc) {
					t.Fatalf("objects out of order: %+v before %+v", a, b)
				}
			}
			continue
		}
		if !reflect.DeepEqual(got, first) || !reflect.DeepEqual(readErrorStrings(errs), firstErrs) {
			t.Fatalf("GOMAXPROCS=%d: order differs", procs)
		}
	}
	// yaml.v3 reports no line for syntax errors on the first line;
	// faultLine finds it.
	if len(firstErrs) != 1 || !strings.HasSuffix(firstErrs[0], "/d1/broken.yaml:1: mapping values are not allowed in this context") {
		t.Errorf("errors = %q", firstErrs)
	}
}

func TestReadStdin(t *testing.T) {
	objs, errs := readStdinString("apiVersion: v1\nkind: Namespace\nmetadata:\n  name: web\n")
	if len(errs) > 0 || len(objs) != 1 {
		t.Fatalf("got %d objects, errors %v", len(objs), errs)
	}
	if want := (Source{File: "<stdin>", Doc: 0, Pos: Pos{1, 1}}); objs[0].Source != want {
		t.Errorf("source = %+v, want %+v", objs[0].Source, want)
	}
	_, errs = Read([]string{"-"}, nil)
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, []string{"<stdin>: no standard input"}) {
		t.Errorf("nil stdin: errors = %q", got)
	}
}

func TestReadScalars(t *testing.T) {
	tests := []struct {
		in   string // the value of field v
		want string // its JSON, or the error
	}{
		{"42", "42"},
		{"-17", "-17"},
		{"+12", "12"},
		{"0x1F", "31"},
		{"-0x1F", "-31"},
		{"0o17", "15"},
		{"017", "15"}, // YAML 1.1 octal, as yaml.v3 and the API server read it
		{"0b101", "5"},
		{"1_000", "1000"},
		{"0", "0"},
		{"18446744073709551615", "18446744073709551615"},
		{"99999999999999999999", "99999999999999999999"},
		{"!!int 123456789012345678901234", "123456789012345678901234"},
		{`!!int "12"`, "12"},
		{"!!int abc", `<stdin>:3:4: "abc" is not an integer`},
		{"1.5", "1.5"},
		{"1.", "1"},
		{".5", "0.5"},
		{"-.5", "-0.5"},
		{"+1.5", "1.5"},
		{"1e3", "1e3"},
		{"09", "9"},
		{"1_0.5", "10.5"},
		{"!!float 1", "1"},
		{".inf", "<stdin>:3:4: .inf cannot be represented in JSON: it has no infinity or NaN"},
		{"-.Inf", "<stdin>:3:4: -.Inf cannot be represented in JSON: it has no infinity or NaN"},
		{".NaN", "<stdin>:3:4: .NaN cannot be represented in JSON: it has no infinity or NaN"},
		{"!!float inf", "<stdin>:3:4: inf cannot be represented in JSON: it has no infinity or NaN"},
		{"true", "true"},
		{"False", "false"},
		{"yes", `"yes"`}, // YAML 1.2: a string
		{"!!bool yes", `<stdin>:3:4: "yes" is not a boolean`},
		{"", "null"},
		{"~", "null"},
		{"Null", "null"},
		{"2001-12-14", `"2001-12-14"`},
		{"!!binary aGVsbG8=", `"aGVsbG8="`},
		{"!custom x", `"x"`},
		{"!!str 123", `"123"`},
		{"'0x1F'", `"0x1F"`},
		{"12:30", `"12:30"`},
		{`"tab\there \"q\" \\ \u0001 \u2028 é"`, `"tab\there \"q\" \\ \u0001 ` + "\u2028 é\""},
		{"|\n  line 1\n  line 2", `"line 1\nline 2\n"`},
		{"{0x1F: a, true: b, ~: c, 1.50: d}", `{"31":"a","true":"b","null":"c","1.50":"d"}`},
	}
	for _, tt := range tests {
		objs, errs := readStdinString("apiVersion: v1\nkind: X\nv: " + tt.in + "\n")
		var got string
		switch {
		case len(errs) == 1 && len(objs) == 0:
			got = errs[0].Error()
		case len(errs) == 0 && len(objs) == 1:
			got = strings.TrimPrefix(string(objs[0].JSON), `{"apiVersion":"v1","kind":"X","v":`)
			got = strings.TrimSuffix(got, "}")
			if !json.Valid(objs[0].JSON) {
				t.Errorf("v: %s: invalid JSON %s", tt.in, objs[0].JSON)
			}
		default:
			t.Errorf("v: %s: %d objects, errors %v", tt.in, len(objs), errs)
			continue
		}
		if got != tt.want {
			t.Errorf("v: %s\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestReadNotAnObject(t *testing.T) {
	tests := []struct{ in, want string }{
		{"- apiVersion: v1\n  kind: Service\n", "<stdin>:1:1: expected a Kubernetes object (a mapping), found a sequence"},
		{"just text\n", "<stdin>:1:1: expected a Kubernetes object (a mapping), found a scalar"},
		{"# c\nkind: X\n", `<stdin>:2:1: missing "apiVersion"`},
		{"apiVersion: v1\n", `<stdin>:1:1: missing "kind"`},
		{"apiVersion: v1\nkind: ''\n", `<stdin>:2:7: "kind" must be a non-empty string`},
		{"apiVersion: [v1]\nkind: X\n", `<stdin>:1:13: "apiVersion" must be a non-empty string`},
	}
	for _, tt := range tests {
		objs, errs := readStdinString(tt.in)
		if got := readErrorStrings(errs); len(objs) != 0 || !reflect.DeepEqual(got, []string{tt.want}) {
			t.Errorf("%q: %d objects, errors %q; want %q", tt.in, len(objs), got, tt.want)
		}
	}
}

func TestReadHostileInput(t *testing.T) {
	deepBlock := "apiVersion: v1\nkind: X\n"
	for i := range 1100 {
		deepBlock += strings.Repeat(" ", i) + "a:\n"
	}
	huge := "apiVersion: v1\nkind: X\nv: " + strings.Repeat("x", 2<<20) + "\n"
	tests := []struct {
		name string
		in   string
		objs int
		err  string // substring of the only error, if any
	}{
		{"empty", "", 0, ""},
		{"comments only", "# nothing\n---\n# here\n", 0, ""},
		{"binary", "\x00\x01\x02\xff\xfe\x89PNG", 0, "<stdin>:1:1: NUL character (U+0000) is not allowed in YAML: is this a binary file?"},
		{"invalid UTF-8", "apiVersion: v1\nkind: \xff\n", 0, "invalid"},
		{"deep flow", "apiVersion: v1\nkind: X\nv: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n", 0, "nesting is deeper than 1000 levels"},
		{"deeper than the parser allows", "v: " + strings.Repeat("[", 20000), 0, "exceeded max depth"},
		{"deep block", deepBlock, 0, "nesting is deeper than 1000 levels"},
		{"huge value", huge, 1, ""},
		// Decoded from UTF-16 to the mapping {a: b}: no kind, so not an object.
		{"UTF-16 with BOM", "\xff\xfea\x00:\x00 \x00b\x00\n\x00", 0, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, errs := readStdinString(tt.in)
			if len(objs) != tt.objs {
				t.Errorf("got %d objects, want %d", len(objs), tt.objs)
			}
			switch {
			case tt.err == "" && len(errs) > 0:
				t.Errorf("errors %v", errs)
			case tt.err != "" && (len(errs) != 1 || !strings.Contains(errs[0].Error(), tt.err)):
				t.Errorf("errors %q, want one containing %q", readErrorStrings(errs), tt.err)
			}
		})
	}
}

func TestReadErrorString(t *testing.T) {
	tests := []struct {
		err  ReadError
		want string
	}{
		{ReadError{File: "a.yaml", Pos: Pos{3, 7}, Msg: "bad"}, "a.yaml:3:7: bad"},
		{ReadError{File: "a.yaml", Pos: Pos{3, 0}, Msg: "bad"}, "a.yaml:3: bad"},
		{ReadError{File: "a.yaml", Msg: "permission denied"}, "a.yaml: permission denied"},
	}
	for _, tt := range tests {
		if got := tt.err.Error(); got != tt.want {
			t.Errorf("Error() = %q, want %q", got, tt.want)
		}
	}
}

// FuzzReadManifests checks that no input panics, that every error has a
// line of the input, and that every object read is valid JSON whose
// positions can be looked up again.
func FuzzReadManifests(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/read/*.*")
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: X\na: &a {<<: [*a]}\n"))
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [*x]\n"))
	f.Add([]byte("? [a, {b: c}]\n: d\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		objs, errs := Read([]string{"-"}, bytes.NewReader(data))
		// Every problem is placed on a line of the input.
		lines := 1 + len(data) // text that cannot be decoded: lines of its own
		if text, err := decodeText(data); err == nil {
			lines = 1 + bytes.Count(text, []byte{'\n'})
		}
		for _, e := range errs {
			if e.Pos.Line < 1 || e.Pos.Line > lines || strings.HasPrefix(e.Msg, "internal error") {
				t.Fatalf("error %q is not placed on one of the %d lines", e, lines)
			}
		}
		for _, o := range objs {
			if !json.Valid(o.JSON) {
				t.Fatalf("invalid JSON %q", o.JSON)
			}
			paths := o.Positions.Paths()
			if len(paths) == 0 || paths[0] != "" {
				t.Fatalf("paths %q do not start with the root", paths)
			}
			for _, p := range paths {
				if _, ok := o.Positions.Lookup(p); !ok && unambiguousPath(p) {
					t.Fatalf("Lookup(%q) failed; paths %q", p, paths)
				}
				o.Positions.Nearest(p + ".x[0]")
			}
		}
	})
}

// unambiguousPath reports whether no bracketed key in path holds brackets,
// which field paths cannot escape.
func unambiguousPath(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '[' {
			continue
		}
		end := strings.IndexByte(path[i+1:], ']')
		if end < 0 || strings.IndexByte(path[i+1:i+1+end], '[') >= 0 {
			return false
		}
		i += end + 1
		if i+1 < len(path) && path[i+1] != '.' && path[i+1] != '[' {
			return false
		}
	}
	return true
}

// benchRoutes returns a multi-document file of n HTTPRoutes.
func benchRoutes(prefix string, n int) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, `---
# Route %[2]d.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: %[1]s%[2]d
  namespace: team-%[3]d
  labels:
    app.kubernetes.io/name: shop
    app.kubernetes.io/part-of: store
spec:
  parentRefs:
  - name: gateway
    namespace: infra
    sectionName: https
  hostnames: ["%[1]s%[2]d.example.com"]
  rules:
  - matches:
    - path: {type: PathPrefix, value: /api}
      headers:
      - name: x-version
        value: "2"
    filters:
    - type: RequestHeaderModifier
      requestHeaderModifier:
        add: [{name: x-route, value: "%[1]s%[2]d"}]
    backendRefs:
    - name: api-v1
      port: 8080
      weight: 90
    - name: api-v2
      port: 8080
      weight: 10
  - backendRefs:
    - name: web
      port: 80
`, prefix, i, i%10)
	}
	return b.Bytes()
}

func BenchmarkReadManifests(b *testing.B) {
	dir := b.TempDir()
	var size int64
	for i := range 20 {
		data := benchRoutes(fmt.Sprintf("f%d-", i), 20)
		size += int64(len(data))
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("routes-%02d.yaml", i)), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(size)
	b.ReportAllocs()
	for b.Loop() {
		objs, errs := Read([]string{dir}, nil)
		if len(objs) != 400 || len(errs) != 0 {
			b.Fatalf("%d objects, errors %v", len(objs), errs)
		}
	}
}

func TestIgnoreDirectives(t *testing.T) {
	src := "apiVersion: v1\nkind: Service\nmetadata:\n  # gwlint:ignore object-duplicate,backend-not-found kept for the migration\n\n  name: a\n  namespace: b # gwlint:ignore listener-no-routes\n# gwlint:ignore\n"
	got := IgnoreDirectives([]byte(src))
	want := []IgnoreDirective{
		{Line: 4, Col: 3, Target: 6, Rules: []string{"object-duplicate", "backend-not-found"}, Reason: "kept for the migration"},
		{Line: 7, Col: 16, Target: 7, Rules: []string{"listener-no-routes"}},
		{Line: 8, Col: 1, Target: 0},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("directives = %+v\nwant %+v", got, want)
	}
	objs, _ := Read([]string{"-"}, strings.NewReader(src))
	if len(objs) != 1 || len(objs[0].Ignores) != 3 {
		t.Fatalf("the object should carry its file's directives, got %+v", objs)
	}
}

// A monorepo holds YAML that is not Kubernetes objects (Helm values, tool
// configs) and Helm chart templates; a directory walk reads neither.
func TestReadSkipsNonManifests(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"values.yaml":                  "replicas: 3\nimage: {tag: v1}\n",
		"dataset.json":                 `[{"id": "001", "conversations": [{"from": "human", "value": "Hello"}]}]`,
		"route.yaml":                   "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n",
		"chart/Chart.yaml":             "apiVersion: v2\nname: echo\nversion: 0.1.0\n",
		"chart/templates/route.yaml":   "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Release.Name }}\n",
		"notachart/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: t}\n",
		"list.yaml":                    "apiVersion: v1\nkind: List\nitems:\n- {metadata: {name: x}}\n",
	}
	for name, content := range files {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	objs, errs := Read([]string{dir}, nil)
	var names []string
	for _, o := range objs {
		rel, _ := filepath.Rel(dir, o.Source.File)
		names = append(names, rel)
	}
	// Neither the chart's metadata nor its templates are read; a List
	// item without a kind is still an error.
	if want := []string{"notachart/templates/svc.yaml", "route.yaml"}; !reflect.DeepEqual(names, want) {
		t.Errorf("objects from %v, want %v", names, want)
	}
	got := readErrorStrings(errs)
	if len(got) != 1 || !strings.Contains(got[0], `items[0]: missing "apiVersion" and "kind"`) {
		t.Errorf("errors = %q", got)
	}
}

func TestManifestFilesSkip(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.yaml", "gen/b.yaml", "c.json", "notes.txt", ".hidden.yaml"} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skipGen := func(path string) bool { return filepath.Base(path) == "gen" }
	got, errs := Walk(dir, skipGen, BoundaryFor(dir))
	want := []string{filepath.Join(dir, "a.yaml"), filepath.Join(dir, "c.json")}
	if !reflect.DeepEqual(got.Files, want) || len(errs) > 0 {
		t.Errorf("Walk = %v, %v; want %v", got.Files, errs, want)
	}
}

// A walk hands kustomizations and charts to a renderer and reads none of
// their files (patches and templates are not objects), but still finds the
// kustomizations nested in a kustomization's directory, and reads the files
// beside and after it. A kustomization file that skip reports makes its
// directory a plain one.
func TestWalkKustomizationsAndCharts(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{
		"app/base/kustomization.yaml", "app/base/route.yaml",
		"app/overlays/prod/kustomization.yml", "app/overlays/prod/patch.yaml",
		"app/overlays/prod/extra/Kustomization", "app/overlays/prod/extra/more.yaml",
		"app/overlays/prod/z/notes.yaml",
		"app/plain.yaml", "app/z-after.yaml",
		"chart/Chart.yaml", "chart/values.yaml", "chart/templates/route.yaml", "chart/charts/sub/Chart.yaml",
		"opted-out/kustomization.yaml", "opted-out/route.yaml",
	} {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	skip := func(path string) bool { return path == filepath.Join(dir, "opted-out", "kustomization.yaml") }
	got, errs := Walk(dir, skip, BoundaryFor(dir))
	join := func(names ...string) []string { return joinEach(dir, names...) }
	want := Tree{
		Files:          join("app/plain.yaml", "app/z-after.yaml", "opted-out/route.yaml"),
		Kustomizations: join("app/base", "app/overlays/prod", "app/overlays/prod/extra"),
		Charts:         join("chart"),
	}
	if !reflect.DeepEqual(got, want) || len(errs) > 0 {
		t.Errorf("Walk = %+v, %v\nwant %+v", got, errs, want)
	}
	// Named as the root, a kustomization or a chart is itself found.
	for _, root := range []string{"app/base", "chart"} {
		got, _ := Walk(filepath.Join(dir, root), nil, BoundaryFor(dir))
		if n := len(got.Kustomizations) + len(got.Charts); n != 1 || len(got.Files) > 0 {
			t.Errorf("Walk(%s) = %+v, want the directory alone", root, got)
		}
	}
}

// What cannot be read is reported at its line, and costs no other document.
func TestReadBadTextKeepsOtherDocuments(t *testing.T) {
	const svc = "apiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n"
	doc := func(name string) string { return fmt.Sprintf(svc, name) }
	tests := []readCase{{
		name: "control character in a trailing comment",
		in:   doc("a") + "---\n" + doc("b") + "# trailing \x01 comment\n",
		objs: []string{"<stdin>#0 Service/a"},
		errs: []string{"<stdin>:10:12: control character U+0001 is not allowed in YAML"},
	}, {
		name: "invalid UTF-8 between documents",
		in:   doc("a") + "---\nname: \xff\n---\n" + doc("c"),
		objs: []string{"<stdin>#0 Service/a", "<stdin>#2 Service/c"},
		errs: []string{"<stdin>:6:7: invalid UTF-8 (byte 0xFF): manifests are UTF-8, or UTF-16 with a byte order mark"},
	}, {
		name: "NUL in a value, no Helm hint for the {{ elsewhere",
		in:   doc("a") + "---\nx: \"{{\"\n---\n" + doc("b\x00"),
		objs: []string{"<stdin>#0 Service/a"},
		errs: []string{"<stdin>:11:10: NUL character (U+0000) is not allowed in YAML: is this a binary file?"},
	}, {
		name: "a syntax error costs only its document",
		in:   doc("a") + "---\na: b: c\n---\n" + doc("c"),
		objs: []string{"<stdin>#0 Service/a", "<stdin>#2 Service/c"},
		errs: []string{"<stdin>:6: mapping values are not allowed in this context"},
	}, {
		name: "an indentation error is reported at its line, not at the mapping's",
		in:   "apiVersion: v1\nkind: Service\nmetadata:\n  name: a\n  labels:\n    a: b\n    c: d\n    e: f\n   bad: g\n",
		errs: []string{"<stdin>:9: did not find expected key"},
	}, {
		name: "nesting beyond yaml.v3's limit, on one line",
		in:   doc("a") + "---\nv: " + strings.Repeat("[", 10001) + "\n",
		objs: []string{"<stdin>#0 Service/a"},
		errs: []string{"<stdin>:6: exceeded max depth of 10000"},
	}, {
		name: "CRLF and lone CR line breaks",
		in:   "apiVersion: v1\r\nkind: Service\rmetadata:\r\n  name: a\r---\rbad: [\r",
		objs: []string{"<stdin>#0 Service/a"},
		errs: []string{"<stdin>:6: did not find expected node content"},
	}, {
		name: "JSON objects back to back, as kubectl reads them",
		in:   `{"apiVersion":"v1","kind":"Service","metadata":{"name":"a"}}{"apiVersion":"v1","kind":"Service","metadata":{"name":"b"}}` + "\n" + `{"apiVersion":"v1","kind":"Service","metadata":{"name":"c","x":1,"x":2}}`,
		objs: []string{"<stdin>#0 Service/a", "<stdin>#1 Service/b"},
		errs: []string{`<stdin>:2:66: duplicate key "x" (first at line 2)`},
	}, {
		name: "a YAML flow mapping with braces in quotes is one document",
		in:   `{apiVersion: v1, kind: Service, metadata: {name: 'a}{'}}` + "\n",
		objs: []string{"<stdin>#0 Service/a}{"},
	}}
	runReadCases(t, tests)
}

// The second object of a JSON stream is positioned where it is on its line.
func TestReadJSONStreamPositions(t *testing.T) {
	objs, errs := readStdinString(`{"kind":"A","apiVersion":"v1"} {"kind":"B","apiVersion":"v1","metadata":{"name":"b"}}`)
	if len(objs) != 2 || len(errs) != 0 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	if got, ok := objs[1].Positions.Lookup("metadata.name"); !ok || got != (Pos{1, 74}) || objs[1].Source.Pos != (Pos{1, 32}) {
		t.Errorf("metadata.name at %v, object at %v; want 1:74 and 1:32", got, objs[1].Source.Pos)
	}
}

// LS and PS end lines for libyaml (and kubectl) but not in editors: the
// positions after them, and syntax errors, are still at the editor's line
// and column.
func TestReadLineSeparatorPositions(t *testing.T) {
	objs, errs := readStdinString("kind: A\napiVersion: v1\nmetadata: {name: \"x\u2028y\"}\n---\nkind: B\napiVersion: v1\n" +
		"metadata:\n  annotations: {a: \"p\u2029q\u2028r\", b: c}\n  name: b\n---\nkind: C\napiVersion: v1\nmetadata: # \u2028 x\n  name: c\n")
	if len(objs) != 2 {
		t.Fatalf("%d objects, errors %v", len(objs), errs)
	}
	for _, tt := range []struct {
		obj  int
		path string
		want Pos
	}{
		{0, "metadata.name", Pos{3, 12}},
		{1, "metadata.annotations.b", Pos{8, 29}},
		{1, "metadata.name", Pos{9, 3}},
	} {
		if got, ok := objs[tt.obj].Positions.Lookup(tt.path); !ok || got != tt.want {
			t.Errorf("object %d %s at %v, want %v", tt.obj, tt.path, got, tt.want)
		}
	}
	if got := readErrorStrings(errs); len(got) != 1 || !strings.HasPrefix(got[0], "<stdin>:14:") {
		t.Errorf("errors %q, want one at line 14", got)
	}
}

// gwlint:ignore comments are found whatever the encoding and line breaks.
func TestReadIgnoreDirectivesEncodings(t *testing.T) {
	const src = "apiVersion: v1\nkind: Service\nmetadata:\n  name: a # gwlint:ignore some-rule why\n"
	utf16 := func(s string, bigEndian bool) string {
		b := []byte{0xFF, 0xFE}
		if bigEndian {
			b = []byte{0xFE, 0xFF}
		}
		for _, u := range utf16.Encode([]rune(s)) {
			if bigEndian {
				b = append(b, byte(u>>8), byte(u))
			} else {
				b = append(b, byte(u), byte(u>>8))
			}
		}
		return string(b)
	}
	for name, in := range map[string]string{
		"UTF-16LE":     utf16(src, false),
		"UTF-16BE":     utf16(strings.ReplaceAll(src, "\n", "\r\n"), true),
		"CR only":      strings.ReplaceAll(src, "\n", "\r"),
		"NEL":          strings.ReplaceAll(src, "\n", "\u0085"),
		"CRLF":         strings.ReplaceAll(src, "\n", "\r\n"),
		"UTF-8 BOM":    "\uFEFF" + src,
		"UTF-16 pairs": utf16(strings.Replace(src, "why", "why 🙂", 1), false),
	} {
		t.Run(name, func(t *testing.T) {
			objs, errs := readStdinString(in)
			if len(objs) != 1 || len(errs) != 0 {
				t.Fatalf("%d objects, errors %v", len(objs), errs)
			}
			ig := objs[0].Ignores
			if len(ig) != 1 || ig[0].Line != 4 || ig[0].Col != 11 || ig[0].Target != 4 || ig[0].Rules[0] != "some-rule" {
				t.Errorf("ignores = %+v; want one on line 4, column 11", ig)
			}
			if got, _ := objs[0].Positions.Lookup("metadata.name"); got != (Pos{4, 3}) {
				t.Errorf("metadata.name at %v, want 4:3", got)
			}
		})
	}
	_, errs := readStdinString("\xff\xfea\x00\x00\xd8")
	if got := readErrorStrings(errs); !reflect.DeepEqual(got, []string{"<stdin>:1:2: invalid UTF-16: an unpaired surrogate"}) {
		t.Errorf("unpaired surrogate: errors %q", got)
	}
}

// A file that holds only YAML of something else (an Ansible playbook or
// template, a Talos machine config, a helmfile, a Taskfile, a Renovate
// config, a tsconfig.json with comments, Helm values even with a kind, a
// Jinja template even of an object, another tool's {{ }} template of an
// object (boilerplate, minijinja), SOPS-encrypted Ansible vars, an Omni
// cluster template, Grafana's provisioning file whose apiVersion is a
// number, a Score workload, a text file named .yaml) is not a manifest: skipped as
// no error, and named among the files that are not manifests. A manifest
// with a typo (no apiVersion but its metadata, no kind) and a Helm
// template of an object stay errors.
func TestReadNotManifests(t *testing.T) {
	const dir = "../../testdata/read/notmanifests"
	tests := []struct {
		file        string
		notManifest bool
		err         string // the error wanted, if any
		objects     int
	}{
		{file: "ansible-hosts.yaml", notManifest: true},
		{file: "ansible-object-template.yaml", notManifest: true},
		{file: "ansible-vars.sops.yml", notManifest: true},
		{file: "playbook.yaml", notManifest: true},
		{file: "talos-controlplane.yaml", notManifest: true},
		{file: "talos-patch.yaml", notManifest: true},
		{file: "helmfile.yaml", notManifest: true},
		{file: "Taskfile.yaml", notManifest: true},
		{file: "renovate.json", notManifest: true},
		{file: "tsconfig.json", notManifest: true},
		{file: "sysctl.conf.yaml", notManifest: true},
		{file: "values.yaml", notManifest: true},
		{file: "values-kind.yaml", notManifest: true},
		{file: "omni-cluster-template.yaml", notManifest: true},
		{file: "boilerplate-app.yaml", notManifest: true},
		{file: "minijinja-store.yaml", notManifest: true},
		{file: "grafana-datasources.yaml", notManifest: true},
		{file: "score.yaml", notManifest: true},
		{file: "route-template.yaml", err: ":7: did not find expected node content: looks like an unrendered Helm template"},
		{file: "route-no-apiversion.yaml", err: `:1:1: missing "apiVersion"`},
		{file: "gateway-no-kind.yaml", err: `:1:1: missing "kind"`},
		{file: "mixed.yaml", objects: 1},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			file := filepath.Join(dir, tt.file)
			objs, errs, notManifests := ReadEach([]string{file}, nil, func(o *Object) *Object { return o })
			got := readErrorStrings(errs)
			switch {
			case len(objs) != tt.objects:
				t.Errorf("%d objects, want %d", len(objs), tt.objects)
			case tt.err == "" && len(got) > 0:
				t.Errorf("errors %q, want none", got)
			case tt.err != "" && (len(got) != 1 || !strings.HasPrefix(got[0], filepath.ToSlash(file)+tt.err)):
				t.Errorf("errors %q, want %s%s...", got, file, tt.err)
			case tt.notManifest != reflect.DeepEqual(notManifests, []string{file}):
				t.Errorf("not manifests = %q, want %v", notManifests, tt.notManifest)
			}
		})
	}
	// Walked, the same: the files in order.
	_, _, notManifests := ReadEach([]string{dir}, nil, func(o *Object) *Object { return o })
	var names []string
	for _, f := range notManifests {
		names = append(names, filepath.Base(f))
	}
	want := []string{"Taskfile.yaml", "ansible-hosts.yaml", "ansible-object-template.yaml", "ansible-vars.sops.yml", "boilerplate-app.yaml", "grafana-datasources.yaml", "helmfile.yaml", "minijinja-store.yaml", "omni-cluster-template.yaml", "playbook.yaml", "renovate.json", "score.yaml",
		"sysctl.conf.yaml", "talos-controlplane.yaml", "talos-patch.yaml", "tsconfig.json", "values-kind.yaml", "values.yaml"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("walked, not manifests = %q, want %q", names, want)
	}
}

// A file that git-crypt encrypts, in a work tree it has not unlocked, is
// unknown: no error, and not "not a manifest" either.
func TestReadGitCryptFile(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secrets.yaml")
	if err := os.WriteFile(file, []byte("\x00GITCRYPT\x00\xf9\xad*\xb2\xed+V`\xbcM\x03"), 0o644); err != nil {
		t.Fatal(err)
	}
	objs, errs, notManifests := ReadEach([]string{file}, nil, func(o *Object) *Object { return o })
	if len(objs) != 0 || len(notManifests) != 0 || len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "git-crypt") {
		t.Errorf("objects %d, not manifests %v, errors %v; want it unknown", len(objs), notManifests, errs)
	}
}

// Kept stdin reads the same documents every time it is read.
func TestKeptStdinReadTwice(t *testing.T) {
	kept := KeepStdin(strings.NewReader("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n"))
	for i := range 2 {
		objs, errs := Read([]string{"-"}, kept)
		if len(errs) != 0 || len(objs) != 2 || objs[1].Ref() != "b" {
			t.Fatalf("reading %d: %d objects, errors %v", i+1, len(objs), errs)
		}
	}
}

// TestReadLargeFileOnEveryCore checks that one file large enough to be
// converted on every core (readLargeFile) reads exactly as it does on one:
// the same objects, documents numbered alike, errors in place, whether the
// file is named or on stdin.
func TestReadLargeFileOnEveryCore(t *testing.T) {
	var b strings.Builder
	for i := 0; b.Len() < 2*pipelineBytes; i++ {
		switch i % 500 {
		case 7:
			b.WriteString("---\nkind: [\n") // a document that cannot be read
		case 11:
			b.WriteString("---\nreplicaCount: 3\n") // not an object
		case 13:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: List\nitems:\n- {apiVersion: v1, kind: Service, metadata: {name: item-%d-a}}\n- {apiVersion: v1, kind: Service, metadata: {name: item-%d-b}}\n", i, i)
		default:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\n  namespace: team-%d\nspec:\n  ports:\n  - port: %d\n", i, i%7, 1000+i%50)
		}
	}
	file := filepath.Join(t.TempDir(), "large.yaml")
	if err := os.WriteFile(file, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	read := func(procs int, paths []string, stdin string) ([]*Object, []*ReadError) {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		return Read(paths, strings.NewReader(stdin))
	}
	for _, in := range []struct {
		name  string
		paths []string
		stdin string
	}{{"file", []string{file}, ""}, {"stdin", []string{"-"}, b.String()}} {
		oneObjs, oneErrs := read(1, in.paths, in.stdin)
		allObjs, allErrs := read(4, in.paths, in.stdin)
		if len(oneObjs) < 1000 || len(oneErrs) == 0 {
			t.Fatalf("%s: %d objects and %d errors on one core; the file should give thousands and some", in.name, len(oneObjs), len(oneErrs))
		}
		if !reflect.DeepEqual(oneObjs, allObjs) {
			t.Errorf("%s: the objects read on every core differ from those read on one (%d and %d)", in.name, len(allObjs), len(oneObjs))
		}
		if !reflect.DeepEqual(oneErrs, allErrs) {
			t.Errorf("%s: errors on every core %v, on one %v", in.name, allErrs, oneErrs)
		}
	}
}

// TestReadConvertPanics checks that a panic converting one object drops
// that object and becomes an error at it, and the file's other objects are
// read in order: for a large file read on every core (readLargeFile) and
// for a small one read by one worker.
func TestReadConvertPanics(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
	for _, size := range []int{2 * pipelineBytes, 2000} {
		var b strings.Builder
		n := 0
		for ; b.Len() < size; n++ {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%d\nspec:\n  ports:\n  - port: 80\n", n)
		}
		names, errs, _ := ReadEach([]string{"-"}, strings.NewReader(b.String()), func(o *Object) string {
			var obj struct {
				Metadata struct{ Name string }
			}
			if err := json.Unmarshal(o.JSON, &obj); err != nil {
				t.Error(err) // on a worker: Fatal would end it alone
				return ""
			}
			if obj.Metadata.Name == "svc-7" {
				panic("a bug")
			}
			return obj.Metadata.Name
		})
		if len(names) != n-1 || names[6] != "svc-6" || names[7] != "svc-8" {
			t.Errorf("%d bytes: read %d objects (%v...), want the %d others in order", size, len(names), names[:min(9, len(names))], n-1)
		}
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, "internal error while reading: a bug") || errs[0].Pos.Line != 7*8+2 {
			t.Errorf("%d bytes: errors = %v, want one internal error at svc-7's document (line %d)", size, errs, 7*8+2)
		}
	}
}

// joinEach joins dir and each name.
func joinEach(dir string, names ...string) []string {
	var out []string
	for _, n := range names {
		out = append(out, filepath.Join(dir, n))
	}
	return out
}
