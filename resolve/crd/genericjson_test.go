package crd

import (
	"bytes"
	"encoding/json"
	"reflect"
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

func TestDecodeGenericMatchesEncodingJSON(t *testing.T) {
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
		got, ok := decodeGeneric([]byte(in))
		if !ok {
			t.Errorf("%s: not decoded", in)
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s:\n got %#v\nwant %#v", in, got, want)
		}
	}
	for _, bad := range []string{``, `[]`, `null`, `{`, `{"a":}`, `{"a":1,}`, `{"a":01}`, `{"a":tru}`, `{"a":"x}`, `{} {}`, "{\"a\":\"\x01\"}"} {
		if _, ok := decodeGeneric([]byte(bad)); ok {
			t.Errorf("%q: decoded, want fallback", bad)
		}
	}
}

// The reader's own output must decode the same as with encoding/json.
func TestDecodeGenericOnManifests(t *testing.T) {
	raws, _ := manifest.Read([]string{"../testdata"}, nil)
	if len(raws) == 0 {
		t.Skip("no manifests")
	}
	// Each tree is released before the next is decoded, as validation
	// does, so later trees are built from recycled maps.
	for _, raw := range raws {
		want, err := stdGeneric(raw.JSON)
		got, ok := decodeGeneric(raw.JSON)
		if err != nil {
			continue
		}
		if !ok || !reflect.DeepEqual(got, want) {
			t.Errorf("%s: generic decoding differs (ok=%v)", raw.Source.File, ok)
		}
		releaseGeneric(got)
	}
}

func TestReleaseGenericEmptiesMaps(t *testing.T) {
	doc, _ := decodeGeneric([]byte(`{"a":{"b":[{"c":1}]},"d":"e"}`))
	inner := doc["a"].(map[string]any)
	item := inner["b"].([]any)[0].(map[string]any)
	releaseGeneric(doc)
	for _, m := range []map[string]any{doc, inner, item} {
		if len(m) != 0 {
			t.Errorf("released map still holds %v", m)
		}
	}
}
