package resolve

import "cmp"

// Precedence across routes: which of several routes whose matches rank
// equal by every criterion of their route type a conformant implementation
// gives a request to. shadowsOn relies on these tie-breaks alone (identical
// matches rank equal); package resolve/trace ranks every match of a request
// by its route type's criteria first, then by these.
//
// HTTPRouteRule.Matches and GRPCRouteRule.Matches: "If ties still exist
// across multiple Routes, matching precedence MUST be determined in order
// of the following criteria, continuing on ties: The oldest Route based on
// creation timestamp. The Route appearing first in alphabetical order by
// "{namespace}/{name}"."

// CompareRouteAges is negative when route a is older than b, the first
// tie-break across routes. A route without a creationTimestamp (a manifest
// not yet applied) counts as newest.
func CompareRouteAges(a, b *RouteResult) int {
	ac, bc := a.Created(), b.Created()
	switch {
	case ac.Equal(&bc):
		return 0
	case ac.IsZero() != bc.IsZero():
		if ac.IsZero() {
			return 1
		}
		return -1
	case ac.Before(&bc):
		return -1
	}
	return 1
}

// CompareRouteNames is negative when route a comes before b by
// "{namespace}/{name}", the tie-break after age.
func CompareRouteNames(a, b *RouteResult) int {
	return cmp.Or(cmp.Compare(a.Ref.Namespace, b.Ref.Namespace), cmp.Compare(a.Ref.Name, b.Ref.Name))
}

// routeBefore orders routes by the spec's precedence: oldest first, then
// namespace/name.
func routeBefore(a, b *RouteResult) bool {
	return cmp.Or(CompareRouteAges(a, b), CompareRouteNames(a, b)) < 0
}
