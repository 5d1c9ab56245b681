package trace

import (
	"cmp"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// Precedence: which of several listeners, and which of several matches that
// all match a request, a conformant implementation gives the request to.
// Trace ranks every match this way; across routes whose matches rank equal
// it applies the core's tie-breaks (resolve.CompareRouteAges, then
// resolve.CompareRouteNames), the ones the core finds shadowed matches by.
//
// HTTPRouteSpec.Hostnames: "precedence must be given to rules from the
// HTTPRoute with the largest number of: Characters in a matching
// non-wildcard hostname. Characters in a matching hostname. If ties exist
// across multiple Routes, the matching precedence rules for HTTPRouteMatches
// takes over."
//
// HTTPRouteRule.Matches: "precedence must be given to the match having:
// "Exact" path match. "Prefix" path match with largest number of
// characters. Method match. Largest number of header matches. Largest
// number of query param matches. Note: The precedence of RegularExpression
// path matches are implementation-specific." gwlint ranks them below every
// prefix, as most implementations do.
//
// GRPCRouteRule.Matches: "Precedence MUST be given to the rule with the
// largest number of: Characters in a matching non-wildcard hostname.
// Characters in a matching hostname. Characters in a matching service.
// Characters in a matching method. Header matches."
//
// Both: "If ties still exist within an HTTPRoute, matching precedence MUST
// be granted to the FIRST matching rule (in list order) with a match
// meeting the above criteria."

// matchRank is what the precedence of a route type compares for one match
// that matched a request; larger is more specific.
type matchRank struct {
	// hostExact is the length of the route hostname that matched when it
	// is not a wildcard; hostChars its length either way (0: any host).
	hostExact, hostChars int
	// HTTPRoute.
	pathType  pathRank
	pathChars int
	method    bool
	headers   int
	queries   int
	// GRPCRoute (headers as above).
	service, grpcMethod int
}

// pathRank orders path match types: Exact over PathPrefix over
// RegularExpression.
type pathRank int

const (
	pathRegex pathRank = iota + 1
	pathPrefix
	pathExact
)

// criterion is one step of a route type's precedence.
type criterion struct {
	reason Reason
	rank   func(*matchRank) int
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

var (
	hostCriteria = []criterion{
		{PrecedenceHostname, func(r *matchRank) int { return r.hostExact }},
		{PrecedenceHostname, func(r *matchRank) int { return r.hostChars }},
	}
	httpCriteria = append(append([]criterion(nil), hostCriteria...),
		criterion{PrecedencePathType, func(r *matchRank) int { return int(r.pathType) }},
		criterion{PrecedencePathLength, func(r *matchRank) int { return r.pathChars }},
		criterion{PrecedenceMethod, func(r *matchRank) int { return b2i(r.method) }},
		criterion{PrecedenceHeaders, func(r *matchRank) int { return r.headers }},
		criterion{PrecedenceQueryParams, func(r *matchRank) int { return r.queries }},
	)
	grpcCriteria = append(append([]criterion(nil), hostCriteria...),
		criterion{PrecedenceGRPCService, func(r *matchRank) int { return r.service }},
		criterion{PrecedenceGRPCMethod, func(r *matchRank) int { return r.grpcMethod }},
		criterion{PrecedenceHeaders, func(r *matchRank) int { return r.headers }},
	)
)

// compareRanks compares two matches of the same route type by its
// criteria: negative when a takes precedence, with the criterion that
// decided; 0 and "" when they tie.
func compareRanks(criteria []criterion, a, b *matchRank) (int, Reason) {
	for _, c := range criteria {
		if d := cmp.Compare(c.rank(b), c.rank(a)); d != 0 {
			return d, c.reason
		}
	}
	return 0, ""
}

// compareRoutes applies the tie-breaks across routes: negative when a
// takes precedence, with the criterion that decided.
func compareRoutes(a, b *resolve.RouteResult) (int, Reason) {
	if d := resolve.CompareRouteAges(a, b); d != 0 {
		return d, PrecedenceCreationTime
	}
	if d := resolve.CompareRouteNames(a, b); d != 0 {
		return d, PrecedenceName
	}
	return 0, ""
}

// compareMatchRefs applies the last tie-break, within one route: rule
// order, then match order.
func compareMatchRefs(a, b resolve.MatchRef) (int, Reason) {
	if d := cmp.Or(cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Match, b.Match)); d != 0 {
		return d, PrecedenceRuleOrder
	}
	return 0, ""
}

// listenerHostnameRank orders listener hostnames as Gateway.Listeners
// requires: "Exact matches MUST be processed before wildcard matches, and
// wildcard matches MUST be processed before fallback (empty Hostname value)
// matches. [...] the higher the number of dots in the hostname to the
// right of the wildcard character, the higher the precedence."
func listenerHostnameRank(l *resolve.Listener) (kind, dots int) {
	h := ""
	if l.Hostname != nil {
		h = string(*l.Hostname)
	}
	switch {
	case h == "":
		return 0, 0
	case strings.HasPrefix(h, "*."):
		return 1, strings.Count(h, ".")
	}
	return 2, strings.Count(h, ".")
}

// compareListeners is negative when listener a takes a request for its
// host before b.
func compareListeners(a, b *resolve.Listener) int {
	ak, ad := listenerHostnameRank(a)
	bk, bd := listenerHostnameRank(b)
	return cmp.Or(cmp.Compare(bk, ak), cmp.Compare(bd, ad))
}
