package gen

import "testing"

// The API server's warning for a deprecated version: the CRD's own, or
// its default when the CRD gives none.
func TestDeprecation(t *testing.T) {
	warning := "use v1"
	for _, tc := range []struct {
		deprecated bool
		warning    *string
		want       string
	}{
		{false, nil, ""},
		{false, &warning, ""},
		{true, &warning, "use v1"},
		{true, nil, "example.com/v1alpha1 Thing is deprecated"},
	} {
		if got := deprecation("example.com", "v1alpha1", "Thing", tc.deprecated, tc.warning); got != tc.want {
			t.Errorf("deprecation(%t, %v) = %q, want %q", tc.deprecated, tc.warning, got, tc.want)
		}
	}
}
