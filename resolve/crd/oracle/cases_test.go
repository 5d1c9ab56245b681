package oracle

import (
	"encoding/json"
	"fmt"
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
		var tm struct{ APIVersion, Kind string }
		if err := json.Unmarshal(c.Doc, &tm); err != nil {
			t.Fatal(err)
		}
		ch := crd.Standard
		if c.Channel == "experimental" {
			ch = crd.Experimental
		}
		if !crd.Known(tm.APIVersion, tm.Kind, crd.CRDs{Release: r.rel, Channel: ch}) {
			continue // a kind or version the release does not serve
		}
		o := run(t, document{name: c.Name, rel: r.rel, ch: ch, apiVersion: tm.APIVersion, kind: tm.Kind, json: c.Doc})
		if r.rel != crd.Pinned {
			if !o.agree() {
				t.Errorf("%s: disagreement%s", c.Name, o.diff())
			}
			continue
		}
		want := map[finding]bool{}
		for _, w := range c.Want {
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
			t.Errorf("%s:\n    %s%s", c.Name, strings.Join(diffs, "\n    "), o.diff())
		}
	}
}
