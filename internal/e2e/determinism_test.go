package e2e

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
)

// TestOutputIsDeterministic: reading, decoding and validation run on every
// core, so the output must not depend on scheduling or on the number of
// cores. The corpus with injected errors gives findings of most rules.
func TestOutputIsDeterministic(t *testing.T) {
	opts := corpus.DefaultOptions(corpus.Small)
	opts.SemanticRate, opts.InvalidRate = 0.2, 0.05
	dir := benchutil.CorpusWith(t, opts)
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	var want []byte
	for i, procs := range []int{1, 2, 4, 2, 8} {
		runtime.GOMAXPROCS(procs)
		var out bytes.Buffer
		if n := check([]string{dir}, &out); n == 0 {
			t.Fatal("no findings: the corpus should have some")
		}
		if i == 0 {
			want = out.Bytes()
			continue
		}
		if !bytes.Equal(out.Bytes(), want) {
			t.Fatalf("GOMAXPROCS=%d: output differs from GOMAXPROCS=1", procs)
		}
	}
}
