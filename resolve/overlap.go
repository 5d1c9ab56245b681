package resolve

import (
	"slices"
	"strings"
)

// markRouteRulesOverlap writes, under the implementations that report it
// (profile.Implementation.RouteRulesOverlap), RouteRulesOverlap=True on each
// parent of a route that has a match identical to another route's on one of
// the parent's listeners and hostnames: the routes of such a match (its
// winner and the Shadows it casts) compete for the same requests.
func (g *Graph) markRouteRulesOverlap() {
	type sharedMatch struct {
		listener *Listener
		hostname string
		winner   MatchRef
	}
	routes := map[sharedMatch][]*RouteResult{}
	for _, s := range g.Shadows {
		k := sharedMatch{s.Listener, s.Hostname, s.Winner}
		if _, seen := routes[k]; !seen {
			routes[k] = []*RouteResult{s.Winner.Route}
		}
		if !slices.Contains(routes[k], s.Shadowed.Route) {
			routes[k] = append(routes[k], s.Shadowed.Route)
		}
	}
	others := map[*ParentResult][]string{}
	// Names are sorted below, so the map's order does not show.
	for k, competing := range routes {
		for _, p := range k.listener.Attached {
			gw := gatewayOf(p)
			if gw == nil || !gw.Profile.Implementation.RouteRulesOverlap || !slices.Contains(competing, p.Route) {
				continue
			}
			for _, other := range competing {
				if name := other.Ref.Kind + " " + other.Ref.NamespacedName(); other != p.Route && !slices.Contains(others[p], name) {
					others[p] = append(others[p], name)
				}
			}
		}
	}
	for p, names := range others {
		slices.Sort(names)
		p.RouteRulesOverlap = condition(ConditionRouteRulesOverlap, true, ReasonRouteRulesOverlap,
			"Overlapping match conditions with route(s): "+strings.Join(names, ", "))
	}
}
