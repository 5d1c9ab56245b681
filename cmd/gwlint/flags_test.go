package main

import (
	"reflect"
	"strings"
	"testing"

	"github.com/spf13/cobra"
)

// execute runs a command built with an injected runF on args.
func execute(cmd *cobra.Command, args ...string) error {
	cmd.SetArgs(append([]string{}, args...)) // never nil: cobra would read os.Args
	cmd.SetOut(discardStreams().Out)
	cmd.SetErr(discardStreams().ErrOut)
	cmd.SilenceErrors, cmd.SilenceUsage = true, true
	return cmd.Execute()
}

func TestCheckFlags(t *testing.T) {
	defaults := checkOptions{Paths: []string{"."}, FailOn: "error", Output: "text", Color: "auto"}
	tests := []struct {
		name    string
		args    []string
		want    checkOptions
		wantErr string
	}{
		{name: "defaults", args: nil, want: defaults},
		{
			name: "every flag",
			args: []string{"a.yaml", "dir", "-", "-n", "shop", "--strict-refs", "--fail-on", "warning", "-o", "sarif",
				"--color", "never", "-q", "--config", "lint.yaml"},
			want: checkOptions{
				Paths: []string{"a.yaml", "dir", "-"}, Namespace: "shop", StrictRefs: true, FailOn: "warning",
				Output: "sarif", Color: "never", Quiet: true, ConfigFile: "lint.yaml",
				namespaceSet: true, strictRefsSet: true, failOnSet: true,
			},
		},
		{
			// Flags given with their default value still override the
			// configuration file.
			name: "explicit defaults are set",
			args: []string{"--fail-on", "error", "--strict-refs=false", "--namespace", "", "--no-config"},
			want: checkOptions{
				Paths: []string{"."}, FailOn: "error", Output: "text", Color: "auto", NoConfig: true,
				namespaceSet: true, strictRefsSet: true, failOnSet: true,
			},
		},
		{name: "paths keep commas", args: []string{"a,b.yaml"},
			want: checkOptions{Paths: []string{"a,b.yaml"}, FailOn: "error", Output: "text", Color: "auto"}},
		{name: "bad output", args: []string{"-o", "yaml"}, wantErr: `invalid value "yaml" for --output: must be one of text, json, sarif, github`},
		{name: "bad fail-on", args: []string{"--fail-on", "none"}, wantErr: `invalid value "none" for --fail-on: must be one of error, warning, info`},
		{name: "bad color", args: []string{"--color", "yes"}, wantErr: `invalid value "yes" for --color`},
		{name: "config and no-config", args: []string{"--config", "x", "--no-config"}, wantErr: "if any flags in the group [config no-config] are set none of the others can be"},
		{name: "unknown flag", args: []string{"--format", "json"}, wantErr: "unknown flag: --format"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got *checkOptions
			cmd := newCheckCmd(discardStreams(), func(o *checkOptions) error {
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

func TestRulesFlags(t *testing.T) {
	tests := []struct {
		args    []string
		want    rulesOptions
		wantErr string
	}{
		{args: nil, want: rulesOptions{Output: "text"}},
		{args: []string{"backend-not-found", "-o", "json"}, want: rulesOptions{Output: "json", ID: "backend-not-found"}},
		{args: []string{"-o", "sarif"}, wantErr: `invalid value "sarif" for --output: must be one of text, json`},
		{args: []string{"a", "b"}, wantErr: "accepts at most 1 arg(s), received 2"},
	}
	for _, tt := range tests {
		var got *rulesOptions
		cmd := newRulesCmd(discardStreams(), func(o *rulesOptions) error {
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
