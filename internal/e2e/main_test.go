package e2e

import (
	"os"
	"testing"
)

// TestMain removes the commands built for the benchmarks (command): about
// 100 MB a run, which would otherwise stay in the temporary directory.
func TestMain(m *testing.M) {
	code := m.Run()
	if builtDir != "" {
		os.RemoveAll(builtDir)
	}
	os.Exit(code)
}
