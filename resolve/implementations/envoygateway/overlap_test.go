package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Two routes with identical matches on one listener: the API ranks them
// (the older wins) and writes nothing; Envoy Gateway marks both.
func TestRouteRulesOverlap(t *testing.T) {
	route := func(name, path string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{matches: [{path: {type: Exact, value: ` + path + `}}], backendRefs: [{name: web, port: 8080}]}]`
	}
	for _, c := range []struct {
		name, third string
		want        map[string]string // route: RouteRulesOverlap message under Envoy Gateway
	}{
		{"same path", route("c", "/other"), map[string]string{
			"a": "Overlapping match conditions with route(s): HTTPRoute app/b",
			"b": "Overlapping match conditions with route(s): HTTPRoute app/a",
			"c": "",
		}},
		{"three routes", route("c", "/cart"), map[string]string{
			"a": "Overlapping match conditions with route(s): HTTPRoute app/b, HTTPRoute app/c",
			"b": "Overlapping match conditions with route(s): HTTPRoute app/a, HTTPRoute app/c",
			"c": "Overlapping match conditions with route(s): HTTPRoute app/a, HTTPRoute app/b",
		}},
	} {
		for _, gwClass := range []string{"acme", "eg"} {
			g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+gwClass+`, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`,
				route("a", "/cart"), route("b", "/cart"), c.third)
			for name, want := range c.want {
				if gwClass == "acme" {
					want = ""
				}
				p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", name).Parents[0]
				var got resolve.Condition
				for _, pc := range p.Conditions {
					if pc.Type == envoygateway.ConditionRouteRulesOverlap {
						got = pc
					}
				}
				if got.Message != want || got.True() != (want != "") || got.True() && got.Reason != envoygateway.ReasonRouteRulesOverlap {
					t.Errorf("%s under class %s: route %s RouteRulesOverlap %s/%s %q; want %q", c.name, gwClass, name, got.Status, got.Reason, got.Message, want)
				}
			}
		}
	}
}
