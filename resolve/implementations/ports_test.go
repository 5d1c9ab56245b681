package implementations_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A route judged by implementations that report a port the Service lacks
// differently (Envoy Gateway's PortNotFound, Istio's unchecked port) gets
// the API's BackendNotFound.
func TestMissingServicePortDisagreement(t *testing.T) {
	g := resolvetest.Resolve(t, resolve.Options{Implementations: implementations.All()}, resolvetest.World, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: istio, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: eg, namespace: infra}, {name: istio, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 7777}]}]`)
	r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
	b := r.Rules[0].Backends[0]
	if b.Problem != resolve.PortNotFound || b.Valid() || b.Reason != resolve.ReasonBackendNotFound || b.Unreported {
		t.Errorf("backend %s/%s unreported=%v valid=%v; want %s/%s reported, never valid",
			b.Problem, b.Reason, b.Unreported, b.Valid(), resolve.PortNotFound, resolve.ReasonBackendNotFound)
	}
	if r.ResolvedRefs.Reason != resolve.ReasonBackendNotFound {
		t.Errorf("route ResolvedRefs %s (%s), want BackendNotFound", r.ResolvedRefs.Reason, r.ResolvedRefs.Message)
	}
}
