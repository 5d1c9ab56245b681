// A development tool, not part of the product: built only with -tags
// gwlintdev, so that `go install ./...` (as pre-commit's golang hooks run
// it) builds gwlint and gwctl alone.

//go:build gwlintdev

// Command kubeconform-schemas writes JSON schemas that kubeconform can
// validate the benchmark corpora with offline, for hack/bench.sh's
// comparison (see docs/performance.md):
//
//   - every served version of every Gateway API v1.6.3 CRD (experimental
//     channel, a superset of standard), from the openAPIV3Schema in the
//     gateway-api module's config/crd, as OUT/<group>/<kind>_<version>.json;
//   - permissive object schemas for the core v1 kinds the corpora hold
//     (Service, Namespace, Secret), since the Kubernetes schemas cannot be
//     fetched here: kubeconform still reads and checks every document.
//
// Use with: kubeconform -schema-location 'OUT/{{ .Group }}/{{ .ResourceKind }}_{{ .ResourceAPIVersion }}.json'
//
// The CRDs are read by the schema generator's own loader (package gen).
//
//	go run -tags gwlintdev ./resolve/crd/internal/gen/cmd/kubeconform-schemas -out bin/kubeconform-schemas
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/gwlint/gwlint/resolve/crd/internal/gen"
)

func main() {
	out := flag.String("out", "bin/kubeconform-schemas", "output directory")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "kubeconform-schemas:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	dir, _, err := gen.ModuleDir()
	if err != nil {
		return err
	}
	versions, err := gen.Load(os.DirFS(dir))
	if err != nil {
		return err
	}
	n := 0
	for _, v := range versions {
		if v.Channel != "Experimental" || !v.Served {
			continue
		}
		if err := write(out, v.Group, v.Kind, v.Version, v.Raw); err != nil {
			return err
		}
		n++
	}
	if n == 0 {
		return fmt.Errorf("no CRDs found in %s", dir)
	}
	permissive := json.RawMessage(`{"type":"object","required":["apiVersion","kind","metadata"],"properties":{"metadata":{"type":"object","required":["name"]}}}`)
	for _, kind := range []string{"Service", "Namespace", "Secret"} {
		if err := write(out, "v1", kind, "v1", permissive); err != nil {
			return err
		}
		n++
	}
	fmt.Printf("wrote %d schemas to %s\n", n, out)
	return nil
}

func write(out, group, kind, version string, schema json.RawMessage) error {
	dir := filepath.Join(out, group)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, strings.ToLower(kind)+"_"+version+".json"), schema, 0o644)
}
