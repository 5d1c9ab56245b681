package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/resolve"
)

// viewAPIVersion versions the JSON/YAML schema of every explanation; see
// docs/gwctl.md. Field names are part of it and never change silently.
const viewAPIVersion = "gwctl.gwlint.io/v1alpha1"

func newExplainCmd(streams *IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "explain",
		Short: "Explain a route, a Gateway or a Service",
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
	)
	return cmd
}

// explainOptions are what every explain subcommand takes.
type explainOptions struct {
	IO *IOStreams
	inputOptions
	Output string
	Color  string
	// Name is the object to explain.
	Name string
}

func (o *explainOptions) addFlags(cmd *cobra.Command) {
	o.inputOptions.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&o.Output, "output", "o", formatText, "output format: text, json or yaml")
	cmd.Flags().StringVar(&o.Color, "color", colorAuto, "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never")
}

// complete takes the positional NAME and checks the flag values.
func (o *explainOptions) complete(args []string) error {
	o.Name = args[0]
	if err := oneOf("output", o.Output, formatText, formatJSON, formatYAML); err != nil {
		return err
	}
	return oneOf("color", o.Color, colorAuto, colorAlways, colorNever)
}

// write prints the explanation view in the chosen format; text renders it
// from the same view, so every format says the same thing.
func (o *explainOptions) write(view any, text func(*printer)) error {
	if o.Output != formatText {
		return outputError(writeMachine(o.IO.Out, o.Output, view))
	}
	p := &printer{w: o.IO.Out, pal: newPalette(colorEnabled(o.Color, o.IO))}
	text(p)
	return outputError(p.err)
}

// pick chooses the object the user named among those found by that name:
// the one in -n's namespace when given (the caller filters by it), else
// the only one in any namespace. what names the kind for messages, and
// narrow says how to choose between several.
func pick[T any](what, name, namespace, narrow string, found []T, ref func(T) resolve.ObjectRef) (T, error) {
	var zero T
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		where := "in any namespace"
		if namespace != "" {
			where = fmt.Sprintf("in namespace %q", namespace)
		}
		return zero, failuref("%s %q not found %s", what, name, where)
	}
	refs := make([]string, len(found))
	for i, f := range found {
		refs[i] = ref(f).String()
	}
	return zero, &exitError{code: exitUsage, err: fmt.Errorf("%s %q is ambiguous: %s; choose one with %s",
		what, name, strings.Join(refs, ", "), narrow)}
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
	Type    string `json:"type"`
	Status  string `json:"status"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
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
		return !c.isTrue() && c.Reason == "NoConflicts"
	}
	return c.isTrue() && c.Reason == c.Type
}

// text renders "Type: Status Reason: message", coloured by health.
func (c conditionView) text(pal palette) string {
	s := pal.verdict(c.healthy(), c.Status+" "+c.Reason)
	if c.Message != "" {
		s += ": " + c.Message
	}
	return c.Type + ": " + s
}
