// Command gwctl explains, offline, what a conformant Gateway API controller
// would make of a set of manifests: which listeners a route attaches to,
// how its rules split traffic, and the status it would write.
package main

import (
	"os"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// version is set at build time: -ldflags "-X main.version=...".
var version = "dev"

func main() {
	os.Exit(cli.Run(newRootCmd, os.Args[1:], cli.System()))
}
