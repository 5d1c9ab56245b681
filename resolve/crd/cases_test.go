package crd

import (
	"bytes"
	"encoding/json"
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

func runCases(t *testing.T, path string) {
	cs, err := cases.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		t.Run(c.Name, func(t *testing.T) {
			obj := decodeDoc(t, c.Doc)
			ch := Standard
			if c.Channel == "experimental" {
				ch = Experimental
			}
			apiVersion, kind := obj["apiVersion"].(string), obj["kind"].(string)
			if !Known(apiVersion, kind, CRDs{Channel: ch}) {
				t.Fatalf("%s %s is not known in channel %s", apiVersion, kind, c.Channel)
			}
			got := Validate(apiVersion, kind, obj, CRDs{Channel: ch})
			used := make([]bool, len(got))
		wants:
			for _, w := range c.Want {
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
				for _, w := range c.Want {
					dup = dup || (w.Path == v.Path && w.Type == v.Type)
				}
				if !dup {
					t.Errorf("unexpected %s %q: %s", v.Path, v.Type, v.Message)
				}
			}
		})
	}
}
