package jsontree

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest"
)

func stdGeneric(data []byte) (map[string]any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var doc map[string]any
	err := dec.Decode(&doc)
	return doc, err
}

func TestParseMatchesEncodingJSON(t *testing.T) {
	inputs := []string{
		`{}`,
		`{"a":1,"b":-2.5e+3,"c":"x","d":true,"e":false,"f":null,"g":[],"h":{},"i":[1,"2",[3],{"j":0}]}`,
		`{"a":"esc\"aped\\ \n \u00e9 \ud83d\ude00","b":"héllo ✓","a2":1}`,
		`{"dup":1,"dup":2}`,
		` { "spaced" : [ 1 , 2 ] } `,
		`{"big":123456789012345678901234567890,"neg0":-0,"exp":1E5}`,
		`{"k\u0041y":"v"}`,
	}
	for _, in := range inputs {
		want, err := stdGeneric([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		p := genericParser{data: []byte(in)}
		got, ok := p.object()
		if !ok {
			t.Errorf("%s: not decoded", in)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", in, got, want)
		}
		if dup := in == `{"dup":1,"dup":2}`; p.dupKeys != dup {
			t.Errorf("%s: dupKeys = %v, want %v", in, p.dupKeys, dup)
		}
	}
	for _, bad := range []string{``, `[]`, `null`, `{`, `{"a":}`, `{"a":1,}`, `{"a":01}`, `{"a":tru}`, `{"a":"x}`, `{} {}`, "{\"a\":\"\x01\"}"} {
		p := genericParser{data: []byte(bad)}
		if _, ok := p.object(); ok {
			t.Errorf("%q: decoded, want fallback", bad)
		}
	}
}

// What the parser leaves to encoding/json still makes a tree, which Decode
// does not read; what is no JSON object makes none.
func TestParseFallsBack(t *testing.T) {
	tree, ok := Parse([]byte(`{"a": 01e+}`))
	if ok {
		t.Fatalf("malformed JSON parsed: %v", tree.Root)
	}
	deep := strings.Repeat(`{"a":`, maxGenericDepth+2) + "1" + strings.Repeat("}", maxGenericDepth+2)
	tree, ok = Parse([]byte(deep))
	if !ok || tree.exact {
		t.Fatalf("deep document: parsed %v, exact %v; want parsed by encoding/json", ok, tree.exact)
	}
	var v map[string]any
	if tree.Decode(tree.Root, &v) {
		t.Error("Decode read a tree encoding/json built")
	}
}

// The reader's own output must decode the same as with encoding/json.
func TestParseOnManifests(t *testing.T) {
	raws, _ := manifest.Read([]string{"../../crd/testdata"}, nil)
	if len(raws) == 0 {
		t.Skip("no manifests")
	}
	// Each tree is released before the next is decoded, as validation
	// does, so later trees are built from recycled maps.
	for _, raw := range raws {
		want, err := stdGeneric(raw.JSON)
		got, ok := Parse(raw.JSON)
		if err != nil {
			continue
		}
		if !ok || !got.exact || !reflect.DeepEqual(got.Root, want) {
			t.Errorf("%s: generic decoding differs (ok=%v)", raw.Source.File, ok)
		}
		got.Release()
	}
}

func TestReleaseEmptiesMaps(t *testing.T) {
	tree, _ := Parse([]byte(`{"a":{"b":[{"c":1}]},"d":"e"}`))
	doc := tree.Root
	inner := doc["a"].(map[string]any)
	item := inner["b"].([]any)[0].(map[string]any)
	tree.Release()
	for _, m := range []map[string]any{doc, inner, item} {
		if len(m) != 0 {
			t.Errorf("released map still holds %v", m)
		}
	}
}
