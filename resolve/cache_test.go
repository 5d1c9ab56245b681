package resolve_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// shadowsOf renders a graph's shadows, for comparison. They must point
// at the graph's own listeners and route results: a cache keeps them
// from another graph.
func shadowsOf(t *testing.T, g *resolve.Graph) []string {
	t.Helper()
	var out []string
	for _, s := range g.Shadows {
		if !slices.Contains(g.Routes, s.Winner.Route) || !slices.Contains(g.Routes, s.Shadowed.Route) ||
			!slices.Contains(s.Listener.Gateway.AllListeners(), s.Listener) || !slices.Contains(g.Gateways, s.Listener.Gateway) {
			t.Errorf("shadow %s of %s points at another graph", s.Shadowed.Path, s.Shadowed.Route.Ref)
		}
		out = append(out, fmt.Sprintf("%s %s %s/%s %s/%s %s", s.Listener.Name, s.Hostname,
			s.Winner.Route.Ref, s.Winner.Path, s.Shadowed.Route.Ref, s.Shadowed.Path, s.Match))
	}
	return out
}

// gapsOf renders a graph's feature gaps, for comparison.
func gapsOf(g *resolve.Graph) []string {
	var out []string
	for _, gap := range g.FeatureGaps {
		out = append(out, fmt.Sprintf("%s %s %s %s", gap.Object.Ref, gap.Path, gap.Feature, gap.Profile))
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
	want := shadowsOf(t, resolve.Resolve(in, opts))
	if len(want) == 0 {
		t.Fatal("no shadows to compare")
	}
	c := resolve.NewCache()
	for check, again := range []*resolve.Inputs{in, in, resolve.Load(paths, nil, opts), in} {
		if got := shadowsOf(t, c.Resolve(again, opts)); !slices.Equal(got, want) {
			t.Errorf("check %d: shadows\n%v\nwant\n%v", check, got, want)
		}
		c.EndCheck()
	}
}

// TestCacheFollowsEdits: after edits that change what is attached to a
// listener (a route added that shadows and is shadowed, a rule's match
// changed, a route gone), and edits back, each check with a Cache finds
// the shadows and feature gaps Resolve finds of the same objects.
func TestCacheFollowsEdits(t *testing.T) {
	opts := resolve.Options{Validate: true, Implementations: implementations.All(),
		WithoutFeatures: []features.FeatureName{features.SupportHTTPRouteRequestTimeout, features.SupportHTTPRouteMethodMatching}}
	base := resolve.Load([]string{"../lint/testdata/base.yaml"}, nil, opts)
	const cart = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: cart
  namespace: app
spec:
  parentRefs:
  - name: gw
    namespace: infra
  hostnames:
  - shop.example.com
  rules:
  - matches:
    - path:
        type: PathPrefix
        value: /cart
    backendRefs:
    - name: web
      port: 8080
  - matches:
    - path:
        type: PathPrefix
        value: /orders
      method: GET
    backendRefs:
    - name: web
      port: 8080
    timeouts:
      request: 10s
`
	// Sorted before the others, with cart's first rule only.
	early := strings.Replace(cart[:strings.Index(cart, "  - matches:\n    - path:\n        type: PathPrefix\n        value: /orders")],
		"name: cart\n", "name: aa-early\n", 1)
	world := func(files ...string) *resolve.Inputs {
		in := &resolve.Inputs{Skipped: map[string]int{}}
		in.Merge(base)
		for i, f := range files {
			in.Merge(resolve.LoadData(fmt.Sprintf("edit-%d.yaml", i), []byte(f), opts))
		}
		return in
	}
	shadowing := strings.Replace(cart, "name: cart\n", "name: cart-v2\n", 1)
	c := resolve.NewCache()
	checks := []*resolve.Inputs{
		world(cart),
		world(cart, shadowing),
		world(cart, shadowing, early),
		world(cart, strings.Replace(shadowing, "/cart", "/basket", 1), early),
		world(cart, early),
		world(cart),
	}
	shadows, gaps := 0, 0
	for check, in := range checks {
		cold, cached := resolve.Resolve(in, opts), c.Resolve(in, opts)
		want := shadowsOf(t, cold)
		shadows += len(want)
		if got := shadowsOf(t, cached); !slices.Equal(got, want) {
			t.Errorf("check %d: shadows\n%v\nwant\n%v", check, got, want)
		}
		wantGaps := gapsOf(cold)
		gaps += len(wantGaps)
		if got := gapsOf(cached); !slices.Equal(got, wantGaps) {
			t.Errorf("check %d: feature gaps\n%v\nwant\n%v", check, got, wantGaps)
		}
		c.EndCheck()
	}
	if shadows < 4 || gaps < 6 {
		t.Errorf("only %d shadows and %d feature gaps across the checks: the edits do not exercise the cache", shadows, gaps)
	}
}
