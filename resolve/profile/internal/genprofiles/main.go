// A development tool, not part of the product: built only with -tags
// gwlintdev, so that `go install ./...` (as pre-commit's golang hooks run
// it) builds gwlint and gwctl alone.

//go:build gwlintdev

// Command genprofiles writes zz_generated_profiles.go of package profile
// from the conformance reports of the pinned Gateway API release. Run it with
// go generate ./resolve/profile (the module must be downloaded: make
// testdata-modules).
package main

import (
	"fmt"
	"os"

	"github.com/gwlint/gwlint/resolve/profile/internal/reportgen"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "genprofiles:", err)
		os.Exit(1)
	}
}

func run() error {
	dir, err := reportgen.ModuleDir()
	if err != nil {
		return err
	}
	src, err := reportgen.Generate(dir)
	if err != nil {
		return err
	}
	return os.WriteFile("zz_generated_profiles.go", src, 0o644)
}
