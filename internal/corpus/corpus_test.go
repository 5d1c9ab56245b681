package corpus

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// readTree returns every file under dir by slash path.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		files[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

func sameTree(t *testing.T, want, got string) {
	t.Helper()
	w, g := readTree(t, want), readTree(t, got)
	for name, data := range w {
		if gd, ok := g[name]; !ok {
			t.Errorf("%s: missing", name)
		} else if !bytes.Equal(data, gd) {
			t.Errorf("%s: differs", name)
		}
	}
	for name := range g {
		if _, ok := w[name]; !ok {
			t.Errorf("%s: not written by the original", name)
		}
	}
	if len(w) == 0 {
		t.Error("no files written")
	}
}

// TestMatchesOriginal runs the original generator (shared/bench/gen beside
// the repository) and Generate with the same flags and compares the trees
// byte for byte, and the summary line.
func TestMatchesOriginal(t *testing.T) {
	orig, err := filepath.Abs(filepath.Join("..", "..", "..", "shared", "bench", "gen"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(orig, "main.go")); err != nil {
		t.Skipf("original generator not present: %v", err)
	}
	if testing.Short() {
		t.Skip("builds and runs the original generator")
	}
	for _, tc := range []struct {
		name string
		args []string
		opts func(*Options)
	}{
		{"small", nil, func(*Options) {}},
		{"small-injected", []string{"-semantic-rate", "0.1", "-invalid-rate", "0.05", "-seed", "3"}, func(o *Options) {
			o.SemanticRate, o.InvalidRate, o.Seed = 0.1, 0.05, 3
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, got := t.TempDir(), t.TempDir()
			cmd := exec.Command("go", append([]string{"run", ".", "-size", "small", "-out", want}, tc.args...)...)
			cmd.Dir = orig
			cmd.Env = append(os.Environ(), "GOFLAGS=-mod=mod", "GOWORK=off")
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			if err := cmd.Run(); err != nil {
				t.Skipf("cannot run the original generator: %v\n%s", err, stderr.String())
			}
			opts := DefaultOptions(Small)
			tc.opts(&opts)
			st, err := Generate(opts, got)
			if err != nil {
				t.Fatal(err)
			}
			sameTree(t, want, got)
			if st.Summary() != stdout.String() {
				t.Errorf("summary = %q, original printed %q", st.Summary(), stdout.String())
			}
		})
	}
}

func TestDeterministic(t *testing.T) {
	a, b := t.TempDir(), t.TempDir()
	opts := DefaultOptions(Small)
	opts.SemanticRate = 0.1
	for _, dir := range []string{a, b} {
		st, err := Generate(opts, dir)
		if err != nil {
			t.Fatal(err)
		}
		if st.Counts["HTTPRoute"] != 100 || st.Semantic == 0 {
			t.Errorf("stats = %+v, want 100 HTTPRoutes and some semantic errors", st)
		}
	}
	sameTree(t, a, b)
	if _, err := os.Stat(filepath.Join(a, "EXPECTED_SEMANTIC.txt")); err != nil {
		t.Error(err)
	}
}

func TestUsageErrors(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "x"), nil, 0o644)
	for _, tc := range []struct {
		opts Options
		out  string
		want string
	}{
		{DefaultOptions(Small), "", "-out required"},
		{DefaultOptions("huge"), t.TempDir(), "bad -size"},
		{Options{Size: Small, Namespaces: 0}, t.TempDir(), "-namespaces"},
		{DefaultOptions(Small), dir, "not empty"},
	} {
		_, err := Generate(tc.opts, tc.out)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Generate(%+v, %q) = %v, want %q", tc.opts, tc.out, err, tc.want)
		}
	}
}
