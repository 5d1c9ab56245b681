package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Gateways of a class whose EnvoyProxy merges them share one proxy under
// Envoy Gateway: a listener repeating another Gateway's protocol, hostname
// and port is conflicted, and HTTPS listeners overlap across them.
func TestMergedGateways(t *testing.T) {
	docs := []string{resolvetest.World, inlineSecret, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: shared}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: merged}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: merged, namespace: infra}
spec: {mergeGateways: true}`}
	for _, name := range []string{"a", "b"} {
		docs = append(docs, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: `+name+`, namespace: infra}
spec:
  gatewayClassName: shared
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - name: https
    protocol: HTTPS
    port: 443
    hostname: `+name+`.example.com
    tls: {certificateRefs: [{name: inline}]}`)
	}
	for _, c := range []struct {
		impl       string
		conflict   resolve.Reason // gateway b's http listener's Conflicted reason
		overlap    resolve.Reason // gateway a's https listener's OverlappingTLSConfig reason
		programmed bool           // gateway b's http listener
	}{
		{"", resolve.ReasonNoConflicts, "", true},
		{"envoy-gateway", resolve.ReasonHostnameConflict, resolve.ReasonOverlappingCertificates, false},
	} {
		g := resolvetest.Resolve(t, judgedBy(t, c.impl), docs...)
		a, b := g.Gateway("infra", "a"), g.Gateway("infra", "b")
		if l := a.Listeners[0]; l.Conflicted.True() {
			t.Errorf("%q: the first Gateway's listener is conflicted: %s", c.impl, l.Conflicted.Message)
		}
		if l := b.Listeners[0]; l.Conflicted.Reason != c.conflict || l.Programmed.True() != c.programmed {
			t.Errorf("%q: second Gateway's http: Conflicted %s, Programmed %v; want %s, %v", c.impl, l.Conflicted.Reason, l.Programmed.Status, c.conflict, c.programmed)
		}
		if l := a.Listeners[1]; l.OverlappingTLS.Reason != c.overlap {
			t.Errorf("%q: first Gateway's https: OverlappingTLSConfig %q (%s), want %q", c.impl, l.OverlappingTLS.Reason, l.OverlappingTLS.Message, c.overlap)
		}
	}
}
