package resolve

import (
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Route is any xRoute, seen through what all route kinds share: parentRefs,
// hostnames and rules with backendRefs. Exactly one of the typed specs is set;
// it holds the defaulted spec for kind-specific detail (matches, filters).
type Route struct {
	Meta
	ParentRefs []gwv1.ParentReference // defaulted: group, kind, namespace
	Hostnames  []gwv1.Hostname        // HTTPRoute, GRPCRoute, TLSRoute only
	Rules      []RouteRule

	HTTP *gwv1.HTTPRouteSpec
	GRPC *gwv1.GRPCRouteSpec
	TLS  *gwv1.TLSRouteSpec
	TCP  *gwv1.TCPRouteSpec
	UDP  *gwv1.UDPRouteSpec

	// defaultNamespace is what its references defaulted to the route's
	// namespace point to (routeNamespace).
	defaultNamespace *gwv1.Namespace
}

// routeKinds are the API's route kinds.
var routeKinds = map[string]bool{KindHTTPRoute: true, KindGRPCRoute: true, KindTLSRoute: true, KindTCPRoute: true, KindUDPRoute: true}

// Kind is the route's kind, e.g. "HTTPRoute".
func (r *Route) Kind() string { return r.Ref.Kind }

// HasHostnames reports whether the route kind has spec.hostnames at all.
func (r *Route) HasHostnames() bool { return r.HTTP != nil || r.GRPC != nil || r.TLS != nil }

// Answers500 reports whether the route kind answers an invalid backend's
// share of requests with HTTP 500 (HTTPRoute, GRPCRoute); the other kinds
// drop or reject the connection.
func (r *Route) Answers500() bool { return r.HTTP != nil || r.GRPC != nil }

// Transport is the transport protocol of the route's connections to its
// backends: UDP for a UDPRoute, TCP for the others.
func (r *Route) Transport() string {
	if r.UDP != nil {
		return "UDP"
	}
	return "TCP"
}

// RouteRule is one entry of a route's spec.rules.
type RouteRule struct {
	Index int
	// Name is the rule's name (GEP-995); empty when unnamed. It has no default.
	Name        string
	Path        string // "spec.rules[i]"
	BackendRefs []RuleBackendRef
	// Filters counts the rule-level filters; a rule whose backends are all
	// invalid answers 500 only when it has no filters.
	Filters int
	// FilterRefs are the backends filters refer to: RequestMirror and
	// ExternalAuth, at rule or backendRef level. They carry no weight.
	FilterRefs []FilterBackendRef
	// RegexProblems are its RegularExpression matches that do not compile
	// as RE2.
	RegexProblems []RegexProblem
	// FilterTypes are the types of its rule-level filters, in order.
	FilterTypes []string
	// FilterProblems are its rule-level filter values that some
	// implementations refuse.
	FilterProblems []FilterProblem
}

// FilterBackendRef is a backend named by a filter rather than by the rule's
// backendRefs, defaulted like one (group "", kind Service, the route's
// namespace).
type FilterBackendRef struct {
	Path   string // "spec.rules[i].filters[k].requestMirror.backendRef"
	Filter string // "RequestMirror", "ExternalAuth"
	// The filter's own reference, defaulted in place: tens of thousands of
	// routes hold no copy of it.
	*gwv1.BackendObjectReference
}

// Label is the rule's name, or "rules[i]" when it has none.
func (r *RouteRule) Label() string {
	if r.Name != "" {
		return r.Name
	}
	return "rules[" + strconv.Itoa(r.Index) + "]"
}

// RuleBackendRef is one backendRef of a rule, defaulted (group "", kind
// Service, namespace = the route's, weight 1).
type RuleBackendRef struct {
	Index int
	Path  string // "spec.rules[i].backendRefs[j]"
	// The rule's own backendRef, defaulted in place: tens of thousands of
	// routes hold no copy of it.
	*gwv1.BackendRef
	// WeightDefaulted: the weight was not written (defaulted to 1), as
	// recorded once the route was defaulted rather than asked of its
	// defaulted paths every time it is resolved.
	WeightDefaulted bool
	Filters         int // backendRef-level filters (HTTPRoute, GRPCRoute)
	// FilterTypes are the types of those filters, in order.
	FilterTypes []string
	// FilterProblems are their values that some implementations refuse.
	FilterProblems []FilterProblem
}

// RuleFilters are the filters of rule i of an HTTPRoute or GRPCRoute, a
// GRPCRoute's seen as the HTTPRoute filters they are a subset of (the
// shared filter types use the same structs).
func (r *Route) RuleFilters(i int) []gwv1.HTTPRouteFilter {
	switch {
	case r.HTTP != nil:
		return r.HTTP.Rules[i].Filters
	case r.GRPC != nil:
		out := make([]gwv1.HTTPRouteFilter, len(r.GRPC.Rules[i].Filters))
		for k, f := range r.GRPC.Rules[i].Filters {
			out[k] = gwv1.HTTPRouteFilter{
				Type:                   gwv1.HTTPRouteFilterType(f.Type),
				RequestHeaderModifier:  f.RequestHeaderModifier,
				ResponseHeaderModifier: f.ResponseHeaderModifier,
				RequestMirror:          f.RequestMirror,
				ExtensionRef:           f.ExtensionRef,
			}
		}
		return out
	}
	return nil
}
