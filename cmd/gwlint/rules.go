package main

import (
	"fmt"
	"strings"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

type rulesOptions struct {
	IO     *cli.IOStreams
	Output string
	// ID is the rule to document; empty lists them all.
	ID string
}

func newRulesCmd(streams *cli.IOStreams, runF func(*rulesOptions) error) *cobra.Command {
	opts := &rulesOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "rules [ID]",
		Short: "List the rules, or document one",
		Long: `Without an argument, list every rule and pseudo-rule with its default
severity and summary. With a rule id, print its documentation: why it
matters and how to fix it. docs/rules.md holds the same text.`,
		Example: `  gwlint rules
  gwlint rules parentref-not-allowed
  gwlint rules -o json | jq -r '.rules[].id'`,
		Args: cobra.MaximumNArgs(1),
		RunE: cli.RunE(opts, func(_ *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.ID = args[0]
			}
			return cli.OneOf("output", opts.Output, formatText, formatJSON)
		}, runF, runRules),
	}
	cmd.Flags().StringVarP(&opts.Output, "output", "o", formatText, "output format: text or json")
	return cmd
}

// jsonRules is the JSON output of gwlint rules.
type jsonRules struct {
	Version string     `json:"version"`
	Rules   []jsonRule `json:"rules"`
}

type jsonRule struct {
	ID       string `json:"id"`
	Severity string `json:"severity"`
	Summary  string `json:"summary"`
	Doc      string `json:"doc"`
	// Pseudo is true for the pseudo-rules, which report on the inputs and
	// on ignores rather than on the objects.
	Pseudo bool `json:"pseudo"`
}

func runRules(opts *rulesOptions) error {
	rules := lint.AllRules()
	if opts.ID != "" {
		r := lint.LookupAny(opts.ID)
		if r == nil {
			return cli.Errorf(cli.ExitUsage, "unknown rule %q; gwlint rules lists them", opts.ID)
		}
		rules = []*lint.Rule{r}
	}
	if opts.Output == formatJSON {
		out := jsonRules{Version: schemaVersion, Rules: []jsonRule{}}
		for _, r := range rules {
			out.Rules = append(out.Rules, jsonRule{
				ID: r.ID, Severity: r.Severity.String(), Summary: r.Summary, Doc: r.Doc.String(), Pseudo: lint.Lookup(r.ID) == nil,
			})
		}
		return outputError(cli.WriteJSON(opts.IO.Out, out))
	}
	if opts.ID != "" {
		r := rules[0]
		_, err := fmt.Fprintf(opts.IO.Out, "%s (%s): %s\n\n%s\n", r.ID, r.Severity, r.Summary, r.Doc.String())
		return outputError(err)
	}
	tw := tabwriter.NewWriter(opts.IO.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSEVERITY\tSUMMARY")
	for _, r := range rules {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", r.ID, r.Severity, strings.TrimSpace(r.Summary))
	}
	return outputError(tw.Flush())
}

// outputError reports a failure to write the result: a usage error, so
// that gwlint's exit status 1 always means findings.
func outputError(err error) error {
	return cli.OutputError(cli.ExitUsage, err)
}
