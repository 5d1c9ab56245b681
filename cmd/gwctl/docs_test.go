package main

import (
	"path/filepath"
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

// TestDocSamples runs the commands that the gwctl samples of README.md and
// docs/ are marked with, and compares what they print (see gwlint's
// TestDocSamples, which also checks that every sample is marked).
func TestDocSamples(t *testing.T) {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	clitest.CheckSamples(t, root, clitest.ReadSamples(t, root, clitest.DocFiles(t, root)), "gwctl", newRootCmd)
}
