package resolve

import (
	"slices"
	"testing"
)

// TestCacheHitsTheSameObjects: resolving the same objects again, the
// Cache hands back every listener's shadows and every route's match keys,
// feature uses and backends rather than finding them again (a lookup that always
// missed would still resolve right, only slowly).
func TestCacheHitsTheSameObjects(t *testing.T) {
	opts := Options{Validate: true}
	in := Load([]string{"../lint/testdata/base.yaml", "../lint/testdata/route-match-shadowed/routes.yaml"}, nil, opts)
	c := NewCache()
	c.Resolve(in, opts)
	c.EndCheck()
	g := resolveWith(in, opts, c)
	listeners := 0
	for l := range g.Listeners() {
		if len(l.Attached) < 2 {
			continue
		}
		listeners++
		if _, ok := c.listenerShadows(l); !ok {
			t.Errorf("listener %s: shadows not kept", l.Name)
		}
	}
	if listeners == 0 {
		t.Fatal("no listener with routes to compare")
	}
	for _, r := range g.Routes {
		c.mu.RLock()
		_, matched := c.matches.find(r.Route, c.check, theOne)
		_, used := c.uses.find(r.Route, c.check, theOne)
		c.mu.RUnlock()
		if !matched || !used {
			t.Errorf("route %s: match keys kept %v, feature uses kept %v", r.Ref, matched, used)
		}
		// Handed back, the kept rules become the new graph's; resolved
		// again, they would be kept beside the last graph's.
		if kept := c.backends[r.Route]; len(kept) != 1 || !slices.Equal(kept[0].value.rules, r.Rules) {
			t.Errorf("route %s: backends not handed back from the cache", r.Ref)
		}
	}
}

// TestCacheForgetsOldShadows: editing a route in the middle of a listener
// again and again (each edit new objects, the listener's key the same)
// keeps one listener's shadows, not one per edit.
func TestCacheForgetsOldShadows(t *testing.T) {
	opts := Options{Validate: true}
	base := Load([]string{"../lint/testdata/base.yaml"}, nil, opts)
	route := func(name, path string) []byte {
		return []byte(`apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [shop.example.com]
  rules: [{matches: [{path: {type: PathPrefix, value: ` + path + `}}], backendRefs: [{name: web, port: 8080}]}]
`)
	}
	first, last := LoadData("a.yaml", route("a", "/cart"), opts), LoadData("z.yaml", route("z", "/cart"), opts)
	c := NewCache()
	for edit := range 20 {
		in := &Inputs{Skipped: map[string]int{}}
		in.Merge(base, first, LoadData("m.yaml", route("m", []string{"/cart", "/orders"}[edit%2]), opts), last)
		c.Resolve(in, opts)
		c.EndCheck()
		kept := 0
		for _, us := range c.shadows {
			kept += len(us)
		}
		if kept != 1 {
			t.Fatalf("edit %d: %d listeners' shadows kept, want the last one", edit, kept)
		}
	}
}
