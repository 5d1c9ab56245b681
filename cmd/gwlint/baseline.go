package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve/manifest"
)

func newBaselineCmd(streams *cli.IOStreams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "baseline FILE [PATH ...|-]",
		Short: "Write the current findings to a baseline file",
		Long: `Baseline checks the given paths as gwlint check does, with the same
configuration and flags, and writes every finding to FILE (- for stdout), so
that "gwlint check --baseline FILE" reports only findings that are new.

Entries are keyed by object, rule id, field path and message, never by line,
so they survive edits that move lines. The file is JSON, sorted, and meant to
be committed; write it again to accept the current findings, or after fixing
some, to drop their entries.

A manifest that cannot be read is never accepted: baseline writes nothing
and exits 2.`,
		Example: `  gwlint baseline .gwlint-baseline.json
  gwlint baseline .gwlint-baseline.json deploy/ --implementation istio
  gwlint check --baseline .gwlint-baseline.json deploy/`,
		Args: cobra.MinimumNArgs(1),
		RunE: cli.RunE(opts, func(cmd *cobra.Command, args []string) error {
			opts.Baseline = args[0]
			return opts.completeInputs(cmd, args[1:])
		}, runF, runBaseline),
	}
	opts.addInputFlags(cmd)
	return cmd
}

// baselineDir is the directory a baseline file's paths are relative to.
func baselineDir(file string) string {
	if file == "-" {
		return "."
	}
	return filepath.Dir(file)
}

func runBaseline(opts *checkOptions) error {
	l, err := opts.lintInputs()
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	if len(l.in.Errors) > 0 {
		for _, f := range l.findings {
			if f.Rule == lint.InvalidManifest.ID {
				fmt.Fprintf(opts.IO.ErrOut, "%s: %s\n", location(f.Position), cli.Escape(f.Message))
			}
		}
		return cli.Errorf(cli.ExitUsage, "not writing %s: %d input errors; fix or exclude those files first", opts.Baseline, len(l.in.Errors))
	}
	b, err := lint.NewBaseline(l.findings, baselineDir(opts.Baseline))
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		return outputError(err)
	}
	if opts.Baseline == "-" {
		_, err = opts.IO.Out.Write(buf.Bytes())
	} else {
		// Never through a link the repository may have planted as FILE.
		err = cli.ReplaceFile(opts.Baseline, buf.Bytes(), 0o644)
	}
	if err != nil {
		return outputError(err)
	}
	fmt.Fprintf(opts.IO.ErrOut, "gwlint: wrote %d findings to %s\n", b.Len(), cli.Escape(opts.Baseline))
	return nil
}

// applyBaseline leaves out the findings the baseline file holds, and says
// on stderr how many, and how many of its entries matched nothing: those
// are not findings (they have no place in the inputs, and a fix must not
// fail a build), only a hint to write the baseline again.
func applyBaseline(opts *checkOptions, findings []lint.Finding) ([]lint.Finding, error) {
	// The baseline is in the repository: a link out of it is not read.
	if err := manifest.BoundaryFor(opts.Baseline).Check(opts.Baseline); err != nil {
		return nil, fmt.Errorf("reading the baseline: %s: %w", opts.Baseline, err)
	}
	data, err := os.ReadFile(opts.Baseline)
	if err != nil {
		return nil, fmt.Errorf("reading the baseline: %w", err)
	}
	b, err := lint.ParseBaseline(data, opts.Baseline)
	if err != nil {
		return nil, err
	}
	fresh, stale, err := b.Filter(findings, baselineDir(opts.Baseline))
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(opts.IO.ErrOut, "gwlint: %d findings in the baseline %s not shown\n", len(findings)-len(fresh), cli.Escape(opts.Baseline))
	if len(stale) > 0 {
		fmt.Fprintf(opts.IO.ErrOut, "gwlint: %d baseline entries match no finding (fixed?); `gwlint baseline %s` drops them:\n", len(stale), cli.Escape(opts.Baseline))
		for _, e := range stale {
			fmt.Fprintf(opts.IO.ErrOut, "  %s\n", describeEntry(e))
		}
	}
	return slices.Clip(fresh), nil
}

// describeEntry renders a baseline entry, escaped: a pull request can
// write the baseline file.
func describeEntry(e lint.BaselineEntry) string {
	where := e.Object
	if where == "" {
		where = e.File
	}
	if e.Path != "" {
		where += " " + e.Path
	}
	return cli.Escape(fmt.Sprintf("%s: %s [%s]", where, e.Message, e.Rule))
}
