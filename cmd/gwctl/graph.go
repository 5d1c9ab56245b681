package main

import (
	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

type graphOptions struct {
	IO *cli.IOStreams
	inputOptions
	Output string
}

func newGraphCmd(streams *cli.IOStreams, runF func(*graphOptions) error) *cobra.Command {
	opts := &graphOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "graph",
		Short: "Draw every Gateway, route and backend as a Mermaid or Graphviz diagram",
		Long: `Draw the whole resolved tree: every Gateway → its listeners (and its
ListenerSets') → the routes attached to them (refused ones dashed, with the
reason) → their rules → backends, each backend edge labelled with its weight
and share; then every Service with mesh routes bound to it, and every
policy with an edge to each of its targets (dashed, with the reason, where
it does not apply). Objects are
coloured by verdict: accepted (green), degraded (yellow: accepted, but part
of the traffic fails) and refused (red).

Mermaid renders in GitHub comments and Markdown; pipe DOT to Graphviz:
gwctl graph -o dot | dot -Tsvg > graph.svg`,
		Example: `  gwctl graph -f testdata/examples
  gwctl graph -f manifests/ -o dot | dot -Tsvg > graph.svg`,
		Args: cobra.NoArgs,
		RunE: cli.RunE(opts, func(cmd *cobra.Command, _ []string) error {
			if err := opts.inputOptions.complete(cmd.Flags()); err != nil {
				return err
			}
			return cli.OneOf("output", opts.Output, formatMermaid, formatDOT)
		}, runF, runGraph),
	}
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Output, "output", "o", formatMermaid, "output format: mermaid or dot")
	return cmd
}

func runGraph(opts *graphOptions) error {
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, nil)
	d := newDiagram()
	for _, gw := range g.Gateways {
		d.addGateway(gw)
	}
	for _, s := range g.Services {
		d.addMeshService(s)
	}
	for _, p := range g.Policies {
		d.addPolicy(p)
	}
	return withInputErrors(outputError(d.write(opts.IO.Out, opts.Output)), inputFailed)
}

// serviceDiagram draws a Service: the mesh routes bound to it, and the
// routes whose rules send it traffic.
func serviceDiagram(g *resolve.Graph, svc *resolve.ServiceResult) *diagram {
	d := newDiagram()
	d.addMeshService(svc)
	for _, r := range g.Routes {
		for _, rr := range r.Rules {
			for _, b := range rr.Backends {
				if b.Target == svc.Ref {
					d.addRoute(r)
				}
			}
		}
	}
	return d
}
