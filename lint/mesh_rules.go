package lint

import "github.com/gwlint/gwlint/resolve"

// eachMeshParent visits every parentRef that binds a route to a Service.
func eachMeshParent(g *resolve.Graph, visit func(*resolve.RouteResult, *resolve.ParentResult)) {
	for _, r := range g.Routes {
		for _, pr := range r.Parents {
			if pr.Mesh() {
				visit(r, pr)
			}
		}
	}
}

var meshRouteTypeConflict = &Rule{
	ID: "mesh-route-type-conflict", Severity: Warning,
	Summary: "another route type wins this Service port (GEP-1426)",
	Doc: Doc{
		Text: `When routes of different types bind to the same Service and port, only one type
applies: GRPCRoute > HTTPRoute > TLSRoute > TCPRoute. The losing routes are not
accepted on that port (reason Conflicted).

Fix: use one route type per Service port, or bind to a specific port with
parentRef.port.`,
	},
	Run: func(p *Pass) {
		for _, s := range p.Graph.Services {
			if !s.Bound() {
				continue
			}
			for _, mp := range s.Ports() {
				for _, pr := range mp.Conflicted {
					p.Report(&pr.Route.Meta, pr.Path, nil,
						"%s loses Service %s port %d to %s (precedence GRPCRoute > HTTPRoute > TLSRoute > TCPRoute)",
						pr.Route.Ref, s.Ref.NamespacedName(), mp.Port.Port, mp.Winner)
				}
			}
		}
	},
}

var meshHostnamesIgnored = &Rule{
	ID: "mesh-hostnames-ignored", Severity: Warning,
	Summary: "hostnames have no effect on a mesh route",
	Doc: Doc{
		Text: `A route bound to a Service matches the Service's traffic whatever Host header
it carries; spec.hostnames is not used for mesh routing (GEP-1426). To match a
host, use a header match on Host.`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			if len(r.Hostnames) == 0 {
				continue
			}
			mesh, gateway := false, false
			for _, pr := range r.Parents {
				if pr.Mesh() {
					mesh = true
				} else {
					gateway = true
				}
			}
			if mesh && !gateway {
				p.Report(&r.Meta, "spec.hostnames", nil, "%s is bound only to Services; its hostnames are ignored", r.Ref)
			}
		}
	},
}

var meshRuleToParent = &Rule{
	ID: "mesh-rule-to-parent", Severity: Info,
	Summary: "mesh rule without backendRefs goes to the parent Service",
	Doc: Doc{
		Text: `GEP-1426: "If no backendRefs are specified, implementations should direct
traffic to the default endpoints of the parentRef service." This is often
intended (filters, timeouts); listed so it is never a surprise.`,
	},
	Run: func(p *Pass) {
		eachMeshParent(p.Graph, func(r *resolve.RouteResult, pr *resolve.ParentResult) {
			if pr.Index != firstMeshIndex(r) { // once per route, not per Service
				return
			}
			for _, rule := range r.Rules {
				if len(rule.Backends) == 0 {
					p.Report(&r.Meta, rule.Path, nil, "%s has no backendRefs: its traffic goes to the parent Service %s",
						rule.Label(), pr.Parent().NamespacedName())
				}
			}
		})
	},
}

func firstMeshIndex(r *resolve.RouteResult) int {
	for _, pr := range r.Parents {
		if pr.Mesh() && pr.Accepted.True() {
			return pr.Index
		}
	}
	return -1
}
