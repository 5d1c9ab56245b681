package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// The listener protocols Istio serves (judgeProtocols): HBONE on its
// waypoints and east-west gateways only, and not UDP.
func TestListenerProtocols(t *testing.T) {
	type verdict struct {
		reason resolve.Reason // the listener's Accepted reason
		kinds  int            // len(SupportedKinds)
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
		every:    verdict{resolve.ReasonAccepted, 1}, istio: verdict{resolve.ReasonUnsupportedProtocol, 0},
	}, {
		name: "TCP", class: "istio",
		listener: "{name: l, protocol: TCP, port: 5432}",
		every:    verdict{resolve.ReasonAccepted, 1}, istio: verdict{resolve.ReasonAccepted, 1},
	}, {
		// HBONE is for waypoint proxies only.
		name: "HBONE on the ingress class", class: "istio",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, 0}, istio: verdict{resolve.ReasonUnsupportedProtocol, 0},
	}, {
		name: "HBONE on a waypoint", class: "istio-waypoint",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, 0}, istio: verdict{resolve.ReasonAccepted, 0},
	}, {
		name: "HBONE on an east-west gateway", class: "istio-east-west",
		listener: "{name: l, protocol: HBONE, port: 15008, tls: {mode: Terminate, options: {gateway.istio.io/tls-terminate-mode: ISTIO_MUTUAL}}}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, 0}, istio: verdict{resolve.ReasonAccepted, 0},
	}, {
		// A class not among the inputs: which Istio controller runs the
		// Gateway is unknown, so HBONE is not held against it.
		name: "HBONE, class unknown", class: "mine",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, 0}, istio: verdict{resolve.ReasonAccepted, 0},
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
			impl string
			docs []string
			want verdict
		}{
			{"", []string{resolvetest.World, gateway("acme")}, c.every},
			{"istio", []string{classes, gateway(c.class)}, c.istio},
		} {
			gw := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[run.impl]), run.docs...).Gateway("infra", "probe")
			l := gw.Listeners[0]
			if got := (verdict{l.Accepted.Reason, len(l.SupportedKinds)}); got != run.want {
				t.Errorf("%s under %s: Accepted %s (%s), %d kinds; want %s, %d kinds", c.name, gw.Judge,
					l.Accepted.Reason, l.Accepted.Message, len(l.SupportedKinds), run.want.reason, run.want.kinds)
			}
		}
	}
	// A Gateway whose only listener Istio refuses is not accepted; its
	// class's controller selects Istio without --implementation.
	g := resolvetest.Resolve(t, byClass, classes, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: l, protocol: UDP, port: 53}]}`)
	if gw := g.Gateway("infra", "gw"); gw.Accepted.Reason != resolve.ReasonListenersNotValid || gw.Accepted.True() {
		t.Errorf("UDP-only Gateway of class istio: %+v, want Accepted=False/ListenersNotValid", gw.Accepted)
	}
}

// A Gateway of a class Istio installs, not among the inputs, is Istio's
// and its HBONE listener accepted.
func TestHBONEOnAnInstalledClass(t *testing.T) {
	g := resolvetest.Resolve(t, byClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: by-installed-class, namespace: infra}
spec: {gatewayClassName: istio-waypoint, listeners: [{name: mesh, protocol: HBONE, port: 15008}]}`)
	if l := g.Gateway("infra", "by-installed-class").Listeners[0]; !l.Accepted.True() {
		t.Errorf("HBONE under istio: %+v", l.Accepted)
	}
}
