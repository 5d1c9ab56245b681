package main

import (
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestDocs keeps docs/gwlint.md in step with the code: every command, every
// flag, every output format and every JSON field must be documented there.
func TestDocs(t *testing.T) {
	doc := clitest.ReadDoc(t, "../../docs/gwlint.md", "docs/gwlint.md")
	doc.Mentions(t, schemaVersion, "### "+formatText, "### "+formatJSON, "### "+formatSARIF, "### "+formatGitHub, "### "+formatCodeClimate, "### "+formatJUnit, ".gwlint.yaml")
	for _, v := range []any{jsonReport{}, jsonFinding{}, jsonRelated{}, jsonSummary{}, jsonRule{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			// `name`, or part of a path: `findings[].rule`, `findings[]`.
			if !regexp.MustCompile("[`.]" + name + "[`\\[]").MatchString(doc.Text) {
				t.Errorf("docs/gwlint.md does not document the JSON field %s.%s", typ.Name(), name)
			}
		}
	}
	doc.DocumentsCommands(t, newRootCmd(clitest.Discard()))
}

// TestDocSamples keeps the sample output in README.md and docs/ true:
// every block that shows output is marked with the command that prints it
// (or exempt, with the reason), and gwlint's are run and compared here
// (gwctl's in its own tests). See clitest.ReadSamples.
func TestDocSamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	samples := clitest.ReadSamples(t, root, clitest.DocFiles(t, root))
	clitest.CheckSampleMarks(t, samples)
	clitest.CheckSamples(t, root, samples, "gwlint", newRootCmd)
}
