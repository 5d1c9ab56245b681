package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A Gateway refused for parameters of a kind Envoy Gateway does not take:
// it writes no listener status.
func TestRefusedGatewayStatus(t *testing.T) {
	g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: eg
  infrastructure: {parametersRef: {group: "", kind: ConfigMap, name: params}}
  listeners: [{name: http, protocol: HTTP, port: 80}]`)
	gw, st := g.Gateway("infra", "edge"), resolvetest.GatewayStatus(t, g, "infra", "edge")
	if gw.Accepted.Reason != resolve.ReasonInvalidParameters || len(st.Listeners) != 0 {
		t.Errorf("Accepted %s (%s), %d listener statuses; want InvalidParameters, none", gw.Accepted.Reason, gw.Accepted.Message, len(st.Listeners))
	}
}
