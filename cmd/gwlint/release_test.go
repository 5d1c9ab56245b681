package main

import (
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
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

// TestReleaseArchive makes a snapshot release for this platform alone, as
// the release makes one for each (the before hooks, the build, the
// archive; not the image or the SBOMs, which need docker and syft), and
// installs from its archive as the README says: unpacked, gwlint names the
// snapshot's version, and the archive holds the licence, the docs, the
// shell completions and the man pages, which the Homebrew cask installs.
// Skipped without goreleaser.
func TestReleaseArchive(t *testing.T) {
	goreleaser, err := exec.LookPath("goreleaser")
	if err != nil {
		t.Skip("goreleaser is not installed; skipping the snapshot release")
	}
	if testing.Short() {
		t.Skip("builds a snapshot release")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg map[string]any
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	for _, b := range cfg["builds"].([]any) {
		b.(map[string]any)["goos"] = []string{runtime.GOOS}
		b.(map[string]any)["goarch"] = []string{runtime.GOARCH}
	}
	one, err := yaml.Marshal(cfg)
	if err != nil {
		t.Fatal(err)
	}
	config := filepath.Join(t.TempDir(), "goreleaser.yaml")
	if err := os.WriteFile(config, one, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(goreleaser, "release", "--snapshot", "--clean", "--skip=docker,sbom", "--config", config)
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("goreleaser release --snapshot: %v\n%s", err, out)
	}
	archives, _ := filepath.Glob(filepath.Join(root, "dist", "gwlint_*_"+runtime.GOOS+"_"+runtime.GOARCH+"*.tar.gz"))
	if len(archives) != 1 {
		t.Fatalf("archives for %s/%s: %q, want one", runtime.GOOS, runtime.GOARCH, archives)
	}
	dir := t.TempDir()
	if out, err := exec.Command("tar", "-xzf", archives[0], "-C", dir).CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, out)
	}
	for _, f := range []string{"gwlint", "gwctl", "gwlint-render", "LICENSE", "README.md", "docs/gwlint.md",
		"completions/gwlint.bash", "completions/gwctl.zsh", "man/man1/gwlint.1", "man/man1/gwlint-check.1", "man/man1/gwctl-explain-route.1"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("the archive lacks %s", f)
		}
	}
	out, err := exec.Command(filepath.Join(dir, "gwlint"), "version").Output()
	if err != nil || !strings.HasPrefix(string(out), "gwlint ") || !strings.Contains(string(out), "SNAPSHOT") {
		t.Errorf("unpacked gwlint version = %q, %v; want the snapshot's version", out, err)
	}
	if runtime.GOOS == "linux" {
		checkImageBinaries(t, dir, filepath.Join(root, "testdata", "examples"))
	}
	cask, err := os.ReadFile(filepath.Join(root, "dist", "homebrew", "Casks", "gwlint.rb"))
	if err != nil || !strings.Contains(string(cask), `manpage "man/man1/gwlint-check.1"`) {
		t.Errorf("the Homebrew cask does not install the man pages (%v):\n%s", err, cask)
	}
}

// checkImageBinaries checks what the release image (Dockerfile) needs of
// the archive's binaries, which goreleaser copies onto its empty base:
// that image has no C library and no environment, so they must be static
// and work with none, as `docker run -v "$PWD:/src" IMAGE check .` runs
// gwlint. TestReleaseImage builds and runs the image itself.
func checkImageBinaries(t *testing.T, dir, examples string) {
	t.Helper()
	for _, bin := range []string{"gwlint", "gwctl", "gwlint-render"} {
		f, err := elf.Open(filepath.Join(dir, bin))
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range f.Progs {
			if p.Type == elf.PT_INTERP {
				t.Errorf("%s needs a dynamic loader, which the image lacks", bin)
			}
		}
		f.Close()
	}
	cmd := exec.Command(filepath.Join(dir, "gwlint"), "check", ".")
	cmd.Dir, cmd.Env = examples, []string{}
	if out, err := cmd.CombinedOutput(); err != nil || !strings.Contains(string(out), "0 errors") {
		t.Errorf("gwlint check . with no environment: %v\n%s", err, out)
	}
}
