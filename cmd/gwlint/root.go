package main

import (
	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// exitFindings is gwlint's own exit status: a finding at or above
// --fail-on. cli.ExitOK and cli.ExitUsage are the others.
const exitFindings = 1

func newRootCmd(streams *cli.IOStreams) *cobra.Command {
	return cli.SetupRoot(&cobra.Command{
		Use:   "gwlint",
		Short: "Lint Gateway API manifests offline",
		Long: `gwlint checks Kubernetes Gateway API manifests without a cluster, for CI and
pre-commit: routes that attach nowhere, backends that do not resolve,
conflicting listeners, and more. Every finding names a rule, a severity and
the file, line and column of the field at fault.

It decides nothing itself: the resolver that gwctl explains with decides
every attachment and reference, so the two tools always agree.`,
		Example: `  # Check the manifests under the current directory
  gwlint check

  # In CI: fail on warnings too, report to GitHub code scanning
  gwlint check --fail-on warning -o sarif deploy/ > gwlint.sarif

  # What does a rule mean?
  gwlint rules backend-not-found`,
	}, streams, buildInfo(), newCheckCmd(streams, nil), newBaselineCmd(streams, nil), newFeaturesCmd(streams, nil), newReleasesCmd(streams, nil), newRulesCmd(streams, nil), newLSPCmd(streams, nil))
}
