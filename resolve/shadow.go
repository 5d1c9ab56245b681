package resolve

import (
	"bytes"
	"hash/maphash"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/gwlint/gwlint/internal/parallel"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Shadowing: two route rules with identical matches on the same listener
// and hostname compete for the same requests, and only one wins. Identical
// matches rank equal by every criterion of the route type (precedence.go),
// so the winner is decided by the tie-breaks alone: routeBefore, then rule
// and match order, the order in which shadowsOn claims them.

// MatchRef names one match of one rule of a route.
type MatchRef struct {
	Route *RouteResult
	Rule  int
	Match int
	// Path is "spec.rules[i].matches[j]" (or "spec.rules[i]" for a GRPCRoute
	// rule without matches, which matches every request).
	Path string
}

// Shadow is a match that never receives traffic because an identical match
// of higher precedence is attached to the same listener and hostname.
type Shadow struct {
	Listener *Listener
	Hostname string // "*" when the route and the listener name none
	Winner   MatchRef
	Shadowed MatchRef
	// Match is the shared match in readable form.
	Match string
}

// matchEntry is one match of a route with its canonical key. Its MatchRef
// (and path string) is built only for the few that take part in a shadow.
type matchEntry struct {
	key         string
	route       *RouteResult
	rule, match int // match is -1 for a GRPCRoute rule without matches
}

func (e *matchEntry) ref() MatchRef { return NewMatchRef(e.route, e.rule, e.match) }

// NewMatchRef names match of rule of route; match is -1 for a rule
// without matches.
func NewMatchRef(route *RouteResult, rule, match int) MatchRef {
	path := "spec.rules[" + strconv.Itoa(rule) + "]"
	if match >= 0 {
		path += ".matches[" + strconv.Itoa(match) + "]"
	}
	return MatchRef{Route: route, Rule: rule, Match: match, Path: path}
}

// findShadows runs once the attachments are known. Listeners are checked
// in parallel (each only reads the graph) and their shadows gathered in
// Gateway and listener order.
func (g *Graph) findShadows() {
	var listeners []*Listener
	for _, gw := range g.Gateways {
		for _, l := range gw.AllListeners() {
			// A conflicted listener with routes attached
			// (ListenersJudge.AttachesWhileConflicted)
			// serves none of them: nothing there shadows anything.
			if l.Conflicted.True() {
				continue
			}
			if len(l.Attached) >= 2 || anyRouteHasRepeatedMatches(l) {
				listeners = append(listeners, l)
			}
		}
	}
	found := make([][]Shadow, len(listeners))
	// A listener whose routes are what they were at the last check has
	// the shadows it had then (Cache.listenerShadows); only the others
	// are looked at.
	kept := make([]bool, len(listeners))
	if g.cache != nil {
		parallel.For(len(listeners), func(i int) { found[i], kept[i] = g.cache.listenerShadows(listeners[i]) })
	}
	missed := make([]int, 0, len(listeners))
	for i := range listeners {
		if !kept[i] {
			missed = append(missed, i)
		}
	}
	// A route attached to several listeners has its keys built once.
	keys := map[*RouteResult][]matchEntry{}
	var routes []*RouteResult
	for _, i := range missed {
		l := listeners[i]
		for _, p := range l.Attached {
			if _, ok := keys[p.Route]; !ok {
				keys[p.Route] = nil
				routes = append(routes, p.Route)
			}
		}
	}
	built := make([][]matchEntry, len(routes))
	parallel.For(len(routes), func(i int) { built[i] = g.cache.routeMatches(routes[i]) })
	g.cache.keepMatches(routes, built)
	for i, r := range routes {
		keys[r] = built[i]
	}
	matches := func(r *RouteResult) []matchEntry { return keys[r] }
	parallel.For(len(missed), func(j int) {
		l := listeners[missed[j]]
		found[missed[j]] = shadowsOn(l, matches)
		g.cache.keepListenerShadows(l, found[missed[j]])
	})
	for _, s := range found {
		g.Shadows = append(g.Shadows, s...)
	}
}

func shadowsOn(l *Listener, matches func(*RouteResult) []matchEntry) []Shadow {
	if len(l.Attached) < 2 && !anyRouteHasRepeatedMatches(l) {
		return nil
	}
	// Routes in precedence order, each once per listener, with the rules
	// the listener's implementation drops (dropInvalidRules): a dropped
	// rule serves nothing, so it shadows nothing and nothing shadows it.
	seen := map[*RouteResult]*ListenerOutcome{}
	dropped := map[*RouteResult]map[int]bool{}
	var routes []*RouteResult
	for _, p := range l.Attached {
		if _, dup := seen[p.Route]; dup {
			continue
		}
		for _, o := range p.Listeners {
			if o.Listener == l {
				seen[p.Route] = o
			}
		}
		for _, d := range p.Dropped {
			if dropped[p.Route] == nil {
				dropped[p.Route] = map[int]bool{}
			}
			dropped[p.Route][d.Rule.Index] = true
		}
		routes = append(routes, p.Route)
	}
	sort.SliceStable(routes, func(i, j int) bool { return routeBefore(routes[i], routes[j]) })

	first := firstMatchPool.Get().(*firstMatches)
	defer first.release()
	var out []Shadow
	for _, r := range routes {
		hosts := seen[r].Hostnames
		if len(hosts) == 0 {
			hosts = []string{l.HostnameString()}
		}
		entries := matches(r)
		for i := range entries {
			e := &entries[i]
			if dropped[r][e.rule] {
				continue
			}
			for _, h := range hosts {
				if w := first.claim(h, e); w != nil {
					out = append(out, Shadow{Listener: l, Hostname: h, Winner: w.ref(), Shadowed: e.ref(), Match: readableKey(e.key)})
				}
			}
		}
	}
	return out
}

// firstMatches remembers, per hostname and match key, the first match that
// claimed it. A listener with thousands of routes has tens of thousands of
// them, so they are kept by a 64-bit hash of hostname and key (with the
// rare collision kept apart), not in a map of string pairs.
type firstMatches struct {
	byHash  map[uint64]claim
	collide map[hostMatch]*matchEntry
}

type hostMatch struct{ host, key string }

// firstMatchPool recycles firstMatches from listener to listener: the
// map of a listener with thousands of routes is megabytes, and a worker's
// next listener can reuse it (clear keeps its room).
var firstMatchPool = sync.Pool{New: func() any { return &firstMatches{byHash: map[uint64]claim{}} }}

// release empties f, keeping no match alive, and hands it back. A map
// grown past maxPooledClaims is left to the collector: emptying it costs
// its size, which the next, smaller listeners would pay again and again.
func (f *firstMatches) release() {
	if len(f.byHash) > maxPooledClaims {
		return
	}
	clear(f.byHash)
	f.collide = nil
	firstMatchPool.Put(f)
}

const maxPooledClaims = 1 << 14

type claim struct {
	host  string
	entry *matchEntry
}

var shadowSeed = maphash.MakeSeed()

// claim records e for host unless a match claimed the same host and key
// first; it returns that one.
func (f *firstMatches) claim(host string, e *matchEntry) *matchEntry {
	h := maphash.Comparable(shadowSeed, hostMatch{host, e.key})
	c, taken := f.byHash[h]
	switch {
	case !taken:
		f.byHash[h] = claim{host, e}
		return nil
	case c.host == host && c.entry.key == e.key:
		return c.entry
	}
	if f.collide == nil {
		f.collide = map[hostMatch]*matchEntry{}
	}
	k := hostMatch{host, e.key}
	if w, taken := f.collide[k]; taken {
		return w
	}
	f.collide[k] = e
	return nil
}

// anyRouteHasRepeatedMatches lets a single route's duplicate rules be found
// without building keys for every listener with one route.
func anyRouteHasRepeatedMatches(l *Listener) bool {
	return len(l.Attached) == 1 && len(l.Attached[0].Route.Rules) > 1
}

// routeMatches returns a canonical key for every match of the route, in
// rule order. Keys are equal exactly when two matches select the same
// requests: header names compare case-insensitively, and the order of
// header and query conditions does not matter.
func routeMatches(r *RouteResult) []matchEntry {
	n := 0
	switch {
	case r.HTTP != nil:
		for _, rule := range r.HTTP.Rules {
			n += len(rule.Matches)
		}
	case r.GRPC != nil:
		for _, rule := range r.GRPC.Rules {
			n += max(1, len(rule.Matches))
		}
	}
	out := make([]matchEntry, 0, n)
	k := matchKeys.Get().(*matchKey)
	defer matchKeys.Put(k)
	switch {
	case r.HTTP != nil:
		for i, rule := range r.HTTP.Rules {
			for j, m := range rule.Matches {
				k.start("HTTP")
				if m.Path != nil {
					k.part("path ", string(*m.Path.Type), " ", *m.Path.Value)
				}
				if m.Method != nil {
					k.part("method ", string(*m.Method))
				}
				for _, h := range m.Headers {
					k.cond("header ", strings.ToLower(string(h.Name)), " ", string(*h.Type), " ", h.Value)
				}
				for _, q := range m.QueryParams {
					k.cond("query ", string(q.Name), " ", string(*q.Type), " ", q.Value)
				}
				out = append(out, matchEntry{key: k.String(), route: r, rule: i, match: j})
			}
		}
	case r.GRPC != nil:
		for i, rule := range r.GRPC.Rules {
			if len(rule.Matches) == 0 {
				out = append(out, matchEntry{key: "GRPC\x00any", route: r, rule: i, match: -1})
			}
			for j, m := range rule.Matches {
				k.start("GRPC")
				if m.Method != nil {
					k.part("method ", GRPCMethodMatchString(m.Method))
				}
				for _, h := range m.Headers {
					k.cond("header ", strings.ToLower(string(h.Name)), " ", string(*h.Type), " ", h.Value)
				}
				out = append(out, matchEntry{key: k.String(), route: r, rule: i, match: j})
			}
		}
	}
	return out
}

// matchKey builds a canonical key: the kind, then the parts in order, then
// the conditions sorted, each after a NUL. One serves many routes' matches
// (matchKeys), so only the finished keys are allocated.
type matchKey struct {
	buf []byte
	// conds are the conditions written so far, one after the other, and
	// spans where each is in conds: sorted when the key is finished.
	conds []byte
	spans [][2]int
}

// matchKeys recycle the matchKeys of routeMatches, which runs for every
// route on every core.
var matchKeys = sync.Pool{New: func() any { return new(matchKey) }}

func (k *matchKey) start(kind string) {
	k.buf = append(k.buf[:0], kind...)
	k.conds, k.spans = k.conds[:0], k.spans[:0]
}

func (k *matchKey) part(pieces ...string) {
	k.buf = append(k.buf, 0)
	for _, p := range pieces {
		k.buf = append(k.buf, p...)
	}
}

func (k *matchKey) cond(pieces ...string) {
	start := len(k.conds)
	for _, p := range pieces {
		k.conds = append(k.conds, p...)
	}
	k.spans = append(k.spans, [2]int{start, len(k.conds)})
}

func (k *matchKey) String() string {
	cond := func(s [2]int) []byte { return k.conds[s[0]:s[1]] }
	slices.SortFunc(k.spans, func(a, b [2]int) int { return bytes.Compare(cond(a), cond(b)) })
	for _, s := range k.spans {
		k.buf = append(append(k.buf, 0), cond(s)...)
	}
	return string(k.buf)
}

// GRPCMethodMatchString renders a GRPCRoute method match as its type,
// service and method: "Exact pkg.Service/Get", with "*" for a part it
// leaves out.
func GRPCMethodMatchString(mm *gwv1.GRPCMethodMatch) string {
	return string(*mm.Type) + " " + orAny(mm.Service) + "/" + orAny(mm.Method)
}

func orAny(s *string) string {
	if s == nil {
		return "*"
	}
	return *s
}

// readableKey turns a canonical key back into "path PathPrefix /api, header x-env Exact canary".
func readableKey(key string) string {
	parts := strings.Split(key, "\x00")[1:]
	return strings.Join(parts, ", ")
}
