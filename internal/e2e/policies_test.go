package e2e

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// BenchmarkPolicies measures what policies cost `gwlint check`: for each
// corpus size, each iteration checks the corpus alone, then the corpus with
// one Envoy Gateway BackendTrafficPolicy per HTTPRoute, targeting it, so
// that the machine's load falls on both alike. It reports the fastest run
// of each ("none-ms", "per-route-ms") and their ratio ("x-none").
func BenchmarkPolicies(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			policies := writeRoutePolicies(b, dir)
			var none, perRoute time.Duration
			fastest := func(d *time.Duration, paths ...string) {
				start := time.Now()
				check(paths, io.Discard)
				if t := time.Since(start); *d == 0 || t < *d {
					*d = t
				}
			}
			for b.Loop() {
				fastest(&none, dir)
				fastest(&perRoute, dir, policies)
			}
			b.ReportMetric(float64(none)/1e6, "none-ms")
			b.ReportMetric(float64(perRoute)/1e6, "per-route-ms")
			b.ReportMetric(float64(perRoute)/float64(none), "x-none")
		})
	}
}

// writeRoutePolicies writes, in a directory of its own, one file per
// namespace holding a BackendTrafficPolicy for each HTTPRoute of the
// corpus in dir, and returns the directory.
func writeRoutePolicies(b *testing.B, dir string) string {
	b.Helper()
	raws, errs := manifest.Read([]string{dir}, nil)
	if len(errs) > 0 {
		b.Fatal(errs[0])
	}
	byNS := map[string][]string{}
	for _, raw := range raws {
		if raw.Kind != "HTTPRoute" {
			continue
		}
		ns, name, ok := strings.Cut(raw.Ref(), "/")
		if !ok {
			ns, name = "default", ns
		}
		byNS[ns] = append(byNS[ns], name)
	}
	out := b.TempDir()
	namespaces := make([]string, 0, len(byNS))
	for ns := range byNS {
		namespaces = append(namespaces, ns)
	}
	sort.Strings(namespaces)
	for _, ns := range namespaces {
		var doc strings.Builder
		for _, name := range byNS[ns] {
			fmt.Fprintf(&doc, "---\napiVersion: gateway.envoyproxy.io/v1alpha1\nkind: BackendTrafficPolicy\nmetadata:\n  name: %s-retries\n  namespace: %s\nspec:\n  targetRefs:\n  - group: gateway.networking.k8s.io\n    kind: HTTPRoute\n    name: %s\n  retry:\n    numRetries: 3\n", name, ns, name)
		}
		if err := os.WriteFile(filepath.Join(out, ns+"-policies.yaml"), []byte(doc.String()), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return out
}
