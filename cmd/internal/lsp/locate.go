package lsp

import (
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// spot is what the cursor is on: an object of a graph and the field path
// of the innermost field written at or before the cursor.
type spot struct {
	graph *resolve.Graph
	obj   resolve.Object
	path  string
}

// locate finds the object and field at line and col (1-based, in
// characters) of file, in the graphs of a check.
func locate(graphs []*resolve.Graph, file string, line, col int) (spot, bool) {
	var best spot
	bestLine := 0
	for _, g := range graphs {
		for _, obj := range g.Objects {
			m := obj.Metadata()
			if m.Source.File != file || m.Source.Pos.Line > line || m.Source.Pos.Line < bestLine {
				continue
			}
			best, bestLine = spot{graph: g, obj: obj}, m.Source.Pos.Line
		}
	}
	if best.obj == nil {
		return spot{}, false
	}
	m := best.obj.Metadata()
	if m.Positions == nil {
		return best, true
	}
	// The innermost field written last at or before the cursor.
	var bestPos [3]int
	for _, p := range m.Positions.Paths() {
		pos, ok := m.Positions.Lookup(p)
		if !ok || pos.Line > line || (pos.Line == line && pos.Col > col) {
			continue
		}
		if here := [3]int{pos.Line, pos.Col, len(p)}; slices.Compare(here[:], bestPos[:]) > 0 {
			bestPos, best.path = here, p
		}
	}
	return best, true
}

// indexed is the part of path that is field and one index:
// "spec.parentRefs[2]" of "spec.parentRefs[2].name"; "" when path does not
// start so.
func indexed(path, field string) string {
	rest, ok := strings.CutPrefix(path, field+"[")
	end := strings.IndexByte(rest, ']')
	if field == "" || !ok || end < 0 {
		return ""
	}
	return path[:len(field)+1+end+1]
}

// at is the item of items whose path (pathOf) is prefix; the zero value
// when prefix is "" or none is.
func at[T any](items []T, prefix string, pathOf func(T) string) T {
	var zero T
	if prefix == "" {
		return zero
	}
	for _, it := range items {
		if pathOf(it) == prefix {
			return it
		}
	}
	return zero
}

// classNamePath is a Gateway's GatewayClass name.
const classNamePath = "spec.gatewayClassName"

// route is the graph's result for a route object, nil for others.
func route(g *resolve.Graph, obj resolve.Object) *resolve.RouteResult {
	for _, r := range g.Routes {
		if &r.Route.Meta == obj.Metadata() {
			return r
		}
	}
	return nil
}

// gateway is the graph's result for a Gateway object, nil for others.
func gateway(g *resolve.Graph, obj resolve.Object) *resolve.GatewayResult {
	for _, gw := range g.Gateways {
		if &gw.Gateway.Meta == obj.Metadata() {
			return gw
		}
	}
	return nil
}

// policy is the graph's result for a policy object, nil for others.
func policy(g *resolve.Graph, obj resolve.Object) *resolve.PolicyResult {
	for _, p := range g.Policies {
		if p.Object.Metadata() == obj.Metadata() {
			return p
		}
	}
	return nil
}

// parentAt is the parentRef result at path of a route.
func parentAt(r *resolve.RouteResult, path string) *resolve.ParentResult {
	return at(r.Parents, indexed(path, "spec.parentRefs"), func(p *resolve.ParentResult) string { return p.Path })
}

// backendAt is the backendRef result at path of a route, with its rule.
func backendAt(r *resolve.RouteResult, path string) (*resolve.RuleResult, *resolve.BackendResult) {
	rule := ruleAt(r, path)
	if rule == nil {
		return nil, nil
	}
	b := at(rule.Backends, indexed(path, rule.Path+".backendRefs"), func(b *resolve.BackendResult) string { return b.Path })
	if b == nil {
		return nil, nil
	}
	return rule, b
}

// ruleAt is the rule result at path of a route.
func ruleAt(r *resolve.RouteResult, path string) *resolve.RuleResult {
	return at(r.Rules, indexed(path, "spec.rules"), func(rule *resolve.RuleResult) string { return rule.Path })
}

// listenerAt is the listener at path of a Gateway (not one of its
// ListenerSets').
func listenerAt(gw *resolve.GatewayResult, path string) *resolve.Listener {
	return at(gw.Listeners, indexed(path, "spec.listeners"), func(l *resolve.Listener) string {
		if l.ListenerSet != nil {
			return ""
		}
		return l.Path
	})
}

// certRefAt is the certificateRef at path of a Gateway's listener.
func certRefAt(l *resolve.Listener, path string) *resolve.RefResult {
	return at(l.CertRefs, indexed(path, l.Path+".tls.certificateRefs"), func(c *resolve.RefResult) string { return c.Path })
}

// targetAt is the targetRef at path of a policy: spec.targetRefs[i], or
// the single spec.targetRef.
func targetAt(p *resolve.PolicyResult, path string) *resolve.PolicyTargetResult {
	prefix := indexed(path, "spec.targetRefs")
	if path == "spec.targetRef" || strings.HasPrefix(path, "spec.targetRef.") {
		prefix = "spec.targetRef"
	}
	return at(p.Targets, prefix, func(t *resolve.PolicyTargetResult) string { return t.Path })
}
