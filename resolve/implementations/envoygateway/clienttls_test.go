package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A ClientTrafficPolicy's spec.tls is checked on the listeners it covers
// that terminate TLS: an unsupported cipher, a CA reference it cannot
// read, a verifying mode without CAs make it Invalid there; on a plain
// HTTP listener nothing is checked.
func TestClientTLS(t *testing.T) {
	base := []string{egClass, inlineSecret, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: inline}]}}
---
apiVersion: v1
kind: Secret
metadata: {name: keys, namespace: infra}
data: {a.crt: YQ==, b.crt: Yg==}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: infra}
data: {ca.crt: x}`}
	policy := func(section, tls string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: p, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge, sectionName: ` + section + `}]
  tls: ` + tls
	}
	for _, c := range []struct {
		name, section, tls string
		want               string // Accepted's message, "" for Accepted=True
	}{{
		name: "CA from a ConfigMap", section: "https",
		tls: `{clientValidation: {caCertificateRefs: [{kind: ConfigMap, name: ca}]}}`,
	}, {
		name: "an unsupported cipher", section: "https",
		tls:  `{ciphers: [ECDHE-RSA-AES128-GCM-SHA256, INVALID-CIPHER]}`,
		want: "TLS: unsupported cipher suite: INVALID-CIPHER.",
	}, {
		name: "an unsupported cipher on a plain listener", section: "http",
		tls: `{ciphers: [INVALID-CIPHER]}`,
	}, {
		name: "a ConfigMap that does not exist", section: "https",
		tls:  `{clientValidation: {caCertificateRefs: [{kind: ConfigMap, name: cas}]}}`,
		want: "TLS: failed to get certificate from ref: configmap infra/cas does not exist.",
	}, {
		name: "a Secret without ca.crt and more than one key", section: "https",
		tls:  `{clientValidation: {caCertificateRefs: [{name: keys}]}}`,
		want: "TLS: failed to get certificate from ref: ref secret [keys] has none of the expected keys [ca.crt] and more than one entry.",
	}, {
		name: "VerifyIfGiven without CAs", section: "https",
		tls:  `{clientValidation: {mode: VerifyIfGiven}}`,
		want: `TLS: tls.clientValidation.mode "VerifyIfGiven" requires caCertificateRefs.`,
	}, {
		name: "optional without CAs", section: "https",
		tls:  `{clientValidation: {optional: true}}`,
		want: `TLS: tls.clientValidation.optional=true requires caCertificateRefs (maps to mode "VerifyIfGiven").`,
	}} {
		t.Run(c.name, func(t *testing.T) {
			opts := resolve.Options{StrictRefs: true, Implementations: []resolve.Implementation{envoygateway.Implementation{}}}
			g := resolvetest.Resolve(t, opts, append(base, policy(c.section, c.tls))...)
			p := g.Policy(resolve.ObjectRef{Kind: envoygateway.KindClientTrafficPolicy + "." + envoygateway.Group, Namespace: "infra", Name: "p"})
			if p == nil || len(p.Ancestors) != 1 {
				t.Fatalf("want one ancestor, policy %v", p)
			}
			checkInvalid(t, p.Ancestors[0].Accepted, c.want)
		})
	}
}
