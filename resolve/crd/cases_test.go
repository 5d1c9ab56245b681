package crd

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd/internal/cases"
)

// decodeDoc decodes like gwlint's loader: encoding/json with UseNumber.
func decodeDoc(t testing.TB, js []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatal(err)
	}
	return obj
}

// TestCases runs testdata/cases.yaml (also checked against the API server
// by the oracle module): the violations must be exactly the wanted (path,
// type) pairs, with the wanted message fragments.
func TestCases(t *testing.T) { runCases(t, "testdata/cases.yaml") }

// TestUnknownCases runs testdata/unknown.yaml: documents holding deploy-time
// placeholders, which the API server never sees unsubstituted (so the
// oracle does not run them).
func TestUnknownCases(t *testing.T) { runCases(t, "testdata/unknown.yaml") }

// TestReleaseCases runs testdata/releases.yaml: documents that releases
// judge differently (also checked against each release's API server by the
// oracle module).
func TestReleaseCases(t *testing.T) { runCases(t, "testdata/releases.yaml") }

// releaseWant is what a case wants under one release.
type releaseWant struct {
	rel       Release
	want      []cases.Want
	notServed bool
}

// releaseWants lists what c wants under each release it names, the pinned
// one first.
func releaseWants(t *testing.T, c cases.Case) []releaseWant {
	out := []releaseWant{{rel: Pinned, want: c.Want}}
	for _, name := range slices.Sorted(maps.Keys(c.Releases)) {
		rel, err := ParseRelease(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, releaseWant{rel: rel, want: c.Releases[name]})
	}
	for _, name := range c.NotServed {
		rel, err := ParseRelease(name)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, releaseWant{rel: rel, notServed: true})
	}
	return out
}

func runCases(t *testing.T, path string) {
	cs, err := cases.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		t.Run(c.Name, func(t *testing.T) {
			ch := Standard
			if c.Channel == "experimental" {
				ch = Experimental
			}
			for _, rw := range releaseWants(t, c) {
				t.Run(rw.rel.String(), func(t *testing.T) { checkCase(t, c, CRDs{rw.rel, ch}, rw) })
			}
		})
	}
}

func checkCase(t *testing.T, c cases.Case, crds CRDs, rw releaseWant) {
	obj := decodeDoc(t, c.Doc)
	apiVersion, kind := obj["apiVersion"].(string), obj["kind"].(string)
	if known := Known(apiVersion, kind, crds); known == rw.notServed {
		t.Fatalf("Known(%s, %s, %s) = %t", apiVersion, kind, crds, known)
	}
	got := Validate(apiVersion, kind, obj, crds)
	used := make([]bool, len(got))
wants:
	for _, w := range rw.want {
		for i, v := range got {
			if !used[i] && v.Path == w.Path && v.Type == w.Type && strings.Contains(v.Message, w.Message) {
				used[i] = true
				continue wants
			}
		}
		t.Errorf("missing %s %q %q", w.Path, w.Type, w.Message)
	}
	for i, v := range got {
		if used[i] {
			continue
		}
		// Another violation with a wanted (path, type) is fine:
		// the wants list each pair once.
		dup := false
		for _, w := range rw.want {
			dup = dup || (w.Path == v.Path && w.Type == v.Type)
		}
		if !dup {
			t.Errorf("unexpected %s %q: %s", v.Path, v.Type, v.Message)
		}
	}
}
