package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/gittree"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

const formatMarkdown = "markdown"

type diffOptions struct {
	IO *cli.IOStreams
	inputOptions
	Output   string
	Color    string
	ExitCode bool
	// Old and New are directories, files or git revisions.
	Old, New string

	filenamesSet bool
}

func newDiffCmd(streams *cli.IOStreams, runF func(*diffOptions) error) *cobra.Command {
	opts := &diffOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "diff OLD NEW",
		Short: "Show what changes in effect between two trees or revisions",
		Long: `Resolve two versions of the manifests and report what changes in effect:
attachments gained or lost (route parentRef × listener, or mesh Service
port), status conditions whose status or reason changes, backends whose
traffic share changes or that start or stop failing (a share that becomes
HTTP 500), and lint findings that are new or fixed.

OLD and NEW are each a directory, a file, or — when no such path exists — a
git revision of the repository the command runs in, read from git without
checking it out. -f selects the manifests within each side (default: all of
it): relative to a directory given as OLD or NEW, and relative to the
working directory in a revision. A -f path one side does not hold is empty
there (the manifests were added or removed); one neither holds is an error.

Findings are the same when rule, object, field path and message are, so
lines that merely moved are no change.`,
		Example: `  gwctl diff old/ new/
  gwctl diff main HEAD -f manifests/
  gwctl diff origin/main HEAD -f deploy/ -o markdown --exit-code > comment.md`,
		Args: cobra.ExactArgs(2),
		RunE: cli.RunE(opts, opts.complete, runF, runDiff),
	}
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Output, "output", "o", formatText, "output format: text, json or markdown")
	cli.AddColorFlag(cmd.Flags(), &opts.Color)
	cmd.Flags().BoolVar(&opts.ExitCode, "exit-code", false, "exit 1 when something changed")
	return cmd
}

func (o *diffOptions) complete(cmd *cobra.Command, args []string) error {
	o.Old, o.New = args[0], args[1]
	o.filenamesSet = cmd.Flags().Changed("filename")
	if err := cli.OneOf("output", o.Output, formatText, formatJSON, formatMarkdown); err != nil {
		return err
	}
	if err := o.inputOptions.complete(cmd.Flags()); err != nil {
		return err
	}
	return cli.CheckColor(o.Color)
}

// diffSide is OLD or NEW: the files to read and how to show their names.
type diffSide struct {
	arg   string
	files []string
	// rel shows a file read as the user knows it: relative to the
	// directory given, or to the working directory in a revision.
	rel func(string) string
	// values are the Helm values files: a revision's own version of
	// those the repository holds.
	values []string
	tree   *gittree.Tree
}

func (s *diffSide) close() {
	if s.tree != nil {
		_ = s.tree.Close()
	}
}

// openSide decides what arg is: an existing path, else a git revision.
func (o *diffOptions) openSide(arg string) (*diffSide, error) {
	s := &diffSide{arg: arg, rel: func(f string) string { return f }, values: o.Values}
	info, err := os.Stat(arg)
	switch {
	case err == nil && !info.IsDir():
		if o.filenamesSet {
			return nil, fmt.Errorf("-f selects manifests within a directory or revision; %s is a file", arg)
		}
		s.files = []string{arg}
	case err == nil:
		for _, f := range o.Filenames {
			if f == "-" || filepath.IsAbs(f) {
				return nil, fmt.Errorf("-f %s: with a directory, -f takes paths relative to it", f)
			}
			s.files = append(s.files, filepath.Join(arg, f))
		}
		s.rel = func(f string) string {
			if r, err := filepath.Rel(arg, f); err == nil && !strings.HasPrefix(r, "..") {
				return r
			}
			return f
		}
	case !gittree.IsRevision(arg):
		return nil, gittree.NotFound(arg, "a file, a directory")
	default:
		if s.tree, err = gittree.Open(arg, slices.Concat(o.Filenames, o.Values)); err != nil {
			return nil, err
		}
		// An entry the revision holds but that cannot be written out
		// (a name like "..") is not read there.
		for _, r := range s.tree.Refused {
			fmt.Fprintf(o.IO.ErrOut, "%s: warning: %s\n", arg, r)
		}
		if s.files, err = s.tree.Paths(o.Filenames); err != nil {
			s.close()
			return nil, err
		}
		s.rel = s.tree.Rel
		s.values = s.tree.Versioned(o.Values)
	}
	return s, nil
}

func runDiff(opts *diffOptions) error {
	oldS, err := opts.openSide(opts.Old)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	defer oldS.close()
	newS, err := opts.openSide(opts.New)
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	defer newS.close()
	// A path one side does not hold is empty there: the change adds or
	// removes it. One that neither side holds is a mistake.
	if err := dropAbsent(opts.Filenames, oldS, newS); err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	oldIn, oldFailed := opts.loadSide(oldS)
	newIn, newFailed := opts.loadSide(newS)
	v := computeDiff(oldIn, newIn, opts.Old, opts.New)

	if err := opts.writeDiff(v); err != nil {
		return outputError(err)
	}
	var result error
	if v.Changed && opts.ExitCode {
		result = &cli.ExitError{Code: exitFailure}
	}
	return withInputErrors(result, oldFailed || newFailed)
}

// dropAbsent leaves out of each side the -f paths it does not hold, and
// fails for a path neither holds. A side given as a file has no -f paths.
func dropAbsent(filenames []string, sides ...*diffSide) error {
	held := func(s *diffSide, i int) bool {
		if len(s.files) != len(filenames) {
			return true
		}
		_, err := os.Stat(s.files[i])
		return err == nil
	}
	for i, f := range filenames {
		if !slices.ContainsFunc(sides, func(s *diffSide) bool { return held(s, i) }) {
			return fmt.Errorf("-f %s: not found in %s nor in %s", f, sides[0].arg, sides[1].arg)
		}
	}
	for _, s := range sides {
		if len(s.files) == len(filenames) {
			s.files = slices.DeleteFunc(slices.Clone(s.files), func(f string) bool {
				_, err := os.Stat(f)
				return err != nil
			})
		}
	}
	return nil
}

// loadSide reads, resolves and lints one side. Read errors go to stderr,
// named as the user knows the files and prefixed by the side.
func (o *diffOptions) loadSide(s *diffSide) (*diffInput, bool) {
	ropts := o.resolveOptions()
	ropts.Validate = true // as gwlint check does: its findings are the ones diffed
	// Nothing is excluded: the sides are what the user named.
	roots := o.Roots
	if s.tree != nil {
		roots = s.tree.Roots(o.Roots)
	}
	inputs, walkErrs := cli.FindInputs(s.files, func(string) bool { return false }, roots)
	inputs.Values = s.values
	in := inputs.LoadOne(nil, ropts)
	in.Errors = append(in.Errors, walkErrs...)
	errs := slices.Clone(in.Errors)
	for i, e := range errs {
		c := *e
		c.File = s.rel(e.File)
		errs[i] = &c
	}
	slices.SortStableFunc(errs, func(a, b *manifest.ReadError) int { return strings.Compare(a.Error(), b.Error()) })
	for _, e := range errs {
		stderrLine(o.IO, "%s: %s", s.arg, e)
	}
	g := resolve.Resolve(in, ropts)
	// The rules gwlint check runs without a configuration file: every
	// rule, and the pseudo-rules about ignore directives.
	rules := (&lint.Config{}).Rules()
	kept, _ := lint.Suppress(g, lint.Run(g, rules), rules)
	findings := append(kept, lint.InvalidManifests(in.Errors)...)
	for i := range findings {
		findings[i] = findings[i].Relabel(s.rel)
	}
	return &diffInput{graph: g, findings: lint.Sort(findings)}, len(in.Errors) > 0
}

var errNoFormat = errors.New("unknown output format")

func (o *diffOptions) writeDiff(v *diffView) error {
	switch o.Output {
	case formatJSON:
		return writeMachine(o.IO.Out, formatJSON, v)
	case formatMarkdown:
		return writeDiffMarkdown(o.IO.Out, v)
	case formatText:
		p := &printer{w: o.IO.Out, pal: newPalette(cli.ColorEnabled(o.Color, o.IO))}
		writeDiffText(p, escapedView(v))
		return p.err
	}
	return errNoFormat
}
