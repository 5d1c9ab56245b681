package main

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
)

// BenchmarkLSPEdit times a one-file edit on each corpus (GWLINT_BENCH_SIZES),
// after the initial load, from didChange to that file's new diagnostics,
// without the debounce an editor waits: each edit breaks the file's last
// document or mends it again, so every iteration publishes. It also
// reports the heap the server keeps live between edits (the world of the
// folder: every file's objects and the last graph), against the corpus's
// bytes: gwlint check's bound is a peak of 8× them.
func BenchmarkLSPEdit(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			var file string
			var input int64
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && strings.HasSuffix(p, ".yaml") {
					if file == "" {
						file = p
					}
					if info, err := d.Info(); err == nil {
						input += info.Size()
					}
				}
				return nil
			})
			c := startLSP(b, dir, 0)
			text := c.open(file)
			c.waitDiagnostics(file, "on open", func([]diagnostic) bool { return true })
			broken := text + "\n---\nkind: [\n"
			b.ResetTimer()
			for i := range b.N {
				if i%2 == 0 {
					c.change(file, int32(i+2), broken)
					c.waitDiagnostics(file, "invalid-manifest", hasRule("invalid-manifest"))
				} else {
					c.change(file, int32(i+2), text)
					c.waitDiagnostics(file, "mended", func(ds []diagnostic) bool { return !hasRule("invalid-manifest")(ds) })
				}
			}
			b.StopTimer()
			runtime.GC()
			var mem runtime.MemStats
			runtime.ReadMemStats(&mem)
			b.ReportMetric(float64(mem.HeapInuse)/(1<<20), "live-heap-MiB")
			b.ReportMetric(float64(mem.HeapInuse)/float64(input), "heap-x-input")
			c.exit()
		})
	}
}
