// A development tool, not part of the product: built only with -tags
// gwlintdev, so that `go install ./...` (as pre-commit's golang hooks run
// it) builds gwlint and gwctl alone.

//go:build gwlintdev

// Command floor is the floor gwlint is measured against (see
// docs/performance.md and internal/floor): it reads every manifest under
// the given paths and parses each document into a yaml.v3 Node tree with
// -workers goroutines (default: one per core), then prints what it parsed.
//
//	go build -tags gwlintdev -o bin/floor ./hack/floor && bin/floor DIR...
package main

import (
	"flag"
	"fmt"
	"os"
	"runtime"

	"github.com/gwlint/gwlint/internal/floor"
)

func main() {
	workers := flag.Int("workers", runtime.GOMAXPROCS(0), "parallel parsers")
	flag.Parse()
	if flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: floor [-workers N] PATH...")
		os.Exit(2)
	}
	r, err := floor.Run(flag.Args(), *workers)
	if err != nil {
		fmt.Fprintln(os.Stderr, "floor:", err)
		os.Exit(1)
	}
	fmt.Printf("%d files, %d bytes, %d documents, %d nodes, %d errors\n", r.Files, r.Bytes, r.Docs, r.Nodes, r.Errors)
	if r.Errors > 0 {
		os.Exit(1)
	}
}
