package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

type checkOptions struct {
	IO *cli.IOStreams
	// Paths are files, directories, or - for stdin.
	Paths      []string
	Namespace  string
	StrictRefs bool
	Channel    string
	FailOn     string
	Output     string
	Color      string
	Quiet      bool
	ConfigFile string
	NoConfig   bool

	// Which of the flags that the configuration file can also set were
	// given: those override it.
	namespaceSet, strictRefsSet, channelSet, failOnSet bool
}

// Output formats.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
)

func newCheckCmd(streams *cli.IOStreams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "check [PATH ...|-]",
		Short: "Check manifests and report findings",
		Long: `Check reads the given files and directories (recursively: .yaml, .yml and
.json files, skipping hidden ones; - reads stdin; default: the current
directory), resolves them as a conformant controller would, and reports every
finding of the rules in effect.

Configuration comes from .gwlint.yaml, looked for in the current directory and
its parents up to the top of the repository (a directory holding .git), or
from --config; flags override it. A finding is suppressed by a
"# gwlint:ignore rule-id reason" comment on its line or the line above, or by
a gwlint.io/ignore annotation on its object.

Exit status: 0 when no finding is at or above --fail-on; 1 when one is; 2 for
usage and configuration errors, and when a manifest could not be read (it is
reported as an invalid-manifest finding, and the rest is still checked).`,
		Example: `  gwlint check
  gwlint check deploy/ --fail-on warning
  gwlint check -o json deploy/ | jq '.findings[] | select(.severity == "error")'
  gwlint check -o sarif . > gwlint.sarif
  kustomize build overlays/prod | gwlint check -`,
		RunE: cli.RunE(opts, opts.complete, runF, runCheck),
	}
	f := cmd.Flags()
	f.StringVarP(&opts.Namespace, "namespace", "n", "",
		`namespace for objects that name none (default "default"; overrides the configuration's namespace)`)
	cli.AddStrictRefsFlag(f, &opts.StrictRefs)
	f.StringVar(&opts.Channel, "channel", "standard",
		"Gateway API release channel whose CRDs the cluster runs: standard or experimental (overrides the configuration's channel)")
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding has this severity or a higher one: error, warning or info")
	f.StringVarP(&opts.Output, "output", "o", formatText, "output format: text, json, sarif or github")
	cli.AddColorFlag(f, &opts.Color)
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "leave out info findings")
	f.StringVar(&opts.ConfigFile, "config", "", "configuration file to use instead of looking for "+lint.ConfigFileName)
	f.BoolVar(&opts.NoConfig, "no-config", false, "use no configuration file")
	cmd.MarkFlagsMutuallyExclusive("config", "no-config")
	return cmd
}

// complete takes the paths and which flags were given, and checks the flag
// values.
func (o *checkOptions) complete(cmd *cobra.Command, args []string) error {
	o.Paths = args
	if len(o.Paths) == 0 {
		o.Paths = []string{"."}
	}
	if err := cli.CheckPaths(o.Paths); err != nil {
		return err
	}
	flags := cmd.Flags()
	o.namespaceSet = flags.Changed("namespace")
	o.strictRefsSet = flags.Changed("strict-refs")
	o.channelSet = flags.Changed("channel")
	if _, err := lint.ParseChannel(o.Channel); err != nil {
		return err
	}
	o.failOnSet = flags.Changed("fail-on")
	if err := cli.OneOf("output", o.Output, formatText, formatJSON, formatSARIF, formatGitHub); err != nil {
		return err
	}
	if err := cli.CheckColor(o.Color); err != nil {
		return err
	}
	return cli.OneOf("fail-on", o.FailOn, "error", "warning", "info")
}

// settings are the configuration and flags combined.
type settings struct {
	config  *lint.Config
	resolve resolve.Options
	failOn  lint.Severity
}

// settings loads the configuration file and lets the flags that were given
// override it.
func (o *checkOptions) settings() (*settings, error) {
	var cfg *lint.Config
	var err error
	switch {
	case o.NoConfig:
		cfg = &lint.Config{}
	case o.ConfigFile != "":
		cfg, err = lint.LoadConfig(o.ConfigFile)
	default:
		var wd, found string
		if wd, err = os.Getwd(); err == nil {
			found, err = lint.FindConfig(wd)
		}
		switch {
		case err != nil:
			err = fmt.Errorf("looking for %s: %w", lint.ConfigFileName, err)
		case found == "":
			cfg = &lint.Config{}
		default:
			// Shown relative to where gwlint runs, like the inputs.
			if rel, relErr := filepath.Rel(wd, found); relErr == nil {
				found = rel
			}
			cfg, err = lint.LoadConfig(found)
		}
	}
	if err != nil {
		return nil, err
	}

	s := &settings{config: cfg, failOn: lint.Error}
	// Every check the API server makes, against the CRDs of the channel.
	s.resolve.Validate = true
	channel := o.Channel
	if cfg.Channel != "" && !o.channelSet {
		channel = cfg.Channel
	}
	s.resolve.Channel, _ = lint.ParseChannel(channel) // checked with the flags and config
	s.resolve.DefaultNamespace = cfg.Namespace
	if o.namespaceSet {
		s.resolve.DefaultNamespace = o.Namespace
	}
	if cfg.StrictRefs != nil {
		s.resolve.StrictRefs = *cfg.StrictRefs
	}
	if o.strictRefsSet {
		s.resolve.StrictRefs = o.StrictRefs
	}
	if cfg.FailOn != nil {
		s.failOn = *cfg.FailOn
	}
	if o.failOnSet {
		s.failOn, _ = lint.ParseSeverity(o.FailOn) // checked with the flags
	}
	return s, nil
}

func runCheck(opts *checkOptions) error {
	s, err := opts.settings()
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	files, walkErrs := inputFiles(opts.Paths, s.config)
	loaded := gcpolicy.Set(files)
	in := resolve.Load(files, opts.IO.In, s.resolve)
	in.Errors = append(in.Errors, walkErrs...)
	loaded()
	g := resolve.Resolve(in, s.resolve)
	rules := s.config.Rules()
	kept, suppressed := lint.Suppress(g, lint.Run(g, rules), rules)
	findings := lint.Sort(append(kept, lint.InvalidManifests(in.Errors)...))

	if opts.Quiet {
		findings = slices.DeleteFunc(findings, func(f lint.Finding) bool { return f.Severity == lint.Info })
		suppressed = slices.DeleteFunc(suppressed, func(f lint.Suppressed) bool { return f.Severity == lint.Info })
	}
	sum := summary{Files: len(files), Objects: len(in.Objects), Suppressed: len(suppressed), Quiet: opts.Quiet}
	failed := false
	for _, f := range findings {
		sum.count(f.Severity)
		failed = failed || f.Severity >= s.failOn
	}

	out := newFormatter(opts, append(rules, lint.InvalidManifest))
	for _, r := range merge(findings, suppressed) {
		if err := out.Write(r); err != nil {
			return outputError(err)
		}
	}
	if err := out.Flush(sum); err != nil {
		return outputError(err)
	}
	switch {
	case len(in.Errors) > 0:
		return &cli.ExitError{Code: cli.ExitUsage} // reported as invalid-manifest findings
	case failed:
		return &cli.ExitError{Code: exitFindings}
	}
	return nil
}

func newFormatter(opts *checkOptions, rules []*lint.Rule) formatter {
	w := opts.IO.Out
	switch opts.Output {
	case formatJSON:
		return &jsonOutput{w: w}
	case formatSARIF:
		return newSARIFOutput(w, rules)
	case formatGitHub:
		return &githubOutput{w: w}
	}
	return &textOutput{w: w, pal: newPalette(cli.ColorEnabled(opts.Color, opts.IO))}
}

// merge interleaves the reported and the suppressed findings in the order
// of lint.Sort; only SARIF shows the suppressed ones.
func merge(findings []lint.Finding, suppressed []lint.Suppressed) []result {
	out := make([]result, 0, len(findings)+len(suppressed))
	for _, f := range findings {
		out = append(out, result{Finding: f})
	}
	for _, s := range suppressed {
		out = append(out, result{Finding: s.Finding, Suppression: &s.By})
	}
	slices.SortStableFunc(out, func(a, b result) int { return lint.Compare(a.Finding, b.Finding) })
	return out
}

// inputFiles expands the arguments into the files to read, in the order
// resolve.Load would read them: a directory becomes the manifest files
// under it (.yaml, .yml, .json, skipping hidden files and directories),
// sorted by path. Paths the configuration excludes are left out, whether
// named or found, and a file named twice is read once. Paths that cannot be
// read are kept, for resolve.Load to report; what a directory walk cannot
// walk is returned as errors.
func inputFiles(args []string, cfg *lint.Config) ([]string, []*manifest.ReadError) {
	var out []string
	var errs []*manifest.ReadError
	seen := map[string]bool{}
	add := func(p string) {
		key := p
		if p != "-" {
			key = filepath.Clean(p)
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		if arg == "-" {
			add(arg)
			continue
		}
		if cfg.Excludes(arg) {
			continue
		}
		info, err := os.Stat(arg)
		if err != nil || !info.IsDir() {
			add(arg)
			continue
		}
		found, walkErrs := manifest.Files(arg, cfg.Excludes)
		for _, f := range found {
			add(f)
		}
		errs = append(errs, walkErrs...)
	}
	return out, errs
}
