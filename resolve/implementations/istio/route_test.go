package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A route no listener accepts, refused by namespace on one listener and by
// hostname on another (or both on one): which reason it gets.
func TestRouteRefusal(t *testing.T) {
	route := `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  hostnames: [shop.example.net]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	for _, c := range []struct {
		name, listeners string
		every, istio    resolve.Reason
	}{{
		// The listener admits only its own namespace and another hostname.
		name:      "one listener, both",
		listeners: `[{name: http, protocol: HTTP, port: 80, hostname: "*.example.com"}]`,
		every:     resolve.ReasonNotAllowedByListeners, istio: resolve.ReasonNoMatchingListenerHostname,
	}, {
		name: "namespace on one, hostname on another",
		listeners: `[{name: a, protocol: HTTP, port: 80, hostname: "*.example.com", allowedRoutes: {namespaces: {from: All}}},
  {name: b, protocol: HTTP, port: 8080}]`,
		every: resolve.ReasonNoMatchingListenerHostname, istio: resolve.ReasonNotAllowedByListeners,
	}, {
		name:      "hostname only",
		listeners: `[{name: http, protocol: HTTP, port: 80, hostname: "*.example.com", allowedRoutes: {namespaces: {from: All}}}]`,
		every:     resolve.ReasonNoMatchingListenerHostname, istio: resolve.ReasonNoMatchingListenerHostname,
	}, {
		name:      "namespace only",
		listeners: `[{name: http, protocol: HTTP, port: 80}]`,
		every:     resolve.ReasonNotAllowedByListeners, istio: resolve.ReasonNotAllowedByListeners,
	}} {
		for _, run := range []struct {
			class string
			want  resolve.Reason
		}{{"acme", c.every}, {"istio", c.istio}} {
			g := resolvetest.Resolve(t, byClass, resolvetest.World, classes, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+run.class+`
  listeners: `+c.listeners, route)
			p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r").Parents[0]
			if p.Accepted.True() || p.Accepted.Reason != run.want {
				t.Errorf("%s, class %s: Accepted %s/%s (%s), want False/%s", c.name, run.class, p.Accepted.Status, p.Accepted.Reason, p.Accepted.Message, run.want)
			}
		}
	}
}
