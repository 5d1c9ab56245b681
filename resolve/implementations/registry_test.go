package implementations_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Every implementation the registry lists judges with a profile of its name,
// once, in order of name.
func TestRegistry(t *testing.T) {
	var names []string
	for _, impl := range implementations.All() {
		if _, err := profile.Lookup(impl.Name()); err != nil {
			t.Errorf("%T: %v", impl, err)
		}
		names = append(names, impl.Name())
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("All() names %v; want each once, sorted", names)
	}
}

// The core finds the steps an implementation takes part in by their methods,
// so a method of one step's name and signature on an implementation makes it
// take part in that step: no two steps may share a method name.
func TestStepMethodsAreUnique(t *testing.T) {
	files, err := filepath.Glob("../*.go")
	if err != nil {
		t.Fatal(err)
	}
	stepOf := map[string]string{} // method name -> step
	steps := 0
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			spec, ok := n.(*ast.TypeSpec)
			if !ok {
				return true
			}
			iface, ok := spec.Type.(*ast.InterfaceType)
			if !ok || !embedsImplementation(iface) {
				return false
			}
			steps++
			for _, m := range iface.Methods.List {
				for _, name := range m.Names {
					if other, dup := stepOf[name.Name]; dup {
						t.Errorf("%s.%s and %s.%s: a step's method must be its own", other, name.Name, spec.Name.Name, name.Name)
					}
					stepOf[name.Name] = spec.Name.Name
				}
			}
			return false
		})
	}
	if steps == 0 {
		t.Fatal("no step interface found in package resolve")
	}
}

// embedsImplementation reports whether an interface embeds
// resolve.Implementation: whether it is a step.
func embedsImplementation(iface *ast.InterfaceType) bool {
	return slices.ContainsFunc(iface.Methods.List, func(f *ast.Field) bool {
		id, ok := f.Type.(*ast.Ident)
		return len(f.Names) == 0 && ok && id.Name == "Implementation"
	})
}
