package resolve

import (
	"slices"
	"strings"
)

// OverlapJudge writes what it reports of routes that compete for the same
// requests on a listener of a Gateway it judges: routes with a match
// identical to another's on one of the parent's listeners and hostnames
// (the winner of such a match and the Shadows it casts). The core asks once
// it has found every shadowed match. The API ranks such routes and writes
// nothing on either.
type OverlapJudge interface {
	Implementation
	// JudgeOverlap is handed a parent of one of those routes and the other
	// routes it competes with there, sorted by kind and name.
	JudgeOverlap(b *Builder, p *ParentResult, others []*RouteResult)
}

// judgeOverlaps hands each parent of a route competing with others to the
// OverlapJudge of its Gateway, if that takes part.
func (g *Graph) judgeOverlaps(b *Builder) {
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
	others := map[*ParentResult][]*RouteResult{}
	// Parents are handed over in the routes' order below, so the map's
	// order does not show.
	for k, competing := range routes {
		for _, p := range k.listener.Attached {
			gw := gatewayOf(p)
			if gw == nil || !slices.Contains(competing, p.Route) {
				continue
			}
			if _, ok := gw.Judge.steps.(OverlapJudge); !ok {
				continue
			}
			for _, other := range competing {
				if other != p.Route && !slices.Contains(others[p], other) {
					others[p] = append(others[p], other)
				}
			}
		}
	}
	for _, r := range g.Routes {
		for _, p := range r.Parents {
			rs, ok := others[p]
			if !ok {
				continue
			}
			slices.SortFunc(rs, func(a, b *RouteResult) int { return strings.Compare(a.Ref.String(), b.Ref.String()) })
			gatewayOf(p).Judge.steps.(OverlapJudge).JudgeOverlap(b, p, rs)
		}
	}
}

// AddParentCondition writes a condition of the implementation's own on a
// route's parent, after the API's.
func (b *Builder) AddParentCondition(p *ParentResult, c Condition) {
	p.Conditions = append(p.Conditions, c)
}
