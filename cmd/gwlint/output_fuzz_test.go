package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"os"
	"regexp"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// FuzzOutputs writes a finding made of arbitrary strings (file, object,
// path, message, related message, ignore reason) in every format but
// SARIF: JSON must be valid and give the strings back (invalid UTF-8 as
// U+FFFD, as encoding/json writes it), GitHub output must stay one
// workflow command per finding, JUnit must be XML that gives them back
// escaped, and no format may start a line with "::" (a workflow command)
// or hold a control or format character other than its own newlines (see
// checkEscaped). Seeded with the findings of the golden JSON output and
// with a hostile one (hostile).
func FuzzOutputs(f *testing.F) {
	fuzzOutputs(f, formatText, formatJSON, formatGitHub, formatJUnit, formatCodeClimate)
}

// hostile holds what a pull request can put in a file name, an object name
// or a message to forge a workflow command, colour the terminal or
// disguise text.
const hostile = "x\n::error file=README.md,line=1::pwned\r\x1b[31m\x00\u202e\x7f\u0085\u2028y"

// TestOutputsEscapeInput runs every format over a finding whose strings
// are all hostile, and the text format with colour on as well: its own
// colour sequences are the only escape sequences, and without them it is
// the uncoloured text.
func TestOutputsEscapeInput(t *testing.T) {
	for _, format := range []string{formatText, formatJSON, formatSARIF, formatGitHub, formatJUnit, formatCodeClimate} {
		t.Run(format, func(t *testing.T) {
			out := writeOutput(t, format, "never", hostileFinding(hostile, hostile, hostile, hostile, hostile), hostile)
			checkEscaped(t, format, out)
			checkStrings(t, format, out, hostile, hostile, hostile, hostile, hostile)
		})
	}
	plain := writeOutput(t, formatText, "never", hostileFinding(hostile, hostile, hostile, hostile, hostile), hostile)
	colored := writeOutput(t, formatText, "always", hostileFinding(hostile, hostile, hostile, hostile, hostile), hostile)
	if !bytes.Contains(colored, []byte("\x1b[")) {
		t.Fatalf("no colour with --color always:\n%q", colored)
	}
	if stripped := sgr.ReplaceAll(colored, nil); !bytes.Equal(stripped, plain) {
		t.Errorf("coloured text without its colour sequences is not the plain text:\n%q\n%q", stripped, plain)
	}
}

// sgr matches the colour sequences fatih/color writes.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

func hostileFinding(file, object, path, message, related string) lint.Finding {
	return lint.Finding{
		Rule: lint.InvalidManifest.ID, Severity: lint.Error,
		Position: lint.Position{File: file, Line: 3, Col: 5},
		Object:   object, Path: path, Message: message,
		Related: []lint.Related{{Position: lint.Position{File: file, Line: 1}, Message: related}},
	}
}

// writeOutput writes finding, and the finding again as suppressed by an
// ignore with reason, in format.
func writeOutput(t *testing.T, format, color string, finding lint.Finding, reason string) []byte {
	t.Helper()
	results := []result{{Finding: finding}, {Finding: finding, Suppression: &lint.Suppression{Kind: "comment", Position: finding.Position, Reason: reason}}}
	var out bytes.Buffer
	opts := &checkOptions{IO: &cli.IOStreams{Out: &out}, Output: format, Color: color}
	// One rule, the finding's: SARIF describes every rule given,
	// which would make each run check the documentation of all.
	w := newFormatter(opts, []*lint.Rule{lint.InvalidManifest})
	for _, r := range results {
		if err := w.Write(r); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Flush(summary{Errors: 1, Suppressed: 1, Files: 1, FileNames: []string{finding.File}, FailOn: lint.Error}); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

// checkEscaped checks what no format may print, whatever the inputs: a
// line that the GitHub runner takes for a workflow command (one that
// starts with "::" after spaces), but the GitHub format's own one per
// finding, and a character that cli.Escape escapes, but newlines.
func checkEscaped(t *testing.T, format string, out []byte) {
	t.Helper()
	commands := 0
	for _, line := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
			commands++
			if format != formatGitHub || !strings.HasPrefix(line, "::error file=") {
				t.Errorf("%s: a line is a workflow command: %q", format, line)
			}
		}
	}
	if format == formatGitHub && commands != 1 {
		t.Errorf("%s: %d workflow commands, want 1:\n%s", format, commands, out)
	}
	for _, line := range strings.Split(string(out), "\n") {
		// A colon is escaped only where it starts a string.
		if strings.ContainsFunc(line, func(r rune) bool { return r != ':' && cli.Escape(string(r)) != string(r) }) ||
			!utf8.ValidString(line) {
			t.Errorf("%s: a line holds characters cli.Escape escapes: %q", format, line)
		}
	}
}

// checkStrings checks that the structured formats parse and give back
// the strings: JSON, SARIF and Code Climate as they were (invalid UTF-8
// as U+FFFD, as encoding/json writes it), JUnit escaped, XML 1.0 having
// no way to write most control characters.
func checkStrings(t *testing.T, format string, out []byte, file, object, path, message, related string) {
	t.Helper()
	// encoding/json writes each byte of invalid UTF-8 as U+FFFD, as
	// converting to runes does.
	valid := func(s string) string { return string([]rune(s)) }
	switch format {
	case formatJSON:
		var report jsonReport
		if err := json.Unmarshal(out, &report); err != nil {
			t.Fatalf("invalid JSON: %v\n%s", err, out)
		}
		got := report.Findings[0]
		if len(report.Findings) != 1 || got.Message != valid(message) || got.File != valid(file) ||
			got.Object != valid(object) || got.Path != valid(path) || got.Related[0].Message != valid(related) {
			t.Fatalf("JSON does not give the strings back:\n%s", out)
		}
	case formatSARIF:
		if err := sarifProblem(out); err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		var log struct {
			Runs []struct {
				Results []struct {
					Message struct{ Text string } `json:"message"`
				} `json:"results"`
			} `json:"runs"`
		}
		if err := json.Unmarshal(out, &log); err != nil || log.Runs[0].Results[0].Message.Text != valid(message) {
			t.Fatalf("SARIF lost the message %q (%v):\n%s", message, err, out)
		}
	case formatCodeClimate:
		var issues []ccIssue
		if err := json.Unmarshal(out, &issues); err != nil || len(issues) != 1 ||
			issues[0].Description != valid(message) || issues[0].Location.Path != valid(file) {
			t.Fatalf("Code Climate does not give the strings back (%v):\n%s", err, out)
		}
	case formatJUnit:
		doc := parseJUnit(t, string(out))
		var problem struct {
			Suites []struct {
				Cases []struct {
					Error *struct {
						Message string `xml:"message,attr"`
						Text    string `xml:",chardata"`
					} `xml:"error"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal(out, &problem); err != nil {
			t.Fatal(err)
		}
		if len(doc.Suites) != 1 || doc.Suites[0].Name != cli.Escape(file) || doc.Suites[0].Cases[0].Name != junitCaseName(hostileFinding(file, object, path, message, related)) ||
			problem.Suites[0].Cases[0].Error.Message != cli.Escape(message) ||
			!strings.Contains(problem.Suites[0].Cases[0].Error.Text, cli.Escape(related)) {
			t.Fatalf("JUnit does not give the strings back escaped:\n%s", out)
		}
	}
}

// FuzzSARIFOutput is FuzzOutputs for SARIF, which must pass the SARIF
// 2.1.0 schema and give the message back. It is a target of its own
// because the schema check makes it a hundred times slower.
func FuzzSARIFOutput(f *testing.F) {
	fuzzOutputs(f, formatSARIF)
}

func fuzzOutputs(f *testing.F, formats ...string) {
	if data, err := os.ReadFile("testdata/golden/check-json.golden"); err == nil {
		var report jsonReport
		if err := json.Unmarshal(data, &report); err != nil {
			f.Fatal(err)
		}
		for _, fd := range report.Findings {
			f.Add(fd.File, fd.Object, fd.Path, fd.Message, "", "")
		}
	}
	f.Add("a b/ü.yaml", "HTTPRoute a/b", "metadata.annotations[x.io/y]", "100% of a\r\nb: c, d", "::x", "reason\x00")
	f.Add(hostile, hostile, hostile, hostile, hostile, hostile)
	f.Add("::error file=README.md,line=1::pwned", " ::x", "\u3000::y", "::z", "::", "::")
	f.Fuzz(func(t *testing.T, file, object, path, message, related, reason string) {
		for _, format := range formats {
			out := writeOutput(t, format, "never", hostileFinding(file, object, path, message, related), reason)
			checkEscaped(t, format, out)
			checkStrings(t, format, out, file, object, path, message, related)
		}
	})
}
