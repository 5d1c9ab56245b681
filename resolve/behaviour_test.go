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
