package clitest

import (
	"os"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// WalkCommands calls f for root and every command below it.
func WalkCommands(root *cobra.Command, f func(*cobra.Command)) {
	f(root)
	for _, sub := range root.Commands() {
		WalkCommands(sub, f)
	}
}

// CheckExamples checks that every command documents itself with examples.
func CheckExamples(t testing.TB, root *cobra.Command) {
	t.Helper()
	WalkCommands(root, func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
	})
}

// Doc is a command's reference documentation, read to check that it keeps
// in step with the code.
type Doc struct {
	// Name is how messages call the document.
	Name string
	Text string
}

// ReadDoc reads the document at path; messages call it name.
func ReadDoc(t testing.TB, path, name string) *Doc {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return &Doc{Name: name, Text: string(raw)}
}

// Mentions checks that the document holds every one of words.
func (d *Doc) Mentions(t testing.TB, words ...string) {
	t.Helper()
	for _, w := range words {
		if !strings.Contains(d.Text, w) {
			t.Errorf("%s does not mention %s", d.Name, w)
		}
	}
}

// DocumentsCommands checks that the document names every runnable command
// below root, as `root sub`, and every flag of every command, as --flag.
func (d *Doc) DocumentsCommands(t testing.TB, root *cobra.Command) {
	t.Helper()
	WalkCommands(root, func(c *cobra.Command) {
		if c.Runnable() && c.HasParent() && !strings.Contains(d.Text, "`"+c.CommandPath()) {
			t.Errorf("%s does not document %q", d.Name, c.CommandPath())
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if !strings.Contains(d.Text, "--"+f.Name) {
				t.Errorf("%s does not document %s --%s", d.Name, c.CommandPath(), f.Name)
			}
		})
	})
}
