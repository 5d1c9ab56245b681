package envoygateway

import (
	"fmt"
	"slices"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// What Envoy Gateway refuses of the API's own filters as it translates a
// route, beyond the CRDs' validation, and what it drops a rule for
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/filters.go):
// processRequestHeaderModifierFilter and
// processResponseHeaderModifierFilter refuse what isModifiableHeader
// ("Envoy does not allow modification the pseudo headers and the host
// header") and HeaderValueRegexp refuse, with an Accepted error
// (RouteReasonUnsupportedValue) that route.go's processHTTPRouteRules
// counts as an unaccepted rule ("Dropped Rule(s)")
// (testdata/httproute-with-header-filter-invalid-headers.out.yaml);
// ProcessHTTPFilters refuses a RequestMirror with a RequestRedirect
// (requestMirrorRedirectConflictMsg, RouteReasonIncompatibleFilters;
// httproute-with-conflicting-filters.out.yaml), and a mirror counts only
// once processRequestMirrorFilter has resolved its backend. validate.go's
// validateBackendRefFilters takes on a backendRef the types below, and a
// URLRewrite without a path (status.RouteReasonUnsupportedRefValue;
// httproute-with-invalid-backendref-urlrewrite-path-filter.out.yaml);
// route.go's processDestination fails a backendRef whose filters
// ProcessHTTPFilters refuses (status.RouteReasonInvalidBackendFilters).
// processRedirectFilter and processURLRewriteFilter check the hostname
// with validate.go's validateHostname ("cannot be an ip address", "cannot
// exceed 63 characters"), an Accepted error. ProcessHTTPFilters stops at
// the first filter that sets a direct response (an HTTPRouteFilter's, or an
// invalid filter's). helpers.go's ValidateHTTPRouteFilter takes the types
// below in a rule (not ExternalAuth) and processInvalidHTTPFilter fails
// another with an Accepted error.
var (
	// ruleFilterTypes are the filter types it translates in an HTTPRoute
	// rule.
	ruleFilterTypes = []string{"RequestHeaderModifier", "ResponseHeaderModifier", "RequestRedirect", "URLRewrite",
		"RequestMirror", "CORS", "ExtensionRef"}
	// httpBackendFilterTypes and grpcBackendFilterTypes are those a
	// backendRef of an HTTPRoute or a GRPCRoute may carry.
	httpBackendFilterTypes = []string{"RequestHeaderModifier", "ResponseHeaderModifier", "URLRewrite", "ExtensionRef"}
	grpcBackendFilterTypes = []string{"RequestHeaderModifier", "ResponseHeaderModifier"}
)

// Its own route ResolvedRefs reasons for a backendRef's filters
// (internal/gatewayapi/status): one of a type it does not take there, one
// whose value it refuses as it translates it.
const (
	ReasonUnsupportedRefValue   resolve.Reason = "UnsupportedRefValue"
	ReasonInvalidBackendFilters resolve.Reason = "InvalidBackendFilters"
)

// filterRefusal says whether Envoy Gateway refuses a filter problem, and
// with which reason: a rule's (backendRef false) drops the rule, a
// backendRef's makes the backendRef invalid. It checks header modifiers
// and the hostnames of redirects and rewrites (beyond the CRDs), a mirror
// beside a redirect, and a backendRef's URLRewrite of the path (it takes
// only the hostname's).
func filterRefusal(p resolve.FilterProblem, backendRef bool) (resolve.Reason, bool) {
	checked := p.Check == resolve.HeaderNotModifiable || p.Check == resolve.HostnameNotPrecise
	switch {
	case checked && p.Untranslated:
	case checked && backendRef:
		return ReasonInvalidBackendFilters, true
	case checked:
		return resolve.ReasonUnsupportedValue, true
	case p.Check == resolve.MirrorWithRedirect:
		return resolve.ReasonIncompatibleFilters, true
	case p.Check == resolve.BackendPathRewrite:
		return ReasonUnsupportedRefValue, true
	}
	return "", false
}

// RefusesBackendFilterType refuses a filter of a type it does not take on a
// backendRef.
func (Implementation) RefusesBackendFilterType(route *resolve.Route, typ string) (resolve.Reason, bool) {
	allowed := httpBackendFilterTypes
	if route.GRPC != nil {
		allowed = grpcBackendFilterTypes
	}
	return ReasonUnsupportedRefValue, !slices.Contains(allowed, typ)
}

// RefusesBackendFilter refuses a backendRef's filter problems as
// filterRefusal says.
func (Implementation) RefusesBackendFilter(p resolve.FilterProblem) (resolve.Reason, bool) {
	return filterRefusal(p, true)
}

// DropsRule is the first check of a rule Envoy Gateway fails at a parent
// it accepted, in its order: a filter type, a filter value, then the
// objects its ExtensionRef filters name (RouteFilters), then a
// RegularExpression match. A RequestMirror with a redirect counts only when
// a mirror's backend is valid: it drops a mirror it cannot resolve
// (ResolvedRefs) before it looks for the conflict. route.go validates every
// RegularExpression match with internal/utils/regex.Validate (Go's
// regexp.Compile) and fails the rule with RouteReasonUnsupportedValue
// (testdata/httproute-with-invalid-regex.out.yaml); the API leaves the
// dialect to the implementation.
func (Implementation) DropsRule(g *resolve.Graph, by *resolve.Judge, route *resolve.Route, rule *resolve.RuleResult) (resolve.RuleRefusal, bool) {
	if k, ok := ruleFilterTypeRefused(route, rule.RouteRule); ok {
		return resolve.RuleRefusal{Rule: rule, By: by, Reason: resolve.ReasonUnsupportedValue, Path: rule.Path + ".filters[" + strconv.Itoa(k) + "]",
			Message: fmt.Sprintf("filter type %s is not supported", rule.FilterTypes[k]), Filter: true}, true
	}
	for _, prob := range rule.FilterProblems {
		reason, ok := filterRefusal(prob, false)
		if ok && (prob.Check != resolve.MirrorWithRedirect || rule.Mirrors()) {
			return resolve.RuleRefusal{Rule: rule, By: by, Reason: reason, Path: prob.Path, Message: prob.Message, Filter: true}, true
		}
	}
	if v := RouteFilters(g, rule); v != nil && v.Refused != nil {
		x := v.Refused
		return resolve.RuleRefusal{Rule: rule, By: by, Reason: x.Reason, Path: x.Path, Message: x.Message, Filter: true}, true
	}
	if rp := rule.RegexProblems; len(rp) > 0 {
		return resolve.RuleRefusal{Rule: rule, By: by, Reason: resolve.ReasonUnsupportedValue, Path: rp[0].Path, Message: rp[0].Message}, true
	}
	return resolve.RuleRefusal{}, false
}

// ruleFilterTypeRefused returns the first filter of an HTTPRoute rule,
// before any ExtensionRef (see resolve.FilterProblem.Untranslated), whose
// type it does not translate in a rule.
func ruleFilterTypeRefused(route *resolve.Route, rule *resolve.RouteRule) (k int, ok bool) {
	if route.HTTP == nil {
		return 0, false
	}
	for k, typ := range rule.FilterTypes {
		if typ == string(gwv1.HTTPRouteFilterExtensionRef) {
			break
		}
		if !slices.Contains(ruleFilterTypes, typ) {
			return k, true
		}
	}
	return 0, false
}
