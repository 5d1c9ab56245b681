package resolve

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RegexProblem is a RegularExpression match value that does not compile as
// RE2, the dialect of Envoy-based implementations (Go's regexp package
// implements it, and Envoy Gateway validates with it).
type RegexProblem struct {
	Path    string // "spec.rules[i].matches[j].path.value"
	Value   string
	Message string
}

func regexProblem(path, value string) []RegexProblem {
	if _, err := regexp.Compile(value); err != nil {
		return []RegexProblem{{Path: path, Value: value, Message: fmt.Sprintf("regex %q does not compile as RE2: %s", value,
			strings.TrimPrefix(err.Error(), "error parsing regexp: "))}}
	}
	return nil
}

// httpRegexProblems checks the RegularExpression matches of an HTTPRoute
// rule: path, headers and query parameters.
func httpRegexProblems(rulePath string, rule *gwv1.HTTPRouteRule) []RegexProblem {
	var out []RegexProblem
	for j, m := range rule.Matches {
		mp := rulePath + ".matches[" + strconv.Itoa(j) + "]"
		if m.Path != nil && m.Path.Type != nil && *m.Path.Type == gwv1.PathMatchRegularExpression && m.Path.Value != nil {
			out = append(out, regexProblem(mp+".path.value", *m.Path.Value)...)
		}
		for k, h := range m.Headers {
			if h.Type != nil && *h.Type == gwv1.HeaderMatchRegularExpression {
				out = append(out, regexProblem(mp+".headers["+strconv.Itoa(k)+"].value", h.Value)...)
			}
		}
		for k, q := range m.QueryParams {
			if q.Type != nil && *q.Type == gwv1.QueryParamMatchRegularExpression {
				out = append(out, regexProblem(mp+".queryParams["+strconv.Itoa(k)+"].value", q.Value)...)
			}
		}
	}
	return out
}

// grpcRegexProblems checks the RegularExpression matches of a GRPCRoute
// rule: method service and method, and headers.
func grpcRegexProblems(rulePath string, rule *gwv1.GRPCRouteRule) []RegexProblem {
	var out []RegexProblem
	for j, m := range rule.Matches {
		mp := rulePath + ".matches[" + strconv.Itoa(j) + "]"
		if mm := m.Method; mm != nil && mm.Type != nil && *mm.Type == gwv1.GRPCMethodMatchRegularExpression {
			if mm.Service != nil {
				out = append(out, regexProblem(mp+".method.service", *mm.Service)...)
			}
			if mm.Method != nil {
				out = append(out, regexProblem(mp+".method.method", *mm.Method)...)
			}
		}
		for k, h := range m.Headers {
			if h.Type != nil && *h.Type == gwv1.GRPCHeaderMatchRegularExpression {
				out = append(out, regexProblem(mp+".headers["+strconv.Itoa(k)+"].value", h.Value)...)
			}
		}
	}
	return out
}

// dropInvalidRules applies an implementation's regular expression dialect
// (profile.Implementation.RegexRE2) to an accepted parent: a rule with a
// match that does not compile is dropped. "If some rules are invalid ...
// PartiallyInvalid=True"; when every rule is, the route is not accepted
// (UnsupportedValue), as Envoy Gateway writes it.
func dropInvalidRules(p *ParentResult) {
	gw := gatewayOf(p)
	if gw == nil || !gw.Profile.Implementation.RegexRE2 || !p.Accepted.True() {
		return
	}
	var dropped []string
	var first *RegexProblem
	for i := range p.Route.Rules {
		if rp := p.Route.Rules[i].RegexProblems; len(rp) > 0 {
			dropped = append(dropped, p.Route.Rules[i].Label())
			if first == nil {
				first = &rp[0]
			}
		}
	}
	switch {
	case len(dropped) == 0:
	case len(dropped) == len(p.Route.Rules):
		p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, ReasonUnsupportedValue,
			fmt.Sprintf("%s drops every rule: %s: %s", gw.Profile, first.Path, first.Message))
	default:
		p.PartiallyInvalid = condition(string(gwv1.RouteConditionPartiallyInvalid), true, ReasonUnsupportedValue,
			fmt.Sprintf("%s drops %s: %s: %s", gw.Profile, strings.Join(dropped, ", "), first.Path, first.Message))
	}
}
