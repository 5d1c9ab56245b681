package main

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

// viewAPIVersion versions the JSON/YAML schema of every explanation; see
// docs/gwctl.md. Field names are part of it and never change silently.
const viewAPIVersion = "gwctl.gwlint.io/v1alpha1"

// typeMeta heads every explanation: the schema version and the kind.
type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
}

func explanationMeta(kind string) typeMeta {
	return typeMeta{APIVersion: viewAPIVersion, Kind: kind}
}

func newExplainCmd(streams *cli.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain",
		Short: "Explain a route, a Gateway, a Service or a policy",
		Long: `Explain one object and everything the resolver decided about it, with the
API's own reason for every outcome.`,
		Example: `  gwctl explain route store -n store
  gwctl explain gateway shared -n infra -o yaml
  gwctl explain service store-v1 -f manifests/`,
		// Without Args, cobra would show help for an unknown subcommand and
		// exit 0; this makes it a usage error.
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(
		newExplainRouteCmd(streams, nil),
		newExplainGatewayCmd(streams, nil),
		newExplainServiceCmd(streams, nil),
		newExplainPolicyCmd(streams, nil),
		newExplainRequestCmd(streams, nil),
	)
	for _, spelling := range slices.Sorted(maps.Keys(routeSpellings)) {
		cmd.AddCommand(newExplainRouteKindCmd(streams, nil, spelling, routeSpellings[spelling]))
	}
	return cmd
}

// explainOptions are what every explain subcommand takes.
type explainOptions struct {
	IO *cli.IOStreams
	inputOptions
	Output string
	Color  string
	// Name is the object to explain.
	Name string
	// diagram draws the object for -o mermaid|dot; each subcommand that
	// can sets it before write.
	diagram func() *diagram
}

func (o *explainOptions) addFlags(cmd *cobra.Command) {
	o.inputOptions.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", formatText, "output format: text, json, yaml, mermaid or dot")
	cli.AddColorFlag(cmd.Flags(), &o.Color)
}

// complete takes the positional NAME and checks the flag values.
func (o *explainOptions) complete(cmd *cobra.Command, args []string) error {
	o.Name = args[0]
	if err := cli.OneOf("output", o.Output, formatText, formatJSON, formatYAML, formatMermaid, formatDOT); err != nil {
		return err
	}
	if err := o.inputOptions.complete(cmd.Flags()); err != nil {
		return err
	}
	return cli.CheckColor(o.Color)
}

// explainCmd completes cmd as an explain subcommand whose options are
// explainOptions alone: it takes NAME, and runs run (or runF, in tests).
func explainCmd(streams *cli.IOStreams, runF, run func(*explainOptions) error, cmd *cobra.Command) *cobra.Command {
	opts := &explainOptions{IO: streams}
	cmd.Args = cobra.ExactArgs(1)
	cmd.RunE = cli.RunE(opts, opts.complete, runF, run)
	cmd.ValidArgsFunction = completeNames(&opts.inputOptions, func(*cobra.Command) []string { return []string{explainKinds[cmd.Name()]} })
	opts.addFlags(cmd)
	return cmd
}

// textView is an explanation: the schema of its JSON and YAML, which
// renders itself as text.
type textView interface {
	writeText(*printer)
}

// write prints the explanation view in the chosen format; text renders it
// from the same view, escaped (escapedView), so every format says the same
// thing.
func (o *explainOptions) write(view textView) error {
	if o.Output == formatMermaid || o.Output == formatDOT {
		if o.diagram == nil {
			return cli.Errorf(cli.ExitUsage, "-o %s is not available here", o.Output)
		}
		return outputError(o.diagram().write(o.IO.Out, o.Output))
	}
	if o.Output != formatText {
		return outputError(writeMachine(o.IO.Out, o.Output, view))
	}
	p := &printer{w: o.IO.Out, pal: newPalette(cli.ColorEnabled(o.Color, o.IO))}
	escapedView(view).writeText(p)
	return outputError(p.err)
}

// pick chooses the object the user named among those found by that name:
// the one in -n's namespace when given (found holds only those), else the
// only one in any namespace. what names the kind for messages, and narrow
// says how to choose between several.
func pick[T resolve.Object](o *explainOptions, what, narrow string, found []T) (T, error) {
	var zero T
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		where := "in any namespace"
		if o.Namespace != "" {
			where = fmt.Sprintf("in namespace %q", o.Namespace)
		}
		return zero, failuref("%s %q not found %s", what, o.Name, where)
	}
	refs := make([]string, len(found))
	for i, f := range found {
		refs[i] = f.Metadata().Ref.String()
	}
	return zero, cli.Errorf(cli.ExitUsage, "%s %q is ambiguous: %s; choose one with %s",
		what, o.Name, strings.Join(refs, ", "), narrow)
}

// named returns the objects among all that are called NAME, in -n's
// namespace when given.
func named[T resolve.Object](o *explainOptions, all []T) []T {
	var found []T
	for _, obj := range all {
		if r := obj.Metadata().Ref; r.Name == o.Name && (o.Namespace == "" || r.Namespace == o.Namespace) {
			found = append(found, obj)
		}
	}
	return found
}

// refView names an object in machine output.
type refView struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

func refOf(r resolve.ObjectRef) refView {
	return refView{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
}

func (r refView) String() string {
	return resolve.ObjectRef{Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}.String()
}

// conditionView is a status condition in machine output.
type conditionView struct {
	Type    string         `json:"type"`
	Status  string         `json:"status"`
	Reason  resolve.Reason `json:"reason"`
	Message string         `json:"message,omitempty"`
}

func conditionOf(c resolve.Condition) conditionView {
	return conditionView{Type: c.Type, Status: string(c.Status), Reason: c.Reason, Message: c.Message}
}

func (c conditionView) isTrue() bool { return c.Status == "True" }

// healthy reports whether a condition says all is well: Conflicted is
// False with NoConflicts; every other type is True with its own name as the
// reason (a True Accepted with reason ListenersNotValid is not healthy).
func (c conditionView) healthy() bool {
	if c.Type == "Conflicted" {
		return !c.isTrue() && c.Reason == resolve.ReasonNoConflicts
	}
	return c.isTrue() && string(c.Reason) == c.Type
}

// text renders "Type: Status Reason: message", coloured by health.
func (c conditionView) text(pal palette) string {
	s := pal.verdict(c.healthy(), c.Status+" "+string(c.Reason))
	if c.Message != "" {
		s += ": " + c.Message
	}
	return c.Type + ": " + s
}
