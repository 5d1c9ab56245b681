package implementations_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A backendRef port the Service lacks: BackendNotFound under every
// feature, Envoy Gateway's own PortNotFound; Istio does not check it, and
// the route's ResolvedRefs stays True. A route judged by implementations
// that disagree gets the API's reason.
func TestMissingServicePort(t *testing.T) {
	const gateways = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: istio, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	route := func(parents string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: ` + parents + `
  rules: [{backendRefs: [{name: web, port: 7777}]}]`
	}
	// The namespaces are held whole: a Service they lack does not exist.
	owned := resolve.Options{Implementations: implementations.All(), OwnedNamespaces: []string{"infra", "app", "other", "edge"}}
	for _, c := range []struct {
		name, parents string
		// reason is the backend's; resolved the route's ResolvedRefs
		// reason.
		reason, resolved resolve.Reason
		unreported       bool
	}{
		{"every feature", "[{name: gw, namespace: infra}]", resolve.ReasonBackendNotFound, resolve.ReasonBackendNotFound, false},
		{"envoy-gateway", "[{name: eg, namespace: infra}]", envoygateway.ReasonPortNotFound, envoygateway.ReasonPortNotFound, false},
		{"istio", "[{name: istio, namespace: infra}]", resolve.ReasonBackendNotFound, resolve.ReasonResolvedRefs, true},
		// Implementations that disagree: the API's reason.
		{"envoy-gateway and istio", "[{name: eg, namespace: infra}, {name: istio, namespace: infra}]", resolve.ReasonBackendNotFound, resolve.ReasonBackendNotFound, false},
	} {
		g := resolvetest.Resolve(t, owned, resolvetest.World, classes, gateways, route(c.parents))
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		b := r.Rules[0].Backends[0]
		if b.Problem != resolve.PortNotFound || b.Valid() || b.Reason != c.reason || b.Unreported != c.unreported {
			t.Errorf("%s: backend %s/%s unreported=%v valid=%v; want %s/%s unreported=%v, never valid", c.name,
				b.Problem, b.Reason, b.Unreported, b.Valid(), resolve.PortNotFound, c.reason, c.unreported)
		}
		if r.ResolvedRefs.Reason != c.resolved {
			t.Errorf("%s: route ResolvedRefs %s (%s), want %s", c.name, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, c.resolved)
		}
	}
	// A Service that does not exist is BackendNotFound under each.
	for _, parent := range []string{"gw", "eg", "istio"} {
		g := resolvetest.Resolve(t, owned, resolvetest.World, classes, gateways, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: `+parent+`, namespace: infra}]
  rules: [{backendRefs: [{name: nowhere, port: 80}]}]`)
		if r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != resolve.ReasonBackendNotFound {
			t.Errorf("missing Service under Gateway %s: route ResolvedRefs %s, want BackendNotFound", parent, r.ResolvedRefs.Reason)
		}
	}
}
