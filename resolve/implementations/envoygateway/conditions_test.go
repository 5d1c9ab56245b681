package envoygateway_test

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// gatewayStatus is the status the graph writes for Gateway ns/name.
func gatewayStatus(t *testing.T, g *resolve.Graph, ns, name string) gwv1.GatewayStatus {
	t.Helper()
	for _, s := range g.Statuses() {
		if s.Kind == resolve.KindGateway && s.Metadata.Namespace == ns && s.Metadata.Name == name {
			return s.Status.(gwv1.GatewayStatus)
		}
	}
	t.Fatalf("no status for Gateway %s/%s", ns, name)
	return gwv1.GatewayStatus{}
}

// A Gateway's own Programmed and ResolvedRefs: the API's summary of its
// listeners, or only what Envoy Gateway writes there.
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
		every, eg       verdict
	}{{
		name: "a listener with a missing certificate", listeners: http + ", " + noCert,
		every: verdict{resolve.ReasonProgrammed, resolve.ReasonListenersNotResolved},
		eg:    verdict{resolve.ReasonProgrammed, resolve.ReasonResolvedRefs},
	}, {
		name: "no valid listener", listeners: badProto,
		every: verdict{resolve.ReasonInvalid, resolve.ReasonResolvedRefs},
		eg:    verdict{resolve.ReasonInvalid, resolve.ReasonResolvedRefs},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}} {
			opts := judgedBy(t, run.impl)
			opts.StrictRefs = true
			gw := resolvetest.Resolve(t, opts, resolvetest.World, class, gateway(run.class, c.listeners)).Gateway("infra", "edge")
			if got := (verdict{gw.Programmed.Reason, gw.ResolvedRefs.Reason}); got != run.want {
				t.Errorf("%s under %s: Programmed %s, ResolvedRefs %s; want %+v", c.name, gw.Profile, got.programmed, got.resolvedRefs, run.want)
			}
		}
	}
}

// A Gateway refused for a reason of its own (an address type its
// implementation does not support, parameters of a kind it does not take):
// Envoy Gateway writes no listener status.
func TestRefusedGatewayStatus(t *testing.T) {
	gateway := func(class, spec string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  ` + spec + `
  listeners: [{name: http, protocol: HTTP, port: 80}]`
	}
	for _, c := range []struct {
		impl, class string
		listeners   int
	}{{"", "acme", 1}, {"envoy-gateway", "eg", 0}} {
		g := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, class, gateway(c.class, `addresses: [{type: example.com/custom, value: x}]`))
		gw := g.Gateway("infra", "edge")
		st := gatewayStatus(t, g, "infra", "edge")
		if gw.Accepted.Reason != resolve.ReasonUnsupportedAddress || len(st.Listeners) != c.listeners || gw.Programmed.Reason != resolve.ReasonInvalid {
			t.Errorf("class %s: Accepted %s, %d listener statuses, Programmed %s; want UnsupportedAddress, %d, Invalid",
				c.class, gw.Accepted.Reason, len(st.Listeners), gw.Programmed.Reason, c.listeners)
		}
	}
	g := resolvetest.Resolve(t, byClass, resolvetest.World, class, gateway("eg", `infrastructure: {parametersRef: {group: "", kind: ConfigMap, name: params}}`))
	if gw, st := g.Gateway("infra", "edge"), gatewayStatus(t, g, "infra", "edge"); gw.Accepted.Reason != resolve.ReasonInvalidParameters || len(st.Listeners) != 0 {
		t.Errorf("parameters of a kind it does not take: Accepted %s, %d listener statuses; want InvalidParameters, none", gw.Accepted.Reason, len(st.Listeners))
	}
}
