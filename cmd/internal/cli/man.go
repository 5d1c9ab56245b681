//go:build manpages || gwlintdev

package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// manOptions are the options of the hidden man command.
type manOptions struct {
	// Dir is where the pages are written.
	Dir string
	// Date is the date in the pages' headers: --date, else the build date.
	Date string
}

// newManCmd is the hidden `man DIR` command, which writes a man page for
// every command (cobra/doc renders their help, through go-md2man, as
// roff): the root's NAME.1 and NAME-COMMAND.1 for each command below it,
// those that help lists. Release archives ship them (hack/manpages.sh); it
// is hidden because only packagers need it, and built only with the
// manpages tag (and gwlintdev, for its tests): cobra/doc's markdown reader,
// blackfriday, costs every run 0.4 ms of package initialisation, a tenth
// of a one-file check's startup.
//
// The pages are dated with the build date, or --date, never the clock, so
// that the same commit gives the same pages.
func newManCmd(name string, info BuildInfo) *cobra.Command {
	opts := &manOptions{}
	cmd := &cobra.Command{
		Use:   "man DIR",
		Short: "Write a man page for every command into DIR",
		Long: `Write a man page for every command into DIR (created if need be): ` + name + `.1,
and ` + name + `-COMMAND.1 for each command. The pages are dated with the build
date of the binary, or --date.`,
		Example: "  " + name + " man --date 2026-01-02 man/man1",
		Hidden:  true,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.Dir = args[0]
			if opts.Date == "" {
				opts.Date = info.Date
			}
			return runMan(cmd.Root(), opts)
		},
	}
	cmd.Flags().StringVar(&opts.Date, "date", "", "date for the pages' headers, YYYY-MM-DD or RFC 3339 (default: the build date)")
	return cmd
}

func runMan(root *cobra.Command, opts *manOptions) error {
	date, err := parseManDate(opts.Date)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(opts.Dir, 0o755); err != nil {
		return Errorf(ExitUsage, "%w", err)
	}
	// No "Auto generated" history section: the pages are the commands'
	// documentation, not a build artefact.
	root.DisableAutoGenTag = true
	header := &doc.GenManHeader{Section: "1", Date: &date, Source: "gwlint", Manual: "gwlint manual"}
	if err := writeManPages(root, header, opts.Dir); err != nil {
		return Errorf(ExitUsage, "writing the man pages: %w", err)
	}
	return nil
}

// writeManPages writes the pages of cmd and the commands below it that
// help lists into dir, named as cobra/doc.GenManTree names them, but each
// with ReplaceFile: a page is never written through a link already there.
func writeManPages(cmd *cobra.Command, header *doc.GenManHeader, dir string) error {
	for _, c := range cmd.Commands() {
		if !c.IsAvailableCommand() || c.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := writeManPages(c, header, dir); err != nil {
			return err
		}
	}
	h := *header // GenMan fills in each page's title
	var page bytes.Buffer
	if err := doc.GenMan(cmd, &h, &page); err != nil {
		return err
	}
	name := strings.ReplaceAll(cmd.CommandPath(), " ", "-") + "." + header.Section
	return ReplaceFile(filepath.Join(dir, name), page.Bytes(), 0o644)
}

// parseManDate reads --date (or the build date): a day, or a time as the
// build information gives it.
func parseManDate(s string) (time.Time, error) {
	if s == "" || s == "unknown" {
		return time.Time{}, fmt.Errorf("the build date of this binary is unknown: give the pages' date with --date YYYY-MM-DD")
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("invalid value %q for --date: want YYYY-MM-DD or an RFC 3339 time", s)
	}
	return t.UTC(), nil
}
