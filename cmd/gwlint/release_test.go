package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestReleaseConfig checks .goreleaser.yaml with goreleaser itself and
// builds a snapshot of both binaries for this platform, when goreleaser is
// installed (it is not a dependency of the build: go install
// github.com/goreleaser/goreleaser/v2@v2.15.1). The full cross-platform
// snapshot (goreleaser release --snapshot --clean --skip=docker,sbom) takes
// minutes, too long for a test.
func TestReleaseConfig(t *testing.T) {
	goreleaser, err := exec.LookPath("goreleaser")
	if err != nil {
		t.Skip("goreleaser is not installed; skipping the release configuration check")
	}
	if testing.Short() {
		t.Skip("builds both binaries")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(goreleaser, args...)
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("goreleaser %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	run("check")
	// --output copies the binary out of dist/ (ignored by git).
	bin := filepath.Join(t.TempDir(), "gwlint")
	run("build", "--snapshot", "--clean", "--single-target", "--skip=before", "--id=gwlint", "--output="+bin)
	out, err := exec.Command(bin, "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "gwlint ") || !strings.Contains(string(out), "SNAPSHOT") {
		t.Errorf("snapshot binary: gwlint version = %q, %v; want the snapshot's version", out, err)
	}
}
