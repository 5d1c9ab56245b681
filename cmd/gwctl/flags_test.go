package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/resolve"
)

// execute runs a command built with an injected runF on args.
func execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(append([]string{}, args...)) // never nil: cobra would read os.Args
	cmd.SetOut(discardStreams().Out)
	cmd.SetErr(discardStreams().ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

var defaultInputs = inputOptions{Filenames: []string{"."}, ControllerName: resolve.DefaultControllerName}

func TestExplainRouteFlags(t *testing.T) {
	tests := []struct {
		name    string
		args    []string
		want    explainRouteOptions
		wantErr string
	}{
		{
			name: "defaults",
			args: []string{"store"},
			want: explainRouteOptions{explainOptions: explainOptions{
				inputOptions: defaultInputs, Output: "text", Color: "auto", Name: "store",
			}},
		},
		{
			name: "every flag",
			args: []string{"store", "-f", "a.yaml", "--filename", "dir", "-f", "-", "-n", "shop", "--strict-refs",
				"--controller-name", "example.com/gw", "-o", "yaml", "--color", "never", "--kind", "grpcroute"},
			want: explainRouteOptions{
				explainOptions: explainOptions{
					inputOptions: inputOptions{
						Filenames: []string{"a.yaml", "dir", "-"}, Namespace: "shop", StrictRefs: true, ControllerName: "example.com/gw",
					},
					Output: "yaml", Color: "never", Name: "store",
				},
				Kind: resolve.KindGRPCRoute,
			},
		},
		{name: "filenames keep commas", args: []string{"x", "-f", "a,b.yaml"},
			want: explainRouteOptions{explainOptions: explainOptions{
				inputOptions: inputOptions{Filenames: []string{"a,b.yaml"}, ControllerName: resolve.DefaultControllerName},
				Output:       "text", Color: "auto", Name: "x",
			}}},
		{name: "no name", args: nil, wantErr: "accepts 1 arg(s), received 0"},
		{name: "two names", args: []string{"a", "b"}, wantErr: "accepts 1 arg(s), received 2"},
		{name: "bad output", args: []string{"a", "-o", "wide"}, wantErr: `invalid value "wide" for --output: must be one of text, json, yaml`},
		{name: "bad color", args: []string{"a", "--color", "yes"}, wantErr: `invalid value "yes" for --color`},
		{name: "bad kind", args: []string{"a", "--kind", "Gateway"}, wantErr: `invalid value "Gateway" for --kind`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *explainRouteOptions
			cmd := newExplainRouteCmd(discardStreams(), func(o *explainRouteOptions) error {
				got = o
				return nil
			})
			err := execute(cmd, tt.args...)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				if got != nil {
					t.Error("runF called despite the error")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			if !reflect.DeepEqual(*got, tt.want) {
				t.Errorf("options\n got %+v\nwant %+v", *got, tt.want)
			}
		})
	}
}

func TestExplainGatewayAndServiceFlags(t *testing.T) {
	builders := map[string]func(*IOStreams, func(*explainOptions) error) *cobra.Command{
		"gateway": newExplainGatewayCmd,
		"service": newExplainServiceCmd,
	}
	for name, build := range builders {
		t.Run(name, func(t *testing.T) {
			var got *explainOptions
			cmd := build(discardStreams(), func(o *explainOptions) error {
				got = o
				return nil
			})
			if err := execute(cmd, "x", "-n", "infra", "-o", "json"); err != nil {
				t.Fatal(err)
			}
			got.IO = nil
			want := explainOptions{inputOptions: defaultInputs, Output: "json", Color: "auto", Name: "x"}
			want.Namespace = "infra"
			if !reflect.DeepEqual(*got, want) {
				t.Errorf("options\n got %+v\nwant %+v", *got, want)
			}
			if err := execute(build(discardStreams(), nil), "x", "--kind", "HTTPRoute"); err == nil {
				t.Error("--kind accepted by a command that has no such flag")
			}
		})
	}
}

func TestStatusFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    statusOptions
		wantErr string
	}{
		{args: nil, want: statusOptions{inputOptions: defaultInputs, Output: "yaml"}},
		{args: []string{"-o", "json", "-f", "x", "--strict-refs"}, want: statusOptions{
			inputOptions: inputOptions{Filenames: []string{"x"}, StrictRefs: true, ControllerName: resolve.DefaultControllerName},
			Output:       "json",
		}},
		{args: []string{"-o", "text"}, wantErr: `invalid value "text" for --output: must be one of yaml, json`},
		{args: []string{"extra"}, wantErr: `unknown command "extra"`},
	}
	for _, tt := range tests {
		var got *statusOptions
		cmd := newStatusCmd(discardStreams(), func(o *statusOptions) error {
			got = o
			return nil
		})
		err := execute(cmd, tt.args...)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("%v: error %v, want %q", tt.args, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%v: %v", tt.args, err)
		}
		got.IO = nil
		if !reflect.DeepEqual(*got, tt.want) {
			t.Errorf("%v: options\n got %+v\nwant %+v", tt.args, *got, tt.want)
		}
	}
}

// TestHelpHasExamples: every command documents itself with examples.
func TestHelpHasExamples(t *testing.T) {
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Example == "" {
			t.Errorf("%s has no Example", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(discardStreams()))
}
