package main

import (
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestManPages: `gwctl man` writes a valid page for every command, and the
// Homebrew cask of .goreleaser.yaml installs every one of them.
func TestManPages(t *testing.T) {
	clitest.CheckManPages(t, newRootCmd, "../..")
}
