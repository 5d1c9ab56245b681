package main

import (
	"bytes"
	"debug/elf"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"golang.org/x/mod/module"
	"golang.org/x/mod/zip"
)

// readmeSection returns the text of the README's section "## title", up
// to the next section.
func readmeSection(t *testing.T, title string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(raw), "\n## "+title+"\n")
	if !ok {
		t.Fatalf("README.md has no section %q", title)
	}
	section, _, _ := strings.Cut(after, "\n## ")
	return section
}

// shellLines returns the command lines of the ```sh blocks of text.
func shellLines(text string) []string {
	var lines []string
	for _, block := range regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(text, -1) {
		for _, l := range strings.Split(strings.TrimSpace(block[1]), "\n") {
			if l = strings.TrimSpace(l); l != "" && !strings.HasPrefix(l, "#") {
				lines = append(lines, l)
			}
		}
	}
	return lines
}

// readmeRun runs a README command line as written, with sh, from the root
// of the repository.
func readmeRun(t *testing.T, line string, env ...string) (stdout, stderr string, code int) {
	t.Helper()
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	cmd := exec.Command("sh", "-c", line)
	cmd.Dir, cmd.Env = root, append(os.Environ(), env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code = cmd.ProcessState.ExitCode()
	if err != nil && code < 0 {
		t.Fatalf("%s: %v", line, err)
	}
	return out.String(), errOut.String(), code
}

// TestReadmeQuickStart runs the README's quick start as written (build
// into bin/, then run from the root of a clone) and checks what the text
// says of each command: its exit status, and what the first one shows. A
// command added to the quick start must be added here. bin/ stands for a
// temporary directory, so that the test writes nothing into the clone.
func TestReadmeQuickStart(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gwlint, gwctl and gwlint-render")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	section := readmeSection(t, "Quick start")
	// The fenced commands, and those the prose suggests (`bin/...`).
	lines := shellLines(section)
	for _, m := range regexp.MustCompile("`(bin/[^`]+)`").FindAllStringSubmatch(section, -1) {
		lines = append(lines, m[1])
	}
	type claim struct {
		code int
		has  []string
	}
	claims := map[string]claim{
		"CGO_ENABLED=0 go build -o bin/ ./cmd/...": {0, nil},
		"bin/gwctl explain route store -n store -f testdata/examples": {0, []string{
			"spec.parentRefs[0]  Gateway infra/shared  sectionName=https", "canary", "store-v1", "store-v2", "80%", "20%"}},
		"bin/gwctl explain gateway shared -f testdata/examples": {0, []string{"Gateway infra/shared"}},
		"bin/gwctl status -f testdata/examples":                 {0, []string{"kind: List"}},
		"bin/gwlint check testdata/examples":                    {0, []string{"0 errors, 0 warnings, 0 info"}},
		"bin/gwlint check testdata/gitops/flux":                 {0, []string{"0 errors, 0 warnings, 2 info", "[input-unknown]", "[implementation-inferred]"}},
		"bin/gwctl explain gateway envoy-external -n network -f testdata/gitops/flux": {0, []string{
			"HTTPRoute default/echo", "HTTPRoute default/web"}},
		"bin/gwlint check cmd/gwlint/testdata/repo": {2, []string{"[invalid-manifest]", "[backend-not-found]"}},
		"bin/gwlint check testdata/kustomize": {1, []string{
			"testdata/kustomize/base/store.yaml:23:7: error: Service store-prod/store has no port 9090"}},
		"bin/gwlint check testdata/helm --values testdata/helm/prod-values.yaml": {1, []string{
			"testdata/helm/store/templates/httproute.yaml:19:7: error:"}},
	}
	bin := t.TempDir()
	binDir := regexp.MustCompile(`(^|\s)bin/`)
	var seen []string
	for _, line := range lines {
		if strings.HasPrefix(line, "make install") || strings.HasPrefix(withoutCgo(line), "go install ") {
			continue // TestReadmeInstall
		}
		if strings.HasPrefix(line, "docker run ") {
			// The released image: goreleaser builds it (its configuration is
			// TestReleaseConfig's), and running it needs a Docker engine.
			continue
		}
		seen = append(seen, line)
		want, ok := claims[line]
		if !ok {
			t.Errorf("the quick start runs %q, which this test does not know", line)
			continue
		}
		stdout, stderr, code := readmeRun(t, binDir.ReplaceAllString(line, "${1}"+bin+"/"))
		if code != want.code {
			t.Errorf("%s: exit %d, the README says %d\n%s", line, code, want.code, stderr)
		}
		for _, s := range want.has {
			if !strings.Contains(stdout, s) {
				t.Errorf("%s does not print %q:\n%s", line, s, stdout)
			}
		}
	}
	for line := range claims {
		if !slices.Contains(seen, line) {
			t.Errorf("the quick start no longer runs %q", line)
		}
	}
	for _, name := range []string{"gwlint", "gwctl", "gwlint-render"} {
		checkStatic(t, filepath.Join(bin, name))
	}
}

// withoutCgo is a README command line without its CGO_ENABLED=0: the
// commands are built as the release builds them (see the Makefile).
func withoutCgo(line string) string { return strings.TrimPrefix(line, "CGO_ENABLED=0 ") }

// checkStatic fails unless the ELF binary at path is statically linked
// (no program interpreter), as the README's build lines promise: a static
// binary starts sooner. Other formats are not checked.
func checkStatic(t *testing.T, path string) {
	t.Helper()
	f, err := elf.Open(path)
	if err != nil {
		return // not ELF (macOS, Windows)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("%s is dynamically linked; the README builds it with CGO_ENABLED=0", path)
		}
	}
}

// TestReadmeInstall installs gwlint and gwctl as the README says, from the
// clone, into a temporary GOBIN, and checks that the installed gwlint
// names its version. The README's other line, `go install
// module/cmd/...@main`, is TestReadmeInstallFromModule's.
func TestReadmeInstall(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gwlint and gwctl")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	gobin := t.TempDir()
	var ran bool
	for _, line := range shellLines(readmeSection(t, "Quick start")) {
		if !strings.HasPrefix(line, "make install") && !strings.HasPrefix(withoutCgo(line), "go install ./") {
			continue
		}
		if strings.HasPrefix(line, "make") {
			if _, err := exec.LookPath("make"); err != nil {
				t.Skipf("make is not installed, so %q cannot run", line)
			}
		}
		ran = true
		// VCS stamping is Go's default; a GOFLAGS in the environment may
		// have turned it off, as on some build machines.
		if _, stderr, code := readmeRun(t, line, "GOBIN="+gobin, "GOFLAGS=-buildvcs=auto"); code != 0 {
			if strings.Contains(stderr, "dial tcp") || strings.Contains(stderr, "lookup ") {
				t.Skipf("%s needs the network for modules not in the cache:\n%s", line, stderr)
			}
			t.Fatalf("%s: exit %d\n%s", line, code, stderr)
		}
	}
	if !ran {
		t.Fatal("the README's quick start no longer installs from the clone (make install)")
	}
	checkStatic(t, filepath.Join(gobin, "gwlint-render"))
	for _, bin := range []string{"gwlint", "gwctl"} {
		checkStatic(t, filepath.Join(gobin, bin))
		out, err := exec.Command(filepath.Join(gobin, bin), "version").Output()
		if err != nil {
			t.Fatalf("%s version: %v", bin, err)
		}
		if !strings.HasPrefix(string(out), bin+" ") || strings.HasPrefix(string(out), bin+" unknown") || strings.Contains(string(out), "commit unknown") {
			t.Errorf("installed %s version = %q, want its version and commit", bin, out)
		}
	}
}

// TestReadmeInstallFromModule runs the README's `go install
// module/cmd/...@main` line against this module as the Go module proxy
// serves it: a module zip of HEAD in a file:// GOPROXY, at a pseudo-version,
// since a proxy resolves versions, not branches. It proves the module
// installs without a clone: no replace directives, and every file the build
// needs is in the module zip.
func TestReadmeInstallFromModule(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gwlint and gwctl")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	const path = "github.com/gwlint/gwlint"
	var line string
	for _, l := range shellLines(readmeSection(t, "Quick start")) {
		if strings.HasPrefix(withoutCgo(l), "go install "+path+"/") {
			line = l
		}
	}
	if line == "" || !strings.Contains(line, "@main") {
		t.Fatalf("the README's quick start no longer installs %s/cmd/...@main", path)
	}
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	gitLog := exec.Command("git", "-C", root, "log", "-1", "--format=%cd %H", "--date=format-local:%Y%m%d%H%M%S")
	gitLog.Env = append(os.Environ(), "TZ=UTC")
	head, err := gitLog.Output()
	if err != nil {
		t.Skip("not a git checkout: the module zip is made from HEAD")
	}
	// HEAD's own pseudo-version: the module cache keeps what it extracted
	// under a version, so one fixed version would be HEAD's of the first run.
	stamp, commit, _ := strings.Cut(strings.TrimSpace(string(head)), " ")
	version := "v0.0.0-" + stamp + "-" + commit[:12]
	proxy := t.TempDir()
	dir := filepath.Join(proxy, path, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	zf, err := os.Create(filepath.Join(dir, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := zip.CreateFromVCS(zf, module.Version{Path: path, Version: version}, root, "HEAD", ""); err != nil {
		t.Fatalf("module zip of HEAD: %v", err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	gomod, err := exec.Command("git", "-C", root, "show", "HEAD:go.mod").Output()
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{
		"list": version + "\n", version + ".mod": string(gomod),
		version + ".info": `{"Version":"` + version + `"}`,
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	goproxy, _ := exec.Command("go", "env", "GOPROXY").Output()
	gobin := t.TempDir()
	_, stderr, code := readmeRun(t, strings.ReplaceAll(line, "@main", "@"+version), "GOBIN="+gobin,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+","+strings.TrimSpace(string(goproxy)),
		"GONOSUMDB="+path, "GOFLAGS=")
	if code != 0 {
		if strings.Contains(stderr, "dial tcp") || strings.Contains(stderr, "lookup ") {
			t.Skipf("the module's dependencies need the network:\n%s", stderr)
		}
		t.Fatalf("%s: exit %d\n%s", line, code, stderr)
	}
	checkStatic(t, filepath.Join(gobin, "gwlint-render"))
	for _, bin := range []string{"gwlint", "gwctl"} {
		checkStatic(t, filepath.Join(gobin, bin))
		out, err := exec.Command(filepath.Join(gobin, bin), "version").Output()
		if err != nil {
			t.Fatalf("%s version: %v", bin, err)
		}
		if !strings.HasPrefix(string(out), bin+" "+version) {
			t.Errorf("installed %s version = %q, want %s", bin, out, version)
		}
	}
}
