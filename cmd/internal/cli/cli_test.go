package cli

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/fatih/color"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/gwlint/gwlint/resolve/manifest"
)

func TestSystem(t *testing.T) {
	t.Setenv("NO_COLOR", "1")
	s := System()
	if s.In != os.Stdin || s.Out != os.Stdout || s.ErrOut != os.Stderr {
		t.Error("System does not use the process's streams")
	}
	if !s.NoColor {
		t.Error("NO_COLOR=1 not seen")
	}
	t.Setenv("NO_COLOR", "")
	if System().NoColor {
		t.Error("an empty NO_COLOR counts as set")
	}
}

func TestColorEnabled(t *testing.T) {
	tests := []struct {
		mode            string
		tty, noColorEnv bool
		want            bool
	}{
		{ColorAuto, true, false, true},
		{ColorAuto, true, true, false},
		{ColorAuto, false, false, false},
		{ColorAlways, false, true, true},
		{ColorNever, true, false, false},
	}
	for _, tt := range tests {
		streams := &IOStreams{OutIsTTY: tt.tty, NoColor: tt.noColorEnv}
		if got := ColorEnabled(tt.mode, streams); got != tt.want {
			t.Errorf("ColorEnabled(%s, tty=%v, NO_COLOR=%v) = %v, want %v", tt.mode, tt.tty, tt.noColorEnv, got, tt.want)
		}
	}
}

func TestNewColor(t *testing.T) {
	if got := NewColor(true, color.FgRed, color.Bold).Sprint("x"); !strings.HasPrefix(got, "\x1b[31;1mx\x1b[") {
		t.Errorf("enabled: %q, want x in bold red", got)
	}
	if got := NewColor(false, color.FgRed).Sprint("x"); got != "x" {
		t.Errorf("disabled: %q, want plain x", got)
	}
}

func TestOneOf(t *testing.T) {
	if err := OneOf("output", "json", "text", "json"); err != nil {
		t.Error(err)
	}
	err := OneOf("output", "xml", "text", "json")
	if want := `invalid value "xml" for --output: must be one of text, json`; err == nil || err.Error() != want {
		t.Errorf("error %v, want %q", err, want)
	}
	if err := CheckColor("sometimes"); err == nil || !strings.Contains(err.Error(), "must be one of auto, always, never") {
		t.Errorf("CheckColor: %v", err)
	}
}

func TestFlags(t *testing.T) {
	var mode string
	var strict bool
	fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
	AddColorFlag(fs, &mode)
	AddStrictRefsFlag(fs, &strict)
	if mode != ColorAuto || strict {
		t.Errorf("defaults: --color %q, --strict-refs %v", mode, strict)
	}
	if err := fs.Parse([]string{"--color", "never", "--strict-refs"}); err != nil {
		t.Fatal(err)
	}
	if mode != ColorNever || !strict {
		t.Errorf("parsed: --color %q, --strict-refs %v", mode, strict)
	}
}

func TestExitError(t *testing.T) {
	inner := errors.New("boom")
	if got := (&ExitError{Code: 1, Err: inner}).Error(); got != "boom" {
		t.Errorf("Error() = %q", got)
	}
	if got := (&ExitError{Code: 2}).Error(); got != "exit status 2" {
		t.Errorf("Error() without Err = %q", got)
	}
	if err := Errorf(1, "a %s: %w", "b", inner); !errors.Is(err, inner) || err.Error() != "a b: boom" {
		t.Errorf("Errorf = %v", err)
	}
	if OutputError(1, nil) != nil {
		t.Error("OutputError(nil) is not nil")
	}
	var ee *ExitError
	if err := OutputError(2, inner); !errors.As(err, &ee) || ee.Code != 2 || err.Error() != "writing output: boom" {
		t.Errorf("OutputError = %v", err)
	}
}

// newTestRoot is a root command whose subcommand "do" returns the error
// named by its argument.
func newTestRoot(streams *IOStreams) *cobra.Command {
	do := &cobra.Command{
		Use:  "do WHAT",
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			switch args[0] {
			case "fail":
				return Errorf(1, "it failed")
			case "reported":
				return &ExitError{Code: 1}
			case "to-a-closed-pipe":
				return OutputError(1, &os.PathError{Op: "write", Path: "/dev/stdout", Err: syscall.EPIPE})
			case "panic":
				panic("index out of range")
			}
			if strings.HasPrefix(args[0], "open ") {
				return Errorf(1, "%s: no such file", strings.TrimPrefix(args[0], "open "))
			}
			_, err := io.WriteString(cmd.OutOrStdout(), "done\n")
			return err
		},
	}
	return SetupRoot(&cobra.Command{Use: "tool"}, streams, BuildInfo{Version: "v1", Commit: "abc123", Date: "2026-11-01T00:00:00Z"}, do)
}

func TestRun(t *testing.T) {
	tests := []struct {
		args           []string
		code           int
		stdout, stderr string
	}{
		{[]string{"do", "it"}, ExitOK, "done\n", ""},
		{[]string{"do", "fail"}, 1, "", "Error: it failed\n"},
		{[]string{"do", "reported"}, 1, "", ""},
		// Messages name files, which a pull request names.
		{[]string{"do", "open a\n::error::x\x1b[31m"}, 1, "", "Error: a\\n::error::x\\x1b[31m: no such file\n"},
		{[]string{"do", "--bogus\r"}, ExitUsage, "", "Error: unknown flag: --bogus\\r\nRun 'tool do --help' for usage.\n"},
		// Whoever read the output went away: quiet, as SIGPIPE was.
		{[]string{"do", "to-a-closed-pipe"}, 141, "", ""},
		{[]string{"do", "--bogus"}, ExitUsage, "", "Error: unknown flag: --bogus\nRun 'tool do --help' for usage.\n"},
		{[]string{"do"}, ExitUsage, "", "Error: accepts 1 arg(s), received 0\nRun 'tool do --help' for usage.\n"},
		{[]string{"frobnicate"}, ExitUsage, "", "Error: unknown command \"frobnicate\" for \"tool\"\nRun 'tool --help' for usage.\n"},
		{[]string{"--version"}, ExitOK, "tool v1 (commit abc123, built 2026-11-01T00:00:00Z, " + runtime.Version() + ")\n", ""},
		{[]string{"version"}, ExitOK, "tool v1 (commit abc123, built 2026-11-01T00:00:00Z, " + runtime.Version() + ")\n", ""},
		{[]string{"version", "x"}, ExitUsage, "", "Error: unknown command \"x\" for \"tool version\"\nRun 'tool version --help' for usage.\n"},
		{[]string{"do", "panic"}, ExitUsage, "", "Error: internal error: index out of range\n" +
			"Please report it at https://github.com/gwlint/gwlint/issues (rerun with GWLINT_PANIC=1 for details).\n"},
	}
	for _, tt := range tests {
		var out, errOut bytes.Buffer
		code := Run(newTestRoot, tt.args, &IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut})
		if code != tt.code || out.String() != tt.stdout || errOut.String() != tt.stderr {
			t.Errorf("%q: exit %d, stdout %q, stderr %q; want %d, %q, %q", tt.args, code, out.String(), errOut.String(), tt.code, tt.stdout, tt.stderr)
		}
	}
}

func TestRunE(t *testing.T) {
	type options struct{ ran, injected bool }
	run := func(o *options) error { o.ran = true; return nil }
	runF := func(o *options) error { o.injected = true; return nil }
	bad := errors.New("bad flag")

	opts := &options{}
	if err := RunE(opts, nil, nil, run)(nil, nil); err != nil || !opts.ran {
		t.Errorf("without runF: err %v, ran %v", err, opts.ran)
	}
	opts = &options{}
	if err := RunE(opts, nil, runF, run)(nil, nil); err != nil || opts.ran || !opts.injected {
		t.Errorf("with runF: err %v, %+v", err, *opts)
	}
	opts = &options{}
	complete := func(*cobra.Command, []string) error { return bad }
	if err := RunE(opts, complete, runF, run)(nil, nil); err != bad || opts.ran || opts.injected {
		t.Errorf("failing complete: err %v, %+v", err, *opts)
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, map[string]any{"msg": "GRPCRoute > HTTPRoute", "n": []int{1}}); err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"msg\": \"GRPCRoute > HTTPRoute\",\n  \"n\": [\n    1\n  ]\n}\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

// TestMan: the man command dates the pages with the build date unless
// --date says otherwise, and refuses to guess when neither is known.
func TestMan(t *testing.T) {
	dir := t.TempDir()
	run := func(info BuildInfo, args ...string) (string, int) {
		var errOut bytes.Buffer
		streams := &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: &errOut}
		code := Run(func(s *IOStreams) *cobra.Command {
			return SetupRoot(&cobra.Command{Use: "tool"}, s, info, &cobra.Command{Use: "do", Short: "Do it", Run: func(*cobra.Command, []string) {}})
		}, args, streams)
		return errOut.String(), code
	}
	header := func(name string) string {
		raw, err := os.ReadFile(dir + "/" + name)
		if err != nil {
			t.Fatal(err)
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(string(raw), ".nh\n"), "\n")
		return first
	}
	if stderr, code := run(BuildInfo{Date: "2026-11-01T00:00:00Z"}, "man", dir); code != 0 {
		t.Fatalf("man: exit %d: %s", code, stderr)
	}
	if got, want := header("tool-do.1"), `.TH "TOOL-DO" "1" "Nov 2026" "gwlint" "gwlint manual"`; got != want {
		t.Errorf("tool-do.1 header %s, want %s", got, want)
	}
	if stderr, code := run(BuildInfo{Date: "unknown"}, "man", "--date", "2025-03-04", dir); code != 0 || header("tool.1") != `.TH "TOOL" "1" "Mar 2025" "gwlint" "gwlint manual"` {
		t.Errorf("--date: exit %d, %s, header %s", code, stderr, header("tool.1"))
	}
	// A page is replaced, never written through a link planted there.
	outside := filepath.Join(t.TempDir(), "outside")
	if err := os.WriteFile(outside, []byte("outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(dir, "tool.1")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "tool.1")); err == nil {
		if stderr, code := run(BuildInfo{Date: "2026-11-01T00:00:00Z"}, "man", dir); code != 0 {
			t.Fatalf("man: exit %d: %s", code, stderr)
		}
		if got, err := os.ReadFile(outside); err != nil || string(got) != "outside\n" {
			t.Errorf("the link's target = %q, %v; want it untouched", got, err)
		}
		if info, err := os.Lstat(filepath.Join(dir, "tool.1")); err != nil || !info.Mode().IsRegular() || header("tool.1") != `.TH "TOOL" "1" "Nov 2026" "gwlint" "gwlint manual"` {
			t.Errorf("tool.1: %v, %v; want the page", info, err)
		}
	}
	for _, tt := range []struct {
		info   BuildInfo
		args   []string
		stderr string
	}{
		{BuildInfo{Date: "unknown"}, []string{"man", dir}, "the build date of this binary is unknown: give the pages' date with --date YYYY-MM-DD"},
		{BuildInfo{}, []string{"man", "--date", "yesterday", dir}, `invalid value "yesterday" for --date`},
	} {
		if stderr, code := run(tt.info, tt.args...); code != ExitUsage || !strings.Contains(stderr, tt.stderr) {
			t.Errorf("%q: exit %d, stderr %q, want %q", tt.args, code, stderr, tt.stderr)
		}
	}
}

// The inputs of a tree: its plain files, the root kustomizations (the
// overlays, not the base they include) and the charts; a kustomization
// whose file is excluded is a plain directory, read file by file.
func TestFindInputs(t *testing.T) {
	root := filepath.Join("..", "..", "..", "testdata")
	k, h := filepath.Join(root, "kustomize"), filepath.Join(root, "helm")
	in, errs := FindInputs([]string{k, h, filepath.Join(k, "base")}, func(string) bool { return false }, nil)
	want := Inputs{
		Files:          []string{filepath.Join(h, "prod-values.yaml")},
		Kustomizations: []string{filepath.Join(k, "overlays", "prod"), filepath.Join(k, "overlays", "staging")},
		Charts:         []string{filepath.Join(h, "store")},
		Included:       []string{filepath.Join(k, "base", "gateway.yaml"), filepath.Join(k, "base", "store.yaml")},
		Boundary:       manifest.BoundaryFor(root), // the repository's work tree
		Partial:        true,                       // folders of it
	}
	if !reflect.DeepEqual(in, want) || len(errs) > 0 {
		t.Errorf("FindInputs = %+v, %v\nwant %+v", in, errs, want)
	}
	optOut := func(p string) bool {
		return filepath.Base(p) == "kustomization.yaml" && filepath.Base(filepath.Dir(p)) == "base"
	}
	in, _ = FindInputs([]string{filepath.Join(k, "base")}, optOut, nil)
	want = Inputs{Files: []string{filepath.Join(k, "base", "gateway.yaml"), filepath.Join(k, "base", "store.yaml")}, Boundary: manifest.BoundaryFor(root), Partial: true}
	if !reflect.DeepEqual(in, want) {
		t.Errorf("FindInputs with base/kustomization.yaml excluded = %+v\nwant %+v", in, want)
	}
}

// A chart that a kustomization's helmCharts inflates from its chart home is
// read through that build only, not rendered alone with its defaults: the
// walk's relative paths and absolute ones alike. A chart of its own is.
func TestFindInputsLeavesOutInflatedCharts(t *testing.T) {
	repo := t.TempDir()
	files := map[string]string{
		".git/HEAD":                   "ref: refs/heads/main\n",
		"app/kustomization.yaml":      "helmCharts:\n- name: web\n  releaseName: shop\n",
		"app/charts/web/Chart.yaml":   "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"other/Chart.yaml":            "apiVersion: v2\nname: other\nversion: 0.1.0\n",
		"home/kustomization.yaml":     "helmGlobals: {chartHome: ../vendor}\nhelmCharts:\n- name: db\n",
		"vendor/db/Chart.yaml":        "apiVersion: v2\nname: db\nversion: 0.1.0\n",
		"vendor/db/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n",
	}
	for name, text := range files {
		p := filepath.Join(repo, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	none := func(string) bool { return false }
	in, errs := FindInputs([]string{repo}, none, nil)
	if want := []string{filepath.Join(repo, "other")}; !slices.Equal(in.Charts, want) || len(errs) > 0 {
		t.Errorf("charts %v, errors %v; want %v", in.Charts, errs, want)
	}
	t.Chdir(repo)
	if in, _ := FindInputs([]string{"."}, none, nil); !slices.Equal(in.Charts, []string{"other"}) {
		t.Errorf("charts of . = %v, want [other]", in.Charts)
	}
}

// The inputs are a part of a repository unless each root of the boundary
// (the work tree of each path, or --root's) is named whole.
func TestFindInputsPartial(t *testing.T) {
	repo := t.TempDir()
	for _, d := range []string{".git", "apps"} {
		if err := os.Mkdir(filepath.Join(repo, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	none := func(string) bool { return false }
	for _, tt := range []struct {
		args, roots []string
		partial     bool
	}{
		{[]string{repo}, nil, false},
		{[]string{repo + string(filepath.Separator)}, nil, false},
		{[]string{filepath.Join(repo, "apps")}, nil, true},
		{[]string{filepath.Join(repo, "apps")}, []string{filepath.Join(repo, "apps")}, false},
		{[]string{filepath.Join(repo, "apps")}, []string{repo}, true},
		{[]string{repo, filepath.Join(repo, "apps")}, nil, false},
		{[]string{"-"}, nil, true},
	} {
		if in, _ := FindInputs(tt.args, none, tt.roots); in.Partial != tt.partial {
			t.Errorf("FindInputs(%q, --root %q).Partial = %v, want %v", tt.args, tt.roots, in.Partial, tt.partial)
		}
	}
}
