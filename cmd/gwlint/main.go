// Command gwlint checks Kubernetes Gateway API manifests offline, in CI and
// pre-commit: every finding is a rule id, a severity and a file:line:col,
// printed as text, JSON, SARIF, GitHub workflow commands, Code Climate
// (GitLab Code Quality) or JUnit XML.
//
// main only wires: check.go is `gwlint check`, rules.go `gwlint rules`,
// output*.go the formatters. The rules, the configuration file and ignore
// handling live in package lint; reading and resolving in package resolve.
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
