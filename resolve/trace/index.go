package trace

import (
	"math/bits"
	"strings"
	"sync"

	"github.com/gwlint/gwlint/resolve"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// The routes on a listener that a request can reach, found without
// checking every route attached there. gwctl diff traces a sample request
// for every match of every route, so a trace that checked each route of its
// listener made a diff quadratic in the routes per listener (hundreds on
// a tree of 10,000 routes). Explaining one request still checks them all:
// it lists every route the request misses, and why.

// routeIndex is a listener's Attached by what can make a binding miss a
// request before any other condition is checked: its effective hostnames
// there, and for an HTTPRoute the path conditions of its matches. Each
// list holds positions in Attached.
type routeIndex struct {
	// anyHost: the bindings that serve any host; exactHost and
	// wildcardHost by hostname, a wildcard by its suffix ("*.example.com"
	// under ".example.com").
	anyHost                 []int
	exactHost, wildcardHost map[string][]int
	// anyPath: the bindings with a match that takes any path (a rule
	// without matches, a match without a path, and every route of another
	// kind); exactPath and pathPrefix by the value checkHTTP compares, a
	// prefix without its trailing slash; regexPrefix by the literal prefix
	// of a RegularExpression, which every path it matches begins with.
	anyPath                            []int
	exactPath, pathPrefix, regexPrefix map[string][]int
}

func newRouteIndex(tr *Tracer, l *resolve.Listener) *routeIndex {
	ix := &routeIndex{exactHost: map[string][]int{}, wildcardHost: map[string][]int{},
		exactPath: map[string][]int{}, pathPrefix: map[string][]int{}, regexPrefix: map[string][]int{}}
	for i, p := range l.Attached {
		hosts := hostnamesOn(p, l)
		if len(hosts) == 0 {
			ix.anyHost = append(ix.anyHost, i)
		}
		for _, h := range hosts {
			if strings.HasPrefix(h, "*.") {
				ix.wildcardHost[h[1:]] = append(ix.wildcardHost[h[1:]], i)
			} else {
				ix.exactHost[h] = append(ix.exactHost[h], i)
			}
		}
		ix.addPaths(tr, i, p.Route)
	}
	return ix
}

// addPaths files binding i under the path conditions of r's matches, as
// checkHTTP reads them.
func (ix *routeIndex) addPaths(tr *Tracer, i int, r *resolve.RouteResult) {
	if r.HTTP == nil {
		ix.anyPath = append(ix.anyPath, i)
		return
	}
	for _, rule := range r.HTTP.Rules {
		if len(rule.Matches) == 0 {
			ix.anyPath = append(ix.anyPath, i)
		}
		for _, m := range rule.Matches {
			switch {
			case m.Path == nil:
				ix.anyPath = append(ix.anyPath, i)
			case *m.Path.Type == gwv1.PathMatchExact:
				ix.exactPath[*m.Path.Value] = append(ix.exactPath[*m.Path.Value], i)
			case *m.Path.Type == gwv1.PathMatchPathPrefix:
				prefix := strings.TrimSuffix(*m.Path.Value, "/")
				ix.pathPrefix[prefix] = append(ix.pathPrefix[prefix], i)
			default:
				// An expression that does not compile matches no path.
				if re := tr.fullRegexp(*m.Path.Value); re != nil {
					prefix, _ := re.LiteralPrefix()
					ix.regexPrefix[prefix] = append(ix.regexPrefix[prefix], i)
				}
			}
		}
	}
}

// addHost adds to set the bindings with a hostname that covers host
// (hostnameMatches), or none. A wildcard "*.suffix" covers host when host
// ends in ".suffix" with something before it, so the wildcards to look up
// are host's suffixes from each dot after its first character; for a
// wildcard host, the one from its own dot is the wildcard itself.
func (ix *routeIndex) addHost(set positions, host string) {
	set.add(ix.anyHost)
	set.add(ix.exactHost[host])
	for i := 1; i < len(host); i++ {
		if host[i] == '.' {
			set.add(ix.wildcardHost[host[i:]])
		}
	}
}

// addPath adds to set the bindings with a match whose path condition path
// can satisfy: Exact path, a PathPrefix that is path or ends where one of
// path's elements does (prefixMatches), or a RegularExpression whose
// literal prefix path begins with.
func (ix *routeIndex) addPath(set positions, path string) {
	set.add(ix.anyPath)
	set.add(ix.exactPath[path])
	set.add(ix.pathPrefix[""])
	set.add(ix.pathPrefix[path])
	for i := 0; i <= len(path); i++ {
		if i > 0 && i < len(path) && path[i] == '/' {
			set.add(ix.pathPrefix[path[:i]])
		}
		set.add(ix.regexPrefix[path[:i]])
	}
}

// routesFor returns the bindings of l.Attached that req can reach: those
// that serve its host and, for an HTTPRoute, have a match whose path
// condition its path can satisfy (addPath), in Attached order. Every other
// binding has no match for req.
func (tr *Tracer) routesFor(l *resolve.Listener, req *Request) []*resolve.ParentResult {
	ix := tr.indexOf(l)
	hosts, paths := newPositions(len(l.Attached)), newPositions(len(l.Attached))
	ix.addHost(hosts, req.Host)
	ix.addPath(paths, req.Path)
	var out []*resolve.ParentResult
	for w := range hosts {
		for both := hosts[w] & paths[w]; both != 0; both &= both - 1 {
			out = append(out, l.Attached[w*64+bits.TrailingZeros64(both)])
		}
	}
	return out
}

// lazyIndex is a listener's routeIndex, built once.
type lazyIndex struct {
	once sync.Once
	ix   *routeIndex
}

// indexOf is l's routeIndex, built on first use: only tracing many
// requests needs it.
func (tr *Tracer) indexOf(l *resolve.Listener) *routeIndex {
	v, ok := tr.indexes.Load(l)
	if !ok {
		v, _ = tr.indexes.LoadOrStore(l, &lazyIndex{})
	}
	li := v.(*lazyIndex)
	li.once.Do(func() { li.ix = newRouteIndex(tr, l) })
	return li.ix
}

// positions is a set of positions in Attached, a bit each.
type positions []uint64

func newPositions(n int) positions { return make(positions, (n+63)/64) }

func (s positions) add(at []int) {
	for _, i := range at {
		s[i/64] |= 1 << (i % 64)
	}
}

// hostnamesOn is binding p's effective hostnames on listener l (none:
// any).
func hostnamesOn(p *resolve.ParentResult, l *resolve.Listener) []string {
	for _, o := range p.Listeners {
		if o.Listener == l {
			return o.Hostnames
		}
	}
	return nil
}
