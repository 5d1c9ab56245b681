package clitest

import (
	"flag"
	"os"
	"path/filepath"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// Golden is a directory of golden files.
type Golden struct {
	dir string
}

// NewGolden returns the golden files of the package under test, in
// testdata/golden. The directory is made absolute now, so that tests that
// change directory still find it: call NewGolden in a package variable.
func NewGolden() *Golden {
	return GoldenDir(filepath.Join("testdata", "golden"))
}

// GoldenDir returns golden files kept in dir rather than in
// testdata/golden: generated files committed elsewhere, such as a picture's
// source in docs/. Call it in a package variable, as NewGolden.
func GoldenDir(dir string) *Golden {
	abs, err := filepath.Abs(dir)
	if err != nil {
		panic(err)
	}
	return &Golden{dir: abs}
}

// Path returns the path of the golden file name.
func (g *Golden) Path(name string) string {
	return filepath.Join(g.dir, name)
}

// Updating reports whether the test run rewrites golden files (-update).
func (g *Golden) Updating() bool { return *update }

// Check compares got with the golden file name, or rewrites it with
// -update. An absent file stands for empty output, so only commands that
// write to stderr have a .stderr.golden.
func (g *Golden) Check(t testing.TB, name, got string) {
	t.Helper()
	path := g.Path(name)
	if *update {
		var err error
		if got == "" {
			err = os.Remove(path)
			if os.IsNotExist(err) {
				err = nil
			}
		} else {
			err = os.WriteFile(path, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (rerun with -update if the change is intended)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}

// GoldenCase is a run of a command whose output is kept in golden files:
// Name.golden holds its stdout and Name.stderr.golden its stderr.
type GoldenCase struct {
	Name string
	Args []string
	// Code is the exit status.
	Code int
}

// RunCases runs every case as a parallel subtest, with empty stdin, and
// checks its exit status and its output against the golden files.
func (g *Golden) RunCases(t *testing.T, newRoot NewRootFunc, cases []GoldenCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := Run(newRoot, "", tt.Args...)
			if code != tt.Code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.Code, stderr)
			}
			g.Check(t, tt.Name+".golden", stdout)
			g.Check(t, tt.Name+".stderr.golden", stderr)
		})
	}
}
