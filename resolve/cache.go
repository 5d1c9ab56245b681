package resolve

import (
	"hash/maphash"
	"slices"
	"sync"
)

// Cache keeps what resolving derives from objects alone, for a caller
// that resolves the same objects again and again: the language server
// resolves its folder after every edit and reads again only the files
// that changed, so most routes it resolves are the very objects it
// resolved before. Objects are read-only once loaded, so what was derived
// from them holds as long as they are given again. Today that is each
// route's match keys and the feature uses it needs by itself (routeUses),
// and each listener's shadows, which depend only on the routes attached
// to it and how (shadowInputs).
//
// A Cache keeps what the checks since the last EndCheck and the one before
// them used; it is safe for concurrent use, and its zero value is empty.
// gwlint check, which resolves once, uses none (Resolve).
type Cache struct {
	mu      sync.RWMutex                      // guards the three below
	matches generations[*Route, []matchEntry] // without their route
	uses    generations[*Route, *routeUses]
	// shadows are listeners' shadows by the hash of their inputs.
	shadows generations[uint64, []*keptShadows]
}

// generations are what the current check and the one before it used.
type generations[K comparable, V any] struct{ prev, cur map[K]V }

// get returns k's value of the current check, else of the one before.
func (g *generations[K, V]) get(k K) (V, bool) {
	if v, ok := g.cur[k]; ok {
		return v, true
	}
	v, ok := g.prev[k]
	return v, ok
}

// put makes v k's value of the current check.
func (g *generations[K, V]) put(k K, v V) {
	if g.cur == nil {
		g.cur = map[K]V{}
	}
	g.cur[k] = v
}

// end ends the current check: what the one before used and it did not is
// forgotten.
func (g *generations[K, V]) end() { g.prev, g.cur = g.cur, nil }

// NewCache returns an empty Cache.
func NewCache() *Cache { return &Cache{} }

// Resolve is the package's Resolve, reusing what c holds of the objects of
// in, and keeping what it derives of them.
func (c *Cache) Resolve(in *Inputs, opts Options) *Graph { return resolveWith(in, opts, c) }

// EndCheck ends a check: what the Resolves since the previous EndCheck did
// not use is forgotten.
func (c *Cache) EndCheck() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.matches.end()
	c.uses.end()
	c.shadows.end()
}

// routeUses returns the feature uses the route needs by itself, from the
// cache when it holds them, and keeps them. A nil Cache holds nothing, and
// hands out scratchUses for the caller to put back.
func (c *Cache) routeUses(r *RouteResult) *routeUses {
	if c == nil {
		return routeUsesOf(scratchUses.Get().(*routeUses), r)
	}
	c.mu.RLock()
	uses, ok := c.uses.get(r.Route)
	c.mu.RUnlock()
	if !ok {
		uses = routeUsesOf(new(routeUses), r)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.uses.put(r.Route, uses)
	return uses
}

// routeMatches returns the route's match keys, from the cache when it
// holds them (a nil Cache holds nothing).
func (c *Cache) routeMatches(r *RouteResult) []matchEntry {
	if c == nil {
		return routeMatches(r)
	}
	c.mu.RLock()
	kept, ok := c.matches.get(r.Route)
	c.mu.RUnlock()
	if !ok {
		return routeMatches(r)
	}
	out := make([]matchEntry, len(kept))
	for i, e := range kept {
		e.route = r
		out[i] = e
	}
	return out
}

// keepMatches keeps the match keys of the routes resolved, without the
// results they belong to (which hold the whole graph).
func (c *Cache) keepMatches(routes []*RouteResult, matches [][]matchEntry) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for i, r := range routes {
		kept, ok := c.matches.get(r.Route)
		if !ok {
			kept = make([]matchEntry, len(matches[i]))
			for j, e := range matches[i] {
				e.route = nil
				kept[j] = e
			}
		}
		c.matches.put(r.Route, kept)
	}
}

// keptShadows are the shadows found on a listener, kept with what they
// were found from and without the graph they belong to: routes by object,
// not by result.
type keptShadows struct {
	inputs  shadowInputs
	shadows []keptShadow
}

type keptShadow struct {
	hostname, match  string
	winner, shadowed keptMatch
}

type keptMatch struct {
	route       *Route
	rule, match int
	path        string
}

// shadowInputs is what shadowsOn reads of a listener: its hostname and,
// for each route attached, in order, the route object, its hostnames on
// the listener and the rules dropped there. Equal inputs give equal
// shadows.
type shadowInputs struct {
	hostname string
	attached []shadowInput
}

type shadowInput struct {
	route     *Route
	hostnames []string
	dropped   []int
}

func shadowInputsOf(l *Listener) shadowInputs {
	in := shadowInputs{hostname: l.HostnameString(), attached: make([]shadowInput, len(l.Attached))}
	for i, p := range l.Attached {
		a := &in.attached[i]
		a.route = p.Route.Route
		for _, o := range p.Listeners {
			if o.Listener == l {
				a.hostnames = o.Hostnames
			}
		}
		for _, d := range p.Dropped {
			a.dropped = append(a.dropped, d.Rule.Index)
		}
	}
	return in
}

func (in *shadowInputs) equal(other *shadowInputs) bool {
	return in.hostname == other.hostname && slices.EqualFunc(in.attached, other.attached, func(a, b shadowInput) bool {
		return a.route == b.route && slices.Equal(a.hostnames, b.hostnames) && slices.Equal(a.dropped, b.dropped)
	})
}

var shadowInputsSeed = maphash.MakeSeed()

func (in *shadowInputs) hash() uint64 {
	var h maphash.Hash
	h.SetSeed(shadowInputsSeed)
	h.WriteString(in.hostname)
	for _, a := range in.attached {
		maphash.WriteComparable(&h, a.route)
		for _, name := range a.hostnames {
			h.WriteString(name)
			h.WriteByte(0)
		}
		h.WriteByte(1)
		for _, rule := range a.dropped {
			maphash.WriteComparable(&h, rule)
		}
		h.WriteByte(2)
	}
	return h.Sum64()
}

// listenerShadows returns the shadows on l when the cache holds those of
// a listener with the same inputs, with l and its routes' results in
// them (a nil Cache holds nothing).
func (c *Cache) listenerShadows(l *Listener) ([]Shadow, bool) {
	if c == nil {
		return nil, false
	}
	in := shadowInputsOf(l)
	key := in.hash()
	c.mu.RLock()
	kept := findKept(c.shadows.cur[key], &in)
	if kept == nil {
		kept = findKept(c.shadows.prev[key], &in)
	}
	c.mu.RUnlock()
	if kept == nil {
		return nil, false
	}
	c.keepShadows(key, kept)
	if len(kept.shadows) == 0 {
		return nil, true
	}
	results := make(map[*Route]*RouteResult, len(l.Attached))
	for _, p := range l.Attached {
		results[p.Route.Route] = p.Route
	}
	ref := func(m keptMatch) MatchRef {
		return MatchRef{Route: results[m.route], Rule: m.rule, Match: m.match, Path: m.path}
	}
	out := make([]Shadow, len(kept.shadows))
	for i, s := range kept.shadows {
		out[i] = Shadow{Listener: l, Hostname: s.hostname, Winner: ref(s.winner), Shadowed: ref(s.shadowed), Match: s.match}
	}
	return out, true
}

// keepListenerShadows keeps the shadows found on l.
func (c *Cache) keepListenerShadows(l *Listener, shadows []Shadow) {
	if c == nil {
		return
	}
	in := shadowInputsOf(l)
	kept := &keptShadows{inputs: in, shadows: make([]keptShadow, len(shadows))}
	match := func(m MatchRef) keptMatch {
		return keptMatch{route: m.Route.Route, rule: m.Rule, match: m.Match, path: m.Path}
	}
	for i, s := range shadows {
		kept.shadows[i] = keptShadow{hostname: s.Hostname, match: s.Match, winner: match(s.Winner), shadowed: match(s.Shadowed)}
	}
	c.keepShadows(in.hash(), kept)
}

// keepShadows makes kept one of the current check's.
func (c *Cache) keepShadows(key uint64, kept *keptShadows) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if same := c.shadows.cur[key]; findKept(same, &kept.inputs) == nil {
		c.shadows.put(key, append(same, kept))
	}
}

func findKept(candidates []*keptShadows, in *shadowInputs) *keptShadows {
	for _, k := range candidates {
		if k.inputs.equal(in) {
			return k
		}
	}
	return nil
}
