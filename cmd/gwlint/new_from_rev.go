package main

import (
	"os"
	"slices"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/gittree"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// onlyNew drops, for --new-from-rev REV, the findings that REV already
// had: REV's manifests under the same paths are read from git (not checked
// out), checked with the same settings, and compared by lint's finding
// identity (rule, object, field path, message; not lines).
func (o *checkOptions) onlyNew(findings []lint.Finding, s *settings) ([]lint.Finding, error) {
	if o.NewFromRev == "" {
		return findings, nil
	}
	tree, err := gittree.Open(o.NewFromRev, o.Paths)
	if err != nil {
		return nil, &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	defer tree.Close()
	paths, err := tree.Paths(o.Paths)
	if err != nil {
		return nil, &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	// The configuration's excludes apply to the paths as the user knows
	// them. A path REV does not hold had no findings there.
	excluded := func(p string) bool { return s.config.Excludes(tree.Rel(p)) }
	var files []string
	var walkErrs []*manifest.ReadError
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil || excluded(p):
		case info.IsDir():
			found, errs := manifest.Files(p, excluded)
			files, walkErrs = append(files, found...), append(walkErrs, errs...)
		default:
			files = append(files, p)
		}
	}
	in := resolve.Load(files, nil, s.resolve)
	in.Errors = append(in.Errors, walkErrs...)
	g := resolve.Resolve(in, s.resolve)
	rules := s.config.Rules()
	kept, _ := lint.Suppress(g, lint.Run(g, rules), rules)
	had := map[string]bool{}
	for _, f := range append(kept, lint.InvalidManifests(in.Errors)...) {
		had[f.Relabel(tree.Rel).Identity()] = true
	}
	return slices.DeleteFunc(findings, func(f lint.Finding) bool { return had[f.Identity()] }), nil
}
