package main

import (
	"io"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/benchutil"

	"github.com/gwlint/gwlint/resolve/trace"
)

// BenchmarkDiff runs what gwctl diff computes once both sides are loaded
// (computeDiff) on each generated corpus (sizes from GWLINT_BENCH_SIZES,
// see internal/benchutil) against itself: every sample request traced in
// both graphs, the part of a diff that grows with the routes on a
// listener, besides attachments, conditions, backends and findings; with
// x-floor. Loading is BenchmarkPipeline's business and is left out.
func BenchmarkDiff(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			opts := &diffOptions{IO: &cli.IOStreams{Out: io.Discard, ErrOut: io.Discard}}
			in, failed := opts.loadSide(&diffSide{arg: dir, files: []string{dir}, rel: func(f string) string { return f }})
			if failed {
				b.Fatalf("%s did not load", dir)
			}
			for b.Loop() {
				computeDiff(in, in, "old", "new")
			}
			b.ReportMetric(float64(len(trace.SampleRequests(in.graph))), "requests")
			benchutil.ReportFloor(b, dir)
		})
	}
}
