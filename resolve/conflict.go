package resolve

import (
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RouteConflict is a TLSRoute, TCPRoute or UDPRoute that gets none of a
// listener's connections for a host (any host, for TCP and UDP), because
// another route there ties with it and the API's conflict rule binds the
// other: "The oldest Route based on creation timestamp", then "the Route
// appearing first in alphabetical order (namespace/name)". Their rules have
// no matches to tell them apart.
type RouteConflict struct {
	// Loser is the losing route's parentRef that attached to the listener.
	Loser    *ParentResult
	Listener *Listener
	// Winner is the route it ties with and loses to.
	Winner *RouteResult
	// Host is the SNI of the connections lost; "" for TCP and UDP.
	Host string
	// Message says why the winner wins.
	Message string
}

// RouteConflicts traces one connection per stream listener, route and
// effective hostname (that route's sample requests) and returns every route
// that loses one to a tie, sorted by route and parentRef.
func (g *Graph) RouteConflicts() []RouteConflict {
	var out []RouteConflict
	for _, gw := range g.Gateways {
		for _, l := range gw.AllListeners() {
			if !l.Valid() || !slices.Contains([]gwv1.ProtocolType{gwv1.TLSProtocolType, gwv1.TCPProtocolType, gwv1.UDPProtocolType}, l.Protocol) {
				continue
			}
			traced := map[string]bool{}
			for _, p := range l.Attached {
				if p.Route.TLS == nil && p.Route.TCP == nil && p.Route.UDP == nil {
					continue
				}
				for _, req := range sampleRoute(gw.Ref, l, p.Route, hostnamesOn(p, l)) {
					if key := req.String(); !traced[key] {
						traced[key] = true
						out = append(out, conflictsOf(g.Destination(req), l)...)
					}
				}
			}
		}
	}
	slices.SortStableFunc(out, func(a, b RouteConflict) int {
		if a.Loser.Route != b.Loser.Route {
			if refLess(a.Loser.Route.Ref, b.Loser.Route.Ref) {
				return -1
			}
			return 1
		}
		return a.Loser.Index - b.Loser.Index
	})
	return out
}

// conflictsOf are the runners-up of a traced connection that lost by age or
// name: a tie on everything the route type ranks.
func conflictsOf(t *TraceResult, l *Listener) []RouteConflict {
	if len(t.Matches) < 2 {
		return nil
	}
	var out []RouteConflict
	for i, m := range t.Matches[1:] {
		winner := t.Matches[i].Route // the match it lost to
		if m.Route == winner || (m.Reason != PrecedenceCreationTime && m.Reason != PrecedenceName) {
			continue
		}
		for _, p := range l.Attached {
			if p.Route == m.Route {
				host := ""
				if t.Request.Scheme == SchemeTLS {
					host = t.Request.Host
				}
				out = append(out, RouteConflict{Loser: p, Listener: l, Winner: winner, Host: host, Message: m.Message})
				break
			}
		}
	}
	return out
}
