// A development tool, not part of the product: built only with -tags
// gwlintdev, so that `go install ./...` (as pre-commit's golang hooks run
// it) builds gwlint and gwctl alone.

//go:build gwlintdev

// Command gen writes zz_generated_schemas.go of package crd from the CRDs of
// every release of the gateway-api module listed in gen.Releases (the go
// command downloads them into its module cache), the one go.mod pins being
// the default. Run it through go generate in resolve/crd.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/gwlint/gwlint/resolve/crd/internal/gen"
)

func main() {
	out := flag.String("o", "zz_generated_schemas.go", "output file")
	flag.Parse()
	pinned, rels, err := gen.LoadReleases()
	if err != nil {
		log.Fatal(err)
	}
	src, err := gen.Generate(pinned, rels)
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, src, 0o644); err != nil {
		log.Fatal(err)
	}
}
