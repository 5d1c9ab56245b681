package fidelity

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestFidelity compares gwctl's status with the status Envoy Gateway and
// Istio expect in their own translator tests. Their test data are not part
// of this repository: point GWLINT_FIDELITY_ENVOY_GATEWAY and
// GWLINT_FIDELITY_ISTIO at checkouts (or extracted archives) of the two
// projects; a project whose variable is unset is skipped. See
// docs/resolver.md, "Fidelity against Envoy Gateway and Istio".
//
// GWLINT_FIDELITY_CATEGORY=text lists every disagreement of the
// categories whose name contains text.
//
// GWLINT_FIDELITY_DUMP=dir writes each case's inputs, as gwctl reads them,
// to dir/<project>/<case>.yaml, for gwctl status and explain.
//
// It reports and does not fail on disagreements: the numbers are a
// measurement. GWLINT_FIDELITY_MIN (a percentage) makes it fail when a
// project's non-trivial agreement falls below it.
func TestFidelity(t *testing.T) {
	var tallies []*Tally
	for _, p := range []*Project{EnvoyGateway, Istio} {
		dir := p.Dir()
		if dir == "" {
			t.Logf("%s: %s not set, skipped", p.Name, p.Env)
			continue
		}
		cases, err := p.Cases(dir)
		if err != nil {
			t.Fatalf("%s: %v", p.Name, err)
		}
		if len(cases) == 0 {
			t.Fatalf("%s: no test cases in %s", p.Name, dir)
		}
		tally := &Tally{Project: p.Name}
		// The implementation's own policies are tallied apart, so that
		// the API's objects keep their own measure.
		policyTally := &Tally{Project: p.Name + " policies"}
		dump := os.Getenv("GWLINT_FIDELITY_DUMP")
		for _, c := range cases {
			if dump != "" {
				if err := c.Dump(filepath.Join(dump, p.Name)); err != nil {
					t.Fatal(err)
				}
			}
			res := p.Run(c)
			api, policies := res.SplitPolicies()
			tally.Add(api)
			policyTally.Add(policies)
			if testing.Verbose() && len(res.ReadErrors) > 0 && os.Getenv("GWLINT_FIDELITY_READ_ERRORS") != "" {
				t.Logf("%s %s: read errors:\n  %s", p.Name, c.Name, strings.Join(res.ReadErrors, "\n  "))
			}
		}
		tallies = append(tallies, tally)
		if policyTally.Outcomes+policyTally.Refused+policyTally.Environment > 0 {
			tallies = append(tallies, policyTally)
		}
	}
	if len(tallies) == 0 {
		t.Skip("no project test data: set GWLINT_FIDELITY_ENVOY_GATEWAY and/or GWLINT_FIDELITY_ISTIO")
	}
	var b bytes.Buffer
	WriteSummary(&b, tallies)
	for _, tally := range tallies {
		b.WriteString("\n")
		WriteReadErrors(&b, tally)
		WriteRefused(&b, tally)
		WriteEnvironment(&b, tally)
		WriteDisagreements(&b, tally, 3)
	}
	if want := os.Getenv("GWLINT_FIDELITY_CATEGORY"); want != "" {
		for _, tally := range tallies {
			for _, name := range slices.Sorted(maps.Keys(tally.Disagreements)) {
				if strings.Contains(name, want) {
					fmt.Fprintf(&b, "\n%s: %s\n", tally.Project, name)
					for _, o := range tally.Disagreements[name] {
						fmt.Fprintf(&b, "    %s\n", o.String())
					}
				}
			}
		}
	}
	t.Log("\n" + b.String())
	if min := os.Getenv("GWLINT_FIDELITY_MIN"); min != "" {
		for _, tally := range tallies {
			want, err := strconv.ParseFloat(min, 64)
			if err != nil {
				t.Fatalf("GWLINT_FIDELITY_MIN=%q: %v", min, err)
			}
			if got := 100 * float64(tally.NonTrivialAgree) / float64(max(tally.NonTrivial, 1)); got < want {
				t.Errorf("%s: non-trivial agreement %.1f%%, want at least %s%%", tally.Project, got, min)
			}
		}
	}
}
