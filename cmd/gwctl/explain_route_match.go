package main

import (
	"fmt"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// Matches and filters are read from the route's typed, defaulted spec:
// resolve keeps them there rather than in its kind-independent RouteRule.

func matchesOf(route *resolve.Route, i int) []matchView {
	rp := "spec.rules[" + strconv.Itoa(i) + "]"
	var out []matchView
	switch {
	case route.HTTP != nil:
		for j, m := range route.HTTP.Rules[i].Matches {
			out = append(out, httpMatch(&route.Meta, rp+".matches["+strconv.Itoa(j)+"]", m))
		}
	case route.GRPC != nil:
		for j, m := range route.GRPC.Rules[i].Matches {
			out = append(out, grpcMatch(&route.Meta, rp+".matches["+strconv.Itoa(j)+"]", m))
		}
	}
	return out
}

func httpMatch(meta *resolve.Meta, path string, m gwv1.HTTPRouteMatch) matchView {
	mv := matchView{Defaulted: meta.IsDefaulted(path)}
	if m.Path != nil {
		mv.Conditions = append(mv.Conditions, matchCondition{
			Field: "path", Type: string(*m.Path.Type), Value: *m.Path.Value,
			TypeDefaulted:  meta.IsDefaulted(path + ".path.type"),
			ValueDefaulted: meta.IsDefaulted(path + ".path.value"),
		})
	}
	for k, h := range m.Headers {
		mv.Conditions = append(mv.Conditions, matchCondition{
			Field: "header", Type: string(*h.Type), Name: string(h.Name), Value: h.Value,
			TypeDefaulted: meta.IsDefaulted(fmt.Sprintf("%s.headers[%d].type", path, k)),
		})
	}
	for k, q := range m.QueryParams {
		mv.Conditions = append(mv.Conditions, matchCondition{
			Field: "queryParam", Type: string(*q.Type), Name: string(q.Name), Value: q.Value,
			TypeDefaulted: meta.IsDefaulted(fmt.Sprintf("%s.queryParams[%d].type", path, k)),
		})
	}
	if m.Method != nil {
		mv.Conditions = append(mv.Conditions, matchCondition{Field: "method", Value: string(*m.Method)})
	}
	return mv
}

func grpcMatch(meta *resolve.Meta, path string, m gwv1.GRPCRouteMatch) matchView {
	var mv matchView
	if mm := m.Method; mm != nil {
		typeDefaulted := meta.IsDefaulted(path + ".method.type")
		if mm.Service != nil {
			mv.Conditions = append(mv.Conditions, matchCondition{Field: "service", Type: string(*mm.Type), Value: *mm.Service, TypeDefaulted: typeDefaulted})
		}
		if mm.Method != nil {
			mv.Conditions = append(mv.Conditions, matchCondition{Field: "method", Type: string(*mm.Type), Value: *mm.Method, TypeDefaulted: typeDefaulted})
		}
	}
	for k, h := range m.Headers {
		mv.Conditions = append(mv.Conditions, matchCondition{
			Field: "header", Type: string(*h.Type), Name: string(h.Name), Value: h.Value,
			TypeDefaulted: meta.IsDefaulted(fmt.Sprintf("%s.headers[%d].type", path, k)),
		})
	}
	return mv
}

// text renders a match: its conditions, all of which must hold. A match
// without conditions (a GRPCRoute's `- {}`) matches every request.
func (m matchView) text() string {
	if len(m.Conditions) == 0 {
		return "every request"
	}
	parts := make([]string, len(m.Conditions))
	for i, c := range m.Conditions {
		parts[i] = c.text()
		if !m.Defaulted {
			parts[i] += c.defaultNote()
		}
	}
	s := strings.Join(parts, ", ")
	if m.Defaulted {
		s += " (default)"
	}
	return s
}

// text renders one condition: a path with its match type, as the spec
// names it, and the others as "name = value" ("~" for a regular
// expression).
func (c matchCondition) text() string {
	op := "="
	if c.Type == "RegularExpression" {
		op = "~"
	}
	switch c.Field {
	case "path":
		return c.Type + " " + c.Value
	case "method":
		if c.Type == "" { // HTTP method
			return "method " + c.Value
		}
	case "queryParam":
		return "query " + c.Name + " " + op + " " + c.Value
	}
	s := c.Field
	if c.Name != "" {
		s += " " + c.Name
	}
	return s + " " + op + " " + c.Value
}

// defaultNote marks the path type or value that defaulting filled in; the
// "=" of other conditions already shows their default type, Exact.
func (c matchCondition) defaultNote() string {
	if c.Field != "path" {
		return ""
	}
	switch {
	case c.TypeDefaulted && c.ValueDefaulted:
		return " (default)"
	case c.TypeDefaulted:
		return " (default type)"
	case c.ValueDefaulted:
		return " (default value)"
	}
	return ""
}

func filtersOf(route *resolve.Route, i int) []filterView {
	var out []filterView
	for k, f := range route.RuleFilters(i) {
		path := fmt.Sprintf("spec.rules[%d].filters[%d]", i, k)
		out = append(out, filterView{Type: string(f.Type), Description: describeFilter(route, path, f)})
	}
	return out
}

// describeFilter says what a filter does, in one line.
func describeFilter(route *resolve.Route, path string, f gwv1.HTTPRouteFilter) string {
	switch {
	case f.RequestHeaderModifier != nil:
		return describeHeaders(f.RequestHeaderModifier)
	case f.ResponseHeaderModifier != nil:
		return describeHeaders(f.ResponseHeaderModifier)
	case f.RequestRedirect != nil:
		rr := f.RequestRedirect
		parts := urlParts(rr.Scheme, rr.Hostname, rr.Port, rr.Path)
		code := strconv.Itoa(*rr.StatusCode)
		if route.IsDefaulted(path + ".requestRedirect.statusCode") {
			code += " (default)"
		}
		return strings.Join(append(parts, code), " ")
	case f.URLRewrite != nil:
		return strings.Join(urlParts(nil, f.URLRewrite.Hostname, nil, f.URLRewrite.Path), " ")
	case f.RequestMirror != nil:
		return describeMirror(route, f.RequestMirror)
	case f.CORS != nil:
		return describeCORS(route, path, f.CORS)
	case f.ExternalAuth != nil:
		return fmt.Sprintf("%s via %s", f.ExternalAuth.ExternalAuthProtocol, backendName(route, f.ExternalAuth.BackendRef))
	case f.ExtensionRef != nil:
		return fmt.Sprintf("%s %s", groupKindName(string(f.ExtensionRef.Group), string(f.ExtensionRef.Kind)), f.ExtensionRef.Name)
	}
	return ""
}

func describeHeaders(h *gwv1.HTTPHeaderFilter) string {
	var parts []string
	for _, s := range h.Set {
		parts = append(parts, fmt.Sprintf("set %s: %s", s.Name, s.Value))
	}
	for _, a := range h.Add {
		parts = append(parts, fmt.Sprintf("add %s: %s", a.Name, a.Value))
	}
	for _, r := range h.Remove {
		parts = append(parts, "remove "+r)
	}
	return strings.Join(parts, ", ")
}

// urlParts describes what a redirect or rewrite replaces: "path→/checkout".
func urlParts(scheme *string, hostname *gwv1.PreciseHostname, port *gwv1.PortNumber, path *gwv1.HTTPPathModifier) []string {
	var parts []string
	if scheme != nil {
		parts = append(parts, "scheme→"+*scheme)
	}
	if hostname != nil {
		parts = append(parts, "hostname→"+string(*hostname))
	}
	if port != nil {
		parts = append(parts, fmt.Sprintf("port→%d", *port))
	}
	if path != nil {
		switch {
		case path.ReplaceFullPath != nil:
			parts = append(parts, "path→"+*path.ReplaceFullPath)
		case path.ReplacePrefixMatch != nil:
			parts = append(parts, "prefix→"+*path.ReplacePrefixMatch)
		}
	}
	return parts
}

func describeMirror(route *resolve.Route, m *gwv1.HTTPRequestMirrorFilter) string {
	s := "to " + backendName(route, m.BackendRef)
	switch {
	case m.Percent != nil:
		s += fmt.Sprintf(" (%d%% of requests)", *m.Percent)
	case m.Fraction != nil:
		denominator := int32(100) // +kubebuilder:default=100 (Fraction.Denominator)
		if m.Fraction.Denominator != nil {
			denominator = *m.Fraction.Denominator
		}
		s += fmt.Sprintf(" (%d/%d of requests)", m.Fraction.Numerator, denominator)
	}
	return s
}

func describeCORS(route *resolve.Route, path string, c *gwv1.HTTPCORSFilter) string {
	var parts []string
	list := func(name string, n int, item func(int) string) {
		if n == 0 {
			return
		}
		items := make([]string, n)
		for i := range items {
			items[i] = item(i)
		}
		parts = append(parts, name+" "+strings.Join(items, ","))
	}
	list("origins", len(c.AllowOrigins), func(i int) string { return string(c.AllowOrigins[i]) })
	list("methods", len(c.AllowMethods), func(i int) string { return string(c.AllowMethods[i]) })
	list("headers", len(c.AllowHeaders), func(i int) string { return string(c.AllowHeaders[i]) })
	list("expose", len(c.ExposeHeaders), func(i int) string { return string(c.ExposeHeaders[i]) })
	if c.AllowCredentials != nil && *c.AllowCredentials {
		parts = append(parts, "credentials")
	}
	maxAge := fmt.Sprintf("maxAge %ds", c.MaxAge)
	if route.IsDefaulted(path + ".cors.maxAge") {
		maxAge += " (default)"
	}
	return strings.Join(append(parts, maxAge), "; ")
}

// backendName renders a filter's backend reference, with the defaults
// (core Service, the route's namespace) that resolve applies only to
// rule backendRefs.
func backendName(route *resolve.Route, ref gwv1.BackendObjectReference) string {
	group, kind, ns := "", resolve.KindService, route.Ref.Namespace
	if ref.Group != nil {
		group = string(*ref.Group)
	}
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	s := groupKindName(group, kind) + " " + ns + "/" + string(ref.Name)
	if ref.Port != nil {
		s += fmt.Sprintf(":%d", *ref.Port)
	}
	return s
}

// groupKindName renders "Kind.group", or "Kind" for the core group.
func groupKindName(group, kind string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}
