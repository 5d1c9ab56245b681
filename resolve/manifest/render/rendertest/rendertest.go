// Package rendertest gives the tests that render a render worker: the
// gwlint-render program, which a Renderer looks for beside its executable
// and then on PATH, is neither beside a test binary nor installed in a
// fresh clone.
package rendertest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// Main is the TestMain of a package whose tests render: it runs them with
// a worker built from this module first on PATH, and exits with their
// status.
func Main(m *testing.M) { os.Exit(Run(m)) }

// Run builds the worker (cmd/gwlint-render) into a temporary directory,
// puts that directory first on PATH, runs the tests and removes it,
// returning the tests' status.
func Run(m *testing.M) int {
	dir, err := os.MkdirTemp("", "gwlint-render")
	if err != nil {
		fmt.Fprintln(os.Stderr, "rendertest:", err)
		return 2
	}
	defer os.RemoveAll(dir)
	// -o dir/ names the program as go install does (.exe on Windows).
	build := exec.Command("go", "build", "-o", dir+string(filepath.Separator), "github.com/gwlint/gwlint/cmd/"+render.WorkerProgram)
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "rendertest: building the render worker: %v\n%s", err, out)
		return 2
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return m.Run()
}
