package main

import (
	"crypto/x509"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"go.yaml.in/yaml/v3"
)

// The version variables the test builds the image's binaries with, as the
// release sets them from its version, commit and commit date.
const imageVersion, imageCommit, imageDate = "0.0.0-image", "0123456789abcdef0123456789abcdef01234567", "2026-01-02T03:04:05Z"

// imageConfig is what the test reads of the built image.
type imageConfig struct {
	User       string
	Env        []string
	Entrypoint []string
	WorkingDir string
	Labels     map[string]string
}

// TestReleaseImage builds the release image from the Dockerfile as
// .goreleaser.yaml's dockers_v2 entry has goreleaser build it, without a
// registry, and runs it on the repository's testdata: with `podman run`,
// testdata mounted at the image's working directory, or, where this machine
// lets podman build but not run containers, in a chroot of the image's
// exported filesystem, with its entrypoint, user, environment and working
// directory. Skipped without podman, or when not root (podman keeps its
// storage in the test's directory, and the chroot needs root).
func TestReleaseImage(t *testing.T) {
	podman, err := exec.LookPath("podman")
	if err != nil {
		t.Skip("podman is not installed (apt-get install podman); skipping the release image")
	}
	if os.Geteuid() != 0 {
		t.Skip("the release image is built and run with rootful podman; skipping when not root")
	}
	if testing.Short() {
		t.Skip("builds the binaries and the release image")
	}
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	// podman keeps its images, containers and state in the test's
	// directory, with the drivers that need nothing of the machine: vfs
	// storage, cgroupfs, events in a file; runc where installed, as crun
	// refuses hosts that mix cgroup v1 and v2 controllers.
	state := filepath.Join(tmp, "podman")
	global := []string{"--root", filepath.Join(state, "root"), "--runroot", filepath.Join(state, "run"),
		"--tmpdir", filepath.Join(state, "tmp"), "--storage-driver=vfs", "--cgroup-manager=cgroupfs", "--events-backend=file"}
	if _, err := exec.LookPath("runc"); err == nil {
		global = append(global, "--runtime", "runc")
	}
	podmanCmd := func(args ...string) *exec.Cmd {
		return exec.Command(podman, append(slices.Clone(global), args...)...)
	}

	const image = "localhost/gwlint:imagetest"
	context := filepath.Join(tmp, "context")
	platform, buildArgs := imageContext(t, root, context)
	stdoutOf(t, podmanCmd(append(append([]string{"build", "--pull=never", "--network=none", "--platform", platform, "-t", image},
		buildArgs...), context)...))
	var inspected []struct{ Config imageConfig }
	if err := json.Unmarshal(stdoutOf(t, podmanCmd("image", "inspect", image)), &inspected); err != nil || len(inspected) != 1 {
		t.Fatalf("podman image inspect: %v (%d images)", err, len(inspected))
	}
	config := inspected[0].Config
	uid, gid, ok := strings.Cut(config.User, ":")
	uidN, errU := strconv.Atoi(uid)
	gidN, errG := strconv.Atoi(gid)
	if !ok || errU != nil || errG != nil || uidN == 0 {
		t.Fatalf("the image's user is %q, want a non-root uid:gid by number (Kubernetes' runAsNonRoot checks it)", config.User)
	}
	if config.WorkingDir != "/src" || !slices.Equal(config.Entrypoint, []string{"/usr/local/bin/gwlint"}) {
		t.Errorf("the image's working directory is %q and entrypoint %q, want /src and gwlint", config.WorkingDir, config.Entrypoint)
	}
	for label, want := range map[string]string{
		"org.opencontainers.image.title":    "gwlint",
		"org.opencontainers.image.source":   "https://github.com/gwlint/gwlint",
		"org.opencontainers.image.licenses": "Apache-2.0",
		"org.opencontainers.image.version":  imageVersion,
		"org.opencontainers.image.revision": imageCommit,
		"org.opencontainers.image.created":  imageDate,
	} {
		if got := config.Labels[label]; got != want {
			t.Errorf("label %s = %q, want %q", label, got, want)
		}
	}

	// The image's filesystem: its user in /etc/passwd, the CA bundle.
	rootfs := filepath.Join(tmp, "rootfs")
	if err := os.Mkdir(rootfs, 0o755); err != nil {
		t.Fatal(err)
	}
	container := strings.TrimSpace(string(stdoutOf(t, podmanCmd("create", image))))
	stdoutOf(t, podmanCmd("export", "-o", rootfs+".tar", container))
	stdoutOf(t, exec.Command("tar", "-xf", rootfs+".tar", "-C", rootfs))
	passwd, err := os.ReadFile(filepath.Join(rootfs, "etc", "passwd"))
	if err != nil || !strings.Contains(string(passwd), ":"+uid+":"+gid+":") {
		t.Errorf("the image's /etc/passwd has no entry for its user %s (%v):\n%s", config.User, err, passwd)
	}
	bundle, err := os.ReadFile(filepath.Join(rootfs, "etc", "ssl", "certs", "ca-certificates.crt"))
	if err != nil || !x509.NewCertPool().AppendCertsFromPEM(bundle) {
		t.Errorf("the image has no CA bundle at /etc/ssl/certs/ca-certificates.crt (%v)", err)
	}

	testdata := filepath.Join(root, "testdata")
	runImage := func(entrypoint string, args ...string) (string, int) {
		return resultOf(t, podmanCmd(append([]string{"run", "--rm", "--network=none",
			// podman's limits for root (1048576 files, 4194304 processes)
			// are more than a sandboxed CI lets even root set.
			"--ulimit", "nofile=4096:4096", "--ulimit", "nproc=4096:4096",
			"-v", testdata + ":" + config.WorkingDir + ":ro", "--entrypoint", entrypoint, image}, args...)...))
	}
	gwlint, gwctl := config.Entrypoint[0], "/usr/local/bin/gwctl"
	// podman exits 125 to 127 when it could not run the container at all.
	if out, code := runImage(gwlint, "version"); code >= 125 {
		t.Logf("podman cannot run containers here; running the image's filesystem in a chroot instead:\n%s", out)
		if err := os.CopyFS(filepath.Join(rootfs, config.WorkingDir), os.DirFS(testdata)); err != nil {
			t.Fatal(err)
		}
		runtimeMounts(t, rootfs)
		runImage = func(entrypoint string, args ...string) (string, int) {
			cmd := exec.Command(entrypoint, args...)
			cmd.Dir, cmd.Env = config.WorkingDir, config.Env
			cmd.SysProcAttr = &syscall.SysProcAttr{Chroot: rootfs, Credential: &syscall.Credential{Uid: uint32(uidN), Gid: uint32(gidN)}}
			return resultOf(t, cmd)
		}
	}

	for _, bin := range []string{gwlint, gwctl} {
		want := filepath.Base(bin) + " " + imageVersion + " (commit " + imageCommit + ", built " + imageDate + ", go"
		if out, code := runImage(bin, "version"); code != 0 || !strings.HasPrefix(out, want) {
			t.Errorf("%s version: exit %d, %q; want %q...", bin, code, out, want)
		}
	}
	if out, code := runImage(gwlint, "check", "examples"); code != 0 || !strings.Contains(out, "0 errors, 0 warnings, 0 info in 5 files") {
		t.Errorf("gwlint check examples: exit %d, want 0 and a clean run:\n%s", code, out)
	}
	// A chart rendered with a values file: the render sandbox's worker
	// (gwlint re-executed) runs in the image too, as its user.
	out, code := runImage(gwlint, "check", "helm", "--values", "helm/prod-values.yaml")
	finding := "helm/store/templates/httproute.yaml:19:7: error: Service default/release-name-store has no port 8080 (ports: 8443/http); its 100% share of rules[0] gets HTTP 500 [backend-port-not-found]\n"
	if code != 1 || !strings.HasPrefix(out, finding) || !strings.Contains(out, "1 error, 0 warnings, 0 info in 1 file") {
		t.Errorf("gwlint check helm --values helm/prod-values.yaml: exit %d, want 1 and the finding\n%s\ngot:\n%s", code, finding, out)
	}
}

// imageContext writes into dir the build context goreleaser assembles for
// the image (its makeContext) from .goreleaser.yaml's dockers_v2 entry: the
// Dockerfile, the extra files (imagefs/, which the before hook
// hack/imagefs.sh writes) and the binaries of its ids under the platform,
// built as goreleaser builds them (CGO_ENABLED=0, -trimpath) with the
// version variables set to the test's. It returns the platform and the
// --build-arg flags, the release's templates given the test's values.
func imageContext(t *testing.T, root, dir string) (platform string, buildArgs []string) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	type build struct {
		ID     string `yaml:"id"`
		Main   string `yaml:"main"`
		Binary string `yaml:"binary"`
	}
	var cfg struct {
		Before struct {
			Hooks []string `yaml:"hooks"`
		} `yaml:"before"`
		Builds  []build `yaml:"builds"`
		Dockers []struct {
			Dockerfile string            `yaml:"dockerfile"`
			IDs        []string          `yaml:"ids"`
			ExtraFiles []string          `yaml:"extra_files"`
			BuildArgs  map[string]string `yaml:"build_args"`
			Platforms  []string          `yaml:"platforms"`
		} `yaml:"dockers_v2"`
	}
	if err := yaml.Unmarshal(raw, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Dockers) != 1 {
		t.Fatalf(".goreleaser.yaml has %d dockers_v2 entries, want the one image", len(cfg.Dockers))
	}
	d := cfg.Dockers[0]
	platform = "linux/" + runtime.GOARCH
	if !slices.Contains(d.Platforms, platform) {
		t.Fatalf("the image is not built for %s: platforms %q", platform, d.Platforms)
	}
	if !slices.Contains(cfg.Before.Hooks, "sh hack/imagefs.sh") || !slices.Equal(d.ExtraFiles, []string{"imagefs"}) {
		t.Fatalf("the image's context is imagefs/ from the before hook hack/imagefs.sh; .goreleaser.yaml has hooks %q, extra_files %q",
			cfg.Before.Hooks, d.ExtraFiles)
	}
	imagefs := exec.Command("sh", "hack/imagefs.sh", filepath.Join(dir, "imagefs"))
	imagefs.Dir = root
	stdoutOf(t, imagefs)
	dockerfile, err := os.ReadFile(filepath.Join(root, d.Dockerfile))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "Dockerfile"), dockerfile, 0o644); err != nil {
		t.Fatal(err)
	}
	ldflags := "-s -w -X main.version=" + imageVersion + " -X main.commit=" + imageCommit + " -X main.date=" + imageDate
	for _, id := range d.IDs {
		i := slices.IndexFunc(cfg.Builds, func(b build) bool { return b.ID == id })
		if i < 0 {
			t.Fatalf("the image's ids name build %q, which .goreleaser.yaml lacks", id)
		}
		goBuild := exec.Command("go", "build", "-trimpath", "-buildvcs=false", "-ldflags", ldflags,
			"-o", filepath.Join(dir, platform, cfg.Builds[i].Binary), cfg.Builds[i].Main)
		goBuild.Dir = root
		goBuild.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+runtime.GOARCH)
		stdoutOf(t, goBuild)
	}
	values := map[string]string{"{{ .Version }}": imageVersion, "{{ .FullCommit }}": imageCommit, "{{ .CommitDate }}": imageDate}
	for name, template := range d.BuildArgs {
		value, ok := values[template]
		if !ok {
			t.Fatalf("build argument %s is %q: the test knows no value for it", name, template)
		}
		buildArgs = append(buildArgs, "--build-arg", name+"="+value)
	}
	return platform, buildArgs
}

// runtimeMounts gives a chroot of the image what a container runtime gives
// the container besides the image: /proc (the render worker re-executes
// /proc/self/exe) and /dev/null (where a child's unset input is read). The
// mounts are detached before t's directories are removed (cleanups run
// last-registered first), so that nothing under them is.
func runtimeMounts(t *testing.T, rootfs string) {
	t.Helper()
	for _, m := range []struct {
		source, target, fstype string
		flags                  uintptr
	}{
		{"proc", "proc", "proc", 0},
		{"/dev/null", "dev/null", "", syscall.MS_BIND},
	} {
		target := filepath.Join(rootfs, m.target)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			t.Fatal(err)
		}
		// A directory to mount a file system on, a file to bind a file on.
		var err error
		if m.fstype != "" {
			err = os.Mkdir(target, 0o555)
		} else {
			err = os.WriteFile(target, nil, 0o666)
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Mount(m.source, target, m.fstype, m.flags, ""); err != nil {
			t.Skipf("cannot mount %s in the chroot of the image (%v): the image was built and inspected, not run", m.target, err)
		}
		t.Cleanup(func() { syscall.Unmount(target, syscall.MNT_DETACH) })
	}
}

// stdoutOf runs cmd and returns its standard output; a failure fails the test
// with its standard error.
func stdoutOf(t *testing.T, cmd *exec.Cmd) []byte {
	t.Helper()
	out, err := cmd.Output()
	if err != nil {
		var stderr []byte
		if exit, ok := errors.AsType[*exec.ExitError](err); ok {
			stderr = exit.Stderr
		}
		t.Fatalf("%s: %v\n%s", cmd, err, stderr)
	}
	return out
}

// resultOf runs cmd and returns its output and exit code; a command that
// could not start fails the test.
func resultOf(t *testing.T, cmd *exec.Cmd) (string, int) {
	t.Helper()
	out, err := cmd.CombinedOutput()
	if _, ok := errors.AsType[*exec.ExitError](err); err != nil && !ok {
		t.Fatalf("%s: %v", cmd, err)
	}
	return string(out), cmd.ProcessState.ExitCode()
}
