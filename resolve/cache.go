package resolve

import (
	"hash/maphash"
	"slices"
	"sync"
	"sync/atomic"
)

// Cache keeps what resolving derives from objects alone, for a caller
// that resolves the same objects again and again: the language server
// resolves its folder after every edit and reads again only the files
// that changed, so most routes it resolves are the very objects it
// resolved before. Objects are read-only once loaded, so what was derived
// from them holds as long as they are given again. Today that is each
// route's match keys, the feature uses it needs by itself (routeUses) and
// its rules with their backends (keptBackends), and each listener's
// shadows, which depend only on the routes attached to it and how
// (shadowInputs).
//
// A Cache keeps what the last check (the Resolves before the last
// EndCheck) used, for the next; it is safe for concurrent use, and its
// zero value is empty.
// gwlint check, which resolves once, uses none (Resolve).
type Cache struct {
	// mu guards the maps of the five below: a lookup only reads them
	// (and marks what it finds), so that the routes resolved on every
	// core at once do not queue for a lock.
	mu      sync.RWMutex
	matches kept[*Route, []matchEntry] // without their route
	uses    kept[*Route, *routeUses]
	// shadows are listeners' shadows by the key of their inputs, which
	// listeners with other inputs may share.
	shadows kept[uint64, *keptShadows]
	// worlds are what the graphs were resolved from besides their routes,
	// by their count of objects, and backends each route's rules as
	// resolved in one of them (cachebackends.go).
	worlds   kept[int, *keptWorld]
	backends kept[*Route, *keptBackends]
	// check counts the EndChecks.
	check uint64
}

// kept are the values the Cache keeps, filed by a key that several may
// share, each marked with the last check that used it.
type kept[K comparable, V any] map[K][]*used[V]

type used[V any] struct {
	value V
	by    atomic.Uint64 // the last check that used it
}

// find returns the value filed under k that is (theOne, for a key that
// files one), marking it used by check; the caller holds the Cache's lock, for
// reading at least.
func (m kept[K, V]) find(k K, check uint64, is func(V) bool) (V, bool) {
	for _, u := range m[k] {
		if is(u.value) {
			u.by.Store(check)
			return u.value, true
		}
	}
	var none V
	return none, false
}

// theOne is find's test for a key that files one value.
func theOne[V any](V) bool { return true }

// add files v under k, used by check; the caller holds the Cache's lock.
func (m *kept[K, V]) add(k K, v V, check uint64) {
	if *m == nil {
		*m = kept[K, V]{}
	}
	u := &used[V]{value: v}
	u.by.Store(check)
	(*m)[k] = append((*m)[k], u)
}

// forget drops what check did not use.
func (m kept[K, V]) forget(check uint64) {
	for k, us := range m {
		if us = slices.DeleteFunc(us, func(u *used[V]) bool { return u.by.Load() < check }); len(us) == 0 {
			delete(m, k)
		} else {
			m[k] = us
		}
	}
}

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
	c.matches.forget(c.check)
	c.uses.forget(c.check)
	c.shadows.forget(c.check)
	c.worlds.forget(c.check)
	c.backends.forget(c.check)
	c.check++
}

// routeUses returns the feature uses the route needs by itself, from the
// cache when it holds them, and keeps them. A nil Cache holds nothing, and
// hands out scratchUses for the caller to put back.
func (c *Cache) routeUses(r *RouteResult) *routeUses {
	if c == nil {
		return routeUsesOf(scratchUses.Get().(*routeUses), r)
	}
	c.mu.RLock()
	uses, ok := c.uses.find(r.Route, c.check, theOne)
	c.mu.RUnlock()
	if !ok {
		uses = routeUsesOf(new(routeUses), r)
		c.mu.Lock()
		defer c.mu.Unlock()
		if _, ok := c.uses.find(r.Route, c.check, theOne); !ok {
			c.uses.add(r.Route, uses, c.check)
		}
	}
	return uses
}

// routeMatches returns the route's match keys, from the cache when it
// holds them (a nil Cache holds nothing).
func (c *Cache) routeMatches(r *RouteResult) []matchEntry {
	if c == nil {
		return routeMatches(r)
	}
	c.mu.RLock()
	kept, ok := c.matches.find(r.Route, c.check, theOne)
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
		if _, ok := c.matches.find(r.Route, c.check, theOne); ok {
			continue
		}
		kept := make([]matchEntry, len(matches[i]))
		for j, e := range matches[i] {
			e.route = nil
			kept[j] = e
		}
		c.matches.add(r.Route, kept, c.check)
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
		in.attached[i] = attachedOn(l, p)
	}
	return in
}

// attachedOn is what shadowsOn reads of p's route, attached to l.
func attachedOn(l *Listener, p *ParentResult) shadowInput {
	a := shadowInput{route: p.Route.Route}
	for _, o := range p.Listeners {
		if o.Listener == l {
			a.hostnames = o.Hostnames
		}
	}
	for _, d := range p.Dropped {
		a.dropped = append(a.dropped, d.Rule.Index)
	}
	return a
}

func (a *shadowInput) equal(b *shadowInput) bool {
	return a.route == b.route && slices.Equal(a.hostnames, b.hostnames) && slices.Equal(a.dropped, b.dropped)
}

func (in *shadowInputs) equal(other *shadowInputs) bool {
	return in.hostname == other.hostname && slices.EqualFunc(in.attached, other.attached, func(a, b shadowInput) bool { return a.equal(&b) })
}

// of reports whether in are l's inputs, read in place.
func (in *shadowInputs) of(l *Listener) bool {
	if in.hostname != l.HostnameString() || len(in.attached) != len(l.Attached) {
		return false
	}
	for i, p := range l.Attached {
		if a := attachedOn(l, p); !a.equal(&in.attached[i]) {
			return false
		}
	}
	return true
}

var shadowInputsSeed = maphash.MakeSeed()

// shadowKey is what the Cache files a listener's shadows under: its
// hostname, how many routes are attached and the first and last of them.
// Listeners that share one are told apart by their whole inputs (of).
type shadowKey struct {
	hostname    string
	routes      int
	first, last *Route
}

func (in *shadowInputs) key() uint64 {
	n := len(in.attached)
	if n == 0 {
		return keyOfShadows(in.hostname, 0, nil, nil)
	}
	return keyOfShadows(in.hostname, n, in.attached[0].route, in.attached[n-1].route)
}

// keyOf is the key of l's inputs, read in place.
func keyOf(l *Listener) uint64 {
	n := len(l.Attached)
	if n == 0 {
		return keyOfShadows(l.HostnameString(), 0, nil, nil)
	}
	return keyOfShadows(l.HostnameString(), n, l.Attached[0].Route.Route, l.Attached[n-1].Route.Route)
}

func keyOfShadows(hostname string, routes int, first, last *Route) uint64 {
	return maphash.Comparable(shadowInputsSeed, shadowKey{hostname, routes, first, last})
}

// listenerShadows returns the shadows on l when the cache holds those of
// a listener with the same inputs, with l and its routes' results in
// them (a nil Cache holds nothing).
func (c *Cache) listenerShadows(l *Listener) ([]Shadow, bool) {
	if c == nil {
		return nil, false
	}
	key := keyOf(l)
	c.mu.RLock()
	kept, ok := c.shadows.find(key, c.check, func(k *keptShadows) bool { return k.inputs.of(l) })
	c.mu.RUnlock()
	if !ok {
		return nil, false
	}
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
	c.keepShadows(in.key(), kept)
}

// keepShadows keeps the shadows found on a listener, under the key of
// their inputs (shadowKey).
func (c *Cache) keepShadows(key uint64, kept *keptShadows) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.shadows.find(key, c.check, func(k *keptShadows) bool { return k.inputs.equal(&kept.inputs) }); !ok {
		c.shadows.add(key, kept, c.check)
	}
}
