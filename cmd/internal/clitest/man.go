package clitest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"sigs.k8s.io/yaml"
)

// ManDate is the date CheckManPages gives the pages, and its month as
// their header shows it.
const (
	ManDate      = "2026-01-02"
	manDateShown = "Jan 2026"
)

// CheckManPages runs the root's hidden man command twice and checks what
// it writes: a page for every command that help lists (the completion
// command included), named as `man` looks them up (root-sub-sub.1) and
// nothing else; each a man(7) page with its title, NAME and SYNOPSIS, the
// command's summary and every flag; the same bytes both times; and, when
// groff is installed, roff that groff reads without a warning. Last, the
// Homebrew cask of .goreleaser.yaml (in the repository at root) must
// install exactly these pages of the command.
func CheckManPages(t *testing.T, newRoot NewRootFunc, root string) {
	t.Helper()
	dir, again := t.TempDir(), t.TempDir()
	for _, d := range []string{dir, again} {
		if _, stderr, code := Run(newRoot, "", "man", "--date", ManDate, d); code != 0 {
			t.Fatalf("man: exit %d\n%s", code, stderr)
		}
	}
	cmd := newRoot(Discard())
	cmd.InitDefaultCompletionCmd()
	var want []string
	commands := map[string]*cobra.Command{}
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-") + ".1"
		want = append(want, name)
		commands[name] = c
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				walk(sub)
			}
		}
	}
	walk(cmd)
	slices.Sort(want)

	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if !slices.Equal(got, want) {
		t.Errorf("man pages\n%q\nwant one for every command\n%q", got, want)
	}
	groff, _ := exec.LookPath("groff")
	for _, name := range got {
		page, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if second, err := os.ReadFile(filepath.Join(again, name)); err != nil || !bytes.Equal(page, second) {
			t.Errorf("%s differs from one run to the next (%v)", name, err)
		}
		c := commands[name]
		if c == nil {
			continue
		}
		text := string(page)
		title := strings.ToUpper(strings.TrimSuffix(name, ".1"))
		for _, part := range []string{
			`.TH "` + title + `" "1" "` + manDateShown + `" "gwlint" "gwlint manual"`,
			".SH NAME\n", ".SH SYNOPSIS\n", ".SH DESCRIPTION\n", c.Short,
		} {
			if !strings.Contains(text, part) {
				t.Errorf("%s lacks %q", name, part)
			}
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if !f.Hidden && !strings.Contains(text, `\fB--`+f.Name+`\fP`) {
				t.Errorf("%s does not document --%s", name, f.Name)
			}
		})
		if groff != "" {
			// -k: the pages are UTF-8, as man's preconv reads them.
			cmd := exec.Command(groff, "-k", "-man", "-Tutf8", "-ww", "-z", filepath.Join(dir, name))
			if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
				t.Errorf("groff reading %s: %v\n%s", name, err, out)
			}
		}
	}
	shipped := slices.DeleteFunc(releaseManPages(t, root), func(p string) bool {
		return p != cmd.Name()+".1" && !strings.HasPrefix(p, cmd.Name()+"-")
	})
	if !slices.Equal(shipped, want) {
		t.Errorf(".goreleaser.yaml's cask installs the man pages\n%q\nwant\n%q", shipped, want)
	}
}

// releaseManPages returns the man pages that the Homebrew cask of
// .goreleaser.yaml (at root) installs, as base names.
func releaseManPages(t *testing.T, root string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Casks []struct {
			Manpages []string `json:"manpages"`
		} `json:"homebrew_casks"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	var pages []string
	for _, c := range cfg.Casks {
		for _, p := range c.Manpages {
			pages = append(pages, filepath.Base(p))
		}
	}
	slices.Sort(pages)
	return pages
}
