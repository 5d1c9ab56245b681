package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A Gateway's own Programmed and ResolvedRefs: the API's summary of its
// listeners, or only what Istio writes there.
func TestGatewayConditions(t *testing.T) {
	gateway := func(class, listeners string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [` + listeners + `]}`
	}
	const (
		http     = `{name: http, protocol: HTTP, port: 80}`
		noCert   = `{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: nowhere}]}}`
		badProto = `{name: odd, protocol: example.com/odd, port: 9000}`
	)
	type verdict struct{ programmed, resolvedRefs resolve.Reason }
	cases := []struct {
		name, listeners string
		every, istio    verdict
	}{{
		name: "a listener with a missing certificate", listeners: http + ", " + noCert,
		every: verdict{resolve.ReasonProgrammed, resolve.ReasonListenersNotResolved},
		istio: verdict{resolve.ReasonProgrammed, resolve.ReasonResolvedRefs},
	}, {
		name: "no valid listener", listeners: badProto,
		every: verdict{resolve.ReasonInvalid, resolve.ReasonResolvedRefs},
		istio: verdict{resolve.ReasonProgrammed, resolve.ReasonResolvedRefs},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"istio", "istio", c.istio}} {
			opts := resolvetest.JudgedBy(t, judges[run.impl])
			opts.StrictRefs = true
			gw := resolvetest.Resolve(t, opts, resolvetest.World, classes, gateway(run.class, c.listeners)).Gateway("infra", "edge")
			if got := (verdict{gw.Programmed.Reason, gw.ResolvedRefs.Reason}); got != run.want {
				t.Errorf("%s under %s: Programmed %s, ResolvedRefs %s; want %+v", c.name, gw.Profile, got.programmed, got.resolvedRefs, run.want)
			}
		}
	}
}

// A Gateway refused for a reason of its own (an address type its
// implementation does not support): Istio writes no listener status, and
// its Programmed says no address is usable.
func TestRefusedGatewayStatus(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		listeners   int
		programmed  resolve.Reason
	}{
		{"", "acme", 1, resolve.ReasonInvalid},
		{"istio", "istio", 0, resolve.ReasonUnsupportedAddress},
	} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, classes, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  addresses: [{type: example.com/custom, value: x}]
  listeners: [{name: http, protocol: HTTP, port: 80}]`)
		gw := g.Gateway("infra", "edge")
		st := gatewayStatus(t, g, "infra", "edge")
		if gw.Accepted.Reason != resolve.ReasonUnsupportedAddress || len(st.Listeners) != c.listeners || gw.Programmed.Reason != c.programmed {
			t.Errorf("class %s: Accepted %s, %d listener statuses, Programmed %s; want UnsupportedAddress, %d, %s",
				c.class, gw.Accepted.Reason, len(st.Listeners), gw.Programmed.Reason, c.listeners, c.programmed)
		}
	}
}

// A ListenerSet with one valid listener and one invalid: accepted either
// way; the API's reason ListenersNotValid, Istio's Accepted.
func TestPartlyValidListenerSet(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		reason      resolve.Reason
	}{{"", "acme", resolve.ReasonListenersNotValid}, {"istio", "istio", resolve.ReasonAccepted}} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, classes, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  allowedListeners: {namespaces: {from: Same}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team, namespace: infra}
spec:
  parentRef: {name: edge}
  listeners:
  - {name: ok, protocol: HTTP, port: 8080}
  - {name: odd, protocol: example.com/odd, port: 9000}`)
		ls := g.ListenerSet("infra", "team")
		if !ls.Accepted.True() || ls.Accepted.Reason != c.reason {
			t.Errorf("class %s: Accepted %s/%s; want True/%s", c.class, ls.Accepted.Status, ls.Accepted.Reason, c.reason)
		}
	}
}
