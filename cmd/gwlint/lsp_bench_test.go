package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
)

// BenchmarkLSPEdit times a one-file edit on each corpus (GWLINT_BENCH_SIZES),
// after the initial load, from didChange to that file's new diagnostics,
// without the debounce an editor waits: each edit breaks the file's last
// document or mends it again, so every iteration publishes.
func BenchmarkLSPEdit(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			var file string
			filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
				if err == nil && file == "" && strings.HasSuffix(p, ".yaml") {
					file = p
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
			c.exit()
		})
	}
}
