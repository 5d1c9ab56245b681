package main

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"github.com/xeipuuv/gojsonschema"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// compiledSARIFSchema is the official SARIF 2.1.0 JSON schema (OASIS errata01,
// the text go-sarif v3.3.1 embeds), compiled once: go-sarif's own Validate
// compiles it on every call, which made FuzzSARIFOutput crawl.
// Embedded, as tests that change directory may be the first to validate.
var compiledSARIFSchema = sync.OnceValues(func() (*gojsonschema.Schema, error) {
	return gojsonschema.NewSchema(gojsonschema.NewBytesLoader(sarifSchemaText))
})

//go:embed testdata/sarif-schema-2.1.0.json
var sarifSchemaText []byte

// sarifProblem checks a SARIF log against the official SARIF 2.1.0 JSON
// schema (no network). go-sarif validates its own
// types, so the log is decoded into them first, and every property of the
// log must survive that unchanged: each must be a SARIF property, spelt
// exactly, at its place, and nothing is lost on the way to the validator.
func sarifProblem(log []byte) error {
	dec := json.NewDecoder(bytes.NewReader(log))
	dec.DisallowUnknownFields()
	var strict sarif.Report
	if err := dec.Decode(&strict); err != nil {
		return fmt.Errorf("not SARIF 2.1.0: %w", err)
	}
	report, err := sarif.FromBytes(log)
	if err != nil {
		return err
	}
	again, err := json.Marshal(report)
	if err != nil {
		return err
	}
	var mine, theirs any
	if err := json.Unmarshal(log, &mine); err != nil {
		return err
	}
	if err := json.Unmarshal(again, &theirs); err != nil {
		return err
	}
	if err := contained(mine, theirs, "$"); err != nil {
		return fmt.Errorf("not SARIF 2.1.0: %w", err)
	}
	// go-sarif's types write some properties whether or not they were
	// given, and their zero values break the schema; an absent property
	// means the schema's default, so that is what they get.
	for _, run := range report.Runs {
		if run.Language == "" {
			run.Language = "en-US"
		}
		if len(run.NewlineSequences) == 0 {
			run.NewlineSequences = []string{"\r\n", "\n"}
		}
		if run.Tool != nil && run.Tool.Driver != nil && run.Tool.Driver.Language == "" {
			run.Tool.Driver.Language = "en-US"
		}
	}
	schema, err := compiledSARIFSchema()
	if err != nil {
		return err
	}
	result, err := schema.Validate(gojsonschema.NewGoLoader(report))
	if err != nil {
		return err
	}
	if !result.Valid() {
		return fmt.Errorf("does not validate against the SARIF 2.1.0 schema: %v", result.Errors())
	}
	return nil
}

// contained reports where a holds a property or value that b does not.
func contained(a, b any, path string) error {
	switch a := a.(type) {
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: not an object after decoding", path)
		}
		for k, v := range a {
			bv, ok := bm[k]
			if !ok {
				return fmt.Errorf("%s.%s is not a SARIF property", path, k)
			}
			if err := contained(v, bv, path+"."+k); err != nil {
				return err
			}
		}
	case []any:
		bs, ok := b.([]any)
		if !ok || len(bs) != len(a) {
			return fmt.Errorf("%s: array changed after decoding", path)
		}
		for i := range a {
			if err := contained(a[i], bs[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	default:
		if a != b {
			return fmt.Errorf("%s: %v became %v after decoding", path, a, b)
		}
	}
	return nil
}

func validateSARIF(t *testing.T, name string, log []byte) {
	t.Helper()
	if err := sarifProblem(log); err != nil {
		t.Errorf("%s: %v", name, err)
	}
}

// TestSARIFValidatorRejects makes sure the validation above can fail.
func TestSARIFValidatorRejects(t *testing.T) {
	stdout, _, _ := clitest.Run(newRootCmd, "", "check", "--no-config", "-o", "sarif", "testdata/cases/error")
	if err := sarifProblem([]byte(stdout)); err != nil {
		t.Fatalf("valid log rejected: %v", err)
	}
	for _, mutate := range [][2]string{
		{`"level": "error"`, `"level": "fatal"`},
		{`"startLine": 26`, `"startLine": 0`},
		{`"ruleId"`, `"ruleID"`},
		{`"version": "2.1.0"`, `"version": "2.0.0"`},
	} {
		broken := strings.Replace(stdout, mutate[0], mutate[1], 1)
		if broken == stdout {
			t.Fatalf("%s is not in the log", mutate[0])
		}
		if sarifProblem([]byte(broken)) == nil {
			t.Errorf("log with %s accepted", mutate[1])
		}
	}
}

func TestSARIFValidates(t *testing.T) {
	golden, err := os.ReadFile(golden.Path("check-sarif.golden"))
	if err != nil {
		t.Fatal(err)
	}
	validateSARIF(t, "check-sarif.golden", golden)

	abs, err := filepath.Abs("testdata/cases/error")
	if err != nil {
		t.Fatal(err)
	}
	route, err := os.ReadFile("testdata/cases/error/route.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for name, args := range map[string][]string{
		"clean":    {clitest.Examples},
		"broken":   {"testdata/cases/broken"},
		"absolute": {abs},
		"stdin":    {"-"},
	} {
		stdout, stderr, _ := clitest.Run(newRootCmd, string(route), append([]string{"check", "--no-config", "-o", "sarif"}, args...)...)
		if stderr != "" {
			t.Errorf("%s: stderr: %s", name, stderr)
		}
		validateSARIF(t, name, []byte(stdout))
	}
}

// TestSARIFContents checks what code scanning relies on, beyond the schema.
func TestSARIFContents(t *testing.T) {
	stdout, _, _ := clitest.Run(newRootCmd, "", "check", "--no-config", "-o", "sarif", "testdata/cases/error")
	var log sarifLog
	if err := json.Unmarshal([]byte(stdout), &log); err != nil {
		t.Fatal(err)
	}
	run := log.Runs[0]
	if len(run.Results) != 1 {
		t.Fatalf("%d results, want 1", len(run.Results))
	}
	res := run.Results[0]
	rule := run.Tool.Driver.Rules[res.RuleIndex]
	if rule.ID != res.RuleID || res.RuleID != "backend-not-found" {
		t.Errorf("ruleIndex %d names %s, result says %s", res.RuleIndex, rule.ID, res.RuleID)
	}
	if rule.ShortDescription.Text == "" || rule.Help.Markdown == "" || rule.DefaultConfiguration.Level != "error" {
		t.Errorf("rule %s is not described: %+v", rule.ID, rule)
	}
	loc := res.Locations[0].PhysicalLocation
	if loc.ArtifactLocation.URI != "testdata/cases/error/route.yaml" || loc.Region.StartLine != 26 || loc.Region.StartColumn != 7 {
		t.Errorf("location %+v %+v, want testdata/cases/error/route.yaml 26:7", loc.ArtifactLocation, *loc.Region)
	}
}

func TestFileURI(t *testing.T) {
	for in, want := range map[string]string{
		"apps/store/route.yaml": "apps/store/route.yaml",
		"../x.yaml":             "../x.yaml",
		"my dir/a#b.yaml":       "my%20dir/a%23b.yaml",
		"<stdin>":               "%3Cstdin%3E",
		"/abs/path.yaml":        "file:///abs/path.yaml",
		"c:weird.yaml":          "./c:weird.yaml",
	} {
		if got := fileURI(in); got != want {
			t.Errorf("fileURI(%q) = %q, want %q", in, got, want)
		}
	}
}
