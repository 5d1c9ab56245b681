package resolve

import (
	"fmt"
	"regexp/syntax"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RegexProblem is a RegularExpression match value that does not compile as
// RE2 (Go's regexp package implements it), the dialect of the proxies many
// implementations program; which dialect applies is implementation-specific.
type RegexProblem struct {
	Path    string // "spec.rules[i].matches[j].path.value"
	Value   string
	Message string
}

// regexProblem checks one match value. Every error regexp.Compile returns
// is its parser's (regexp/syntax.Parse with the Perl flags; compiling the
// parsed expression cannot fail), so parsing alone tells the same, with
// the same message, at a fraction of the cost of compiling a program that
// nothing runs: a route index checks every match of every route.
//
// A repository's routes share a handful of patterns, so the values that
// parse are remembered (up to maxValidRegexes of them, which bounds what a
// language server keeps after hours of typing), and the field's path is
// made only for a value that does not.
func regexProblem(value string, path func() string) []RegexProblem {
	if _, valid := validRegexes.Load(value); valid {
		return nil
	}
	if _, err := syntax.Parse(value, syntax.Perl); err != nil {
		return []RegexProblem{{Path: path(), Value: value, Message: fmt.Sprintf("regex %q does not compile as RE2: %s", value,
			strings.TrimPrefix(err.Error(), "error parsing regexp: "))}}
	}
	// Counted only while there is room, so that the count never wraps in
	// a server that runs for weeks; long values are not kept, so that the
	// room is bounded in bytes too.
	if len(value) <= maxValidRegexLen && validRegexCount.Load() < maxValidRegexes && validRegexCount.Add(1) <= maxValidRegexes {
		validRegexes.Store(value, struct{}{})
	}
	return nil
}

// validRegexes holds match values known to parse (regexProblem).
var (
	validRegexes    sync.Map
	validRegexCount atomic.Int32
)

const (
	maxValidRegexes  = 1 << 12
	maxValidRegexLen = 256
)

// lazyMatchPath returns the function that makes matchPath(rulePath, j)
// once, when a regular expression needs it: most matches have none.
func lazyMatchPath(rulePath string, j int) func() string {
	var path string
	return func() string {
		if path == "" {
			path = matchPath(rulePath, j)
		}
		return path
	}
}

// httpRegexProblems checks the RegularExpression matches of an HTTPRoute
// rule: path, headers and query parameters.
func httpRegexProblems(rulePath string, rule *gwv1.HTTPRouteRule) []RegexProblem {
	var out []RegexProblem
	for j, m := range rule.Matches {
		mp := lazyMatchPath(rulePath, j)
		if m.Path != nil && m.Path.Type != nil && *m.Path.Type == gwv1.PathMatchRegularExpression && m.Path.Value != nil {
			out = append(out, regexProblem(*m.Path.Value, func() string { return mp() + ".path.value" })...)
		}
		for k, h := range m.Headers {
			if h.Type != nil && *h.Type == gwv1.HeaderMatchRegularExpression {
				out = append(out, regexProblem(h.Value, func() string { return mp() + ".headers[" + strconv.Itoa(k) + "].value" })...)
			}
		}
		for k, q := range m.QueryParams {
			if q.Type != nil && *q.Type == gwv1.QueryParamMatchRegularExpression {
				out = append(out, regexProblem(q.Value, func() string { return mp() + ".queryParams[" + strconv.Itoa(k) + "].value" })...)
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
		mp := lazyMatchPath(rulePath, j)
		if mm := m.Method; mm != nil && mm.Type != nil && *mm.Type == gwv1.GRPCMethodMatchRegularExpression {
			if mm.Service != nil {
				out = append(out, regexProblem(*mm.Service, func() string { return mp() + ".method.service" })...)
			}
			if mm.Method != nil {
				out = append(out, regexProblem(*mm.Method, func() string { return mp() + ".method.method" })...)
			}
		}
		for k, h := range m.Headers {
			if h.Type != nil && *h.Type == gwv1.GRPCHeaderMatchRegularExpression {
				out = append(out, regexProblem(h.Value, func() string { return mp() + ".headers[" + strconv.Itoa(k) + "].value" })...)
			}
		}
	}
	return out
}

// RuleDropper drops the rules of a route it will not translate at a parent
// of its own that accepted the route: a RegularExpression match it cannot
// compile, a filter it refuses. The API's reading drops none.
type RuleDropper interface {
	Implementation
	// DropsRule returns why the implementation, judging the parent by
	// profile by, drops the rule there; false to translate it.
	DropsRule(g *Graph, by *Judge, route *Route, rule *RuleResult) (RuleRefusal, bool)
}

// dropInvalidRules drops the rules the implementation of an accepted
// parent's Gateway will not translate (RuleDropper). "If some rules are
// invalid ... PartiallyInvalid=True"; when every rule is, the route is not
// accepted, with the first refusal's reason.
func (g *Graph) dropInvalidRules(p *ParentResult) {
	gw := gatewayOf(p)
	if gw == nil || !p.Accepted.True() {
		return
	}
	dropper, ok := gw.Judge.steps.(RuleDropper)
	if !ok {
		return
	}
	var labels []string
	for _, rule := range p.Route.Rules {
		if refusal, ok := dropper.DropsRule(g, gw.Judge, p.Route.Route, rule); ok {
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
			fmt.Sprintf("%s drops every rule: %s: %s", gw.Judge, first.Path, first.Message))
		return
	}
	p.PartiallyInvalid = condition(string(gwv1.RouteConditionPartiallyInvalid), true, first.Reason,
		fmt.Sprintf("%s drops %s: %s: %s", gw.Judge, strings.Join(labels, ", "), first.Path, first.Message))
}

// RuleRefusal is why an implementation drops a rule (RuleDropper): a
// filter it refuses, or a RegularExpression match it cannot compile.
type RuleRefusal struct {
	Rule *RuleResult
	// By is the profile of the implementation that drops it.
	By            *Judge
	Reason        Reason
	Path, Message string
	// Filter is true for a filter, false for a regex.
	Filter bool
}
