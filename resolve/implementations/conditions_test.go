package implementations_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A Gateway's own Programmed and ResolvedRefs: the API's summary of its
// listeners, or only what the implementation writes there.
func TestGatewayConditions(t *testing.T) {
	gateway := func(class, listeners string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [` + listeners + `]}`
	}
	const (
		http       = `{name: http, protocol: HTTP, port: 80}`
		noCert     = `{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: nowhere}]}}`
		badProto   = `{name: odd, protocol: example.com/odd, port: 9000}`
		notServed  = resolve.ReasonInvalid
		programmed = resolve.ReasonProgrammed
	)
	type verdict struct{ programmed, resolvedRefs resolve.Reason }
	cases := []struct {
		name, listeners  string
		every, eg, istio verdict
	}{{
		name: "a listener with a missing certificate", listeners: http + ", " + noCert,
		every: verdict{programmed, resolve.ReasonListenersNotResolved},
		eg:    verdict{programmed, resolve.ReasonResolvedRefs},
		istio: verdict{programmed, resolve.ReasonResolvedRefs},
	}, {
		name: "no valid listener", listeners: badProto,
		every: verdict{notServed, resolve.ReasonResolvedRefs},
		eg:    verdict{notServed, resolve.ReasonResolvedRefs},
		istio: verdict{programmed, resolve.ReasonResolvedRefs},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}, {"istio", "istio", c.istio}} {
			opts := resolvetest.JudgedBy(t, judges[run.impl])
			opts.StrictRefs = true
			gw := resolvetest.Resolve(t, opts, resolvetest.World, classes, gateway(run.class, c.listeners)).Gateway("infra", "edge")
			if got := (verdict{gw.Programmed.Reason, gw.ResolvedRefs.Reason}); got != run.want {
				t.Errorf("%s under %s: Programmed %s, ResolvedRefs %s; want %+v", c.name, gw.Judge, got.programmed, got.resolvedRefs, run.want)
			}
		}
	}
}

// A Gateway refused for a reason of its own (an address type its
// implementation does not support): Envoy Gateway and Istio write no
// listener status; Istio's Programmed says no address is usable.
func TestRefusedGatewayStatus(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		listeners   int
		programmed  resolve.Reason
	}{
		{"", "acme", 1, resolve.ReasonInvalid},
		{"envoy-gateway", "eg", 0, resolve.ReasonInvalid},
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
		st := resolvetest.GatewayStatus(t, g, "infra", "edge")
		if gw.Accepted.Reason != resolve.ReasonUnsupportedAddress || len(st.Listeners) != c.listeners || gw.Programmed.Reason != c.programmed {
			t.Errorf("class %s: Accepted %s, %d listener statuses, Programmed %s; want UnsupportedAddress, %d, %s",
				c.class, gw.Accepted.Reason, len(st.Listeners), gw.Programmed.Reason, c.listeners, c.programmed)
		}
	}
}
