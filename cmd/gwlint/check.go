package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
)

type checkOptions struct {
	IO *cli.IOStreams
	// Paths are files, directories, or - for stdin.
	Paths      []string
	Namespace  string
	StrictRefs bool
	Channel    string
	// GatewayAPIVersion is --gateway-api-version.
	GatewayAPIVersion string
	FailOn            string
	Output            string
	Color             string
	Quiet             bool
	Config            cli.ConfigFlags
	// Baseline is the baseline file whose findings are not reported.
	Baseline string
	// ShowConfig prints the effective configuration instead of checking.
	ShowConfig bool
	NewFromRev string // report only findings this git revision did not have
	// Implementation selects the profile Gateways are judged by.
	Implementation cli.Implementation
	// Values are the Helm values files rendered over every chart's
	// defaults.
	Values []string
	Roots  []string // --root
	// EachDir judges each directory's manifests on their own.
	EachDir bool

	// Which of the flags that the configuration file can also set were
	// given: those override it.
	namespaceSet, strictRefsSet, channelSet, releaseSet, failOnSet, implementationSet, withoutFeaturesSet bool
}

// Output formats.
const (
	formatText   = "text"
	formatJSON   = "json"
	formatSARIF  = "sarif"
	formatGitHub = "github"
	// formatCodeClimate and formatJUnit: output_codeclimate.go, output_junit.go.
	formatCodeClimate = "codeclimate"
	formatJUnit       = "junit"
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

A directory holding a kustomization is built as kustomize build would,
offline; each kustomization that no other one among the inputs includes is
judged on its own (a base through its overlays). A Helm chart directory
(Chart.yaml) is rendered as helm template would, with its default values and
each --values FILE over them. Findings point at the source files' lines.

Configuration comes from .gwlint.yaml, looked for from each PATH (stdin: the
current directory) upward to the top of the repository (a directory holding
.git), or from --config; flags override it. Paths that find different
configuration files are an error. A finding is suppressed by a
"# gwlint:ignore rule-id reason" comment on its line or the line above, or by
a gwlint.io/ignore annotation on its object.

Exit status: 0 when no finding is at or above --fail-on; 1 when one is; 2 for
usage and configuration errors, and when a manifest could not be read (it is
reported as an invalid-manifest finding, and the rest is still checked).`,
		Example: `  gwlint check
  gwlint check deploy/ --fail-on warning
  gwlint check deploy/ --new-from-rev origin/main
  gwlint check -o json deploy/ | jq '.findings[] | select(.severity == "error")'
  gwlint check -o sarif . > gwlint.sarif
  gwlint check -o codeclimate . > gl-code-quality-report.json
  gwlint check -o junit --fail-on warning . > gwlint-junit.xml
  gwlint check overlays/prod
  gwlint check charts/store --values prod-values.yaml
  kustomize build overlays/prod | gwlint check -`,
		RunE: cli.RunE(opts, opts.complete, runF, runCheck),
	}
	f := cmd.Flags()
	opts.addInputFlags(cmd)
	f.StringVar(&opts.FailOn, "fail-on", "error", "exit 1 when a finding has this severity or a higher one: error, warning or info")
	f.StringVarP(&opts.Output, "output", "o", formatText, "output format: text, json, sarif, github, codeclimate (GitLab Code Quality) or junit")
	cli.AddColorFlag(f, &opts.Color)
	f.BoolVarP(&opts.Quiet, "quiet", "q", false, "leave out info findings")
	f.BoolVar(&opts.ShowConfig, "show-config", false, "print the configuration in effect, every key with its value and source (default, the file, or a flag), and exit: -o text or json")
	f.StringVar(&opts.Baseline, "baseline", "", "report only findings that the baseline FILE (written by gwlint baseline) does not hold")
	f.StringVar(&opts.NewFromRev, "new-from-rev", "", "report only findings that this git revision did not have")
	return cmd
}

// addInputFlags adds the flags that say what to read and how to resolve
// it, which check and baseline share.
func (o *checkOptions) addInputFlags(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVarP(&o.Namespace, "namespace", "n", "",
		`namespace for objects that name none (default "default"; overrides the configuration's namespace)`)
	cli.AddStrictRefsFlag(f, &o.StrictRefs)
	cli.AddImplementationFlags(f, &o.Implementation)
	f.StringVar(&o.Channel, "channel", "standard",
		"Gateway API release channel whose CRDs the cluster runs: standard or experimental (default: the channel of the Gateway API CRDs among the inputs, else standard; overrides the configuration's channel)")
	cli.AddGatewayAPIVersionFlag(f, &o.GatewayAPIVersion)
	cli.AddValuesFlag(f, &o.Values)
	cli.AddRootFlag(f, &o.Roots)
	cli.AddEachDirFlag(f, &o.EachDir)
	cli.AddConfigFlags(f, &o.Config)
	cmd.MarkFlagsMutuallyExclusive("config", "no-config")
}

// complete takes the paths and which flags were given, and checks the flag
// values.
func (o *checkOptions) complete(cmd *cobra.Command, args []string) error {
	if err := o.completeInputs(cmd, args); err != nil {
		return err
	}
	o.failOnSet = cmd.Flags().Changed("fail-on")
	if err := cli.OneOf("output", o.Output, formatText, formatJSON, formatSARIF, formatGitHub, formatCodeClimate, formatJUnit); err != nil {
		return err
	}
	if o.ShowConfig {
		if err := cli.OneOf("output", o.Output, formatText, formatJSON); err != nil {
			return fmt.Errorf("--show-config: %w", err)
		}
	}
	if err := cli.CheckColor(o.Color); err != nil {
		return err
	}
	return cli.OneOf("fail-on", o.FailOn, "error", "warning", "info")
}

// completeInputs takes the paths and which input flags were given, and
// checks their values.
func (o *checkOptions) completeInputs(cmd *cobra.Command, args []string) error {
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
	if _, err := crd.ParseChannel(o.Channel); err != nil {
		return err
	}
	o.releaseSet = flags.Changed("gateway-api-version")
	if _, err := cli.Release(o.GatewayAPIVersion); err != nil {
		return err
	}
	o.implementationSet = flags.Changed("implementation")
	o.withoutFeaturesSet = flags.Changed("without-features")
	_, _, err := o.Implementation.Profile()
	return err
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
	cfg, err := o.Config.LoadConfig(o.Paths)
	if err != nil {
		return nil, err
	}

	s := &settings{config: cfg, failOn: lint.Error}
	// Every check the API server makes, against the CRDs of the channel.
	s.resolve.Validate = true
	s.resolve.Implementations = implementations.All()
	channel := o.Channel
	if cfg.Channel != "" && !o.channelSet {
		channel = cfg.Channel
	}
	s.resolve.Channel, _ = crd.ParseChannel(channel) // checked with the flags and config
	s.resolve.ChannelAssumed = cfg.Channel == "" && !o.channelSet
	release := o.GatewayAPIVersion
	if cfg.GatewayAPIVersion != "" && !o.releaseSet {
		release = cfg.GatewayAPIVersion
	}
	s.resolve.Release, _ = cli.Release(release) // checked with the flags and config
	s.resolve.ReleaseAssumed = cfg.GatewayAPIVersion == "" && !o.releaseSet
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
	s.resolve.OwnedNamespaces = cfg.OwnedNamespaces
	impl := cli.Implementation{Name: cfg.Implementation, WithoutFeatures: cfg.WithoutFeatures}
	if o.implementationSet {
		impl.Name = o.Implementation.Name
	}
	if o.withoutFeaturesSet {
		impl.WithoutFeatures = o.Implementation.WithoutFeatures
	}
	// Checked with the flags and the configuration.
	s.resolve.Implementation, s.resolve.WithoutFeatures, _ = impl.Profile()
	if cfg.FailOn != nil {
		s.failOn = *cfg.FailOn
	}
	if o.failOnSet {
		s.failOn, _ = lint.ParseSeverity(o.FailOn) // checked with the flags
	}
	return s, nil
}

// linted is what a run over the inputs found.
type linted struct {
	settings   *settings
	files      []string        // the files, kustomizations and charts read
	in         *resolve.Inputs // every world's inputs
	rules      []*lint.Rule
	findings   []lint.Finding // sorted
	suppressed []lint.Suppressed
	gatewayAPI []gatewayAPI // what chose the CRDs, unless the defaults did
}

// lintInputs loads the configuration, reads, resolves and lints the
// inputs. Its error is a configuration error.
func (o *checkOptions) lintInputs() (*linted, error) {
	s, err := o.settings()
	if err != nil {
		return nil, err
	}
	inputs, walkErrs := o.findInputs(s)
	loaded := gcpolicy.Set(inputs.Files)
	worlds := inputs.Load(o.IO.In, s.resolve)
	worlds[0].Errors = append(worlds[0].Errors, walkErrs...)
	loaded()
	rules := s.config.Rules()
	findings, suppressed := lintWorlds(worlds, s.resolve, rules)
	all := &resolve.Inputs{Skipped: map[string]int{}}
	for _, w := range worlds {
		all.Merge(w)
	}
	return &linted{settings: s, files: inputs.Paths(), in: all, rules: rules, findings: findings, suppressed: suppressed,
		gatewayAPI: o.gatewayAPI(s, worlds)}, nil
}

// findInputs finds what the paths name, as the configuration and flags
// say, and what cannot be walked.
func (o *checkOptions) findInputs(s *settings) (cli.Inputs, []*manifest.ReadError) {
	inputs, walkErrs := cli.FindInputs(o.Paths, s.config.Excludes, o.Roots)
	inputs.Values, inputs.EachDir = o.Values, o.EachDir
	inputs.ChartCopies = s.config.ChartDirs()
	// A values file that a walk found is the charts' input, not a manifest.
	inputs.Files = slices.DeleteFunc(inputs.Files, func(f string) bool {
		return slices.ContainsFunc(o.Values, func(v string) bool { return sameFile(f, v) })
	})
	if o.Baseline != "" && o.Baseline != "-" {
		// The baseline is JSON, but never a manifest.
		inputs.Files = slices.DeleteFunc(inputs.Files, func(f string) bool { return sameFile(f, o.Baseline) })
		walkErrs = slices.DeleteFunc(walkErrs, func(e *manifest.ReadError) bool { return sameFile(e.File, o.Baseline) })
	}
	return inputs, walkErrs
}

// gatewayAPI says which Gateway API releases judged the worlds, when
// anything but the defaults chose: the flag, the configuration, or the
// CRDs among a world's inputs (cli.Inputs.Load), which choose what the
// first two did not.
func (o *checkOptions) gatewayAPI(s *settings, worlds []*resolve.Inputs) []gatewayAPI {
	var out []gatewayAPI
	for _, w := range worlds {
		g := gatewayAPI{Version: s.resolve.Release.String(), Channel: s.resolve.Channel.String(), Source: "--gateway-api-version"}
		switch {
		case !s.resolve.ReleaseAssumed:
			if !o.releaseSet {
				g.Source = s.config.File
			}
		case w.CRDsFrom != nil:
			crds, _ := w.CRDsFrom.CRDs()
			g.Version, g.Source = crds.Release.String(), w.CRDsFrom.At.File+":"+strconv.Itoa(w.CRDsFrom.At.Pos.Line)
		default:
			continue
		}
		if w.CRDsFrom != nil && s.resolve.ChannelAssumed {
			crds, _ := w.CRDsFrom.CRDs()
			g.Channel = crds.Channel.String()
		}
		if !slices.Contains(out, g) {
			out = append(out, g)
		}
	}
	return out
}

// lintWorlds resolves each world on its own (see cli.Inputs.Load) and
// lints them (cli.LintWorlds).
func lintWorlds(worlds []*resolve.Inputs, opts resolve.Options, rules []*lint.Rule) ([]lint.Finding, []lint.Suppressed) {
	graphs := make([]*resolve.Graph, len(worlds))
	for i, in := range worlds {
		graphs[i] = resolve.Resolve(in, opts)
	}
	return cli.LintWorlds(worlds, graphs, rules)
}

func runCheck(opts *checkOptions) error {
	if opts.ShowConfig {
		s, err := opts.settings()
		if err != nil {
			return &cli.ExitError{Code: cli.ExitUsage, Err: err}
		}
		return outputError(writeConfig(opts.IO.Out, opts.Output, opts.effectiveConfig(s)))
	}
	l, err := opts.lintInputs()
	if err != nil {
		return &cli.ExitError{Code: cli.ExitUsage, Err: err}
	}
	s, files, in, rules, findings, suppressed := l.settings, l.files, l.in, l.rules, l.findings, l.suppressed
	if opts.Baseline != "" {
		if findings, err = applyBaseline(opts, findings); err != nil {
			return &cli.ExitError{Code: cli.ExitUsage, Err: err}
		}
	}
	if findings, err = opts.onlyNew(findings, s); err != nil {
		return err
	}

	if opts.Quiet {
		findings = slices.DeleteFunc(findings, func(f lint.Finding) bool { return f.Severity == lint.Info })
		suppressed = slices.DeleteFunc(suppressed, func(f lint.Suppressed) bool { return f.Severity == lint.Info })
	}
	sum := summary{Files: len(files), Objects: len(in.Objects), Suppressed: len(suppressed), Quiet: opts.Quiet,
		NotManifests: len(slices.Compact(slices.Sorted(slices.Values(in.NotManifests)))), FileNames: files, FailOn: s.failOn,
		GatewayAPI: l.gatewayAPI}
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
		return newSARIFOutput(w, rules, opts.Baseline != "" || opts.NewFromRev != "")
	case formatGitHub:
		return &githubOutput{w: w}
	case formatCodeClimate:
		return &codeClimateOutput{w: w}
	case formatJUnit:
		return &junitOutput{w: w}
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

// sameFile reports whether two paths name the same file.
func sameFile(a, b string) bool {
	x, err1 := filepath.Abs(a)
	y, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && x == y
}
