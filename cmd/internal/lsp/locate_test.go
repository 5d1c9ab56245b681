package lsp

import "testing"

func TestIndexed(t *testing.T) {
	for _, tt := range []struct{ path, field, want string }{
		{"spec.parentRefs[2].name", "spec.parentRefs", "spec.parentRefs[2]"},
		{"spec.parentRefs[2]", "spec.parentRefs", "spec.parentRefs[2]"},
		{"spec.rules[1].backendRefs[0].port", "spec.rules[1].backendRefs", "spec.rules[1].backendRefs[0]"},
		{"spec.parentRefs", "spec.parentRefs", ""},
		{"spec.parentRefs[2", "spec.parentRefs", ""},
		{"spec.hostnames[0]", "spec.parentRefs", ""},
		{"spec.rules[0]", "", ""},
	} {
		if got := indexed(tt.path, tt.field); got != tt.want {
			t.Errorf("indexed(%q, %q) = %q, want %q", tt.path, tt.field, got, tt.want)
		}
	}
}
