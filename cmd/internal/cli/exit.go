package cli

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"github.com/gwlint/gwlint/internal/parallel"
	"github.com/spf13/cobra"
)

// Exit statuses that mean the same in every command: success, and usage
// errors (bad flags or arguments, input that failed to read; gwlint adds
// configuration errors and output that failed to write). Status 1 is each
// command's own verdict (gwctl: not found or not accepted; gwlint: a
// finding at or above --fail-on).
const (
	ExitOK    = 0
	ExitUsage = 2
)

// ExitError ends a command with an exit status. Err, when set, is printed
// to stderr; it is nil when the command already reported the problem.
//
// Commands return only ExitErrors: any other error comes from cobra or from
// flag validation and is therefore a usage error.
type ExitError struct {
	Code int
	Err  error
}

func (e *ExitError) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit status %d", e.Code)
	}
	return e.Err.Error()
}

func (e *ExitError) Unwrap() error { return e.Err }

// Errorf returns an ExitError with code and a formatted message.
func Errorf(code int, format string, args ...any) error {
	return &ExitError{Code: code, Err: fmt.Errorf(format, args...)}
}

// OutputError reports a failure to write the result with code; it is nil
// when err is.
func OutputError(code int, err error) error {
	if err == nil {
		return nil
	}
	return Errorf(code, "writing output: %w", err)
}

// SetupRoot makes cmd a root command that reports its own errors (Run
// does) and uses streams, gives it --version and a version command that
// print info, the hidden man command that writes its man pages, and adds
// the subcommands. Cobra's completion command (bash, zsh, fish,
// powershell) stays.
func SetupRoot(root *cobra.Command, streams *IOStreams, info BuildInfo, subcommands ...*cobra.Command) *cobra.Command {
	root.SilenceErrors, root.SilenceUsage = true, true
	root.Version = info.String()
	root.SetVersionTemplate("{{.Name}} {{.Version}}\n")
	root.AddCommand(newVersionCmd(root.Name(), info))
	if man := newManCmd(root.Name(), info); man != nil {
		root.AddCommand(man)
	}
	root.SetIn(streams.In)
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	root.AddCommand(subcommands...)
	return root
}

// Run builds the root command on streams, executes it with args and
// returns the exit status: an ExitError's code, with its message on stderr,
// or ExitUsage with a pointer to --help for any other error. Messages are
// escaped (Escape): they name files and objects, and quote arguments.
func Run(newRoot func(*IOStreams) *cobra.Command, args []string, streams *IOStreams) (code int) {
	// A bug must not greet the user with a goroutine dump: say what broke,
	// ask for a report, and exit as for any error gwlint cannot get past.
	// GWLINT_PANIC=1 keeps the stack for debugging.
	defer func() {
		if v := recover(); v != nil {
			if os.Getenv("GWLINT_PANIC") != "" {
				if p, ok := v.(*parallel.Panic); ok {
					fmt.Fprintf(streams.ErrOut, "panic in a parallel step: %v\n\n%s\n", p.Value, p.Stack)
				}
				panic(v)
			}
			fmt.Fprintf(streams.ErrOut, "Error: internal error: %s\nPlease report it at https://github.com/gwlint/gwlint/issues (rerun with GWLINT_PANIC=1 for details).\n", Escape(fmt.Sprint(v)))
			code = ExitUsage
		}
	}()
	root := newRoot(streams)
	root.SetArgs(args)
	cmd, err := root.ExecuteC()
	if err == nil {
		return ExitOK
	}
	var ee *ExitError
	if errors.As(err, &ee) {
		if errors.Is(ee.Err, syscall.EPIPE) {
			// Whoever read the output stopped reading (gwctl diff |
			// head): nothing to tell them, as when SIGPIPE ended the
			// process in the write (see Main).
			return exitBrokenPipe
		}
		if ee.Err != nil {
			fmt.Fprintln(streams.ErrOut, "Error:", Escape(ee.Err.Error()))
		}
		return ee.Code
	}
	fmt.Fprintf(streams.ErrOut, "Error: %s\nRun '%s --help' for usage.\n", Escape(err.Error()), cmd.CommandPath())
	return ExitUsage
}

// RunE returns a command's RunE. complete, when set, takes the arguments
// into opts and checks the flag values; then runF runs when a test injected
// one, to see the options the command parsed, and run otherwise.
func RunE[O any](opts *O, complete func(cmd *cobra.Command, args []string) error, runF, run func(*O) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if complete != nil {
			if err := complete(cmd, args); err != nil {
				return err
			}
		}
		if runF != nil {
			return runF(opts)
		}
		return run(opts)
	}
}
