package lint

import (
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// BenchmarkRules runs every rule on its own over the resolved graph of each
// generated corpus (sizes from GWLINT_BENCH_SIZES, see internal/benchutil),
// then all of them as `gwlint check` does, each reported as a multiple of
// the floor ("x-floor"), so a rule that grows expensive stands out.
func BenchmarkRules(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			opts := resolve.Options{Implementations: implementations.All(), Validate: true} // as gwlint check loads
			g := resolve.Resolve(resolve.Load([]string{dir}, nil, opts), opts)
			for _, r := range Rules() {
				b.Run(r.ID, func(b *testing.B) {
					for b.Loop() {
						Run(g, []*Rule{r})
					}
					benchutil.ReportFloor(b, dir)
				})
			}
			b.Run("all", func(b *testing.B) {
				n := 0
				for b.Loop() {
					n = len(Run(g, Rules()))
				}
				b.ReportMetric(float64(n), "findings")
				benchutil.ReportFloor(b, dir)
			})
		})
	}
}
