package main

import (
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

// TestDocSamples keeps the sample output in docs/gwlint.md true: every
// finding line of the text and GitHub samples (file:line:col or ::command)
// is a line that gwlint check prints on the bundled repository, as its
// goldens record.
func TestDocSamples(t *testing.T) {
	doc := clitest.ReadDoc(t, "../../docs/gwlint.md", "docs/gwlint.md")
	for _, tc := range []struct {
		golden string
		sample *regexp.Regexp
	}{
		{"testdata/golden/check-text.golden", regexp.MustCompile(`(?m)^(?:apps|platform)/\S+:\d+:\d+: .*$`)},
		{"testdata/golden/check-github.golden", regexp.MustCompile(`(?m)^::\w+ file=.*$`)},
	} {
		golden := clitest.ReadDoc(t, tc.golden, tc.golden)
		lines := tc.sample.FindAllString(doc.Text, -1)
		if len(lines) == 0 {
			t.Errorf("docs/gwlint.md has no sample lines for %s", tc.golden)
		}
		for _, line := range lines {
			if !strings.Contains(golden.Text, line+"\n") {
				t.Errorf("docs/gwlint.md sample is not in %s:\n%s", tc.golden, line)
			}
		}
	}
}
