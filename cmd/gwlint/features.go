package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

const formatMarkdown = "markdown"

type featuresOptions struct{ reportOptions }

func newFeaturesCmd(streams *cli.IOStreams, runF func(*featuresOptions) error) *cobra.Command {
	opts := &featuresOptions{reportOptions{IO: streams}}
	cmd := &cobra.Command{
		Use:   "features [PATH ...|-]",
		Short: "Report the Gateway API features the manifests use, and which implementations support them",
		Long: `Features reads manifests as check does (default: the current directory;
the .gwlint.yaml found from them upward, whose excludes and namespace
apply; Kustomize directories built, Helm charts rendered) and prints every Gateway API feature they use, as
sigs.k8s.io/gateway-api/pkg/features names them, with where each is used,
then every implementation with a conformance report: whether it supports
them all, which its report does not claim, and which belong to conformance
profiles it did not report (unknown). Markdown output suits a pull request
comment.

Exit status: 0, or 2 for usage errors and manifests that could not be read.`,
		Example: `  gwlint features deploy/
  gwlint features -o markdown . > portability.md
  gwlint features -o json . | jq '.implementations[] | select(.supportsAll) | .name'`,
		RunE: cli.RunE(opts, func(_ *cobra.Command, args []string) error {
			return opts.complete(args, formatText, formatJSON, formatMarkdown)
		}, runF, runFeatures),
	}
	opts.addFlags(cmd, "text, json or markdown")
	return cmd
}

// featuresReport is the JSON output of gwlint features.
type featuresReport struct {
	Version         string           `json:"version"`
	Features        []featureUses    `json:"features"`
	Implementations []implementation `json:"implementations"`
}

type featureUses struct {
	Feature string     `json:"feature"`
	Uses    []usePlace `json:"uses"`
}

type usePlace struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Column int    `json:"column"`
	Object string `json:"object"`
	Path   string `json:"path"`
}

type implementation struct {
	Name    string `json:"name"`
	Version string `json:"version"`
	// Mode, Channel and GatewayAPIVersion are those of the conformance
	// report the profile comes from.
	Mode              string `json:"mode"`
	Channel           string `json:"channel"`
	GatewayAPIVersion string `json:"gatewayAPIVersion"`
	// BasedOn, for a release no report describes yet, is the reported
	// profile it extends with the features the release added.
	BasedOn     string `json:"basedOn,omitempty"`
	SupportsAll bool   `json:"supportsAll"`
	// Unsupported are the features its conformance report does not claim;
	// Unknown those of conformance profiles it did not report.
	Unsupported []string `json:"unsupported"`
	Unknown     []string `json:"unknown"`
}

func runFeatures(opts *featuresOptions) error {
	in, resolveOpts, err := opts.load(resolve.Options{})
	if err != nil {
		return err
	}
	report := newFeaturesReport(resolve.Resolve(in, resolveOpts).Features())
	switch opts.Output {
	case formatJSON:
		err = cli.WriteJSON(opts.IO.Out, report)
	case formatMarkdown:
		err = report.writeMarkdown(opts.IO.Out)
	default:
		err = report.writeText(opts.IO.Out)
	}
	return finish(in, err)
}

// newFeaturesReport groups the uses by feature, sorted by name, each in the
// graph's order, and judges them against every implementation.
func newFeaturesReport(uses []resolve.FeatureUse) *featuresReport {
	r := &featuresReport{Version: schemaVersion, Features: []featureUses{}, Implementations: []implementation{}}
	byFeature := map[features.FeatureName][]usePlace{}
	var names []features.FeatureName
	for _, u := range uses {
		if _, seen := byFeature[u.Feature]; !seen {
			names = append(names, u.Feature)
		}
		pos := u.Object.Position(u.Path)
		byFeature[u.Feature] = append(byFeature[u.Feature], usePlace{
			File: u.Object.Source.File, Line: pos.Line, Column: pos.Col, Object: u.Object.Ref.String(), Path: u.Path,
		})
	}
	slices.Sort(names)
	for _, f := range names {
		r.Features = append(r.Features, featureUses{Feature: string(f), Uses: byFeature[f]})
	}
	for _, v := range profile.Portability(names) {
		r.Implementations = append(r.Implementations, implementation{
			Name: v.Profile.Name, Version: v.Profile.Version, Mode: v.Profile.Mode, Channel: v.Profile.Channel,
			GatewayAPIVersion: v.Profile.APIVersion, BasedOn: v.Profile.BasedOn, SupportsAll: v.SupportsAll(),
			Unsupported: featureNames(v.Unsupported), Unknown: featureNames(v.Unknown),
		})
	}
	return r
}

func featureNames(fs []features.FeatureName) []string {
	out := make([]string, len(fs))
	for i, f := range fs {
		out[i] = string(f)
	}
	return out
}

func (u usePlace) String() string {
	return fmt.Sprintf("%s:%d:%d  %s  %s", u.File, u.Line, u.Column, u.Object, u.Path)
}

// verdict says in words how an implementation meets the features.
func (i implementation) verdict(code func(string) string) string {
	if i.SupportsAll {
		return "supports all"
	}
	var parts []string
	quote := func(fs []string) string {
		q := make([]string, len(fs))
		for k, f := range fs {
			q[k] = code(f)
		}
		return strings.Join(q, ", ")
	}
	if len(i.Unsupported) > 0 {
		parts = append(parts, "lacks "+quote(i.Unsupported))
	}
	if len(i.Unknown) > 0 {
		parts = append(parts, "not reported: "+quote(i.Unknown))
	}
	return strings.Join(parts, "; ")
}

func (r *featuresReport) writeText(w io.Writer) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "Features used (%d)\n", len(r.Features))
	for _, f := range r.Features {
		fmt.Fprintf(&b, "  %s\n", f.Feature)
		for _, u := range f.Uses {
			fmt.Fprintf(&b, "    %s\n", cli.Escape(u.String()))
		}
	}
	b.WriteString("\nImplementations\n")
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  IMPLEMENTATION\tVERSION\tSUPPORT")
	for _, i := range r.Implementations {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", i.Name, i.Version, i.verdict(func(s string) string { return s }))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := w.Write(b.Bytes())
	return err
}

func (r *featuresReport) writeMarkdown(w io.Writer) error {
	var b bytes.Buffer
	code := cli.MarkdownCode
	b.WriteString("### Gateway API features used\n\n| Feature | Where |\n| --- | --- |\n")
	for _, f := range r.Features {
		places := make([]string, len(f.Uses))
		for i, u := range f.Uses {
			places[i] = cli.MarkdownCell(fmt.Sprintf("%s %s %s", code(fmt.Sprintf("%s:%d", u.File, u.Line)), u.Object, code(u.Path)))
		}
		fmt.Fprintf(&b, "| %s | %s |\n", code(f.Feature), strings.Join(places, "<br>"))
	}
	b.WriteString("\n### Implementations\n\n| Implementation | Version | Support |\n| --- | --- | --- |\n")
	for _, i := range r.Implementations {
		fmt.Fprintf(&b, "| %s | %s | %s |\n", i.Name, i.Version, i.verdict(code))
	}
	_, err := w.Write(b.Bytes())
	return err
}
