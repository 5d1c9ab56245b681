package main

import (
	"bufio"
	"bytes"
	"cmp"
	"io"

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
every Gateway and ListenerSet it manages, for every route, every
BackendTLSPolicy and every policy of a kind whose implementation's
behaviour gwlint models (Envoy Gateway's): conditions with the API's
reasons, listener attachedRoutes and supportedKinds, route parent statuses,
and policy ancestors (GEP-713: the Gateways a BackendTLSPolicy's Services
are reached through, a policy's targets or the Gateways of its routes). Each item is apiVersion, kind, metadata (name,
namespace, generation) and status.

lastTransitionTime is unknowable offline and is always the Unix epoch, so
the output is deterministic.`,
		Example: `  gwctl status -f testdata/examples
  gwctl status -f manifests/ -o json | jq '.items[] | select(.kind == "HTTPRoute")'
  kustomize build overlays/prod | gwctl status -f -`,
		Args: cobra.NoArgs,
		RunE: cli.RunE(opts, func(cmd *cobra.Command, _ []string) error {
			if err := opts.inputOptions.complete(cmd.Flags()); err != nil {
				return err
			}
			return cli.OneOf("output", opts.Output, formatYAML, formatJSON)
		}, runF, runStatus),
	}
	opts.addFlags(cmd.Flags())
	cmd.Flags().StringVarP(&opts.Output, "output", "o", formatYAML, "output format: yaml or json")
	return cmd
}

func runStatus(opts *statusOptions) error {
	g, others, inputFailed := loadGraph(&opts.inputOptions, opts.IO, nil)
	// Every world's statuses, each as its own world decides them; an
	// object several worlds hold (a base two overlays share) once.
	statuses := g.Statuses()
	seen := map[string]bool{}
	key := func(s resolve.StatusObject) string {
		return s.Kind + "/" + s.Metadata.Namespace + "/" + s.Metadata.Name
	}
	for _, s := range statuses {
		seen[key(s)] = true
	}
	for _, other := range others {
		for _, s := range other.Statuses() {
			if !seen[key(s)] {
				seen[key(s)] = true
				statuses = append(statuses, s)
			}
		}
	}
	return withInputErrors(outputError(writeStatusList(opts.IO.Out, opts.Output, statuses)), inputFailed)
}

// writeStatusList prints items as a `kubectl get -o yaml`-shaped v1 List,
// so that tools that read such lists can read it back: exactly what
// writeMachine would print for the whole List, written an item at a time,
// so that no more than one item's text is held at once (the text of a
// whole large List cost 5 GB).
func writeStatusList(w io.Writer, format string, items []resolve.StatusObject) error {
	bw := bufio.NewWriter(w)
	var head, sep, tail, empty string
	if format == formatJSON {
		head, sep, tail = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": [\n", ",\n", "\n  ]\n}\n"
		empty = "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": []\n}\n"
	} else {
		// sigs.k8s.io/yaml sorts keys: apiVersion, items, kind.
		head, tail = "apiVersion: v1\nitems:\n", "kind: List\n"
		empty = "apiVersion: v1\nitems: []\nkind: List\n"
	}
	if len(items) == 0 {
		_, err := bw.WriteString(empty)
		return cmp.Or(err, bw.Flush())
	}
	bw.WriteString(head)
	var buf bytes.Buffer
	for i, item := range items {
		buf.Reset()
		if err := writeMachine(&buf, format, item); err != nil {
			return err
		}
		if i > 0 {
			bw.WriteString(sep)
		}
		// Indent the item as an element of items.
		first, lead, rest := "    ", "    ", bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
		if format != formatJSON {
			first, lead = "- ", "  "
		}
		for j, line := range bytes.Split(rest, []byte("\n")) {
			prefix := lead
			if j == 0 {
				prefix = first
			} else {
				bw.WriteByte('\n')
			}
			if len(line) > 0 {
				bw.WriteString(prefix)
			}
			bw.Write(line)
		}
		if format != formatJSON {
			bw.WriteByte('\n')
		}
	}
	bw.WriteString(tail)
	return bw.Flush()
}
