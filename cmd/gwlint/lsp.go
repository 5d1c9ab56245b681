package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/lsp"
)

func newLSPCmd(streams *cli.IOStreams, runF func(*checkOptions) error) *cobra.Command {
	opts := &checkOptions{IO: streams}
	cmd := &cobra.Command{
		Use:   "lsp",
		Short: "Serve the Language Server Protocol over stdio, for editors",
		Long: `Lsp is a Language Server Protocol server over stdin and stdout, for
editors. It serves every workspace folder as gwlint check DIR would (the
same configuration file, flags, Kustomize, Helm and GitOps assembly) and
keeps what it read in memory: an edit re-reads that document only.

It publishes diagnostics for every open document and every file of the
workspace with findings, answers hover on parentRefs, backendRefs, rules,
listeners and policy targetRefs, goes to the definition of references
(and from a listener to the routes attached), and offers the fixes gwlint
knows as code actions. docs/lsp.md says how to set up VS Code, Neovim and
Helix.`,
		Example: `  gwlint lsp
  gwlint lsp --implementation envoy-gateway`,
		Args: cobra.NoArgs,
		RunE: cli.RunE(opts, opts.completeInputs, runF, runLSP),
	}
	opts.addInputFlags(cmd)
	return cmd
}

func runLSP(opts *checkOptions) error {
	return lsp.Serve(context.Background(), lsp.Stdio(opts.IO.In, opts.IO.Out), opts.lspSetup, lsp.Debounce)
}

// lspSetup sets up a workspace folder as gwlint check PATH would, with
// the flags given to gwlint lsp.
func (o *checkOptions) lspSetup(path string) (*lsp.Setup, error) {
	folder := *o
	folder.Paths = []string{path}
	s, err := folder.settings()
	if err != nil {
		return nil, err
	}
	inputs, walkErrs := folder.findInputs(s)
	return &lsp.Setup{Inputs: inputs, WalkErrors: walkErrs, Options: s.resolve, Rules: s.config.Rules()}, nil
}
