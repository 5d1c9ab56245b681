package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestBaseline writes the baseline of testdata/baseline/before (its golden
// file is the baseline itself) and checks testdata/baseline/after against
// it: the same findings on other lines are not reported, the new one is,
// and the entry whose problem is gone is named on stderr.
func TestBaseline(t *testing.T) {
	bl := "testdata/golden/baseline-before.golden" // relative: it is shown
	// The baseline first, on its own: with -update the checks read what it
	// writes.
	t.Run("write", func(t *testing.T) {
		golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
			{Name: "baseline-before", Args: []string{"baseline", "-", "testdata/baseline/before"}, Code: 0},
		})
	})
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		{Name: "baseline-check-before", Args: []string{"check", "--baseline", bl, "--color", "never", "testdata/baseline/before"}, Code: 0},
		{Name: "baseline-check-after", Args: []string{"check", "--baseline", bl, "--color", "never", "testdata/baseline/after"}, Code: 1},
		{Name: "baseline-check-after-json", Args: []string{"check", "--baseline", bl, "-o", "json", "testdata/baseline/after"}, Code: 1},
		{Name: "baseline-check-after-sarif", Args: []string{"check", "--baseline", bl, "-o", "sarif", "testdata/baseline/after"}, Code: 1},
	})
}

// TestBaselineSARIF: with a baseline, every SARIF result that is reported
// is marked new, and the log is still valid SARIF.
func TestBaselineSARIF(t *testing.T) {
	log, err := os.ReadFile(golden.Path("baseline-check-after-sarif.golden"))
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, "baseline-check-after-sarif.golden", log)
	checkBaselineStates(t, log, 1)
}

// checkBaselineStates checks that a SARIF log has want results, each
// marked new unless it is suppressed.
func checkBaselineStates(t *testing.T, log []byte, want int) {
	t.Helper()
	var l sarifLog
	if err := json.Unmarshal(log, &l); err != nil {
		t.Fatal(err)
	}
	reported := 0
	for _, r := range l.Runs[0].Results {
		switch {
		case r.Suppressions != nil && r.BaselineState != "":
			t.Errorf("suppressed %s result has baselineState %q", r.RuleID, r.BaselineState)
		case r.Suppressions == nil && r.BaselineState != "new":
			t.Errorf("%s result has baselineState %q, want new", r.RuleID, r.BaselineState)
		case r.Suppressions == nil:
			reported++
		}
	}
	if reported != want {
		t.Errorf("%d results reported, want %d", reported, want)
	}
}

func TestBaselineErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.json")
	old := filepath.Join(dir, "old.json")
	writeTree(t, dir, map[string]string{
		"bad.json":    `{"version": "gwlint.io/baseline/v1", "findings": [{"rule": "x"}], "extra": 1}`,
		"old.json":    `{"version": "gwlint.io/baseline/v0", "findings": []}`,
		"broken.yaml": brokenYAML,
	})
	out := filepath.Join(dir, "out.json")
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "missing baseline", Args: []string{"check", "--baseline", filepath.Join(dir, "nope.json"), "testdata/baseline/after"}, Code: 2,
			StderrHas: "reading the baseline: open", StdoutNone: true},
		{Name: "not a baseline", Args: []string{"check", "--baseline", bad, "testdata/baseline/after"}, Code: 2,
			StderrHas: "bad.json: not a gwlint baseline", StdoutNone: true},
		{Name: "old version", Args: []string{"check", "--baseline", old, "testdata/baseline/after"}, Code: 2,
			StderrHas: `baseline version "gwlint.io/baseline/v0"`, StdoutNone: true},
		{Name: "input errors are never baselined", Args: []string{"baseline", out, filepath.Join(dir, "broken.yaml")}, Code: 2,
			StderrHas: "not writing " + out + ": 1 input errors"},
		{Name: "no FILE", Args: []string{"baseline"}, Code: 2, StderrHas: "requires at least 1 arg"},
	})
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("baseline written despite input errors: %v", err)
	}
}

// TestBaselineFile writes the baseline into the tree it covers: it is not
// read as a manifest, and its entries match from another directory.
func TestBaselineFile(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"deploy/route.yaml": unnamespacedRoute})
	file := filepath.Join(dir, "deploy", "gwlint-baseline.json")
	if _, stderr, code := clitest.Run(newRootCmd, "", "baseline", file, filepath.Join(dir, "deploy")); code != 0 ||
		!strings.Contains(stderr, "wrote 1 findings") {
		t.Fatalf("baseline: exit %d, stderr:\n%s", code, stderr)
	}
	t.Chdir(filepath.Join(dir, "deploy"))
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", "--baseline", "gwlint-baseline.json")
	if code != 0 || !strings.Contains(stdout, "0 errors, 0 warnings, 0 info in 1 file") || !strings.Contains(stderr, "1 findings in the baseline") {
		t.Errorf("check: exit %d, stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestBaselineReplacesLink: a baseline FILE that the repository holds as
// a symbolic link (a pull request can plant one pointing anywhere) is
// replaced by the baseline; the file it pointed at is never written.
func TestBaselineReplacesLink(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"deploy/route.yaml": unnamespacedRoute})
	outside := filepath.Join(t.TempDir(), "bashrc")
	if err := os.WriteFile(outside, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "deploy", "gwlint-baseline.json")
	if err := os.Symlink(outside, file); err != nil {
		t.Skipf("no symbolic links: %v", err)
	}
	if _, stderr, code := clitest.Run(newRootCmd, "", "baseline", file, filepath.Join(dir, "deploy")); code != 0 {
		t.Fatalf("baseline: exit %d, stderr:\n%s", code, stderr)
	}
	if got, err := os.ReadFile(outside); err != nil || string(got) != "outside\n" {
		t.Errorf("the link's target = %q, %v; want it untouched", got, err)
	}
	if info, err := os.Lstat(file); err != nil || !info.Mode().IsRegular() {
		t.Errorf("%s: %v, %v; want the baseline as a file of its own", file, info, err)
	} else if data, _ := os.ReadFile(file); !strings.Contains(string(data), `"rule": "ref-unlisted"`) {
		t.Errorf("baseline:\n%s", data)
	}
	if entries, _ := os.ReadDir(filepath.Join(dir, "deploy")); len(entries) != 2 {
		t.Errorf("deploy/ holds %v; want route.yaml and the baseline, no temporary file", entries)
	}
}
