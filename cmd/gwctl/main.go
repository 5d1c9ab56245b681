// Command gwctl explains, offline, what a conformant Gateway API controller
// would make of a set of manifests: which listeners a route attaches to,
// how its rules split traffic, and the status it would write.
package main

import (
	"os"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// Release builds set these: -ldflags "-X main.version=... -X main.commit=...
// -X main.date=...". Other builds take them from the Go build information.
var version, commit, date string

func buildInfo() cli.BuildInfo {
	return cli.BuildInfo{Version: version, Commit: commit, Date: date}.Resolve()
}

func main() {
	os.Exit(cli.Main(newRootCmd))
}
