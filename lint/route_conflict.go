package lint

import "github.com/gwlint/gwlint/resolve/trace"

var routeConflict = &Rule{
	ID: "route-conflict", Severity: Warning,
	Summary: "a tied TLSRoute, TCPRoute or UDPRoute gets no connections",
	Doc: Doc{
		Text: `TCPRoute and UDPRoute rules have no matches, and TLSRoutes are told apart
only by hostname: two such routes on one listener (for TLSRoute, with the same
hostname) conflict. The API binds the oldest, then the first by
namespace/name, and the other gets none of those connections, though its
status says Accepted.

Fix: give each route its own listener (port), or, for TLSRoutes, distinct
hostnames:`,
		Example: `listeners:
- {name: postgres, protocol: TCP, port: 5432}
- {name: postgres-replica, protocol: TCP, port: 5433}   # one TCPRoute each
---
parentRefs:
- {name: data, sectionName: postgres-replica}`,
	},
	Run: func(p *Pass) {
		for _, c := range trace.New(p.Graph).RouteConflicts() {
			what := "connections"
			if c.Host != "" {
				what = "connections for " + c.Host
			}
			r := c.Loser.Route
			p.Report(&r.Meta, c.Loser.Path, nil, "%s gets no %s on %s (%d/%s): %s", r.Ref, what, c.Listener, c.Listener.Port, c.Listener.Protocol, c.Message)
		}
	},
}
