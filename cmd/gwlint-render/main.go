// Command gwlint-render is the render worker of gwlint and gwctl: they
// start it to build a kustomization or render a Helm chart, offline and
// within bounds, and read what it rendered over its pipes. It is not a
// command of its own; install it beside gwlint (make install, go install,
// or a release archive).
//
// It is a program of its own so that Helm's and kustomize's packages, and
// their initialisation, are paid for only by a run that renders.
package main

import (
	"os"

	"github.com/gwlint/gwlint/resolve/manifest/render/worker"
)

func main() { os.Exit(worker.Main()) }
