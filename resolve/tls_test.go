package resolve

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"math/big"
	"strings"
	"testing"
	"time"
)

// testCert is a throwaway certificate and key in PEM.
type testCert struct{ crt, key string }

func newTestCert(t *testing.T, notBefore, notAfter time.Time, ca bool, dnsNames ...string) testCert {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test"},
		NotBefore: notBefore, NotAfter: notAfter, DNSNames: dnsNames,
		IsCA: ca, BasicConstraintsValid: ca,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	keyDER, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return testCert{
		crt: string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		key: string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: keyDER})),
	}
}

var (
	year2000 = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)
	year2020 = time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	year2200 = time.Date(2200, 1, 1, 0, 0, 0, 0, time.UTC)
)

func b64(s string) string { return base64.StdEncoding.EncodeToString([]byte(s)) }

func tlsSecret(ns, name string, c testCert) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: Secret
metadata: {name: %s, namespace: %s}
type: kubernetes.io/tls
data: {tls.crt: %s, tls.key: %s}`, name, ns, b64(c.crt), b64(c.key))
}

func caConfigMap(ns, name, caCrt string) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: ConfigMap
metadata: {name: %s, namespace: %s}
data: {ca.crt: %q}`, name, ns, caCrt)
}

func TestCertificateContents(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	good := newTestCert(t, year2020, year2200, false, "*.example.com")
	other := newTestCert(t, year2020, year2200, false, "*.example.com")
	expired := newTestCert(t, year2000, year2020, false, "*.example.com")
	future := newTestCert(t, year2200, year2200.AddDate(1, 0, 0), false, "*.example.com")
	apex := newTestCert(t, year2020, year2200, false, "example.com")
	cases := []struct {
		name   string
		secret testCert
		// reason is the listener's ResolvedRefs reason.
		reason             Reason
		validity, hostname string
	}{
		{name: "usable", secret: good, reason: ReasonResolvedRefs},
		{name: "key of another certificate", secret: testCert{good.crt, other.key}, reason: ReasonInvalidCertificateRef},
		{name: "expired", secret: expired, reason: ReasonResolvedRefs, validity: "expired on 2020-01-01T00:00:00Z"},
		{name: "not yet valid", secret: future, reason: ReasonResolvedRefs, validity: "not valid before 2200-01-01T00:00:00Z"},
		{name: "SANs do not cover the hostname", secret: apex, reason: ReasonResolvedRefs,
			hostname: "the certificate's DNS names (example.com) do not cover the listener hostname *.example.com"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := resolveYAML(t, Options{Now: now}, world, tlsSecret("infra", "cert", tc.secret))
			l := g.Gateway("infra", "gw").Listeners[1]
			if l.ResolvedRefs.Reason != tc.reason {
				t.Fatalf("ResolvedRefs %s (%s), want %s", l.ResolvedRefs.Reason, l.ResolvedRefs.Message, tc.reason)
			}
			ref := l.CertRefs[0]
			if ref.ValidityProblem != tc.validity || ref.HostnameProblem != tc.hostname {
				t.Errorf("validity %q, hostname %q; want %q, %q", ref.ValidityProblem, ref.HostnameProblem, tc.validity, tc.hostname)
			}
		})
	}
}

func TestCertificateCovers(t *testing.T) {
	c := &Certificate{DNSNames: []string{"example.com", "*.example.com", "API.Example.org"}}
	for host, want := range map[string]bool{
		"example.com": true, "a.example.com": true, "*.example.com": true, "api.example.org": true,
		"a.b.example.com": false, "*.b.example.com": false, "example.org": false, "*.example.org": false,
	} {
		if got := c.Covers(host); got != want {
			t.Errorf("Covers(%q) = %v, want %v", host, got, want)
		}
	}
}

func TestFrontendValidation(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	server := newTestCert(t, year2020, year2200, false, "*.example.com")
	objects := []string{
		tlsSecret("infra", "cert", server),
		caConfigMap("infra", "ca", ca.crt),
		caConfigMap("infra", "garbage", "not a certificate"),
		caConfigMap("certs", "shared-ca", ca.crt),
		`
apiVersion: v1
kind: ConfigMap
metadata: {name: no-ca, namespace: infra}
data: {other: x}`,
	}
	gateway := func(frontend string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: mtls, namespace: infra}
spec:
  gatewayClassName: acme
  tls:
    frontend:
` + frontend + `
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: cert}]}}
  - {name: https-8443, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: cert}]}}`
	}
	defaultRefs := func(refs string) string {
		return "      default: {validation: {caCertificateRefs: [" + refs + "]}}"
	}
	type want struct {
		resolved, accepted Reason // of listener https
	}
	ok := want{ReasonResolvedRefs, ReasonAccepted}
	cases := []struct {
		name     string
		frontend string
		extra    []string
		https    want
		perPort  *want // listener https-8443 when it differs from https
		insecure bool
	}{
		{name: "ConfigMap with a CA", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: ca}`), https: ok},
		{name: "ConfigMap missing", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: nope}`),
			https: want{ReasonInvalidCACertificateRef, ReasonNoValidCACertificate}},
		{name: "ConfigMap without ca.crt", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: no-ca}`),
			https: want{ReasonInvalidCACertificateRef, ReasonNoValidCACertificate}},
		{name: "ca.crt not PEM", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: garbage}`),
			https: want{ReasonInvalidCACertificateRef, ReasonNoValidCACertificate}},
		{name: "unsupported kind", frontend: defaultRefs(`{group: "", kind: Service, name: web}`),
			https: want{ReasonInvalidCACertificateKind, ReasonNoValidCACertificate}},
		{name: "other namespace without grant", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: shared-ca, namespace: certs}`),
			https: want{ReasonRefNotPermitted, ReasonNoValidCACertificate}},
		{name: "other namespace with grant", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: shared-ca, namespace: certs}`),
			extra: []string{`
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: ca, namespace: certs}
spec:
  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: infra}]
  to: [{group: "", kind: ConfigMap}]`},
			https: ok},
		{name: "namespace without ConfigMaps among the inputs: external", frontend: defaultRefs(`{group: "", kind: ConfigMap, name: ca, namespace: elsewhere}`),
			https: ok},
		{name: "one of two refs invalid: refs unresolved, listener accepted",
			frontend: defaultRefs(`{group: "", kind: ConfigMap, name: ca}, {group: "", kind: ConfigMap, name: nope}`),
			https:    want{ReasonInvalidCACertificateRef, ReasonAccepted}},
		{name: "perPort overrides the default on its port",
			frontend: defaultRefs(`{group: "", kind: ConfigMap, name: ca}`) + `
      perPort: [{port: 8443, tls: {validation: {caCertificateRefs: [{group: "", kind: ConfigMap, name: nope}]}}}]`,
			https: ok, perPort: &want{ReasonInvalidCACertificateRef, ReasonNoValidCACertificate}},
		{name: "perPort without validation turns the default off on its port",
			frontend: defaultRefs(`{group: "", kind: ConfigMap, name: nope}`) + `
      perPort: [{port: 8443, tls: {}}]`,
			https: want{ReasonInvalidCACertificateRef, ReasonNoValidCACertificate}, perPort: &ok},
		{name: "AllowInsecureFallback",
			frontend: `      default: {validation: {mode: AllowInsecureFallback, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}}`,
			https:    ok, insecure: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs := append(append([]string{world, gateway(tc.frontend)}, objects...), tc.extra...)
			g := resolveYAML(t, owned, docs...)
			gw := g.Gateway("infra", "mtls")
			check := func(l *Listener, w want) {
				t.Helper()
				if l.ResolvedRefs.Reason != w.resolved || l.Accepted.Reason != w.accepted {
					t.Errorf("listener %s: ResolvedRefs %s, Accepted %s (%s / %s); want %s, %s", l.Name,
						l.ResolvedRefs.Reason, l.Accepted.Reason, l.ResolvedRefs.Message, l.Accepted.Message, w.resolved, w.accepted)
				}
			}
			check(gw.Listeners[0], ok) // HTTP listeners are never validated
			check(gw.Listeners[1], tc.https)
			perPort := tc.https
			if tc.perPort != nil {
				perPort = *tc.perPort
			}
			check(gw.Listeners[2], perPort)
			if got := gw.InsecureFrontend != nil; got != tc.insecure {
				t.Errorf("InsecureFrontendValidationMode set = %v, want %v", got, tc.insecure)
			} else if got && gw.InsecureFrontend.Reason != ReasonConfigurationChanged {
				t.Errorf("InsecureFrontendValidationMode reason %s", gw.InsecureFrontend.Reason)
			}
		})
	}
}

func TestParametersRef(t *testing.T) {
	gateway := func(class, ref string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: p, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  infrastructure: {parametersRef: ` + ref + `}
  listeners: [{name: http, protocol: HTTP, port: 80}]`
	}
	classes := `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: envoy}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: own}
spec:
  controllerName: example.com/own
  parametersRef: {group: example.com, kind: OwnParams, name: defaults}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: present, namespace: infra}`
	cases := []struct {
		name, class, ref string
		strict           bool
		want             Reason // the Gateway's Accepted reason
	}{
		{"known controller, its kind", "envoy", `{group: gateway.envoyproxy.io, kind: EnvoyProxy, name: proxy}`, false, ReasonAccepted},
		{"known controller, another kind", "envoy", `{group: invalid.io, kind: InvalidParameters, name: x}`, false, ReasonInvalidParameters},
		{"the class's own parametersRef kind", "own", `{group: example.com, kind: OwnParams, name: p}`, false, ReasonAccepted},
		{"not the class's parametersRef kind", "own", `{group: "", kind: ConfigMap, name: present}`, false, ReasonInvalidParameters},
		{"unknown controller: any kind", "acme", `{group: invalid.io, kind: InvalidParameters, name: x}`, false, ReasonAccepted},
		{"class outside the inputs: any kind", "elsewhere", `{group: invalid.io, kind: InvalidParameters, name: x}`, false, ReasonAccepted},
		{"ConfigMap present", "acme", `{group: "", kind: ConfigMap, name: present}`, false, ReasonAccepted},
		{"--strict-refs, ConfigMap missing", "acme", `{group: "", kind: ConfigMap, name: absent}`, true, ReasonInvalidParameters},
		// gwlint skips objects of kinds it does not read, so even
		// --strict-refs cannot tell that one is absent.
		{"--strict-refs, kind gwlint does not read: external", "own", `{group: example.com, kind: OwnParams, name: p}`, true, ReasonAccepted},
		{"--strict-refs: missing", "acme", `{group: "", kind: ConfigMap, name: elsewhere}`, true, ReasonInvalidParameters},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := resolveYAML(t, Options{StrictRefs: tc.strict}, world, classes, gateway(tc.class, tc.ref))
			gw := g.Gateway("infra", "p")
			if gw.Accepted.Reason != tc.want {
				t.Fatalf("Accepted %s (%s), want %s", gw.Accepted.Reason, gw.Accepted.Message, tc.want)
			}
			if tc.want == ReasonInvalidParameters && (gw.Accepted.True() || gw.Programmed.True()) {
				t.Errorf("Accepted %v, Programmed %v: want both False", gw.Accepted.Status, gw.Programmed.Status)
			}
		})
	}
}

func TestBackendTLSPolicy(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	route := `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules:
  - backendRefs: [{name: web, port: 8080}, {name: web, port: 9090}, {name: web-v2, port: 8080}]`
	policy := func(name, created, target, validation string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: ` + name + `, namespace: app, creationTimestamp: "` + created + `"}
spec:
  targetRefs: [` + target + `]
  validation: ` + validation
	}
	const (
		t1    = "2025-01-01T00:00:00Z"
		t2    = "2025-02-01T00:00:00Z"
		valid = `{hostname: web.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`
		web   = `{group: "", kind: Service, name: web}`
	)
	type want struct{ accepted, resolved Reason }
	ok := want{ReasonAccepted, ReasonResolvedRefs}
	cases := []struct {
		name     string
		policies []string
		want     map[string]want // by policy name
		// uses: the policy each backendRef of the route uses ("" for none).
		uses []string
	}{
		{name: "valid policy on the whole Service", policies: []string{policy("p", t1, web, valid)},
			want: map[string]want{"p": ok}, uses: []string{"p", "p", ""}},
		{name: "well-known System CAs", policies: []string{policy("p", t1, web, `{hostname: web.app, wellKnownCACertificates: System}`)},
			want: map[string]want{"p": ok}, uses: []string{"p", "p", ""}},
		{name: "unrecognized well-known CAs", policies: []string{policy("p", t1, web, `{hostname: web.app, wellKnownCACertificates: example.com/cas}`)},
			want: map[string]want{"p": {ReasonInvalid, ReasonResolvedRefs}}, uses: []string{"p", "p", ""}},
		{name: "missing Service", policies: []string{policy("p", t1, `{group: "", kind: Service, name: web-v9}`, valid)},
			want: map[string]want{"p": {ReasonTargetNotFound, ReasonResolvedRefs}}, uses: []string{"", "", ""}},
		{name: "Service outside the inputs is assumed", policies: []string{strings.ReplaceAll(policy("p", t1, `{group: "", kind: Service, name: db}`,
			`{hostname: db.data, wellKnownCACertificates: System}`), "namespace: app", "namespace: data")},
			want: map[string]want{"p": ok}, uses: []string{"", "", ""}},
		{name: "sectionName names no port", policies: []string{policy("p", t1, `{group: "", kind: Service, name: web, sectionName: https}`, valid)},
			want: map[string]want{"p": {ReasonTargetNotFound, ReasonResolvedRefs}}, uses: []string{"", "", ""}},
		{name: "unsupported target kind", policies: []string{policy("p", t1, `{group: apps, kind: Deployment, name: web}`, valid)},
			want: map[string]want{"p": {ReasonTargetNotFound, ReasonResolvedRefs}}, uses: []string{"", "", ""}},
		{name: "missing CA ConfigMap", policies: []string{policy("p", t1, web, `{hostname: web.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: nope}]}`)},
			want: map[string]want{"p": {ReasonNoValidCACertificate, ReasonInvalidCACertificateRef}}, uses: []string{"p", "p", ""}},
		{name: "unsupported CA kind", policies: []string{policy("p", t1, web, `{hostname: web.app, caCertificateRefs: [{group: invalid.io, kind: InvalidKind, name: x}]}`)},
			want: map[string]want{"p": {ReasonNoValidCACertificate, ReasonInvalidKind}}, uses: []string{"p", "p", ""}},
		{name: "the older policy wins, whatever its name",
			policies: []string{policy("a", t2, web, valid), policy("b", t1, web, valid)},
			want:     map[string]want{"a": {ReasonConflicted, ReasonResolvedRefs}, "b": ok}, uses: []string{"b", "b", ""}},
		{name: "same age: first by name wins",
			policies: []string{policy("a", t1, web, valid), policy("b", t1, web, valid)},
			want:     map[string]want{"a": ok, "b": {ReasonConflicted, ReasonResolvedRefs}}, uses: []string{"a", "a", ""}},
		{name: "a port's policy beside the whole Service's: no conflict, the port's applies to it",
			policies: []string{policy("whole", t1, web, valid), policy("grpc", t2, `{group: "", kind: Service, name: web, sectionName: grpc}`, valid)},
			want:     map[string]want{"whole": ok, "grpc": ok}, uses: []string{"whole", "grpc", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs := append([]string{world, route, caConfigMap("app", "ca", ca.crt)}, tc.policies...)
			g := resolveYAML(t, owned, docs...)
			for _, p := range g.TLSPolicies {
				w := tc.want[p.Ref.Name]
				if p.Accepted.Reason != w.accepted || p.ResolvedRefs.Reason != w.resolved {
					t.Errorf("%s: Accepted %s, ResolvedRefs %s (%s / %s); want %s, %s", p.Ref.Name, p.Accepted.Reason, p.ResolvedRefs.Reason,
						p.Accepted.Message, p.ResolvedRefs.Message, w.accepted, w.resolved)
				}
			}
			r := mustRoute(t, g, KindHTTPRoute, "app", "r")
			for i, b := range r.Rules[0].Backends {
				got := ""
				if b.TLSPolicy != nil {
					got = b.TLSPolicy.Ref.Name
				}
				if got != tc.uses[i] {
					t.Errorf("backendRefs[%d] uses %q, want %q", i, got, tc.uses[i])
				}
				if b.TLSPolicy != nil && (len(b.TLSPolicy.Ancestors) != 1 || b.TLSPolicy.Ancestors[0].Ref.Name != "gw") {
					t.Errorf("policy %s: ancestors %v, want infra/gw", b.TLSPolicy.Ref.Name, b.TLSPolicy.Ancestors)
				}
			}
		})
	}
}

// ListenerConditionOverlappingTLSConfig: set on every listener whose TLS
// configuration overlaps another's on the same port, by hostname or by
// certificate (preferred when both), never set False.
func TestOverlappingTLSConfig(t *testing.T) {
	shop := newTestCert(t, year2020, year2200, false, "shop.example.com")
	wild := newTestCert(t, year2020, year2200, false, "*.example.com")
	deep := newTestCert(t, year2020, year2200, false, "*.eu.example.com")
	blog := newTestCert(t, year2020, year2200, false, "blog.example.org")
	secrets := tlsSecret("edge", "shop", shop) + "\n---\n" + tlsSecret("edge", "wild", wild) + "\n---\n" +
		tlsSecret("edge", "deep", deep) + "\n---\n" + tlsSecret("edge", "blog", blog)
	cases := []struct {
		name      string
		listeners string
		// want is each listener's OverlappingTLSConfig reason; "" is unset.
		want []Reason
	}{
		{"the spec's example: A and C, not B", `
  - {name: a, protocol: HTTPS, port: 443, hostname: foo.example.com, tls: {certificateRefs: [{name: blog}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: foo.example.org, tls: {certificateRefs: [{name: blog}]}}
  - {name: c, protocol: HTTPS, port: 443, hostname: "*.example.com", tls: {certificateRefs: [{name: shop}]}}`,
			// a and b share blog's certificate: their SANs overlap.
			[]Reason{ReasonOverlappingCertificates, ReasonOverlappingCertificates, ReasonOverlappingHostnames}},
		{"overlapping hostnames, disjoint certificates", `
  - {name: a, protocol: HTTPS, port: 443, hostname: shop.example.com, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: "*.example.com", tls: {certificateRefs: [{name: blog}]}}`,
			[]Reason{ReasonOverlappingHostnames, ReasonOverlappingHostnames}},
		{"a wildcard hostname covers a deeper one", `
  - {name: a, protocol: HTTPS, port: 443, hostname: "*.eu.example.com", tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: "*.example.com", tls: {certificateRefs: [{name: blog}]}}`,
			[]Reason{ReasonOverlappingHostnames, ReasonOverlappingHostnames}},
		{"no hostname overlaps all", `
  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: TLS, port: 443, hostname: blog.example.org, tls: {mode: Terminate, certificateRefs: [{name: blog}]}}`,
			[]Reason{ReasonOverlappingHostnames, ReasonOverlappingHostnames}},
		{"overlapping certificates, disjoint hostnames", `
  - {name: a, protocol: HTTPS, port: 443, hostname: shop.example.com, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: blog.example.org, tls: {certificateRefs: [{name: wild}]}}`,
			[]Reason{ReasonOverlappingCertificates, ReasonOverlappingCertificates}},
		{"a wildcard SAN covers one label only", `
  - {name: a, protocol: HTTPS, port: 443, hostname: a.example.org, tls: {certificateRefs: [{name: wild}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: b.example.org, tls: {certificateRefs: [{name: deep}]}}`,
			[]Reason{"", ""}},
		{"disjoint", `
  - {name: a, protocol: HTTPS, port: 443, hostname: shop.example.com, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: blog.example.org, tls: {certificateRefs: [{name: blog}]}}`,
			[]Reason{"", ""}},
		{"different ports", `
  - {name: a, protocol: HTTPS, port: 443, hostname: shop.example.com, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 8443, hostname: "*.example.com", tls: {certificateRefs: [{name: wild}]}}`,
			[]Reason{"", ""}},
		{"passthrough and HTTP terminate nothing", `
  - {name: a, protocol: TLS, port: 443, tls: {mode: Passthrough}}
  - {name: b, protocol: TLS, port: 443, hostname: shop.example.com, tls: {mode: Passthrough}}
  - {name: c, protocol: HTTP, port: 80}
  - {name: d, protocol: HTTP, port: 80, hostname: shop.example.com}`,
			[]Reason{"", "", "", ""}},
		{"a listener that is not programmed serves no connection", `
  - {name: a, protocol: HTTPS, port: 443, hostname: shop.example.com, tls: {certificateRefs: [{name: shop}]}}
  - {name: b, protocol: HTTPS, port: 443, hostname: "*.example.com", tls: {certificateRefs: [{name: missing}]}}`,
			[]Reason{"", ""}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			g := resolveYAML(t, owned, world, `
apiVersion: v1
kind: Namespace
metadata: {name: edge}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: tls, namespace: edge}
spec:
  gatewayClassName: acme
  listeners:`+tc.listeners, secrets)
			for i, l := range g.Gateway("edge", "tls").Listeners {
				c := l.OverlappingTLS
				if c.Reason != tc.want[i] || c.True() != (tc.want[i] != "") {
					t.Errorf("listener %s: OverlappingTLSConfig %s %s (%s), want %q", l.Name, c.Status, c.Reason, c.Message, tc.want[i])
				}
			}
		})
	}
}

// PolicyStatus.Ancestors holds at most 16 entries ("If this slice is full,
// implementations MUST NOT add further entries").
func TestBackendTLSPolicyAncestorsCapped(t *testing.T) {
	docs := []string{world, `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {hostname: web.app, wellKnownCACertificates: System}`}
	for i := range 20 {
		docs = append(docs, fmt.Sprintf(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw-%02d, namespace: infra}
spec: {gatewayClassName: acme, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r-%02d, namespace: app}
spec:
  parentRefs: [{name: gw-%02d, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`, i, i, i))
	}
	p := resolveYAML(t, Options{}, docs...).TLSPolicies[0]
	if n := len(p.Ancestors); n != 16 || p.Ancestors[0].Ref.Name != "gw-00" || p.Ancestors[15].Ref.Name != "gw-15" {
		t.Errorf("%d ancestors, first %s, last %s; want 16, from infra/gw-00 to infra/gw-15", n, p.Ancestors[0].Ref.Name, p.Ancestors[n-1].Ref.Name)
	}
}

// A graph holds as long as no certificate among its objects has become
// valid or expired since it was made.
func TestGraphHoldsNow(t *testing.T) {
	c := newTestCert(t, year2000, year2020.Add(time.Hour), false, "example.com")
	g := Resolve(LoadData("tls.yaml", []byte(tlsSecret("infra", "tls", c)), Options{}), Options{Now: year2020})
	for _, tt := range []struct {
		now  time.Time
		want bool
	}{{year2020, true}, {year2020.Add(30 * time.Minute), true}, {year2020.Add(2 * time.Hour), false}, {year2000.Add(-time.Hour), false}} {
		g.opts.Now = tt.now
		if got := g.HoldsNow(); got != tt.want {
			t.Errorf("at %s: HoldsNow = %v, want %v", tt.now, got, tt.want)
		}
	}
}
