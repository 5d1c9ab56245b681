package resolve_test

import (
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/internal/conformancetest"
)

// The pinned Gateway API module ships example manifests (examples/, both
// channels) that must all read cleanly and resolve, and CRD-invalid ones
// (hack/invalid-examples/) that need not be flagged but must not crash the
// resolver.

const gatewayAPIModule = "sigs.k8s.io/gateway-api"

type moduleInfo struct {
	dir, version string
	err          error
}

var (
	gatewayAPIOnce sync.Once
	gatewayAPIInfo moduleInfo
)

// gatewayAPI locates the pinned sigs.k8s.io/gateway-api module in the module
// cache. It is a direct dependency, so `go list -m` answers offline whenever
// the project builds.
func gatewayAPI(t *testing.T) moduleInfo {
	t.Helper()
	gatewayAPIOnce.Do(func() {
		out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}\t{{.Version}}", gatewayAPIModule).Output()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				err = fmt.Errorf("%v: %s", err, ee.Stderr)
			}
			gatewayAPIInfo.err = fmt.Errorf("go list -m %s: %w", gatewayAPIModule, err)
			return
		}
		dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), "\t")
		if dir == "" {
			gatewayAPIInfo.err = fmt.Errorf("go list -m %s: module not in the module cache (run go mod download)", gatewayAPIModule)
			return
		}
		gatewayAPIInfo = moduleInfo{dir: dir, version: version}
	})
	if gatewayAPIInfo.err != nil {
		t.Fatal(gatewayAPIInfo.err)
	}
	if gatewayAPIInfo.version != resolve.APIVersion {
		t.Fatalf("go.mod pins %s %s but resolve.APIVersion is %s", gatewayAPIModule, gatewayAPIInfo.version, resolve.APIVersion)
	}
	return gatewayAPIInfo
}

// manifestFiles lists the YAML files under root, in lexical order.
func manifestFiles(t *testing.T, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(files)
	if len(files) == 0 {
		t.Fatalf("no YAML files under %s", root)
	}
	return files
}

// loadAndResolve runs the whole pipeline (Load, Resolve, Statuses), turning
// a panic anywhere in it into a test error with its stack.
func loadAndResolve(t *testing.T, paths []string) (in *resolve.Inputs, g *resolve.Graph, statuses []resolve.StatusObject) {
	t.Helper()
	defer func() {
		if r := recover(); r != nil {
			t.Errorf("panic resolving %s: %v\n%s", strings.Join(paths, ", "), r, debug.Stack())
		}
	}()
	opts := resolve.Options{}
	in = resolve.Load(paths, nil, opts)
	g = resolve.Resolve(in, opts)
	statuses = g.Statuses()
	return in, g, statuses
}

// TestExamplesLoadAndResolve: every file of examples/ (standard and
// experimental) reads with no error, and resolves without panicking.
func TestExamplesLoadAndResolve(t *testing.T) {
	root := filepath.Join(gatewayAPI(t).dir, "examples")
	for _, file := range manifestFiles(t, root) {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			in, g, _ := loadAndResolve(t, []string{file})
			if in == nil {
				return
			}
			if len(in.Errors) > 0 {
				t.Errorf("%d read errors:%s", len(in.Errors), conformancetest.ReadErrors(in.Errors))
			}
			if len(in.Objects) == 0 {
				t.Errorf("no object loaded (skipped: %v)", in.Skipped)
			}
			if g != nil && len(g.Duplicates) > 0 {
				t.Errorf("%d duplicate objects within one example file", len(g.Duplicates))
			}
		})
	}
}

// TestExamplesTreeResolves: the whole examples tree read as one input (a
// directory argument, as a user would pass it) reads cleanly and resolves.
// Examples reuse names across files, so duplicates are expected; they must
// not disturb resolution.
func TestExamplesTreeResolves(t *testing.T) {
	root := filepath.Join(gatewayAPI(t).dir, "examples")
	files := manifestFiles(t, root)
	in, g, statuses := loadAndResolve(t, []string{root})
	if in == nil {
		return
	}
	if len(in.Errors) > 0 {
		t.Errorf("%d read errors:%s", len(in.Errors), conformancetest.ReadErrors(in.Errors))
	}
	// The directory walk must have seen every file the per-file test did.
	seen := map[string]bool{}
	for _, obj := range in.Objects {
		seen[obj.Metadata().Source.File] = true
	}
	for _, f := range files {
		if !seen[f] {
			// A file of only skipped kinds (e.g. a Namespace list) is fine.
			if sub := resolve.Load([]string{f}, nil, resolve.Options{}); len(sub.Objects) > 0 {
				t.Errorf("directory load missed %s", f)
			}
		}
	}
	if g != nil {
		t.Logf("examples tree: %d objects, %d duplicates, %d gateways, %d routes, %d status objects",
			len(g.Objects), len(g.Duplicates), len(g.Gateways), len(g.Routes), len(statuses))
	}
}

// TestInvalidExamplesLoad: the CRD-invalid manifests of hack/invalid-examples
// load and resolve without panicking. The resolver need not flag them (the
// API server's validation would reject them); read errors are allowed.
func TestInvalidExamplesLoad(t *testing.T) {
	root := filepath.Join(gatewayAPI(t).dir, "hack", "invalid-examples")
	if _, err := os.Stat(root); err != nil {
		t.Fatalf("%s: %v", root, err)
	}
	for _, file := range manifestFiles(t, root) {
		rel, _ := filepath.Rel(root, file)
		t.Run(rel, func(t *testing.T) {
			in, _, _ := loadAndResolve(t, []string{file})
			if in != nil && len(in.Errors) > 0 {
				t.Logf("read errors (allowed):%s", conformancetest.ReadErrors(in.Errors))
			}
		})
	}
}
