package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"
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
	exitOK       = 0
	exitFindings = 1 // a finding at or above --fail-on
	exitUsage    = 2 // bad flags, arguments or configuration; input that failed to read; output that failed to write
)

// exitError ends a command with an exit status. err, when set, is printed
// to stderr; it is nil when the output already reported the problem.
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

// run executes gwlint with args and returns the exit status.
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
		Use:   "gwlint",
		Short: "Lint Gateway API manifests offline",
		Long: `gwlint checks Kubernetes Gateway API manifests without a cluster, for CI and
pre-commit: routes that attach nowhere, backends that do not resolve,
conflicting listeners, and more. Every finding names a rule, a severity and
the file, line and column of the field at fault.

It decides nothing itself: the resolver that gwctl explains with decides
every attachment and reference, so the two tools always agree.`,
		Example: `  # Check the manifests under the current directory
  gwlint check

  # In CI: fail on warnings too, report to GitHub code scanning
  gwlint check --fail-on warning -o sarif deploy/ > gwlint.sarif

  # What does a rule mean?
  gwlint rules backend-not-found`,
		Version:       version,
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.CompletionOptions.DisableDefaultCmd = true
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.AddCommand(newCheckCmd(streams, nil), newRulesCmd(streams, nil))
	return root
}

// oneOf checks a flag value against its allowed values.
func oneOf(flag, value string, allowed ...string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	return fmt.Errorf("invalid value %q for --%s: must be one of %s", value, flag, strings.Join(allowed, ", "))
}
