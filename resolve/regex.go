package resolve

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/resolve/profile"
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

// dropInvalidRules applies an implementation's checks of a rule as it
// translates it to an accepted parent: its regular expression dialect
// (profile.Implementation.RegexRE2) and its filter checks
// (profile.FilterChecks). A rule that fails one is dropped. "If some rules
// are invalid ... PartiallyInvalid=True"; when every rule is, the route is
// not accepted, as Envoy Gateway writes it, with the first refusal's reason.
func dropInvalidRules(p *ParentResult) {
	gw := gatewayOf(p)
	if gw == nil || !p.Accepted.True() {
		return
	}
	var labels []string
	for _, rule := range p.Route.Rules {
		if refusal, ok := refusalOf(gw.Profile, p.Route.Route, rule); ok {
			p.Dropped = append(p.Dropped, refusal)
			labels = append(labels, rule.Label())
		}
	}
	if len(p.Dropped) == 0 {
		return
	}
	first := p.Dropped[0]
	if len(p.Dropped) == len(p.Route.Rules) {
		p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, first.Reason,
			fmt.Sprintf("%s drops every rule: %s: %s", gw.Profile, first.Path, first.Message))
		return
	}
	p.PartiallyInvalid = condition(string(gwv1.RouteConditionPartiallyInvalid), true, first.Reason,
		fmt.Sprintf("%s drops %s: %s: %s", gw.Profile, strings.Join(labels, ", "), first.Path, first.Message))
}

// RuleRefusal is why an implementation drops a rule: a filter it refuses
// (profile.FilterChecks), or a RegularExpression match it cannot compile.
type RuleRefusal struct {
	Rule *RuleResult
	// By is the profile of the implementation that drops it.
	By            *profile.Profile
	Reason        Reason
	Path, Message string
	// Filter is true for a filter, false for a regex.
	Filter bool
}

// refusalOf is the first check of a rule an implementation fails: a filter
// type, a filter value, then the objects its ExtensionRef filters name
// (Builder.RefuseRule), then a RegularExpression match, in Envoy Gateway's order. A RequestMirror
// with a redirect counts only when a mirror's backend is valid: Envoy
// Gateway drops a mirror it cannot resolve (ResolvedRefs) before it looks
// for the conflict.
func refusalOf(by *profile.Profile, route *Route, rule *RuleResult) (RuleRefusal, bool) {
	impl := &by.Implementation
	if k, ok := ruleFilterTypeRefused(impl, route, rule.RouteRule); ok {
		return RuleRefusal{rule, by, ReasonUnsupportedValue, rule.Path + ".filters[" + strconv.Itoa(k) + "]",
			fmt.Sprintf("filter type %s is not supported", rule.FilterTypes[k]), true}, true
	}
	for _, prob := range rule.FilterProblems {
		reason, ok := filterRefusal(impl, prob, false)
		if ok && (prob.Check != MirrorWithRedirect || rule.mirrors()) {
			return RuleRefusal{rule, by, reason, prob.Path, prob.Message, true}, true
		}
	}
	if x := rule.refusal; x != nil && rule.refusedBy == by.Name {
		return RuleRefusal{rule, by, x.Reason, x.Path, x.Message, true}, true
	}
	if rp := rule.RegexProblems; impl.RegexRE2 && len(rp) > 0 {
		return RuleRefusal{rule, by, ReasonUnsupportedValue, rp[0].Path, rp[0].Message, false}, true
	}
	return RuleRefusal{}, false
}
