package clitest

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// recorder is a testing.TB that records failures instead of failing, so
// that the checks' own failures can be tested. Only the methods the checks
// call are implemented.
type recorder struct {
	testing.TB
	errors []string
	fatal  bool
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatal(args ...any) {
	r.fatal = true
	r.errors = append(r.errors, fmt.Sprint(args...))
}

func TestGoldenCheck(t *testing.T) {
	g := &Golden{dir: t.TempDir()}
	if err := os.WriteFile(g.Path("a.golden"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var r recorder
	g.Check(&r, "a.golden", "hello\n")
	g.Check(&r, "absent.golden", "") // absent means empty
	if len(r.errors) != 0 {
		t.Errorf("matching output failed: %q", r.errors)
	}
	g.Check(&r, "a.golden", "hallo\n")
	g.Check(&r, "absent.golden", "output\n")
	if len(r.errors) != 2 || !strings.Contains(r.errors[0], "a.golden differs (rerun with -update") {
		t.Errorf("differences not reported: %q", r.errors)
	}
}

func TestGoldenUpdate(t *testing.T) {
	g := &Golden{dir: t.TempDir()}
	*update = true
	defer func() { *update = false }()
	var r recorder
	g.Check(&r, "new.golden", "written\n")
	if got, err := os.ReadFile(g.Path("new.golden")); err != nil || string(got) != "written\n" {
		t.Errorf("-update wrote %q, %v", got, err)
	}
	g.Check(&r, "new.golden", "")
	if _, err := os.Stat(g.Path("new.golden")); !os.IsNotExist(err) {
		t.Errorf("-update with empty output kept the file: %v", err)
	}
	g.Check(&r, "never.golden", "") // removing what is absent is fine
	if len(r.errors) != 0 {
		t.Errorf("update failed: %q", r.errors)
	}
}

func TestNewGolden(t *testing.T) {
	g := NewGolden()
	if want, _ := filepath.Abs(filepath.Join("testdata", "golden")); g.Path("x") != filepath.Join(want, "x") {
		t.Errorf("Path = %s, want under %s", g.Path("x"), want)
	}
}

// echoOptions are the options of echo, a command in the style of gwctl's
// and gwlint's: it prints its arguments, or stdin when there are none;
// "fail" makes it exit 1, and "bad" is refused when the flags are checked.
type echoOptions struct {
	IO    *cli.IOStreams
	Words []string
	Loud  bool
}

func newEcho(streams *cli.IOStreams, runF func(*echoOptions) error) *cobra.Command {
	opts := &echoOptions{IO: streams}
	cmd := &cobra.Command{Use: "echo [WORD ...]", Example: "  tool echo hello"}
	cmd.RunE = cli.RunE(opts, opts.complete, runF, runEcho)
	cmd.Flags().BoolVar(&opts.Loud, "loud", false, "shout")
	return cmd
}

func (o *echoOptions) complete(_ *cobra.Command, args []string) error {
	o.Words = args
	if len(args) > 0 && args[0] == "bad" {
		return fmt.Errorf("bad word")
	}
	return nil
}

func runEcho(o *echoOptions) error {
	if len(o.Words) == 0 {
		_, err := io.Copy(o.IO.Out, o.IO.In)
		return err
	}
	fmt.Fprintln(o.IO.ErrOut, "echoing")
	if o.Words[0] == "fail" {
		return cli.Errorf(1, "failed")
	}
	_, err := fmt.Fprintln(o.IO.Out, strings.Join(o.Words, " "))
	return err
}

func newRoot(streams *cli.IOStreams) *cobra.Command {
	return cli.SetupRoot(&cobra.Command{Use: "tool", Example: "  tool echo"}, streams, cli.BuildInfo{}, newEcho(streams, nil))
}

func TestRun(t *testing.T) {
	stdout, stderr, code := Run(newRoot, "from stdin", "echo")
	if stdout != "from stdin" || stderr != "" || code != 0 {
		t.Errorf("stdin: %q, %q, %d", stdout, stderr, code)
	}
	streams, out, _ := Streams("")
	if streams.OutIsTTY || streams.NoColor {
		t.Error("Streams pretends a terminal or NO_COLOR")
	}
	if code := cli.Run(newRoot, []string{"echo", "a"}, streams); code != 0 || out.String() != "a\n" {
		t.Errorf("Streams: %d, %q", code, out.String())
	}
}

func TestRunCases(t *testing.T) {
	RunCases(t, newRoot, []Case{
		{Name: "words", Args: []string{"echo", "a", "b"}, StdoutHas: "a b\n", StderrHas: "echoing"},
		{Name: "stdin", Stdin: "x", Args: []string{"echo"}, StdoutHas: "x"},
		{Name: "fail", Args: []string{"echo", "fail"}, Code: 1, StderrHas: "Error: failed", StdoutNone: true},
		{Name: "bad flag", Args: []string{"echo", "--bogus"}, Code: 2, StderrHas: "Run 'tool echo --help' for usage."},
	})
}

func TestRunFlagCases(t *testing.T) {
	RunFlagCases(t, newEcho, []FlagCase[echoOptions]{
		{Name: "defaults", Args: nil, Want: echoOptions{Words: []string{}}}, // Execute never passes nil args
		{Args: []string{"a", "--loud"}, Want: echoOptions{Words: []string{"a"}, Loud: true}},
		{Name: "complete fails", Args: []string{"bad"}, WantErr: "bad word"},
		{Name: "unknown flag", Args: []string{"--quiet"}, WantErr: "unknown flag: --quiet"},
	})
}

func TestDocs(t *testing.T) {
	root := newRoot(Discard())
	var names []string
	WalkCommands(root, func(c *cobra.Command) { names = append(names, c.CommandPath()) })
	if strings.Join(names, ",") != "tool,tool echo,tool man,tool version" {
		t.Errorf("WalkCommands visited %q", names)
	}
	CheckExamples(t, root)

	good := &Doc{Name: "good.md", Text: "`tool echo [WORD ...]` prints its words; --loud shouts. `tool version` says which, `tool man --date` writes man pages."}
	good.Mentions(t, "prints", "shouts")
	good.DocumentsCommands(t, root)

	var r recorder
	bad := &Doc{Name: "bad.md", Text: "nothing here"}
	bad.Mentions(&r, "prints")
	bad.DocumentsCommands(&r, root)
	CheckExamples(&r, &cobra.Command{Use: "bare"})
	want := []string{
		"bad.md does not mention prints",
		`bad.md does not document "tool echo"`,
		"bad.md does not document tool echo --loud",
		`bad.md does not document "tool man"`,
		"bad.md does not document tool man --date",
		`bad.md does not document "tool version"`,
		"bare has no Example",
	}
	if strings.Join(r.errors, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(r.errors, "\n"), strings.Join(want, "\n"))
	}
}

func TestReadDoc(t *testing.T) {
	path := filepath.Join(t.TempDir(), "doc.md")
	if err := os.WriteFile(path, []byte("text"), 0o644); err != nil {
		t.Fatal(err)
	}
	if d := ReadDoc(t, path, "doc.md"); d.Name != "doc.md" || d.Text != "text" {
		t.Errorf("ReadDoc = %+v", d)
	}
}

func TestMatchSample(t *testing.T) {
	const output = "a\nb\nc  \nd\n\ne\n"
	for _, tt := range []struct {
		sample string
		ok     bool
	}{
		{"a\nb\nc\nd\n\ne\n", true}, // trailing spaces do not count
		{"a\n...\ne", true},
		{"...\nc\nd\n...", true},
		{"  ...\nb\n...\n\ne", true}, // indented ellipses
		{"...\ne", true},
		{"...", true},
		{"a\nb", false},              // the rest is missing
		{"b\n...", false},            // not the first line
		{"...\nd", false},            // not the last line
		{"a\n...\nc\nb\n...", false}, // out of order
		{"a\nx\n...", false},
	} {
		err := MatchSample(tt.sample, output)
		if (err == nil) != tt.ok {
			t.Errorf("MatchSample(%q) = %v, want ok %v", tt.sample, err, tt.ok)
		}
	}
	err := MatchSample("a\nx\n...", output)
	if err == nil || !strings.Contains(err.Error(), "  a\n+ b\n") || !strings.Contains(err.Error(), "- x\n") {
		t.Errorf("no diff in the error: %v", err)
	}
}

func TestSampleMarks(t *testing.T) {
	root := t.TempDir()
	doc := "# Doc\n\n" +
		"<!-- sample: gwlint check (in sub) -->\n```\nhi\n```\n\n" +
		"<!-- sample-exempt: a measurement -->\n```\n3 ms\n```\n\n" +
		"```sh\ntool echo hi\n```\n\n" + // a command, not output
		"```\nunmarked output\n```\n\n" +
		"```sh\n$ gwlint check\n```\n\n" + // a prompt
		"<!-- sample: ls -l -->\n```\nx\n```\n\n" +
		"<!-- sample: tool echo -->\n\ntext\n" +
		"\n<!-- sample-golden: README.md -->\n```\nx\n```\n"
	if err := os.WriteFile(filepath.Join(root, "doc.md"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	var r recorder
	samples := ReadSamples(&r, root, []string{"doc.md"})
	CheckSampleMarks(&r, samples)
	want := []string{
		"doc.md:32: a sample mark must come just before its fenced block",
		"doc.md:17: this block shows output; mark it <!-- sample: COMMAND (in DIR) -->, <!-- sample-golden: FILE --> or <!-- sample-exempt: REASON -->",
		"doc.md:21: this block shows output; mark it <!-- sample: COMMAND (in DIR) -->, <!-- sample-golden: FILE --> or <!-- sample-exempt: REASON -->",
		`doc.md:26: sample command "ls -l" runs neither gwlint nor gwctl`,
		"doc.md:35: README.md is not a golden file of gwlint's or gwctl's tests",
	}
	if strings.Join(r.errors, "\n") != strings.Join(want, "\n") {
		t.Errorf("failures:\n%s\nwant:\n%s", strings.Join(r.errors, "\n"), strings.Join(want, "\n"))
	}
	if s := samples[0]; s.Command != "gwlint check" || s.Dir != "sub" || s.Text != "hi" || s.Line != 4 {
		t.Errorf("first sample %+v", s)
	}
	if s := samples[1]; s.Exempt != "a measurement" || !s.Marked {
		t.Errorf("second sample %+v", s)
	}
}
