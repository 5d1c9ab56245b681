package main

import (
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestDocs keeps docs/gwctl.md in step with the code: every command, every
// flag and every schema kind must be documented there.
func TestDocs(t *testing.T) {
	doc := clitest.ReadDoc(t, "../../docs/gwctl.md", "docs/gwctl.md")
	doc.Mentions(t, viewAPIVersion, "RouteExplanation", "GatewayExplanation", "ServiceExplanation", "RequestTrace", "`Diff`")
	doc.DocumentsCommands(t, newRootCmd(clitest.Discard()))
}
