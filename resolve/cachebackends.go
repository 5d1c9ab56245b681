package resolve

import (
	"reflect"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// A route's backendRefs resolve (resolveBackends) from the route itself,
// the profiles of the implementations judging it, and the world's objects
// other than routes: the Services, grants and implementations' objects
// they name, and what will create those the inputs do not hold. So when a
// check resolves the very objects the last one did but for some routes,
// as after an edit of a route, the Cache hands each other route its rules
// and backends as the last check left them (keptBackends), rather than
// resolving them again; that was the larger part of resolving an edit.
// The next graph shares them with the last: nothing writes them after
// resolveBackends but the BackendTLSPolicy each backend uses
// (applyBackendTLSPolicies), which is the graph's own, so a world that
// holds a BackendTLSPolicy keeps none.
// A route is resolved each time when it reads more than the above: when
// it names a route as a backend (delegation reads the other routes) or as
// a parent (its Gateways are its parent route's), or names a generated
// backend (whose Generation is the last graph's).

// keptWorld is what a Resolve read besides the routes: the objects other
// than routes, in order, the rest of its inputs (as SameWorld compares
// them), and the options.
type keptWorld struct {
	objects []Object
	// tls is true when a BackendTLSPolicy is among them.
	tls    bool
	beyond inputsBeyond
	opts   Options
}

func worldOf(in *Inputs, opts Options) *keptWorld {
	w := &keptWorld{beyond: beyondObjects(in), opts: opts}
	w.objects = make([]Object, 0, len(in.Objects))
	for _, obj := range in.Objects {
		switch obj.(type) {
		case *Route:
			continue
		case *BackendTLSPolicy:
			w.tls = true
		}
		w.objects = append(w.objects, obj)
	}
	return w
}

func (w *keptWorld) equal(other *keptWorld) bool {
	return slices.Equal(w.objects, other.objects) && w.beyond.equal(other.beyond) && reflect.DeepEqual(w.opts, other.opts)
}

// keptBackends are a route's rules as resolveBackends made them in world
// for the route's Judges, with the route's ResolvedRefs then and what
// implementations decided about its rules.
type keptBackends struct {
	world        *keptWorld
	judges       []*Judge
	rules        []*RuleResult
	resolvedRefs Condition
	decisions    []keptDecision
}

// keptDecision is what an implementation decided about a rule, by index.
type keptDecision struct {
	impl     string
	rule     int
	decision any
}

// world returns the world kept from the last check that equals the one
// in and opts make, else keeps that one; nil for a nil Cache.
func (c *Cache) world(in *Inputs, opts Options) *keptWorld {
	if c == nil {
		return nil
	}
	w := worldOf(in, opts)
	c.mu.Lock()
	defer c.mu.Unlock()
	if kept, ok := c.worlds.find(len(w.objects), c.check, w.equal); ok {
		return kept
	}
	c.worlds.add(len(w.objects), w, c.check)
	return w
}

// routeBackends gives r the rules and ResolvedRefs the Cache holds of its
// route in g's world for its profiles, and reports whether it held them.
func (c *Cache) routeBackends(g *Graph, r *RouteResult) bool {
	if c == nil {
		return false
	}
	judges := g.routeJudgesOf(r.Route)
	c.mu.RLock()
	kept, ok := c.backends.find(r.Route, c.check, func(k *keptBackends) bool {
		return k.world == g.inWorld && slices.EqualFunc(k.judges, judges, sameProfile)
	})
	c.mu.RUnlock()
	if !ok {
		return false
	}
	r.Rules, r.ResolvedRefs = kept.rules, kept.resolvedRefs
	for _, d := range kept.decisions {
		g.decide(d.impl, r.Rules[d.rule], d.decision)
	}
	return true
}

// keepRouteBackends keeps the rules resolveBackends made of r, with the
// route's ResolvedRefs now (later steps may write it), unless the world
// holds a BackendTLSPolicy or the route reads more of it than its
// keptWorld (see the top of this file).
func (c *Cache) keepRouteBackends(g *Graph, r *RouteResult) {
	if c == nil || g.inWorld.tls || slices.ContainsFunc(r.ParentRefs, func(p gwv1.ParentReference) bool { return routeKinds[string(*p.Kind)] }) {
		return
	}
	for _, rr := range r.Rules {
		for _, b := range rr.AllBackends() {
			if routeKinds[b.Target.Kind] || b.Generation() != nil {
				return
			}
		}
	}
	kept := &keptBackends{world: g.inWorld, judges: g.routeJudgesOf(r.Route), rules: r.Rules, resolvedRefs: r.ResolvedRefs}
	for i, rr := range r.Rules {
		for _, impl := range g.opts.Implementations {
			if d := g.Decision(impl, rr); d != nil {
				kept.decisions = append(kept.decisions, keptDecision{impl.Name(), i, d})
			}
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.backends.add(r.Route, kept, c.check)
}

// sameProfile reports whether two Judges, of different graphs, judge with
// one profile.
func sameProfile(a, b *Judge) bool { return a.Profile == b.Profile }
