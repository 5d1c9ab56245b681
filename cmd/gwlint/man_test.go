package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestManPages: `gwlint man` writes a valid page for every command, and the
// Homebrew cask of .goreleaser.yaml installs every one of them.
func TestManPages(t *testing.T) {
	pages := clitest.CheckManPages(t, newRootCmd)
	shipped := slices.DeleteFunc(clitest.ReleaseManPages(t, "../.."), func(p string) bool { return !strings.HasPrefix(p, "gwlint") })
	if !slices.Equal(shipped, pages) {
		t.Errorf(".goreleaser.yaml's cask installs the man pages\n%q\nwant\n%q", shipped, pages)
	}
}
