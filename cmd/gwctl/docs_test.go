package main

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestDocs keeps docs/gwctl.md in step with the code: every command, every
// flag and every schema kind must be documented there.
func TestDocs(t *testing.T) {
	raw, err := os.ReadFile("../../docs/gwctl.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(raw)
	for _, want := range []string{viewAPIVersion, "RouteExplanation", "GatewayExplanation", "ServiceExplanation"} {
		if !strings.Contains(doc, want) {
			t.Errorf("docs/gwctl.md does not mention %s", want)
		}
	}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && c.HasParent() && !strings.Contains(doc, "`"+c.CommandPath()) {
			t.Errorf("docs/gwctl.md does not document %q", c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(doc, "--"+f.Name) {
				t.Errorf("docs/gwctl.md does not document %s --%s", c.CommandPath(), f.Name)
			}
		})
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(discardStreams()))
}
