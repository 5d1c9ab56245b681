package envoygateway_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// owned holds the namespaces of resolvetest.World whole: an object they
// lack does not exist.
var owned = []string{"infra", "app", "other", "edge"}

// caConfigMap is ConfigMap ns/name with caCrt under ca.crt.
func caConfigMap(ns, name, caCrt string) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s, namespace: %s}\ndata: {ca.crt: %q}", name, ns, caCrt)
}

// caNotPEM is a ca.crt that looks like a PEM certificate and is not one.
const caNotPEM = "-----BEGIN CERTIFICATE-----\nMIIDUDCC\n-----END CERTIFICATE-----\n"

// Client-certificate validation (spec.tls.frontend): Envoy Gateway reads
// its CAs as it reads a BackendTLSPolicy's (one unusable fails them all, a
// bundle is not parsed), gives the failure's reason to the listener's
// ResolvedRefs and Programmed over any other, and the Gateway's
// ResolvedRefs False/InvalidParameters.
func TestClientValidation(t *testing.T) {
	gateway := func(cas, certNamespace string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: eg
  tls: {frontend: {default: {validation: {caCertificateRefs: [` + cas + `]}}}}
  listeners: [{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: inline, namespace: ` + certNamespace + `}]}}]`
	}
	const (
		goodCA    = `{group: "", kind: ConfigMap, name: ca}`
		missingCA = `{group: "", kind: ConfigMap, name: nope}`
		garbledCA = `{group: "", kind: ConfigMap, name: ca-garbled}`
		serviceCA = `{group: "", kind: Service, name: web}`
	)
	type verdict struct {
		accepted, resolvedRefs, programmed resolve.Reason // the listener's
		gateway                            resolve.Reason // the Gateway's ResolvedRefs
	}
	for _, c := range []struct {
		name, cas, certNamespace string
		want                     verdict
	}{{
		name: "one usable CA of two", cas: goodCA + ", " + missingCA, certNamespace: "infra",
		want: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonInvalidCACertificateRef, resolve.ReasonInvalidCACertificateRef, resolve.ReasonInvalidParameters},
	}, {
		name: "CA that is not PEM", cas: garbledCA, certNamespace: "infra",
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, resolve.ReasonProgrammed, resolve.ReasonResolvedRefs},
	}, {
		name: "CA of a wrong kind, certificate not permitted", cas: serviceCA, certNamespace: "app",
		want: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonInvalidCACertificateKind, resolve.ReasonInvalidCACertificateKind, resolve.ReasonInvalidParameters},
	}} {
		opts := judgedBy(t, "envoy-gateway")
		opts.OwnedNamespaces = owned
		g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, inlineSecret, strings.Replace(inlineSecret, "namespace: infra", "namespace: app", 1),
			caConfigMap("infra", "ca", inlineCert), caConfigMap("infra", "ca-garbled", caNotPEM), gateway(c.cas, c.certNamespace))
		gw := g.Gateway("infra", "edge")
		l := gw.Listeners[0]
		if got := (verdict{l.Accepted.Reason, l.ResolvedRefs.Reason, l.Programmed.Reason, gw.ResolvedRefs.Reason}); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// Without --implementation, a BackendTLSPolicy is judged by the
// implementation of the Gateways whose routes reach its target: Envoy
// Gateway's reads a CA bundle under tls.crt, the API's reading does not.
func TestBackendTLSPolicyJudgedByItsGateways(t *testing.T) {
	for _, c := range []struct {
		class string
		want  resolve.Reason
	}{{"acme", resolve.ReasonNoValidCACertificate}, {"eg", resolve.ReasonAccepted}} {
		g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca, namespace: app}\ndata: {tls.crt: %q}", inlineCert), edge(c.class), `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {hostname: web.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`)
		if got := g.TLSPolicies[0].Accepted.Reason; got != c.want {
			t.Errorf("class %s: policy Accepted %s (%s), want %s", c.class, got, g.TLSPolicies[0].Accepted.Message, c.want)
		}
	}
}
