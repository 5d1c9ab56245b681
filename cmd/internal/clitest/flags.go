package clitest

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// Execute runs a command built with an injected runF on args, quietly.
func Execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(append([]string{}, args...)) // never nil: cobra would read os.Args
	cmd.SetOut(Discard().Out)
	cmd.SetErr(Discard().ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

// FlagCase is one command line and the options it must parse to, or the
// error it must fail with.
type FlagCase[O any] struct {
	// Name names the subtest; the arguments do when it is empty.
	Name string
	Args []string
	// Want is compared without its IO field, the streams the command was
	// built with.
	Want    O
	WantErr string
}

// RunFlagCases builds a command with newCmd for each case, with a runF
// that captures the options, and runs it on the case's arguments. Either
// the options must equal Want, or the error must contain WantErr and runF
// must not have run.
func RunFlagCases[O any](t *testing.T, newCmd func(*cli.IOStreams, func(*O) error) *cobra.Command, cases []FlagCase[O]) {
	t.Helper()
	for _, tt := range cases {
		name := tt.Name
		if name == "" {
			name = fmt.Sprintf("%q", tt.Args)
		}
		t.Run(name, func(t *testing.T) {
			var got *O
			cmd := newCmd(Discard(), func(o *O) error {
				got = o
				return nil
			})
			err := Execute(cmd, tt.Args...)
			if tt.WantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.WantErr) {
					t.Fatalf("error %v, want %q", err, tt.WantErr)
				}
				if got != nil {
					t.Error("runF called despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got == nil {
				t.Fatal("runF not called")
			}
			if streams := reflect.ValueOf(got).Elem().FieldByName("IO"); streams.IsValid() {
				streams.SetZero()
			}
			if !reflect.DeepEqual(*got, tt.Want) {
				t.Errorf("options\n got %+v\nwant %+v", *got, tt.Want)
			}
		})
	}
}
