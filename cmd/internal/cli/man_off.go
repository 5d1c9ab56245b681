//go:build !manpages && !gwlintdev

package cli

import "github.com/spf13/cobra"

// newManCmd is nil in the binaries users run: the man command is built
// with the manpages tag (see man.go).
func newManCmd(string, BuildInfo) *cobra.Command { return nil }
