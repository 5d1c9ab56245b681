package e2e

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/internal/floor"
)

// maxOneFile caps the one multi-document file of BenchmarkResources: the
// issue's 50 MB. Smaller corpora go into it whole.
const maxOneFile = 50 << 20

// BenchmarkResources measures the peak RSS of whole gwlint and gwctl
// processes (built from this tree) per corpus size, as the resource bounds
// of issues 11 and 22 are stated: for one multi-document file holding the
// corpus (at most 50 MB of it), for the same bytes on stdin, for
// `gwctl status` (YAML) on the corpus directory, and for one file of many
// small documents (manyDocuments), and for `gwlint lsp` serving the corpus
// directory through an editor's edits (measureLSP). Each reports peak-MiB and
// rss-x-input, the peak as a multiple of the bytes read. See
// docs/performance.md.
func BenchmarkResources(b *testing.B) {
	gwlint, gwctl := command(b, "gwlint"), command(b, "gwctl")
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			one, oneBytes := oneFile(b, dir)
			_, corpusBytes := corpusFiles(b, dir)
			b.Run("file", func(b *testing.B) {
				measure(b, oneBytes, nil, gwlint, "check", "--no-config", one)
			})
			b.Run("stdin", func(b *testing.B) {
				measure(b, oneBytes, func() io.Reader { return openFile(b, one) }, gwlint, "check", "--no-config", "-")
			})
			b.Run("status", func(b *testing.B) {
				measure(b, corpusBytes, nil, gwctl, "status", "-f", dir)
			})
			b.Run("documents", func(b *testing.B) {
				many, manyBytes := manyDocuments(b, dir, size)
				measure(b, manyBytes, nil, gwlint, "check", "--no-config", many)
			})
			b.Run("lsp", func(b *testing.B) {
				files, _ := corpusFiles(b, dir)
				measureLSP(b, gwlint, dir, files[0], corpusBytes)
			})
		})
	}
}

// measure runs the command once per iteration and reports the largest
// peak RSS of its runs.
func measure(b *testing.B, inputBytes int64, stdin func() io.Reader, name string, args ...string) {
	var peak int64 // bytes
	for b.Loop() {
		var in io.Reader
		if stdin != nil {
			in = stdin()
		}
		peak = max(peak, run(b, in, name, args...).peak)
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(peak)/float64(inputBytes), "rss-x-input")
	b.ReportMetric(float64(inputBytes)/(1<<20), "input-MiB")
}

var (
	buildOnce sync.Once
	builtDir  string
	errBuild  error
)

// command returns the path of gwlint, gwctl or floor (hack/floor) built
// from this tree; all are built once per process, with gwlint-render
// beside gwlint and gwctl, where they look for it when they render.
func command(b testing.TB, name string) string {
	b.Helper()
	buildOnce.Do(func() {
		builtDir, errBuild = os.MkdirTemp("", "gwlint-bench-bin")
		if errBuild != nil {
			return
		}
		// The commands as users build them: static, as the release and
		// the Makefile build them (CGO_ENABLED=0), and without tags (the
		// gwlintdev tag would add the man command, and its start-up cost);
		// the floor is a development tool.
		for _, args := range [][]string{
			{"build", "-o", builtDir + string(filepath.Separator), "../../cmd/gwlint", "../../cmd/gwctl", "../../cmd/gwlint-render"},
			{"build", "-tags", "gwlintdev", "-o", builtDir + string(filepath.Separator), "../../hack/floor"},
		} {
			build := exec.Command("go", args...)
			build.Env = append(os.Environ(), "CGO_ENABLED=0")
			if out, err := build.CombinedOutput(); err != nil {
				errBuild = fmt.Errorf("go build: %v\n%s", err, out)
				return
			}
		}
	})
	if errBuild != nil {
		b.Fatal(errBuild)
	}
	return filepath.Join(builtDir, name)
}

// oneFile writes the corpus's manifests, up to maxOneFile bytes of them,
// as one multi-document file next to the corpus (cached like it).
func oneFile(b *testing.B, dir string) (string, int64) {
	b.Helper()
	path := filepath.Clean(dir) + "-one.yaml"
	if info, err := os.Stat(path); err == nil {
		return path, info.Size()
	}
	files, _ := corpusFiles(b, dir)
	var out bytes.Buffer
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		if out.Len()+len(data)+4 > maxOneFile {
			break
		}
		out.WriteString("---\n")
		out.Write(data)
		if len(data) > 0 && data[len(data)-1] != '\n' {
			out.WriteByte('\n')
		}
	}
	writeCached(b, path, out.Bytes())
	return path, int64(out.Len())
}

// documentsPerRoute sizes manyDocuments: 40 per HTTPRoute of the corpus,
// so that medium's is the file of 400,000 documents (40 MB).
const documentsPerRoute = 40

// manyDocuments writes, next to the corpus (cached like it), one file of
// small Services of about 100 bytes each, as many as documentsPerRoute
// for each HTTPRoute of the size (at most maxOneFile bytes): the shape of
// `kubectl get -o yaml` on a large cluster, where what each object costs
// beyond its bytes decides the peak.
func manyDocuments(b *testing.B, dir string, size corpus.Size) (string, int64) {
	b.Helper()
	path := filepath.Clean(dir) + "-documents.yaml"
	if info, err := os.Stat(path); err == nil {
		return path, info.Size()
	}
	routes, ok := size.Routes()
	if !ok {
		b.Fatalf("unknown corpus size %q", size)
	}
	var out bytes.Buffer
	for i := range routes * documentsPerRoute {
		doc := fmt.Sprintf("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: svc-%07d\n  namespace: team-%03d\nspec:\n  ports:\n  - port: 8080\n", i, i%500)
		if out.Len()+len(doc) > maxOneFile {
			break
		}
		out.WriteString(doc)
	}
	writeCached(b, path, out.Bytes())
	return path, int64(out.Len())
}

// writeCached writes data to path through a temporary file, so that an
// interrupted run leaves no partial file for the next to take as cached.
func writeCached(b *testing.B, path string, data []byte) {
	b.Helper()
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		b.Fatal(err)
	}
}

// corpusFiles lists the manifests of dir, as gwlint finds them, and their
// total size.
func corpusFiles(b *testing.B, dir string) ([]string, int64) {
	b.Helper()
	files, err := floor.Files([]string{dir})
	if err != nil {
		b.Fatal(err)
	}
	var n int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			n += info.Size()
		}
	}
	return files, n
}

func openFile(b *testing.B, path string) io.Reader {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return f
}
