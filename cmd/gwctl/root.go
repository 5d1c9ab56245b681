package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwlint/gwlint/resolve"
)

// IOStreams are a command's standard streams and the facts about the
// terminal that colour depends on. main fills them from the process; tests
// pass buffers, so no command ever probes the real terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutIsTTY reports whether Out is a terminal.
	OutIsTTY bool
	// NoColor reports whether NO_COLOR is set to a non-empty value.
	NoColor bool
}

func systemStreams() *IOStreams {
	fd := os.Stdout.Fd()
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutIsTTY: isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd),
		NoColor:  os.Getenv("NO_COLOR") != "",
	}
}

// Exit statuses.
const (
	exitOK      = 0
	exitFailure = 1 // the object is not found or not accepted anywhere
	exitUsage   = 2 // bad flags or arguments, or input that failed to read
)

// exitError ends a command with an exit status. err, when set, is printed
// to stderr; it is nil when the command already reported the problem.
//
// Commands return only exitErrors: any other error comes from cobra or from
// flag validation and is therefore a usage error.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string {
	if e.err == nil {
		return fmt.Sprintf("exit status %d", e.code)
	}
	return e.err.Error()
}

func (e *exitError) Unwrap() error { return e.err }

func failuref(format string, args ...any) error {
	return &exitError{code: exitFailure, err: fmt.Errorf(format, args...)}
}

// outputError reports a failure to write the result.
func outputError(err error) error {
	if err == nil {
		return nil
	}
	return &exitError{code: exitFailure, err: fmt.Errorf("writing output: %w", err)}
}

// withInputErrors raises err to exitUsage when some input failed to read:
// that outranks the command's own verdict, since the object the user asked
// about may be in the part that was lost.
func withInputErrors(err error, inputFailed bool) error {
	if !inputFailed {
		return err
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return &exitError{code: exitUsage, err: ee.err}
	}
	return &exitError{code: exitUsage}
}

// run executes gwctl with args and returns the exit status.
func run(args []string, streams *IOStreams) int {
	root := newRootCmd(streams)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return exitOK
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(streams.ErrOut, "Error:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintf(streams.ErrOut, "Error: %v\nRun '%s --help' for usage.\n", err, cmd.CommandPath())
	return exitUsage
}

func newRootCmd(streams *IOStreams) *cobra.Command {
	root := &cobra.Command{
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
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.AddCommand(newExplainCmd(streams), newStatusCmd(streams, nil))
	return root
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
	fs.BoolVar(&o.StrictRefs, "strict-refs", false,
		"treat every referenced object outside the inputs as missing instead of external")
	fs.StringVar(&o.ControllerName, "controller-name", resolve.DefaultControllerName,
		"controller that manages Gateways whose GatewayClass is outside the inputs")
}

func (o *inputOptions) resolveOptions() resolve.Options {
	return resolve.Options{DefaultNamespace: o.Namespace, StrictRefs: o.StrictRefs, ControllerName: o.ControllerName}
}

// loadGraph reads and resolves the inputs. Read errors go to stderr with
// their positions, sorted; what could be read is still resolved, and
// inputFailed reports that something was lost.
func loadGraph(o *inputOptions, streams *IOStreams) (g *resolve.Graph, inputFailed bool) {
	in := resolve.Load(o.Filenames, streams.In, o.resolveOptions())
	errs := slices.Clone(in.Errors)
	slices.SortStableFunc(errs, func(a, b *resolve.ReadError) int {
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
