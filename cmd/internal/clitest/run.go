package clitest

import (
	"bytes"
	"io"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// Examples is the bundled example tree, as a path relative to a command's
// package directory (the directory its tests run in), so that file names in
// the output, and so the golden files, are stable.
const Examples = "../../testdata/examples"

// NewRootFunc builds a command's root command on streams.
type NewRootFunc func(*cli.IOStreams) *cobra.Command

// Streams returns streams that read stdin and write to the returned
// buffers. Out is not a terminal and NO_COLOR is not set; a test may
// change either before the run.
func Streams(stdin string) (streams *cli.IOStreams, stdout, stderr *bytes.Buffer) {
	stdout, stderr = &bytes.Buffer{}, &bytes.Buffer{}
	return &cli.IOStreams{In: strings.NewReader(stdin), Out: stdout, ErrOut: stderr}, stdout, stderr
}

// Discard returns streams for tests that only parse flags: empty stdin,
// and output thrown away.
func Discard() *cli.IOStreams {
	return &cli.IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
}

// Run runs a command in-process with buffers for its streams: the output
// is never a terminal, so colour is off unless --color always is given.
func Run(newRoot NewRootFunc, stdin string, args ...string) (stdout, stderr string, code int) {
	streams, out, errOut := Streams(stdin)
	code = cli.Run(newRoot, args, streams)
	return out.String(), errOut.String(), code
}

// Case is one run of a command and what it must give.
type Case struct {
	Name  string
	Stdin string
	Args  []string
	// Code is the exit status.
	Code int
	// StdoutHas and StderrHas must be part of the output; empty matches
	// anything.
	StdoutHas, StderrHas string
	// StdoutNone says that nothing may be printed to stdout.
	StdoutNone bool
}

// RunCases runs every case as a parallel subtest.
func RunCases(t *testing.T, newRoot NewRootFunc, cases []Case) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := Run(newRoot, tt.Stdin, tt.Args...)
			if code != tt.Code {
				t.Errorf("exit status %d, want %d; stdout:\n%s\nstderr:\n%s", code, tt.Code, stdout, stderr)
			}
			if !strings.Contains(stdout, tt.StdoutHas) {
				t.Errorf("stdout does not contain %q:\n%s", tt.StdoutHas, stdout)
			}
			if !strings.Contains(stderr, tt.StderrHas) {
				t.Errorf("stderr does not contain %q:\n%s", tt.StderrHas, stderr)
			}
			if tt.StdoutNone && stdout != "" {
				t.Errorf("stdout should be empty, got:\n%s", stdout)
			}
		})
	}
}
