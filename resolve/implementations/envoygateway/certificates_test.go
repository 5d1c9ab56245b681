package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A listener with one certificateRef that resolves and one that does not.
func TestPartlyValidCertificates(t *testing.T) {
	for _, c := range []struct {
		class                    string
		resolvedRefs, programmed resolve.Reason
	}{
		{"acme", resolve.ReasonInvalidCertificateRef, resolve.ReasonInvalid},
		{"eg", envoygateway.ReasonPartiallyInvalidCertificateRef, resolve.ReasonProgrammed},
	} {
		opts := byClass
		opts.StrictRefs = true
		g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, inlineSecret, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners:
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: inline}, {name: gone}]}}`)
		l := g.Gateway("infra", "edge").Listeners[0]
		if l.ResolvedRefs.Reason != c.resolvedRefs || l.Programmed.Reason != c.programmed {
			t.Errorf("class %s: ResolvedRefs %s, Programmed %s; want %s, %s", c.class, l.ResolvedRefs.Reason, l.Programmed.Reason, c.resolvedRefs, c.programmed)
		}
	}
}
