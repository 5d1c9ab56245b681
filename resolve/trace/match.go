package trace

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/gwlint/gwlint/resolve"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Matching one request against the matches of one route, and the effect of
// the winning rule's filters on it.

// matchRoute returns every match of r that req satisfies, in rule and
// match order; when there is none, why the closest one fails. A rule
// without matches matches every request (an HTTPRoute's explicit
// `matches: []`, as the API server keeps it, is read that way too).
func (tr *Tracer) matchRoute(r *resolve.RouteResult, req *Request) ([]*Match, *Miss) {
	var out []*Match
	var closest *Miss
	closestPassed := -1
	add := func(rule, match int, rank matchRank) {
		out = append(out, &Match{MatchRef: resolve.NewMatchRef(r, rule, match), rank: rank})
	}
	miss := func(rule, match int, c *condCheck) {
		if c.passed > closestPassed {
			closestPassed = c.passed
			closest = &Miss{Route: r, Reason: c.failed,
				Message: resolve.NewMatchRef(r, rule, match).Path + ": " + c.message}
		}
	}
	switch {
	case r.HTTP != nil:
		for i, rule := range r.HTTP.Rules {
			if len(rule.Matches) == 0 {
				add(i, -1, matchRank{pathType: pathPrefix})
			}
			for j, m := range rule.Matches {
				if c := tr.checkHTTP(m, req); c.failed == "" {
					add(i, j, c.rank)
				} else {
					miss(i, j, c)
				}
			}
		}
	case r.TLS != nil || r.TCP != nil || r.UDP != nil:
		// Their rules have no matches: every connection the route's
		// hostnames (TLSRoute) take on the listener.
		for i := range r.Rules {
			add(i, -1, matchRank{})
		}
	case r.GRPC != nil:
		for i, rule := range r.GRPC.Rules {
			if len(rule.Matches) == 0 {
				add(i, -1, matchRank{})
			}
			for j, m := range rule.Matches {
				if c := tr.checkGRPC(m, req); c.failed == "" {
					add(i, j, c.rank)
				} else {
					miss(i, j, c)
				}
			}
		}
	}
	if len(out) == 0 && closest == nil {
		closest = &Miss{Route: r, Reason: MissNoRules, Message: "the route has no rules"}
	}
	return out, closest
}

// condCheck is the outcome of one match's conditions: the rank when all
// hold, else the first that fails and how many held before it.
type condCheck struct {
	rank    matchRank
	passed  int
	failed  Reason
	message string
}

func (c *condCheck) fail(reason Reason, format string, args ...any) {
	if c.failed == "" {
		c.failed, c.message = reason, fmt.Sprintf(format, args...)
	}
}

func (c *condCheck) ok() bool {
	if c.failed == "" {
		c.passed++
		return true
	}
	return false
}

func (tr *Tracer) checkHTTP(m gwv1.HTTPRouteMatch, req *Request) *condCheck {
	c := &condCheck{}
	if p := m.Path; p != nil {
		value := *p.Value
		switch *p.Type {
		case gwv1.PathMatchExact:
			c.rank.pathType, c.rank.pathChars = pathExact, len(value)
			if req.Path != value {
				c.fail(MissPath, "path %s is not Exact %s", req.Path, value)
			}
		case gwv1.PathMatchPathPrefix:
			trimmed := strings.TrimSuffix(value, "/")
			c.rank.pathType, c.rank.pathChars = pathPrefix, len(trimmed)
			if !prefixMatches(trimmed, req.Path) {
				c.fail(MissPath, "path %s is not under PathPrefix %s", req.Path, value)
			}
		default:
			c.rank.pathType, c.rank.pathChars = pathRegex, len(value)
			if !tr.fullMatch(value, req.Path) {
				c.fail(MissPath, "path %s does not match RegularExpression %s", req.Path, value)
			}
		}
		c.ok()
	}
	if m.Method != nil {
		c.rank.method = true
		if string(*m.Method) != req.EffectiveMethod() {
			c.fail(MissMethod, "method %s is not %s", req.EffectiveMethod(), *m.Method)
		}
		c.ok()
	}
	for _, h := range m.Headers {
		tr.checkValue(c, MissHeader, "header", string(h.Name), string(*h.Type), h.Value, headerValue(req.Headers, string(h.Name)))
	}
	c.rank.headers = len(m.Headers)
	for _, q := range m.QueryParams {
		tr.checkValue(c, MissQueryParam, "query parameter", string(q.Name), string(*q.Type), q.Value, queryValue(req.Query, string(q.Name)))
	}
	c.rank.queries = len(m.QueryParams)
	return c
}

func (tr *Tracer) checkGRPC(m gwv1.GRPCRouteMatch, req *Request) *condCheck {
	c := &condCheck{}
	if mm := m.Method; mm != nil {
		ok := true
		regex := *mm.Type == gwv1.GRPCMethodMatchRegularExpression
		for _, part := range []struct {
			want *string
			got  string
			rank *int
		}{
			{mm.Service, req.GRPCService, &c.rank.service},
			{mm.Method, req.GRPCMethod, &c.rank.grpcMethod},
		} {
			if part.want == nil {
				continue
			}
			*part.rank = len(*part.want)
			if regex && !tr.fullMatch(*part.want, part.got) || !regex && *part.want != part.got {
				ok = false
			}
		}
		if !ok {
			c.fail(MissGRPCMethod, "method %s/%s does not match %s", req.GRPCService, req.GRPCMethod, resolve.GRPCMethodMatchString(mm))
		}
		c.ok()
	}
	for _, h := range m.Headers {
		tr.checkValue(c, MissHeader, "header", string(h.Name), string(*h.Type), h.Value, headerValue(req.Headers, string(h.Name)))
	}
	c.rank.headers = len(m.Headers)
	return c
}

// checkValue checks one header or query parameter condition against the
// request's value (nil when absent).
func (tr *Tracer) checkValue(c *condCheck, reason Reason, what, name, typ, want string, got *string) {
	switch {
	case got == nil:
		c.fail(reason, "%s %s is absent (wanted %s %s)", what, name, typ, want)
	case typ == "RegularExpression" && !tr.fullMatch(want, *got):
		c.fail(reason, "%s %s: %q does not match RegularExpression %s", what, name, *got, want)
	case typ != "RegularExpression" && *got != want:
		c.fail(reason, "%s %s: %q is not %q", what, name, *got, want)
	}
	c.ok()
}

// headerValue is the request's value of header name (names compare
// case-insensitively); several values are joined by commas, as HTTP
// allows.
func headerValue(headers []NameValue, name string) *string {
	var values []string
	for _, h := range headers {
		if strings.EqualFold(h.Name, name) {
			values = append(values, h.Value)
		}
	}
	if len(values) == 0 {
		return nil
	}
	v := strings.Join(values, ",")
	return &v
}

// queryValue is the first value of query parameter name (names compare
// exactly).
func queryValue(query []NameValue, name string) *string {
	for _, q := range query {
		if q.Name == name {
			return &q.Value
		}
	}
	return nil
}

// prefixMatches: "PathPrefix: Matches based on a URL path prefix split by
// `/`. Matching is case-sensitive and done on a path element by element
// basis. [...] a trailing `/` is ignored." prefix has no trailing slash.
func prefixMatches(prefix, path string) bool {
	return prefix == "" || path == prefix || strings.HasPrefix(path, prefix+"/")
}

// fullMatch reports whether the RE2 expression matches all of s; an
// expression that does not compile matches nothing.
func (tr *Tracer) fullMatch(expr, s string) bool {
	re := tr.fullRegexp(expr)
	return re != nil && re.MatchString(s)
}

// fullRegexp is expr compiled to match a whole string, nil when it does
// not compile. Each expression is compiled once per graph: traces match
// the same ones over and over (gwctl diff traces a request per match).
func (tr *Tracer) fullRegexp(expr string) *regexp.Regexp {
	if re, ok := tr.regexps.Load(expr); ok {
		return re.(*regexp.Regexp)
	}
	re, err := regexp.Compile(`^(?:` + expr + `)$`)
	if err != nil {
		re = nil
	}
	tr.regexps.Store(expr, re)
	return re
}

// describe renders what a match compares: "PathPrefix /api, method GET, 2
// headers".
func (m *Match) describe() string {
	var parts []string
	r := &m.rank
	switch r.pathType {
	case pathExact, pathPrefix, pathRegex:
		if m.Match >= 0 && m.Route.HTTP != nil {
			p := m.Route.HTTP.Rules[m.Rule].Matches[m.Match].Path
			parts = append(parts, string(*p.Type)+" "+*p.Value)
		} else {
			parts = append(parts, "PathPrefix /")
		}
	}
	if m.Route.GRPC != nil && m.Match >= 0 {
		if mm := m.Route.GRPC.Rules[m.Rule].Matches[m.Match].Method; mm != nil {
			parts = append(parts, resolve.GRPCMethodMatchString(mm))
		}
	}
	if r.method {
		parts = append(parts, "method "+string(*m.Route.HTTP.Rules[m.Rule].Matches[m.Match].Method))
	}
	counted := func(n int, what string) {
		switch n {
		case 0:
		case 1:
			parts = append(parts, "1 "+what)
		default:
			parts = append(parts, fmt.Sprintf("%d %ss", n, what))
		}
	}
	counted(r.headers, "header")
	counted(r.queries, "query parameter")
	switch {
	case len(parts) > 0:
	case m.Route.HTTP == nil && m.Route.GRPC == nil:
		return "every connection"
	default:
		return "every request"
	}
	return strings.Join(parts, ", ")
}

// matchedPrefix is the PathPrefix value the winning match matched, for
// ReplacePrefixMatch; "/" for a rule without matches.
func (m *Match) matchedPrefix() string {
	if m.Match < 0 || m.Route.HTTP == nil {
		return "/"
	}
	return *m.Route.HTTP.Rules[m.Rule].Matches[m.Match].Path.Value
}

// modifyPath applies a redirect's or rewrite's path modifier.
// ReplacePrefixMatch: "the prefix match [...] will be replaced"; the rest
// of the path is kept, element by element.
func modifyPath(path string, m *Match, mod *gwv1.HTTPPathModifier) string {
	switch {
	case mod == nil:
		return path
	case mod.ReplaceFullPath != nil:
		return *mod.ReplaceFullPath
	case mod.ReplacePrefixMatch != nil:
		rest := strings.TrimPrefix(path, strings.TrimSuffix(m.matchedPrefix(), "/"))
		out := strings.TrimSuffix(*mod.ReplacePrefixMatch, "/") + rest
		if !strings.HasPrefix(out, "/") {
			out = "/" + out
		}
		return out
	}
	return path
}

// redirectTarget computes a RequestRedirect's Location. Port:
// "If no port is specified, the redirect port MUST be derived using the
// following rules: If redirect scheme is not-empty, the redirect port MUST
// be the well-known port associated with the redirect scheme. [...] If
// redirect scheme is empty, the redirect port MUST be the Gateway Listener
// port." It is left out of the Location for http on 80 and https on 443.
func (t *Result) redirectTarget(w *Match, f *gwv1.HTTPRequestRedirectFilter) *RedirectTarget {
	req := &t.Request
	scheme := SchemeHTTP
	if req.tls() {
		scheme = SchemeHTTPS
	}
	target := &RedirectTarget{Scheme: scheme, Hostname: req.Host, Port: t.Port, Path: modifyPath(req.Path, w, f.Path)}
	if f.Hostname != nil {
		target.Hostname = string(*f.Hostname)
	}
	if f.Scheme != nil {
		target.Scheme = strings.ToLower(*f.Scheme)
		switch target.Scheme {
		case SchemeHTTP:
			target.Port = 80
		case SchemeHTTPS:
			target.Port = 443
		}
	}
	if f.Port != nil {
		target.Port = int32(*f.Port)
	}
	if target.Scheme == SchemeHTTP && target.Port == 80 || target.Scheme == SchemeHTTPS && target.Port == 443 {
		target.Port = 0
	}
	return target
}

// rewrite applies a URLRewrite filter to the request.
func (t *Result) rewrite(w *Match, f *gwv1.HTTPURLRewriteFilter) *RewrittenRequest {
	out := &RewrittenRequest{Host: t.Request.Host, Path: modifyPath(t.Request.Path, w, f.Path)}
	if f.Hostname != nil {
		out.Host = string(*f.Hostname)
	}
	return out
}
