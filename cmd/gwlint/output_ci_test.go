package main

import (
	"encoding/json"
	"encoding/xml"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/lint"
)

// TestCodeClimateReport checks the fixture repository's report against
// what GitLab requires of every issue: description, check_name,
// fingerprint (unique in the report), severity (one of Code Climate's
// five), location.path and location.lines.begin (1-based).
func TestCodeClimateReport(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "repo"))
	out, stderr, code := clitest.Run(newRootCmd, "", "check", "-o", "codeclimate")
	if code != 2 || stderr != "" {
		t.Fatalf("exit %d, stderr %q; want 2 (the repository holds a broken file)", code, stderr)
	}
	var issues []map[string]any
	if err := json.Unmarshal([]byte(out), &issues); err != nil {
		t.Fatalf("not a JSON array: %v\n%s", err, out)
	}
	if len(issues) == 0 {
		t.Fatal("no issues")
	}
	seen := map[string]bool{}
	for i, is := range issues {
		for _, field := range []string{"type", "description", "check_name", "fingerprint", "severity"} {
			if s, _ := is[field].(string); s == "" {
				t.Errorf("issue %d: no %s: %v", i, field, is)
			}
		}
		if sev, _ := is["severity"].(string); !slices.Contains([]string{"info", "minor", "major", "critical", "blocker"}, sev) {
			t.Errorf("issue %d: severity %q", i, sev)
		}
		fp, _ := is["fingerprint"].(string)
		if seen[fp] {
			t.Errorf("issue %d: fingerprint %s is not unique", i, fp)
		}
		seen[fp] = true
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		if path, _ := loc["path"].(string); path == "" || filepath.IsAbs(path) {
			t.Errorf("issue %d: location.path %q, want a relative path", i, path)
		}
		if begin, _ := lines["begin"].(float64); begin < 1 {
			t.Errorf("issue %d: location.lines.begin %v", i, lines["begin"])
		}
	}
}

// TestFingerprint: a finding keeps its fingerprint when it moves to
// another line, and any other change makes a new one.
func TestFingerprint(t *testing.T) {
	base := lint.Finding{Rule: "backend-not-found", Severity: lint.Error,
		Position: lint.Position{File: "a.yaml", Line: 12, Col: 7},
		Object:   "HTTPRoute app/web", Path: "spec.rules[0].backendRefs[0].name", Message: "Service app/web-v2 not found"}
	moved := base
	moved.Line, moved.Col = 40, 9
	if fingerprint(base) != fingerprint(moved) {
		t.Error("the fingerprint changed when the finding moved to another line")
	}
	for name, mutate := range map[string]func(*lint.Finding){
		"rule":    func(f *lint.Finding) { f.Rule = "backend-port-not-found" },
		"file":    func(f *lint.Finding) { f.File = "b.yaml" },
		"object":  func(f *lint.Finding) { f.Object = "HTTPRoute app/api" },
		"path":    func(f *lint.Finding) { f.Path = "spec.rules[1].backendRefs[0].name" },
		"message": func(f *lint.Finding) { f.Message = "Service app/web-v3 not found" },
	} {
		changed := base
		mutate(&changed)
		if fingerprint(changed) == fingerprint(base) {
			t.Errorf("changing the %s kept the fingerprint", name)
		}
	}
	// The same finding twice in a file gets two fingerprints.
	o := &codeClimateOutput{}
	_ = o.Write(result{Finding: base})
	_ = o.Write(result{Finding: moved})
	if o.issues[0].Fingerprint == o.issues[1].Fingerprint {
		t.Error("a repeated finding repeats its fingerprint")
	}
}

// junitDoc is what a CI server reads of a JUnit report.
type junitDoc struct {
	Tests    int `xml:"tests,attr"`
	Failures int `xml:"failures,attr"`
	Errors   int `xml:"errors,attr"`
	Suites   []struct {
		Name     string `xml:"name,attr"`
		Tests    int    `xml:"tests,attr"`
		Failures int    `xml:"failures,attr"`
		Errors   int    `xml:"errors,attr"`
		Cases    []struct {
			Name      string `xml:"name,attr"`
			ClassName string `xml:"classname,attr"`
			Failure   *struct {
				Type string `xml:"type,attr"`
			} `xml:"failure"`
			Error *struct {
				Type string `xml:"type,attr"`
			} `xml:"error"`
		} `xml:"testcase"`
		SystemOut string `xml:"system-out"`
	} `xml:"testsuite"`
}

func parseJUnit(t *testing.T, out string) junitDoc {
	t.Helper()
	var doc junitDoc
	if err := xml.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, out)
	}
	// The counts add up.
	tests, failures, errs := 0, 0, 0
	for _, s := range doc.Suites {
		f, e := 0, 0
		for _, c := range s.Cases {
			if c.Failure != nil {
				f++
			}
			if c.Error != nil {
				e++
			}
			if c.ClassName != s.Name {
				t.Errorf("test case %q in suite %s has classname %q", c.Name, s.Name, c.ClassName)
			}
		}
		if s.Tests != len(s.Cases) || s.Failures != f || s.Errors != e {
			t.Errorf("suite %s: tests=%d failures=%d errors=%d, but it holds %d cases, %d failing, %d errors",
				s.Name, s.Tests, s.Failures, s.Errors, len(s.Cases), f, e)
		}
		tests, failures, errs = tests+s.Tests, failures+f, errs+e
	}
	if doc.Tests != tests || doc.Failures != failures || doc.Errors != errs {
		t.Errorf("testsuites: tests=%d failures=%d errors=%d, suites sum to %d, %d, %d",
			doc.Tests, doc.Failures, doc.Errors, tests, failures, errs)
	}
	return doc
}

// TestJUnitReport: one suite per file read, one failing test case per
// finding at or above --fail-on (the rest in system-out), an error for an
// unreadable file, and a passing case for a file without failures.
func TestJUnitReport(t *testing.T) {
	t.Chdir(filepath.Join("testdata", "repo"))
	jsonOut, _, _ := clitest.Run(newRootCmd, "", "check", "-o", "json")
	var report jsonReport
	if err := json.Unmarshal([]byte(jsonOut), &report); err != nil {
		t.Fatal(err)
	}
	for _, failOn := range []lint.Severity{lint.Error, lint.Warning, lint.Info} {
		t.Run(failOn.String(), func(t *testing.T) {
			out, _, code := clitest.Run(newRootCmd, "", "check", "-o", "junit", "--fail-on", failOn.String())
			if code != 2 {
				t.Errorf("exit %d, want 2", code)
			}
			doc := parseJUnit(t, out)
			wantFailures, wantErrors, below := 0, 0, 0
			for _, f := range report.Findings {
				sev, _ := lint.ParseSeverity(f.Severity)
				switch {
				case f.Rule == lint.InvalidManifest.ID:
					wantErrors++
				case sev >= failOn:
					wantFailures++
				default:
					below++
				}
			}
			if doc.Failures != wantFailures || doc.Errors != wantErrors {
				t.Errorf("failures=%d errors=%d, want %d and %d", doc.Failures, doc.Errors, wantFailures, wantErrors)
			}
			gotBelow := 0
			for _, s := range doc.Suites {
				gotBelow += strings.Count(s.SystemOut, "\n")
				if s.Failures+s.Errors == 0 && (len(s.Cases) != 1 || s.Cases[0].Name != junitPassName) {
					t.Errorf("suite %s has no failures but cases %+v", s.Name, s.Cases)
				}
			}
			if gotBelow < below { // related notes add lines
				t.Errorf("system-out holds %d lines, want the %d findings below --fail-on", gotBelow, below)
			}
		})
	}
}

// TestJUnitClean: a clean run still reports one passing test per file.
func TestJUnitClean(t *testing.T) {
	out, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", "-o", "junit", clitest.Examples)
	if code != 0 {
		t.Fatalf("exit %d", code)
	}
	doc := parseJUnit(t, out)
	if doc.Tests != 5 || doc.Failures != 0 || len(doc.Suites) != 5 {
		t.Errorf("tests=%d failures=%d suites=%d, want 5 passing tests in 5 suites", doc.Tests, doc.Failures, len(doc.Suites))
	}
}

// TestCodeClimateClean: a clean run is an empty array, which GitLab reads
// as "no issues", not null.
func TestCodeClimateClean(t *testing.T) {
	out, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", "-o", "codeclimate", clitest.Examples)
	if code != 0 || out != "[]\n" {
		t.Errorf("exit %d, output %q; want 0 and []", code, out)
	}
}
