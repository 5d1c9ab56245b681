package resolve

import (
	"testing"
)

// istioClass is a GatewayClass of Istio's, whose profile lists XBackend
// among its backend kinds.
const istioClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}`

// XBackend backendRefs: Istio (with PILOT_ENABLE_ALPHA_GATEWAY_API) takes
// them and checks the port against the XBackend's own; the API's reading
// refuses the kind.
func TestXBackendUnderAnImplementationThatTakesIt(t *testing.T) {
	const docs = `
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XBackend
metadata: {name: payments, namespace: app}
spec: {type: ExternalHostname, externalHostname: {hostname: api.payments.example.com}, port: {port: 443}, tls: {mode: ServerOnly}}
---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XBackend
metadata: {name: ledger, namespace: other}
spec: {type: ExternalHostname, externalHostname: {hostname: ledger.example.com}, port: {port: 443}}`
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	}
	route := func(backend string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{group: gateway.networking.x-k8s.io, kind: XBackend, ` + backend + `}]}]`
	}
	for _, c := range []struct {
		name, backend string
		every, istio  Reason // the route's ResolvedRefs reason
	}{
		{"port from the XBackend", "name: payments", ReasonInvalidKind, ReasonResolvedRefs},
		{"the XBackend's port", "name: payments, port: 443", ReasonInvalidKind, ReasonResolvedRefs},
		{"another port", "name: payments, port: 8443", ReasonInvalidKind, ReasonBackendNotFound},
		// app is declared and holds XBackends: one it lacks does not exist.
		{"missing", "name: nowhere", ReasonInvalidKind, ReasonBackendNotFound},
		{"cross-namespace without a grant", "name: ledger, namespace: other", ReasonInvalidKind, ReasonRefNotPermitted},
	} {
		for _, run := range []struct {
			class string
			want  Reason
		}{{"acme", c.every}, {"istio", c.istio}} {
			g := resolveYAML(t, owned, world, istioClass, docs, gateway(run.class), route(c.backend))
			if r := mustRoute(t, g, KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != run.want {
				t.Errorf("%s under %s: route ResolvedRefs %s (%s), want %s", c.name, g.Profile(), r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
			}
		}
	}
	// Where the inputs hold no XBackend in the namespace, one that is not
	// there is outside them, not missing.
	g := resolveYAML(t, Options{}, world, istioClass, docs, gateway("istio"), `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: infra}
spec:
  parentRefs: [{name: edge}]
  rules: [{backendRefs: [{group: gateway.networking.x-k8s.io, kind: XBackend, name: elsewhere}]}]`)
	if r := mustRoute(t, g, KindHTTPRoute, "infra", "r"); !r.ResolvedRefs.True() {
		t.Errorf("XBackend outside the inputs: route ResolvedRefs %s (%s), want True", r.ResolvedRefs.Reason, r.ResolvedRefs.Message)
	}
}
