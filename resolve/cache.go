package resolve

import "sync"

// Cache keeps what resolving derives from a route alone, for a caller that
// resolves the same objects again and again: the language server resolves
// its folder after every edit and reads again only the files that changed,
// so most routes it resolves are the very objects it resolved before.
// Objects are read-only once loaded, so what was derived from one holds as
// long as it is given again. Today that is each route's match keys (the
// shadow check's, findShadows), about a fifth of resolving a repository.
//
// A Cache keeps what the checks since the last EndCheck and the one before
// them used; it is safe for concurrent use, and its zero value is empty.
// gwlint check, which resolves once, uses none (Resolve).
type Cache struct {
	mu        sync.RWMutex
	prev, cur map[*Route][]matchEntry // without their route
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
	c.prev, c.cur = c.cur, nil
}

// routeMatches returns the route's match keys, from the cache when it
// holds them (a nil Cache holds nothing).
func (c *Cache) routeMatches(r *RouteResult) []matchEntry {
	if c == nil {
		return routeMatches(r)
	}
	c.mu.RLock()
	kept, ok := c.cur[r.Route]
	if !ok {
		kept, ok = c.prev[r.Route]
	}
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
	if c.cur == nil {
		c.cur = make(map[*Route][]matchEntry, len(routes))
	}
	for i, r := range routes {
		if _, ok := c.cur[r.Route]; ok {
			continue
		}
		if kept, ok := c.prev[r.Route]; ok {
			c.cur[r.Route] = kept
			continue
		}
		kept := make([]matchEntry, len(matches[i]))
		for j, e := range matches[i] {
			e.route = nil
			kept[j] = e
		}
		c.cur[r.Route] = kept
	}
}
