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

// Its SDS reference Secrets: certificates it takes, when they name a secret
// and a unix socket (ir.NewSDSConfig); the API's reading wants tls.crt and
// tls.key.
func TestSDSReferenceSecrets(t *testing.T) {
	sds := func(name, data string) string {
		return `
apiVersion: v1
kind: Secret
metadata: {name: ` + name + `, namespace: infra}
type: gateway.envoyproxy.io/sds
stringData: {` + data + `}`
	}
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  listeners:
  - {name: spiffe, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: spiffe}]}}
  - {name: no-url, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: no-url}]}}
  - {name: path-only, protocol: HTTPS, port: 9443, tls: {certificateRefs: [{name: path-only}]}}`
	}
	for _, c := range []struct {
		impl  resolve.Implementation
		class string
		want  [3]resolve.Reason
	}{
		{nil, "acme", [3]resolve.Reason{resolve.ReasonInvalidCertificateRef, resolve.ReasonInvalidCertificateRef, resolve.ReasonInvalidCertificateRef}},
		{envoygateway.Implementation{}, "eg", [3]resolve.Reason{resolve.ReasonResolvedRefs, resolve.ReasonInvalidCertificateRef, resolve.ReasonInvalidCertificateRef}},
	} {
		ls := resolvetest.Resolve(t, resolvetest.JudgedBy(t, c.impl), resolvetest.World, egClass,
			sds("spiffe", `secretName: default, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"`),
			sds("no-url", `secretName: default`),
			sds("path-only", `secretName: default, url: /var/run/secrets/workload-spiffe-uds/socket`),
			gateway(c.class)).Gateway("infra", "edge").Listeners
		if got := [3]resolve.Reason{ls[0].ResolvedRefs.Reason, ls[1].ResolvedRefs.Reason, ls[2].ResolvedRefs.Reason}; got != c.want {
			t.Errorf("class %s: ResolvedRefs %v; want %v", c.class, got, c.want)
		}
	}
}
