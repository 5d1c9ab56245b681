package resolve

import "testing"

// TestCacheHitsTheSameObjects: resolving the same objects again, the
// Cache hands back every listener's shadows and every route's match keys
// and feature uses rather than finding them again (a lookup that always
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
		_, matched := c.matches.get(r.Route, c.check)
		_, used := c.uses.get(r.Route, c.check)
		c.mu.RUnlock()
		if !matched || !used {
			t.Errorf("route %s: match keys kept %v, feature uses kept %v", r.Ref, matched, used)
		}
	}
}
