package oracle

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/crd/internal/cases"
)

// TestCases checks the table of package crd's TestCases against the API
// server: under the pinned release, it must report exactly the wanted
// (path, type) pairs, which crd.Validate is tested to report; under every
// other release, what crd.Validate reports.
func TestCases(t *testing.T) {
	cs, err := cases.Load("../testdata/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	eachRelease(t, func(t *testing.T, r *release) { checkCases(t, r, cs) })
	t.Logf("%d cases", len(cs))
}

func checkCases(t *testing.T, r *release, cs []cases.Case) {
	for _, c := range cs {
		d := caseDocument(t, c, r.rel)
		if !crd.Known(d.apiVersion, d.kind, d.crds()) {
			continue // a kind or version the release does not serve
		}
		o := run(t, d)
		if r.rel != crd.Pinned {
			if !o.agree() {
				t.Errorf("%s: disagreement%s", c.Name, o.diff())
			}
			continue
		}
		checkWanted(t, c.Name, o, c.Want)
	}
}

// TestReleaseCases checks the table of package crd's TestReleaseCases
// against the API server with each release's CRDs: exactly the wanted
// (path, type) pairs under each release a case names, and no CRD for the
// kind and version under those that do not serve it.
func TestReleaseCases(t *testing.T) {
	cs, err := cases.Load("../testdata/releases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		wants := map[string][]cases.Want{crd.Pinned.String(): c.Want}
		maps.Copy(wants, c.Releases)
		for name, want := range wants {
			rel, err := crd.ParseRelease(name)
			if err != nil {
				t.Fatal(err)
			}
			d := caseDocument(t, c, rel)
			checkWanted(t, c.Name+" under "+name, run(t, d), want)
		}
		for _, name := range c.NotServed {
			rel, err := crd.ParseRelease(name)
			if err != nil {
				t.Fatal(err)
			}
			d := caseDocument(t, c, rel)
			group, version, _ := strings.Cut(d.apiVersion, "/")
			if rv := setupRelease(t, rel).real[gvkch{group, version, d.kind, d.ch}]; rv != nil {
				t.Errorf("%s: %s serves %s %s", c.Name, name, d.apiVersion, d.kind)
			}
		}
	}
}

// caseDocument is a case's document under release rel.
func caseDocument(t *testing.T, c cases.Case, rel crd.Release) document {
	var tm struct{ APIVersion, Kind string }
	if err := json.Unmarshal(c.Doc, &tm); err != nil {
		t.Fatal(err)
	}
	ch := crd.Standard
	if c.Channel == "experimental" {
		ch = crd.Experimental
	}
	setupRelease(t, rel)
	return document{name: c.Name, rel: rel, ch: ch, apiVersion: tm.APIVersion, kind: tm.Kind, json: c.Doc}
}

// checkWanted: the API server reports exactly the wanted (path, type)
// pairs, and crd.Validate the same.
func checkWanted(t *testing.T, name string, o outcome, wants []cases.Want) {
	want := map[finding]bool{}
	for _, w := range wants {
		want[finding{w.Path, w.Type}] = true
	}
	var diffs []string
	for f := range want {
		if _, ok := o.real[f]; !ok {
			diffs = append(diffs, fmt.Sprintf("wanted, not reported: %s %q", f.path, f.typ))
		}
	}
	for _, f := range sortedFindings(o.real) {
		if !want[f] {
			diffs = append(diffs, fmt.Sprintf("reported, not wanted: %s %q: %s", f.path, f.typ, o.real[f]))
		}
	}
	if len(diffs) > 0 || !o.agree() {
		t.Errorf("%s:\n    %s%s", name, strings.Join(diffs, "\n    "), o.diff())
	}
}
