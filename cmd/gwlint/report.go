package main

import (
	"cmp"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// reportOptions are what the report commands (features, releases) take:
// the inputs, read as check reads them, and an output format.
type reportOptions struct {
	IO        *cli.IOStreams
	Paths     []string
	Namespace string
	Output    string
	Config    cli.ConfigFlags
	Values    []string // Helm values files, as for check
	Roots     []string // --root, as for check
}

// addFlags adds the report commands' flags; formats describes -o.
func (o *reportOptions) addFlags(cmd *cobra.Command, formats string) {
	cmd.Flags().StringVarP(&o.Namespace, "namespace", "n", "", `namespace for objects that name none (default "default")`)
	cmd.Flags().StringVarP(&o.Output, "output", "o", formatText, "output format: "+formats)
	cli.AddValuesFlag(cmd.Flags(), &o.Values)
	cli.AddRootFlag(cmd.Flags(), &o.Roots)
	cli.AddConfigFlags(cmd.Flags(), &o.Config)
	cmd.MarkFlagsMutuallyExclusive("config", "no-config")
}

// complete takes the paths (default: the current directory) and checks
// them and -o against formats.
func (o *reportOptions) complete(args []string, formats ...string) error {
	o.Paths = args
	if len(o.Paths) == 0 {
		o.Paths = []string{"."}
	}
	if err := cli.CheckPaths(o.Paths); err != nil {
		return err
	}
	return cli.OneOf("output", o.Output, formats...)
}

// load reads the inputs as one world, with the configuration the paths
// find (its excludes, namespace and charts) and opts, and prints what
// could not be read to stderr. Its error is the configuration's.
func (o *reportOptions) load(opts resolve.Options) (*resolve.Inputs, resolve.Options, error) {
	cfg, err := o.Config.LoadConfig(o.Paths)
	if err != nil {
		return nil, opts, err
	}
	opts.DefaultNamespace, opts.Implementations = cmp.Or(o.Namespace, cfg.Namespace), implementations.All()
	inputs, walkErrs := cli.FindInputs(o.Paths, cfg.Excludes, o.Roots)
	inputs.Values = o.Values
	inputs.ChartCopies = cfg.ChartDirs()
	in := inputs.LoadOne(o.IO.In, opts)
	in.Errors = append(in.Errors, walkErrs...)
	for _, e := range in.Errors {
		fmt.Fprintln(o.IO.ErrOut, cli.Escape(e.Error()))
	}
	return in, opts, nil
}

// finish is a report command's exit: 2 when inputs could not be read.
func finish(in *resolve.Inputs, err error) error {
	if err != nil {
		return outputError(err)
	}
	if len(in.Errors) > 0 {
		return &cli.ExitError{Code: cli.ExitUsage}
	}
	return nil
}
