package clitest

import (
	"os"
	"os/exec"
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest/render/rendertest"
)

// processEnv, set in the environment of a command package's test binary,
// makes it the command instead of the tests: see Main and Command.
const processEnv = "GWLINT_CLITEST_MAIN"

// Main is a command package's TestMain: it runs the tests, with a render
// worker built from this module on PATH (rendertest), unless Command
// started the test binary, which is then the command itself: main runs
// with the arguments Command gave, as the built binary would.
func Main(m *testing.M, main func()) {
	if os.Getenv(processEnv) != "" {
		main()
		os.Exit(0)
	}
	os.Exit(rendertest.Run(m))
}

// Command returns the command of the package under test as a process that
// runs with args (see Main), for the tests that need a real process: to
// signal it, or to close its output.
func Command(t testing.TB, args ...string) *exec.Cmd {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, args...)
	cmd.Env = append(os.Environ(), processEnv+"=1")
	return cmd
}
