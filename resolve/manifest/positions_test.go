package manifest

import (
	"slices"
	"testing"
)

// readOneObject reads a fixture that holds exactly one object.
func readOneObject(t *testing.T, path string) *Object {
	t.Helper()
	objs, errs := Read([]string{path}, nil)
	if len(errs) > 0 || len(objs) != 1 {
		t.Fatalf("Read(%s) = %d objects, errors %v; want 1 object", path, len(objs), errs)
	}
	return objs[0]
}

func TestPositionsLookup(t *testing.T) {
	p := readOneObject(t, "../../testdata/read/positions.yaml").Positions
	tests := []struct {
		path     string
		key, val Pos
	}{
		{"", Pos{2, 1}, Pos{2, 1}},
		{"apiVersion", Pos{2, 1}, Pos{2, 13}},
		{"metadata", Pos{4, 1}, Pos{5, 3}},
		{"metadata.name", Pos{5, 3}, Pos{5, 9}},
		{"metadata.labels[app.kubernetes.io/name]", Pos{8, 5}, Pos{8, 29}},
		{"metadata.labels.tier", Pos{9, 5}, Pos{9, 11}},
		// field.Path writes Key("tier") as [tier]: both spellings work.
		{"metadata.labels[tier]", Pos{9, 5}, Pos{9, 11}},
		{"spec.parentRefs", Pos{11, 3}, Pos{12, 3}},
		// A sequence item is where its content starts, for key and value.
		{"spec.parentRefs[0]", Pos{12, 5}, Pos{12, 5}},
		{"spec.rules[0].matches[0].path.value", Pos{17, 9}, Pos{17, 16}},
		{"spec.rules[0].backendRefs[0].port", Pos{20, 7}, Pos{20, 13}},
		{"spec.rules[0].backendRefs[1]", Pos{21, 7}, Pos{21, 7}},
		{"spec.rules[0].backendRefs[1].port", Pos{22, 7}, Pos{22, 13}},
	}
	for _, tt := range tests {
		key, ok := p.Lookup(tt.path)
		if !ok || key != tt.key {
			t.Errorf("Lookup(%q) = %v, %v; want %v, true", tt.path, key, ok, tt.key)
		}
		val, ok := p.ValuePos(tt.path)
		if !ok || val != tt.val {
			t.Errorf("ValuePos(%q) = %v, %v; want %v, true", tt.path, val, ok, tt.val)
		}
	}

	for _, path := range []string{
		"spec.rules[0].backendRefs[1].weight", // not written
		"spec.rules[0].backendRefs[2]",        // out of range
		"spec.rules[x]",                       // not an index
		"spec.rules.backendRefs",              // a sequence has no fields
		"metadata.labels.app.kubernetes.io/name",
		"spec.",
		"spec[",
		"metadata.labels[app.kubernetes.io/name",
		".",
	} {
		if pos, ok := p.Lookup(path); ok {
			t.Errorf("Lookup(%q) = %v, true; want not found", path, pos)
		}
		if pos, ok := p.ValuePos(path); ok {
			t.Errorf("ValuePos(%q) = %v, true; want not found", path, pos)
		}
	}
}

func TestPositionsNearest(t *testing.T) {
	p := readOneObject(t, "../../testdata/read/positions.yaml").Positions
	tests := []struct {
		path, found string
		pos         Pos
	}{
		{"spec.rules[0].backendRefs[1].port", "spec.rules[0].backendRefs[1].port", Pos{22, 7}},
		{"spec.rules[0].backendRefs[1].weight", "spec.rules[0].backendRefs[1]", Pos{21, 7}},
		{"spec.rules[0].backendRefs[1].filters[0].type", "spec.rules[0].backendRefs[1]", Pos{21, 7}},
		{"spec.rules[3].backendRefs[0]", "spec.rules", Pos{13, 3}},
		// The dots inside the bracketed key are not segment separators.
		{"metadata.labels[app.kubernetes.io/name].x", "metadata.labels[app.kubernetes.io/name]", Pos{8, 5}},
		{"metadata.labels[app.kubernetes.io/version]", "metadata.labels", Pos{7, 3}},
		{"status.parents[0]", "", Pos{2, 1}},
		{"", "", Pos{2, 1}},
	}
	for _, tt := range tests {
		pos, found := p.Nearest(tt.path)
		if pos != tt.pos || found != tt.found {
			t.Errorf("Nearest(%q) = %v, %q; want %v, %q", tt.path, pos, found, tt.pos, tt.found)
		}
	}
}

func TestPositionsPaths(t *testing.T) {
	p := readOneObject(t, "../../testdata/read/positions.yaml").Positions
	want := []string{
		"",
		"apiVersion",
		"kind",
		"metadata",
		"metadata.name",
		"metadata.namespace",
		"metadata.labels",
		"metadata.labels[app.kubernetes.io/name]",
		"metadata.labels.tier",
		"spec",
		"spec.parentRefs",
		"spec.parentRefs[0]",
		"spec.parentRefs[0].name",
		"spec.rules",
		"spec.rules[0]",
		"spec.rules[0].matches",
		"spec.rules[0].matches[0]",
		"spec.rules[0].matches[0].path",
		"spec.rules[0].matches[0].path.type",
		"spec.rules[0].matches[0].path.value",
		"spec.rules[0].backendRefs",
		"spec.rules[0].backendRefs[0]",
		"spec.rules[0].backendRefs[0].name",
		"spec.rules[0].backendRefs[0].port",
		"spec.rules[0].backendRefs[1]",
		"spec.rules[0].backendRefs[1].name",
		"spec.rules[0].backendRefs[1].port",
	}
	got := p.Paths()
	if !slices.Equal(got, want) {
		t.Errorf("Paths() =\n%q\nwant\n%q", got, want)
	}
	for _, path := range got {
		if _, ok := p.Lookup(path); !ok {
			t.Errorf("Lookup(%q) of a path from Paths() failed", path)
		}
	}
}

// TestPositionsKeySpelling checks how unusual map keys are written in paths
// and that they can be looked up again.
func TestPositionsKeySpelling(t *testing.T) {
	objs, errs := readStdinString(`apiVersion: v1
kind: ConfigMap
data:
  plain_Key1: a
  with-dash: b
  "": c
  "a]b": d
  "x[0]": e
  9lives: f
  ? "[odd]"
  : g
`)
	if len(errs) > 0 || len(objs) != 1 {
		t.Fatalf("got %d objects, errors %v", len(objs), errs)
	}
	p := objs[0].Positions
	want := map[string]Pos{
		"data.plain_Key1": {4, 3},
		"data[with-dash]": {5, 3},
		"data[]":          {6, 3},
		"data[a]b]":       {7, 3},
		"data[x[0]]":      {8, 3},
		"data[9lives]":    {9, 3},
		"data[[odd]]":     {10, 5},
	}
	paths := p.Paths()
	for path, pos := range want {
		if !slices.Contains(paths, path) {
			t.Errorf("Paths() lacks %q: %q", path, paths)
		}
		if got, ok := p.Lookup(path); !ok || got != pos {
			t.Errorf("Lookup(%q) = %v, %v; want %v", path, got, ok, pos)
		}
	}
}

func TestPositionsNil(t *testing.T) {
	var p *Positions
	if _, ok := p.Lookup(""); ok {
		t.Error("nil Positions: Lookup found something")
	}
	if _, ok := p.ValuePos("spec"); ok {
		t.Error("nil Positions: ValuePos found something")
	}
	if pos, path := p.Nearest("spec.x"); pos != (Pos{}) || path != "" {
		t.Errorf("nil Positions: Nearest = %v, %q", pos, path)
	}
	if paths := p.Paths(); paths != nil {
		t.Errorf("nil Positions: Paths = %q", paths)
	}
	if _, ok := (&Positions{}).Lookup(""); ok {
		t.Error("empty Positions: Lookup found something")
	}
}

func TestPositionsNextSegment(t *testing.T) {
	tests := []struct {
		in        string
		seg       string
		bracketed bool
		rest      string
		ok        bool
	}{
		{"spec.rules", "spec", false, ".rules", true},
		{".rules[0]", "rules", false, "[0]", true},
		{"[0].port", "0", true, ".port", true},
		{"[app.kubernetes.io/name].x", "app.kubernetes.io/name", true, ".x", true},
		{"[a]b][1]", "a]b", true, "[1]", true},
		{"[]", "", true, "", true},
		{"[open", "", false, "[open", false},
		{".", "", false, ".", false},
		{".[0]", "", false, ".[0]", false},
	}
	for _, tt := range tests {
		seg, bracketed, rest, ok := nextSegment(tt.in)
		if seg != tt.seg || bracketed != tt.bracketed || rest != tt.rest || ok != tt.ok {
			t.Errorf("nextSegment(%q) = %q, %v, %q, %v; want %q, %v, %q, %v",
				tt.in, seg, bracketed, rest, ok, tt.seg, tt.bracketed, tt.rest, tt.ok)
		}
	}
}

// Packing must give back every entry exactly, also where a merge key or an
// alias puts an entry's key before its parent's and where numbers need
// more than one varint byte.
func TestPositionsPackRoundTrip(t *testing.T) {
	spec, port := keyNames.id("spec"), keyNames.id("port")
	entries := []posEntry{
		{parent: -1, index: -1, key: pos32{3, 1}, val: pos32{3, 1}},
		{parent: 0, index: -1, name: spec, key: pos32{3, 1}, val: pos32{4, 3}},
		{parent: 1, index: 0, key: pos32{4, 3}, val: pos32{4, 3}},
		{parent: 2, index: -1, name: port, key: pos32{1, 9}, val: pos32{1, 15}}, // merged from an anchor above
		{parent: 1, index: 70000, key: pos32{100000, 4000}, val: pos32{99999, 1}},
	}
	p, _ := pack(nil, entries)
	if got := p.entries(); !slices.Equal(got, entries) {
		t.Errorf("entries() = %+v\nwant %+v", got, entries)
	}
	if got := p.KeyPaths("nope", "port"); !slices.Equal(got, []string{"spec[0].port"}) {
		t.Errorf(`KeyPaths("nope", "port") = %q`, got)
	}
	if p.KeyPaths("nope") != nil || p.KeyPaths("never-interned-key") != nil {
		t.Error("KeyPaths found keys that were not packed")
	}
	// About 6 bytes a field, then a byte per distinct key name (here 2)
	// and the 4 of the key list's length.
	if got := len(p.packed); got > 6*len(entries)+8+2+4 {
		t.Errorf("packed into %d bytes, want about 6 a field", got)
	}
}

// pathOf, which KeyPaths and YAML11Booleans use, must agree with Paths on
// every entry, bracketed keys and sequence items included.
func TestPositionsPathOfAgreesWithPaths(t *testing.T) {
	p := readOneObject(t, "../../testdata/read/positions.yaml").Positions
	entries := p.entries()
	for i, want := range p.Paths() {
		if got := pathOf(entries, i); got != want {
			t.Errorf("pathOf(%d) = %q, want %q", i, got, want)
		}
	}
	if got := p.KeyPaths("name"); len(got) == 0 {
		t.Error(`KeyPaths("name") found nothing in a fixture full of names`)
	}
}

// TestPositionsFindEveryPath: on every object of the repository's
// fixtures, each recorded path is found where it was written, and a path
// under it that was not written is found at it.
func TestPositionsFindEveryPath(t *testing.T) {
	objs, _ := Read([]string{"../../testdata", "../../lint/testdata", "../../cmd/gwlint/testdata", "../../cmd/gwctl/testdata", "testdata"}, nil)
	paths := 0
	for _, o := range objs {
		p := o.Positions
		entries := p.entries()
		for i, path := range p.Paths() {
			e := entries[i]
			if got, ok := p.Lookup(path); !ok || got != e.key.pos() {
				t.Fatalf("%s: Lookup(%q) = %v, %v; want %v", o.Source.File, path, got, ok, e.key.pos())
			}
			if got, ok := p.ValuePos(path); !ok || got != e.val.pos() {
				t.Fatalf("%s: ValuePos(%q) = %v, %v; want %v", o.Source.File, path, got, ok, e.val.pos())
			}
			under := path + ".notWritten"
			if path == "" {
				under = "notWritten"
			}
			if got, found := p.Nearest(under); got != e.key.pos() || found != path {
				t.Fatalf("%s: Nearest(%q) = %v, %q; want %v, %q", o.Source.File, under, got, found, e.key.pos(), path)
			}
			paths++
		}
	}
	if paths < 10_000 {
		t.Errorf("only %d paths in the fixtures", paths)
	}
}

// TestPositionsKeyPathsAgreeWithPaths: on every object of the
// repository's fixtures, KeyPaths gives the paths Paths gives of the
// mapping entries so named, in the same order.
func TestPositionsKeyPathsAgreeWithPaths(t *testing.T) {
	objs, _ := Read([]string{"../../testdata", "../../lint/testdata", "../../cmd/gwlint/testdata", "testdata"}, nil)
	names := []string{"name", "port", "backendRef", "forwardTo", "serviceName", "app.kubernetes.io/name", "matches"}
	found := 0
	for _, o := range objs {
		p := o.Positions
		entries := p.entries()
		var want []string
		for i, path := range p.Paths() {
			if e := entries[i]; e.index < 0 && e.parent >= 0 && slices.Contains(names, e.keyName()) {
				want = append(want, path)
			}
		}
		if got := p.KeyPaths(names...); !slices.Equal(got, want) {
			t.Fatalf("%s: KeyPaths = %q\nwant %q", o.Source.File, got, want)
		}
		found += len(want)
	}
	if found < 1000 {
		t.Errorf("only %d such keys in the fixtures", found)
	}
}
