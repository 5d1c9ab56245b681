package main

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// FuzzOutputs writes a finding made of arbitrary strings (file, object,
// path, message, related message, ignore reason) as text, JSON and GitHub
// output: JSON must be valid and give the strings back (invalid UTF-8 as
// U+FFFD, as encoding/json writes it), GitHub output must stay one
// workflow command per finding. Seeded with the findings of the golden
// JSON output.
func FuzzOutputs(f *testing.F) {
	fuzzOutputs(f, formatText, formatJSON, formatGitHub)
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
	f.Fuzz(func(t *testing.T, file, object, path, message, related, reason string) {
		finding := lint.Finding{
			Rule: lint.InvalidManifest.ID, Severity: lint.Error,
			Position: lint.Position{File: file, Line: 3, Col: 5},
			Object:   object, Path: path, Message: message,
			Related: []lint.Related{{Position: lint.Position{File: file, Line: 1}, Message: related}},
		}
		results := []result{{Finding: finding}, {Finding: finding, Suppression: &lint.Suppression{Kind: "comment", Position: finding.Position, Reason: reason}}}
		// encoding/json writes each byte of invalid UTF-8 as U+FFFD, as
		// converting to runes does.
		valid := func(s string) string { return string([]rune(s)) }
		for _, format := range formats {
			var out bytes.Buffer
			opts := &checkOptions{IO: &cli.IOStreams{Out: &out}, Output: format, Color: "never"}
			// One rule, the finding's: SARIF describes every rule given,
			// which would make each run check the documentation of all.
			w := newFormatter(opts, []*lint.Rule{lint.InvalidManifest})
			for _, r := range results {
				if err := w.Write(r); err != nil {
					t.Fatal(err)
				}
			}
			if err := w.Flush(summary{Errors: 1, Suppressed: 1, Files: 1}); err != nil {
				t.Fatal(err)
			}
			switch format {
			case formatJSON:
				var report jsonReport
				if err := json.Unmarshal(out.Bytes(), &report); err != nil {
					t.Fatalf("invalid JSON: %v\n%s", err, out.Bytes())
				}
				got := report.Findings[0]
				if len(report.Findings) != 1 || got.Message != valid(message) || got.File != valid(file) ||
					got.Object != valid(object) || got.Path != valid(path) || got.Related[0].Message != valid(related) {
					t.Fatalf("JSON does not give the strings back:\n%s", out.Bytes())
				}
			case formatSARIF:
				if err := sarifProblem(out.Bytes()); err != nil {
					t.Fatalf("%v\n%s", err, out.Bytes())
				}
				var log struct {
					Runs []struct {
						Results []struct {
							Message struct{ Text string } `json:"message"`
						} `json:"results"`
					} `json:"runs"`
				}
				if err := json.Unmarshal(out.Bytes(), &log); err != nil || log.Runs[0].Results[0].Message.Text != valid(message) {
					t.Fatalf("SARIF lost the message %q (%v):\n%s", message, err, out.Bytes())
				}
			case formatGitHub:
				lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
				if len(lines) != 2 || !strings.HasPrefix(lines[0], "::error file=") {
					t.Fatalf("want one workflow command and the summary, got:\n%s", out.Bytes())
				}
			}
		}
	})
}
