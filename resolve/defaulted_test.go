package resolve

import (
	"slices"
	"testing"
)

func TestDefaultedPaths(t *testing.T) {
	var d DefaultedPaths
	if d.Has("spec") || d.Len() != 0 || d.Paths() != nil {
		t.Fatal("zero value not empty")
	}
	d.add("spec.parentRefs[0]", ".group")
	d.add("spec.parentRefs[0]", ".kind")
	if !d.Has("spec.parentRefs[0].kind") { // before seal
		t.Error("unsealed path not found")
	}
	d.seal()
	d.add("spec.rules", "") // after a seal
	d.seal()
	d.add("spec.rules", "") // a set: once
	d.seal()
	for _, p := range []string{"spec.parentRefs[0].group", "spec.parentRefs[0].kind", "spec.rules"} {
		if !d.Has(p) {
			t.Errorf("%s not found", p)
		}
	}
	for _, p := range []string{"", "spec", "spec.parentRefs[0]", "spec.parentRefs[0].gro", "spec.rules[0]"} {
		if d.Has(p) {
			t.Errorf("%q found", p)
		}
	}
	if want := []string{"spec.parentRefs[0].group", "spec.parentRefs[0].kind", "spec.rules"}; !slices.Equal(d.Paths(), want) || d.Len() != 3 {
		t.Errorf("Paths() = %q, want %q", d.Paths(), want)
	}
}

// Sealed paths are stored by what they add to the path before them.
func TestDefaultedPathsFrontCoded(t *testing.T) {
	var d DefaultedPaths
	paths := []string{"spec.rules[0].backendRefs[1].group", "spec.rules[0].backendRefs[1].kind", "spec.rules[0].backendRefs[1].weight", "spec.rules[10].matches[0]"}
	plain := 0
	for _, p := range paths {
		d.add(p, "")
		plain += len(p) + 1
	}
	d.seal()
	if len(d.sealed) > plain*6/10 {
		t.Errorf("sealed into %d bytes, plain %d", len(d.sealed), plain)
	}
	if got := slices.Collect(d.all()); !slices.Equal(got, paths) {
		t.Errorf("all() = %q, want %q", got, paths)
	}
	for _, p := range paths {
		if !d.Has(p) {
			t.Errorf("%s not found", p)
		}
	}
}
