package resolve

import (
	"testing"
)

// Implementation behaviour: where the spec leaves a choice, or an
// implementation has a limit its conformance report does not show, a
// Gateway of that implementation is judged as its controller would, and
// under every feature as before.

// istioClasses are Istio's GatewayClasses as it installs them
// (pilot/pkg/config/kube/gatewaycommon/classinfo.go).
const istioClasses = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-waypoint}
spec: {controllerName: istio.io/mesh-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-east-west}
spec: {controllerName: istio.io/eastwest-controller}`

func TestListenerProtocolsByImplementation(t *testing.T) {
	type verdict struct {
		reason Reason // the listener's Accepted reason
		kinds  int    // len(SupportedKinds)
	}
	cases := []struct {
		name, class, listener string
		// every is the verdict under every feature (class acme); istio
		// under --implementation istio, with Istio's classes.
		every, istio verdict
	}{{
		// Istio's listenerProtocolToIstio leaves UDP unsupported.
		name: "UDP", class: "istio",
		listener: "{name: l, protocol: UDP, port: 53}",
		every:    verdict{ReasonAccepted, 1}, istio: verdict{ReasonUnsupportedProtocol, 0},
	}, {
		name: "TCP", class: "istio",
		listener: "{name: l, protocol: TCP, port: 5432}",
		every:    verdict{ReasonAccepted, 1}, istio: verdict{ReasonAccepted, 1},
	}, {
		// HBONE is for waypoint proxies only.
		name: "HBONE on the ingress class", class: "istio",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonUnsupportedProtocol, 0},
	}, {
		name: "HBONE on a waypoint", class: "istio-waypoint",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}, {
		name: "HBONE on an east-west gateway", class: "istio-east-west",
		listener: "{name: l, protocol: HBONE, port: 15008, tls: {mode: Terminate, options: {gateway.istio.io/tls-terminate-mode: ISTIO_MUTUAL}}}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}, {
		// A class not among the inputs: which Istio controller runs the
		// Gateway is unknown, so HBONE is not held against it.
		name: "HBONE, class unknown", class: "mine",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}}
	for _, c := range cases {
		gateway := func(class string) string {
			return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: probe, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [` + c.listener + `]}`
		}
		for _, run := range []struct {
			opts Options
			docs []string
			want verdict
		}{
			{Options{}, []string{world, gateway("acme")}, c.every},
			{Options{Implementation: mustProfile(t, "istio")}, []string{istioClasses, gateway(c.class)}, c.istio},
		} {
			g := resolveYAML(t, run.opts, run.docs...)
			l := g.Gateway("infra", "probe").Listeners[0]
			if got := (verdict{l.Accepted.Reason, len(l.SupportedKinds)}); got != run.want {
				t.Errorf("%s under %s: Accepted %s (%s), %d kinds; want %s, %d kinds", c.name, g.profile,
					l.Accepted.Reason, l.Accepted.Message, len(l.SupportedKinds), run.want.reason, run.want.kinds)
			}
		}
	}
	// A Gateway whose only listener Istio refuses is not accepted; its
	// class's controller selects Istio without --implementation.
	g := resolveYAML(t, Options{}, istioClasses, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: l, protocol: UDP, port: 53}]}`)
	if gw := g.Gateway("infra", "gw"); gw.Accepted.Reason != ReasonListenersNotValid || gw.Accepted.True() {
		t.Errorf("UDP-only Gateway of class istio: %+v, want Accepted=False/ListenersNotValid", gw.Accepted)
	}
}

// egClass is Envoy Gateway's GatewayClass.
const egClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}`

// NamedAddress, an address type of the API with implementation-specific
// support: Envoy Gateway refuses it.
func TestAddressTypesByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		accepted    Reason
	}{{"", "acme", ReasonAccepted}, {"envoy-gateway", "eg", ReasonUnsupportedAddress}} {
		gw := resolveYAML(t, judgedBy(t, c.impl), world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  addresses: [{type: NamedAddress, value: edge-ip}, {type: IPAddress, value: 192.0.2.1}]
  listeners: [{name: http, protocol: HTTP, port: 80}]`).Gateway("infra", "edge")
		if gw.Accepted.Reason != c.accepted {
			t.Errorf("class %s: Accepted %s (%s); want %s", c.class, gw.Accepted.Reason, gw.Accepted.Message, c.accepted)
		}
	}
}

// XBackend backendRefs: Istio (with PILOT_ENABLE_ALPHA_GATEWAY_API) takes
// them and checks the port against the XBackend's own; the API's reading
// refuses the kind.
func TestXBackendByImplementation(t *testing.T) {
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
			g := resolveYAML(t, owned, world, istioClasses, docs, gateway(run.class), route(c.backend))
			if r := mustRoute(t, g, KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != run.want {
				t.Errorf("%s under %s: route ResolvedRefs %s (%s), want %s", c.name, g.profile, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
			}
		}
	}
	// Where the inputs hold no XBackend in the namespace, one that is not
	// there is outside them, not missing.
	g := resolveYAML(t, Options{}, world, istioClasses, docs, gateway("istio"), `
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
