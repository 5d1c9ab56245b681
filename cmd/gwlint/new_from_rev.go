package main

import (
	"fmt"
	"os"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/gittree"
	"github.com/gwlint/gwlint/lint"
)

// onlyNew drops, for --new-from-rev REV, the findings that REV already
// had, but never an invalid-manifest one: what checking the same paths
// reads is written out of REV by git (not checked out: an overlay's base
// and the --values files too), checked there with the same settings, and
// the findings are compared by lint's finding identity (rule, object,
// field path, message; not lines).
func (o *checkOptions) onlyNew(findings []lint.Finding, s *settings) ([]lint.Finding, error) {
	if o.NewFromRev == "" {
		return findings, nil
	}
	tree, err := gittree.Open(o.NewFromRev, slices.Concat(o.Paths, o.Values))
	if err != nil {
		return nil, &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	defer tree.Close()
	// An entry REV holds but cannot be written out (a name like "..") is
	// not read there, so what it holds counts as new.
	for _, r := range tree.Refused {
		fmt.Fprintf(o.IO.ErrOut, "gwlint: warning: %s: %s\n", o.NewFromRev, r)
	}
	paths, err := tree.Paths(o.Paths)
	if err != nil {
		return nil, &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	// The configuration's excludes apply to the paths as the user knows
	// them. A path REV does not hold had no findings there.
	excluded := func(p string) bool { return s.config.Excludes(tree.Rel(p)) }
	paths = slices.DeleteFunc(paths, func(p string) bool {
		_, err := os.Stat(p)
		return err != nil
	})
	inputs, walkErrs := cli.FindInputs(paths, excluded, tree.Roots(o.Roots))
	inputs.Values, inputs.EachDir = tree.Versioned(o.Values), o.EachDir
	inputs.ChartCopies = map[string]string{}
	for ref, dir := range s.config.ChartDirs() {
		inputs.ChartCopies[ref] = tree.Versioned([]string{dir})[0]
	}
	worlds := inputs.Load(nil, s.resolve)
	worlds[0].Errors = append(worlds[0].Errors, walkErrs...)
	// What REV cannot read or render had no findings there, so everything
	// it would have found counts as new: say so rather than let it pass
	// as a regression of this change.
	var unread []string
	for _, w := range worlds {
		for _, e := range w.Errors {
			unread = append(unread, cli.Escape(tree.Rel(e.File)))
		}
	}
	if len(unread) > 0 {
		slices.Sort(unread)
		fmt.Fprintf(o.IO.ErrOut, "gwlint: warning: %s: %s could not be read or rendered there (%s); its findings count as new\n",
			cli.Escape(o.NewFromRev), strings.Join(slices.Compact(slices.Clone(unread)), ", "), plural(len(unread), "error", "errors"))
	}
	found, _ := lintWorlds(worlds, s.resolve, s.config.Rules())
	had := map[string]bool{}
	for _, f := range found {
		had[f.Relabel(tree.Rel).Identity()] = true
	}
	// A file that cannot be read is an error now, whether or not REV could
	// read it: it makes the exit status 2, and the output must say why (as
	// a baseline never hides it either).
	return slices.DeleteFunc(findings, func(f lint.Finding) bool {
		return f.Rule != lint.InvalidManifest.ID && had[f.Identity()]
	}), nil
}
