package lsp

import (
	"regexp"
	"slices"

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

var (
	parentRefPath  = regexp.MustCompile(`^spec\.parentRefs\[(\d+)\]`)
	backendRefPath = regexp.MustCompile(`^spec\.rules\[(\d+)\]\.backendRefs\[(\d+)\]`)
	rulePath       = regexp.MustCompile(`^spec\.rules\[(\d+)\]`)
	listenerPath   = regexp.MustCompile(`^spec\.listeners\[(\d+)\]`)
	certRefPath    = regexp.MustCompile(`^spec\.listeners\[(\d+)\]\.tls\.certificateRefs\[(\d+)\]`)
	targetRefPath  = regexp.MustCompile(`^spec\.targetRefs?(\[\d+\])?`)
	classNamePath  = regexp.MustCompile(`^spec\.gatewayClassName$`)
)

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
	m := parentRefPath.FindString(path)
	for _, p := range r.Parents {
		if m != "" && p.Path == m {
			return p
		}
	}
	return nil
}

// backendAt is the backendRef result at path of a route, with its rule.
func backendAt(r *resolve.RouteResult, path string) (*resolve.RuleResult, *resolve.BackendResult) {
	m := backendRefPath.FindString(path)
	for _, rule := range r.Rules {
		for _, b := range rule.Backends {
			if m != "" && b.Path == m {
				return rule, b
			}
		}
	}
	return nil, nil
}

// ruleAt is the rule result at path of a route.
func ruleAt(r *resolve.RouteResult, path string) *resolve.RuleResult {
	m := rulePath.FindString(path)
	for _, rule := range r.Rules {
		if m != "" && rule.Path == m {
			return rule
		}
	}
	return nil
}

// listenerAt is the listener at path of a Gateway.
func listenerAt(gw *resolve.GatewayResult, path string) *resolve.Listener {
	m := listenerPath.FindString(path)
	for _, l := range gw.Listeners {
		if m != "" && l.ListenerSet == nil && l.Path == m {
			return l
		}
	}
	return nil
}

// certRefAt is the certificateRef at path of a Gateway's listener.
func certRefAt(l *resolve.Listener, path string) *resolve.RefResult {
	m := certRefPath.FindString(path)
	for _, c := range l.CertRefs {
		if m != "" && c.Path == m {
			return c
		}
	}
	return nil
}

// targetAt is the targetRef at path of a policy.
func targetAt(p *resolve.PolicyResult, path string) *resolve.PolicyTargetResult {
	m := targetRefPath.FindString(path)
	for _, t := range p.Targets {
		if m != "" && t.Path == m {
			return t
		}
	}
	return nil
}
