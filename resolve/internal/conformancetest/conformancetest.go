// Package conformancetest holds what the tests that replay the Gateway API
// conformance suite share: package resolve's status replay and package
// resolve/trace's traffic replay. It finds the suite's module, names the
// controller and namespaces its manifests use, and loads a test's objects
// as the suite leaves them.
package conformancetest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Module is the conformance suite's module path.
const Module = "sigs.k8s.io/gateway-api/conformance"

// Controller is the controllerName of the suite's GatewayClass
// (testdata/conformance/gatewayclass.yaml of package resolve), i.e. the
// suite's ControllerName.
const Controller = "gwlint.io/conformance"

// Namespaces are the namespaces the suite's base manifests create and hold
// every object of: a test's cluster is its inputs, and an object it does
// not create does not exist there.
var Namespaces = []string{"gateway-conformance-*"}

// SuiteObjects are the files, in testdata (package resolve's
// testdata/conformance), holding what suite.Setup creates: always loaded
// after the base manifests.
func SuiteObjects(testdata string) []string {
	return []string{testdata + "/gatewayclass.yaml", testdata + "/suite-setup.yaml"}
}

var (
	dirOnce sync.Once
	dirRoot string
	dirErr  error
)

// Dir is the conformance module of the same release as the pinned API
// (resolve.APIVersion; they are released together). It is not a dependency
// of this module, so it is looked up in the module cache by path:
// $GWLINT_CONFORMANCE_DIR, or $(go env GOMODCACHE)/sigs.k8s.io/gateway-api/conformance@<version>.
// When it is absent the test skips, saying how to fetch it, unless
// $GWLINT_REQUIRE_CONFORMANCE is set (for CI), which makes that a failure.
func Dir(t *testing.T) string {
	t.Helper()
	version := resolve.APIVersion
	dirOnce.Do(func() {
		if dir := os.Getenv("GWLINT_CONFORMANCE_DIR"); dir != "" {
			dirRoot = dir
		} else {
			out, err := exec.Command("go", "env", "GOMODCACHE").Output()
			if err != nil {
				dirErr = fmt.Errorf("go env GOMODCACHE: %w", err)
				return
			}
			dirRoot = filepath.Join(strings.TrimSpace(string(out)), filepath.FromSlash(Module)+"@"+version)
		}
		if _, err := os.Stat(filepath.Join(dirRoot, "base", "manifests.yaml")); err != nil {
			dirErr = err
		}
	})
	if dirErr != nil {
		msg := fmt.Sprintf("conformance module %s@%s not available (%v); fetch it with: "+
			"(cd \"$(mktemp -d)\" && go mod download %s@%s)", Module, version, dirErr, Module, version)
		if os.Getenv("GWLINT_REQUIRE_CONFORMANCE") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	return dirRoot
}

// ReadErrors lists read errors one a line, for a test's failure message.
func ReadErrors(errs []*manifest.ReadError) string {
	var b strings.Builder
	for _, e := range errs {
		b.WriteString("\n\t")
		b.WriteString(e.Error())
	}
	return b.String()
}

// Mutate is in as a test leaves it: each object of the files replace
// replacing the object of the same kind, namespace and name, and the
// objects remove names ("Kind ns/name") deleted.
func Mutate(t *testing.T, in *resolve.Inputs, opts resolve.Options, replace, remove []string) *resolve.Inputs {
	t.Helper()
	repl := resolve.Load(replace, nil, opts)
	if len(repl.Errors) > 0 {
		t.Fatalf("read errors:%s", ReadErrors(repl.Errors))
	}
	drop := map[string]bool{}
	for _, r := range remove {
		drop[r] = true
	}
	for _, obj := range repl.Objects {
		drop[obj.Metadata().Ref.String()] = true
	}
	out := &resolve.Inputs{Skipped: in.Skipped}
	for _, obj := range in.Objects {
		ref := obj.Metadata().Ref.String()
		if drop[ref] {
			delete(drop, ref)
			continue
		}
		out.Objects = append(out.Objects, obj)
	}
	for ref := range drop {
		t.Fatalf("harness: %s is not among the test's objects", ref)
	}
	out.Objects = append(out.Objects, repl.Objects...)
	return out
}
