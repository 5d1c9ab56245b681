package main

import (
	"os"
	"reflect"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestDocs keeps docs/gwlint.md in step with the code: every command, every
// flag, every output format and every JSON field must be documented there.
func TestDocs(t *testing.T) {
	raw, err := os.ReadFile("../../docs/gwlint.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, want := range []string{schemaVersion, "### " + formatText, "### " + formatJSON, "### " + formatSARIF, "### " + formatGitHub, ".gwlint.yaml"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/gwlint.md does not mention %s", want)
		}
	}
	for _, v := range []any{jsonReport{}, jsonFinding{}, jsonRelated{}, jsonSummary{}, jsonRule{}} {
		typ := reflect.TypeOf(v)
		for i := range typ.NumField() {
			name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
			// `name`, or part of a path: `findings[].rule`, `findings[]`.
			if !regexp.MustCompile("[`.]" + name + "[`\\[]").MatchString(doc) {
				t.Errorf("docs/gwlint.md does not document the JSON field %s.%s", typ.Name(), name)
			}
		}
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c.HasParent() && !strings.Contains(doc, "`"+c.CommandPath()) {
			t.Errorf("docs/gwlint.md does not document %q", c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(doc, "--"+f.Name) {
				t.Errorf("docs/gwlint.md does not document %s --%s", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(discardStreams()))
}
