// Package benchutil is shared by gwlint's benchmarks: which corpus sizes to
// run (GWLINT_BENCH_SIZES), the generated corpora (cached, never committed)
// and the floor every stage is reported against as "x-floor".
//
// The floor (internal/floor) is reading every manifest and parsing it into
// yaml.v3 Nodes on every core: what any linter that reports file:line:col
// must pay. See docs/performance.md.
package benchutil

import (
	"os"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/internal/floor"
)

// Sizes are the corpus sizes to benchmark, from GWLINT_BENCH_SIZES
// (comma-separated: small, medium, large); "small" when unset, so that
// `go test -bench . ./...` and CI's -benchtime=1x stay quick.
func Sizes() []corpus.Size {
	env := os.Getenv("GWLINT_BENCH_SIZES")
	if env == "" {
		return []corpus.Size{corpus.Small}
	}
	var out []corpus.Size
	for _, s := range strings.Split(env, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, corpus.Size(s))
		}
	}
	return out
}

// Corpus returns the directory of the valid corpus of the given size
// (default seed, no injected errors), generating it on first use.
func Corpus(tb testing.TB, size corpus.Size) string {
	tb.Helper()
	return CorpusWith(tb, corpus.DefaultOptions(size))
}

// CorpusWith is Corpus for any generator options.
func CorpusWith(tb testing.TB, opts corpus.Options) string {
	tb.Helper()
	dir, err := corpus.Cached(opts)
	if err != nil {
		tb.Fatalf("generating corpus %s: %v", opts.Key(), err)
	}
	return dir
}

var (
	mu     sync.Mutex
	floors = map[string]time.Duration{}
)

// Workers is how many goroutines the floor parses with: one per core, as
// gwlint reads with.
func Workers() int { return runtime.GOMAXPROCS(0) }

// SetFloor records the floor measured by a floor benchmark for dir.
func SetFloor(dir string, d time.Duration) {
	mu.Lock()
	floors[dir] = d
	mu.Unlock()
}

// Floor returns the floor's wall time for dir: the one a floor benchmark
// recorded in this process, else the best of three runs measured now.
func Floor(tb testing.TB, dir string) time.Duration {
	tb.Helper()
	mu.Lock()
	d, ok := floors[dir]
	mu.Unlock()
	if ok {
		return d
	}
	for range 3 {
		start := time.Now()
		if _, err := floor.Run([]string{dir}, Workers()); err != nil {
			tb.Fatal(err)
		}
		if e := time.Since(start); d == 0 || e < d {
			d = e
		}
	}
	SetFloor(dir, d)
	return d
}

// PerOp is the benchmark's wall time per operation so far.
func PerOp(b *testing.B) time.Duration {
	if b.N == 0 {
		return 0
	}
	return b.Elapsed() / time.Duration(b.N)
}

// ReportFloor reports the benchmark's time per op as a multiple of the
// floor for dir ("x-floor").
func ReportFloor(b *testing.B, dir string) {
	f := Floor(b, dir)
	if op := PerOp(b); f > 0 && op > 0 {
		b.ReportMetric(float64(op)/float64(f), "x-floor")
	}
}

// CPUTime is the CPU time (user and system, all threads) this process has
// used so far. On a shared machine it is steadier than wall time, but it
// does not show parallelism: see CPUMeter.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// CPUMeter measures a benchmark's CPU time per op; start it before the
// loop and Report after it.
type CPUMeter struct{ start time.Duration }

// StartCPU starts a CPUMeter.
func StartCPU() CPUMeter { return CPUMeter{CPUTime()} }

// PerOp is the CPU time per op since the meter started.
func (m CPUMeter) PerOp(b *testing.B) time.Duration {
	if b.N == 0 {
		return 0
	}
	return (CPUTime() - m.start) / time.Duration(b.N)
}

// LSPEdit is what the language server's benchmarks add to a file of the
// corpus and take out again, an edit that changes the world's objects: a
// route with no parentRef whose one backend has weight 0, on one line.
// LSPEditRule is the rule that reports it, so that its diagnostics show
// the edit.
const (
	LSPEdit = "\n---\n{apiVersion: gateway.networking.k8s.io/v1, kind: HTTPRoute, metadata: {name: lsp-bench-edit, namespace: default}, " +
		"spec: {rules: [{backendRefs: [{name: lsp-bench-edit, port: 80, weight: 0}]}]}}\n"
	LSPEditRule = "rule-all-weights-zero"
)
