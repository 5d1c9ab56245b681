package main

import (
	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

type statusOptions struct {
	IO *cli.IOStreams
	inputOptions
	Output string
}

func newStatusCmd(streams *cli.IOStreams, runF func(*statusOptions) error) *cobra.Command {
	opts := &statusOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Print the status a controller would write for every object",
		Long: `Print, as a v1 List, the .status a conformant controller would write for
every Gateway and ListenerSet it manages and for every route: conditions
with the API's reasons, listener attachedRoutes and supportedKinds, and
route parent statuses. Each item is apiVersion, kind, metadata (name,
namespace, generation) and status.

lastTransitionTime is unknowable offline and is always the Unix epoch, so
the output is deterministic.`,
		Example: `  gwctl status -f testdata/examples
  gwctl status -f manifests/ -o json | jq '.items[] | select(.kind == "HTTPRoute")'
  kustomize build overlays/prod | gwctl status -f -`,
		Args: cobra.NoArgs,
		RunE: cli.RunE(opts, func(*cobra.Command, []string) error {
			if err := cli.CheckPaths(opts.Filenames); err != nil {
				return err
			}
			return cli.OneOf("output", opts.Output, formatYAML, formatJSON)
		}, runF, runStatus),
	}
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Output, "output", "o", formatYAML, "output format: yaml or json")
	return cmd
}

// statusList is a `kubectl get -o yaml`-shaped v1 List, so the output can
// be read back by tools that read such lists.
type statusList struct {
	APIVersion string                 `json:"apiVersion"`
	Kind       string                 `json:"kind"`
	Items      []resolve.StatusObject `json:"items"`
}

func runStatus(opts *statusOptions) error {
	g, inputFailed := loadGraph(&opts.inputOptions, opts.IO)
	list := statusList{APIVersion: "v1", Kind: "List", Items: g.Statuses()}
	if list.Items == nil {
		list.Items = []resolve.StatusObject{} // "items: []", not null
	}
	return withInputErrors(outputError(writeMachine(opts.IO.Out, opts.Output, list)), inputFailed)
}
