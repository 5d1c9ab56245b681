package resolve_test

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/profile"
)

// TestSharedDefaultsUnchanged resolves and lints the repository's test
// trees and the Gateway API's examples under every implementation's profile, and checks that the scalar
// defaults that defaulted fields share are still what they were: nothing
// may write through a defaulted field.
func TestSharedDefaultsUnchanged(t *testing.T) {
	want := resolve.SharedDefaults()
	rules := (&lint.Config{}).Rules()
	dirs := []string{"../testdata/examples", "../testdata/read", "../testdata/each-dir", "testdata",
		filepath.Join(gatewayAPI(t).dir, "examples")}
	for _, dir := range dirs {
		for _, p := range append([]*profile.Profile{nil}, profile.Defaults()...) {
			opts := resolve.Options{Validate: true, Implementation: p, Implementations: implementations.All()}
			g := resolve.Resolve(resolve.Load([]string{dir}, nil, opts), opts)
			lint.Run(g, rules)
			g.Features()
		}
	}
	if got := resolve.SharedDefaults(); !slices.Equal(got, want) {
		t.Errorf("shared defaults changed: %v, were %v", got, want)
	}
}
