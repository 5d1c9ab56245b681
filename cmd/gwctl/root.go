package main

import (
	"cmp"
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// exitFailure is gwctl's own exit status: the object is not found or not
// accepted anywhere. cli.ExitOK and cli.ExitUsage are the others.
const exitFailure = 1

func failuref(format string, args ...any) error {
	return cli.Errorf(exitFailure, format, args...)
}

// outputError reports a failure to write the result.
func outputError(err error) error {
	return cli.OutputError(exitFailure, err)
}

// withInputErrors raises err to cli.ExitUsage when some input failed to read:
// that outranks the command's own verdict, since the object the user asked
// about may be in the part that was lost.
func withInputErrors(err error, inputFailed bool) error {
	if !inputFailed {
		return err
	}
	var ee *cli.ExitError
	if errors.As(err, &ee) {
		return &cli.ExitError{Code: cli.ExitUsage, Err: ee.Err}
	}
	return &cli.ExitError{Code: cli.ExitUsage}
}

func newRootCmd(streams *cli.IOStreams) *cobra.Command {
	return cli.SetupRoot(&cobra.Command{
		Use:   "gwctl",
		Short: "Explain Gateway API manifests offline",
		Long: `gwctl reads Kubernetes Gateway API manifests from files and explains, without
a cluster, what a conformant controller would make of them: which listeners
a route attaches to and why others refuse it, where each rule sends its
traffic, which routes bind to a Service in a mesh, and the status a
controller would write.

Objects the inputs do not hold are "external" and assumed to exist, unless
the inputs hold others of the same kind in that namespace, in which case
they are "missing". --strict-refs makes every external reference missing.`,
		Example: `  # Why does my route not receive traffic?
  gwctl explain route store -n store -f manifests/

  # The status a controller would write, as YAML
  gwctl status -f manifests/`,
		Version: version,
	}, streams, newExplainCmd(streams), newStatusCmd(streams, nil))
}

// inputOptions say what to read and how to resolve it; every command
// takes them.
type inputOptions struct {
	Filenames      []string
	Namespace      string
	StrictRefs     bool
	ControllerName string
}

func (o *inputOptions) addFlags(fs *pflag.FlagSet) {
	fs.StringArrayVarP(&o.Filenames, "filename", "f", []string{"."},
		"manifest file or directory to read, or - for stdin (repeatable)")
	fs.StringVarP(&o.Namespace, "namespace", "n", "",
		"namespace for objects that name none (default \"default\"), and where to look up NAME")
	cli.AddStrictRefsFlag(fs, &o.StrictRefs)
	fs.StringVar(&o.ControllerName, "controller-name", resolve.DefaultControllerName,
		"controller that manages Gateways whose GatewayClass is outside the inputs")
}

func (o *inputOptions) resolveOptions() resolve.Options {
	return resolve.Options{DefaultNamespace: o.Namespace, StrictRefs: o.StrictRefs, ControllerName: o.ControllerName}
}

// loadGraph reads and resolves the inputs. Read errors go to stderr with
// their positions, sorted; what could be read is still resolved, and
// inputFailed reports that something was lost.
func loadGraph(o *inputOptions, streams *cli.IOStreams) (g *resolve.Graph, inputFailed bool) {
	loaded := gcpolicy.Set(o.Filenames)
	in := resolve.Load(o.Filenames, streams.In, o.resolveOptions())
	loaded()
	errs := slices.Clone(in.Errors)
	slices.SortStableFunc(errs, func(a, b *manifest.ReadError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	for _, e := range errs {
		fmt.Fprintln(streams.ErrOut, e)
	}
	g = resolve.Resolve(in, o.resolveOptions())
	// A duplicate is not an input error, but explaining the first
	// definition while the user edits the second would be baffling.
	for _, d := range g.Duplicates {
		again, first := d.Again.Metadata(), d.First.Metadata()
		fmt.Fprintf(streams.ErrOut, "%s: warning: %s is defined again; the definition at %s is used\n",
			sourceOf(again), again.Ref, sourceOf(first))
	}
	return g, len(in.Errors) > 0
}

// sourceOf renders where an object was written: "file:line:col".
func sourceOf(m *resolve.Meta) string {
	return fmt.Sprintf("%s:%d:%d", m.Source.File, m.Source.Pos.Line, m.Source.Pos.Col)
}
