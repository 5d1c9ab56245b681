package resolve_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// shadowsOf renders a graph's shadows, for comparison.
func shadowsOf(g *resolve.Graph) []string {
	var out []string
	for _, s := range g.Shadows {
		out = append(out, fmt.Sprintf("%s %s %s/%s %s/%s %s", s.Listener.Name, s.Hostname,
			s.Winner.Route.Ref, s.Winner.Path, s.Shadowed.Route.Ref, s.Shadowed.Path, s.Match))
	}
	return out
}

// TestCacheResolvesAsResolve: resolving with a Cache finds what Resolve
// finds, whether the cache holds the routes (the same objects again), or
// holds other objects of the same routes (the files read again), across
// checks.
func TestCacheResolvesAsResolve(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All()}
	paths := []string{"../lint/testdata/base.yaml", "../lint/testdata/route-match-shadowed/routes.yaml"}
	in := resolve.Load(paths, nil, opts)
	want := shadowsOf(resolve.Resolve(in, opts))
	if len(want) == 0 {
		t.Fatal("no shadows to compare")
	}
	c := resolve.NewCache()
	for check, again := range []*resolve.Inputs{in, in, resolve.Load(paths, nil, opts), in} {
		if got := shadowsOf(c.Resolve(again, opts)); !slices.Equal(got, want) {
			t.Errorf("check %d: shadows\n%v\nwant\n%v", check, got, want)
		}
		c.EndCheck()
	}
}
