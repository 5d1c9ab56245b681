// A development tool, not part of the product: built only with -tags
// gwlintdev, so that `go install ./...` (as pre-commit's golang hooks run
// it) builds gwlint and gwctl alone.

//go:build gwlintdev

// Command gencorpus is shared/bench/gen as a command of this module: the same
// flags, the same output (see package corpus).
//
//	go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -size medium -out /tmp/corpus-medium
//	go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -size small -semantic-rate 0.1 -out DIR
//	dir=$(go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -size medium -cached)  # the benchmarks' copy
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/gwlint/gwlint/internal/corpus"
)

func main() {
	size := flag.String("size", "", "preset: small (100 routes), medium (10k), large (100k); explicit flags override")
	out := flag.String("out", "", "output directory (must not exist or be empty)")
	seed := flag.Uint64("seed", 1, "random seed")
	nRoutes := flag.Int("routes", -1, "number of HTTPRoutes")
	nGW := flag.Int("gateways", -1, "number of Gateways (default max(3, routes/500))")
	nSvc := flag.Int("services", -1, "number of Services (default 1.2*routes)")
	nNS := flag.Int("namespaces", 50, "number of namespaces")
	invRate := flag.Float64("invalid-rate", 0, "fraction of HTTPRoutes with one injected CRD-level error (OUT/EXPECTED_INVALID.txt)")
	semRate := flag.Float64("semantic-rate", 0, "fraction of HTTPRoutes with one injected semantic error (OUT/EXPECTED_SEMANTIC.txt)")
	cached := flag.Bool("cached", false, "instead of -out: use the benchmarks' corpus cache (generating there if needed) and print the corpus directory")
	flag.Parse()
	opts := corpus.Options{
		Size: corpus.Size(*size), Seed: *seed, Routes: *nRoutes, Gateways: *nGW, Services: *nSvc,
		Namespaces: *nNS, InvalidRate: *invRate, SemanticRate: *semRate,
	}
	if *cached {
		dir, err := corpus.Cached(opts)
		if err != nil {
			fmt.Fprintln(os.Stderr, "gencorpus:", err)
			os.Exit(1)
		}
		fmt.Println(dir)
		return
	}
	st, err := corpus.Generate(opts, *out)
	if errors.Is(err, corpus.ErrUsage) {
		fmt.Fprintln(os.Stderr, strings.TrimPrefix(err.Error(), "usage: "))
		os.Exit(2)
	}
	if err != nil {
		panic(err)
	}
	fmt.Print(st.Summary())
	if st.SemSkipped > 0 {
		fmt.Fprintf(os.Stderr, "note: %d routes picked by -semantic-rate admitted no injection and were left valid\n", st.SemSkipped)
	}
}
