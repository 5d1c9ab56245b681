package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

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
