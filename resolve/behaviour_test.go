package resolve

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Implementation behaviour: where the spec leaves a choice, or an
// implementation has a limit its conformance report does not show, a
// Gateway of that implementation is judged as its controller would, and
// under every feature as before.

// istioClasses are Istio's GatewayClasses as it installs them
// (pilot/pkg/config/kube/gatewaycommon/classinfo.go).
const istioClasses = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-waypoint}
spec: {controllerName: istio.io/mesh-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-east-west}
spec: {controllerName: istio.io/eastwest-controller}`

func TestListenerProtocolsByImplementation(t *testing.T) {
	type verdict struct {
		reason Reason // the listener's Accepted reason
		kinds  int    // len(SupportedKinds)
	}
	cases := []struct {
		name, class, listener string
		// every is the verdict under every feature (class acme); istio
		// under --implementation istio, with Istio's classes.
		every, istio verdict
	}{{
		// Istio's listenerProtocolToIstio leaves UDP unsupported.
		name: "UDP", class: "istio",
		listener: "{name: l, protocol: UDP, port: 53}",
		every:    verdict{ReasonAccepted, 1}, istio: verdict{ReasonUnsupportedProtocol, 0},
	}, {
		name: "TCP", class: "istio",
		listener: "{name: l, protocol: TCP, port: 5432}",
		every:    verdict{ReasonAccepted, 1}, istio: verdict{ReasonAccepted, 1},
	}, {
		// HBONE is for waypoint proxies only.
		name: "HBONE on the ingress class", class: "istio",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonUnsupportedProtocol, 0},
	}, {
		name: "HBONE on a waypoint", class: "istio-waypoint",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}, {
		name: "HBONE on an east-west gateway", class: "istio-east-west",
		listener: "{name: l, protocol: HBONE, port: 15008, tls: {mode: Terminate, options: {gateway.istio.io/tls-terminate-mode: ISTIO_MUTUAL}}}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}, {
		// A class not among the inputs: which Istio controller runs the
		// Gateway is unknown, so HBONE is not held against it.
		name: "HBONE, class unknown", class: "mine",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{ReasonUnsupportedProtocol, 0}, istio: verdict{ReasonAccepted, 0},
	}}
	for _, c := range cases {
		gateway := func(class string) string {
			return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: probe, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [` + c.listener + `]}`
		}
		for _, run := range []struct {
			opts Options
			docs []string
			want verdict
		}{
			{Options{}, []string{world, gateway("acme")}, c.every},
			{Options{Implementation: mustProfile(t, "istio")}, []string{istioClasses, gateway(c.class)}, c.istio},
		} {
			g := resolveYAML(t, run.opts, run.docs...)
			l := g.Gateway("infra", "probe").Listeners[0]
			if got := (verdict{l.Accepted.Reason, len(l.SupportedKinds)}); got != run.want {
				t.Errorf("%s under %s: Accepted %s (%s), %d kinds; want %s, %d kinds", c.name, g.profile,
					l.Accepted.Reason, l.Accepted.Message, len(l.SupportedKinds), run.want.reason, run.want.kinds)
			}
		}
	}
	// A Gateway whose only listener Istio refuses is not accepted; its
	// class's controller selects Istio without --implementation.
	g := resolveYAML(t, Options{}, istioClasses, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: l, protocol: UDP, port: 53}]}`)
	if gw := g.Gateway("infra", "gw"); gw.Accepted.Reason != ReasonListenersNotValid || gw.Accepted.True() {
		t.Errorf("UDP-only Gateway of class istio: %+v, want Accepted=False/ListenersNotValid", gw.Accepted)
	}
}

// egClass is Envoy Gateway's GatewayClass.
const egClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}`

func TestMissingServicePortByImplementation(t *testing.T) {
	const gateways = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: istio, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	route := func(parents string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: ` + parents + `
  rules: [{backendRefs: [{name: web, port: 7777}]}]`
	}
	for _, c := range []struct {
		name, parents string
		// reason is the backend's; resolved the route's ResolvedRefs
		// reason.
		reason, resolved Reason
		unreported       bool
	}{
		{"every feature", "[{name: gw, namespace: infra}]", ReasonBackendNotFound, ReasonBackendNotFound, false},
		{"envoy-gateway", "[{name: eg, namespace: infra}]", ReasonPortNotFound, ReasonPortNotFound, false},
		{"istio", "[{name: istio, namespace: infra}]", ReasonBackendNotFound, ReasonResolvedRefs, true},
		// Implementations that disagree: the API's reason.
		{"envoy-gateway and istio", "[{name: eg, namespace: infra}, {name: istio, namespace: infra}]", ReasonBackendNotFound, ReasonBackendNotFound, false},
	} {
		g := resolveYAML(t, owned, world, egClass, istioClasses, gateways, route(c.parents))
		r := mustRoute(t, g, KindHTTPRoute, "app", "r")
		b := r.Rules[0].Backends[0]
		if b.Problem != PortNotFound || b.Valid() || b.Reason != c.reason || b.Unreported != c.unreported {
			t.Errorf("%s: backend %s/%s unreported=%v valid=%v; want %s/%s unreported=%v, never valid", c.name,
				b.Problem, b.Reason, b.Unreported, b.Valid(), PortNotFound, c.reason, c.unreported)
		}
		if r.ResolvedRefs.Reason != c.resolved {
			t.Errorf("%s: route ResolvedRefs %s (%s), want %s", c.name, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, c.resolved)
		}
	}
	// A Service that does not exist is BackendNotFound under each.
	for _, parent := range []string{"gw", "eg", "istio"} {
		g := resolveYAML(t, owned, world, egClass, istioClasses, gateways, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: `+parent+`, namespace: infra}]
  rules: [{backendRefs: [{name: nowhere, port: 80}]}]`)
		if r := mustRoute(t, g, KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != ReasonBackendNotFound {
			t.Errorf("missing Service under Gateway %s: route ResolvedRefs %s, want BackendNotFound", parent, r.ResolvedRefs.Reason)
		}
	}
}

// BackendTLSPolicy: where each implementation writes the policy's status,
// how it reads CA certificates, and whether a route reports a backend whose
// policy fails.
// caNotPEM is a ca.crt that looks like a PEM certificate and is not one.
const caNotPEM = "-----BEGIN CERTIFICATE-----\nMIIDUDCC\n-----END CERTIFICATE-----\n"

func TestBackendTLSPolicyByImplementation(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	}
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra, sectionName: http}, {name: edge, namespace: infra, port: 80}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	policy := func(target, cas string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [` + target + `]
  validation: {hostname: web.app, caCertificateRefs: [` + cas + `]}`
	}
	const (
		web       = `{group: "", kind: Service, name: web}`
		goodCA    = `{group: "", kind: ConfigMap, name: ca}`
		missingCA = `{group: "", kind: ConfigMap, name: nope}`
	)
	// The bundle under tls.crt, where the API names ca.crt.
	tlsCrtOnly := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca-tls, namespace: app}\ndata: {tls.crt: %q}", ca.crt)
	type verdict struct {
		accepted Reason // the policy's Accepted reason
		route    Reason // the route's ResolvedRefs reason
		// ancestors are the status.ancestors entries, each
		// "controller Kind ns/name[/section][:port] AcceptedReason".
		ancestors []string
	}
	gatewayAncestor := func(controller string, accepted Reason) []string {
		return []string{controller + " Gateway infra/edge " + string(accepted)}
	}
	istioAncestors := func(accepted Reason) []string {
		return []string{"istio.io/mesh-controller Service /web " + string(accepted), "istio.io/gateway-controller Gateway infra/edge " + string(accepted)}
	}
	cases := []struct {
		name, policy string
		every, istio verdict
	}{{
		name: "valid policy", policy: policy(web, goodCA),
		every: verdict{ReasonAccepted, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonAccepted)},
		istio: verdict{ReasonAccepted, ReasonResolvedRefs, istioAncestors(ReasonAccepted)},
	}, {
		name: "missing CA ConfigMap", policy: policy(web, missingCA),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		// The API accepts the policy while one CA is usable; Envoy Gateway
		// fails it on any unusable one.
		name: "one usable CA of two", policy: policy(web, goodCA+", "+missingCA),
		every: verdict{ReasonAccepted, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonAccepted)},
		istio: verdict{ReasonAccepted, ReasonResolvedRefs, istioAncestors(ReasonAccepted)},
	}, {
		name: "CA under tls.crt", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-tls}`),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		// Envoy Gateway passes the bundle to Envoy unparsed.
		name: "CA that is not PEM", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-garbled}`),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		name: "ClusterTrustBundle CA", policy: policy(web, `{group: certificates.k8s.io, kind: ClusterTrustBundle, name: bundle}`),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		// Envoy Gateway reads the kind alone.
		name: "ClusterTrustBundle CA of group core", policy: policy(web, `{group: "", kind: ClusterTrustBundle, name: bundle}`),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		// An SDS reference: Envoy Gateway fetches the CA from the socket.
		name: "SDS reference CA", policy: policy(web, `{group: "", kind: Secret, name: ca-sds}`),
		every: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonNoValidCACertificate)},
		istio: verdict{ReasonNoValidCACertificate, ReasonResolvedRefs, istioAncestors(ReasonNoValidCACertificate)},
	}, {
		// The API accepts the policy while one CA is usable and reports the
		// other kind; Envoy Gateway ignores a kind it does not take
		// beside one it takes (SkipsOtherKinds).
		name: "a CA of another kind beside a usable one", policy: policy(web, goodCA+`, {group: example.com, kind: Vault, name: ca}`),
		every: verdict{ReasonAccepted, ReasonResolvedRefs, gatewayAncestor("example.com/acme", ReasonAccepted)},
		istio: verdict{ReasonAccepted, ReasonResolvedRefs, istioAncestors(ReasonAccepted)},
	}, {
		// No route reaches the target: only Istio's per-target entry.
		name: "missing Service", policy: policy(`{group: "", kind: Service, name: web-v9}`, goodCA),
		every: verdict{ReasonTargetNotFound, ReasonResolvedRefs, nil},
		istio: verdict{ReasonTargetNotFound, ReasonResolvedRefs, []string{"istio.io/mesh-controller Service /web-v9 TargetNotFound"}},
	}, {
		name: "Envoy Gateway Backend target", policy: policy(`{group: gateway.envoyproxy.io, kind: Backend, name: web}`, goodCA),
		every: verdict{ReasonTargetNotFound, ReasonResolvedRefs, nil},
		istio: verdict{ReasonTargetNotFound, ReasonResolvedRefs, []string{"istio.io/mesh-controller Backend /web TargetNotFound"}},
	}, {
		name: "ServiceImport target", policy: policy(`{group: multicluster.x-k8s.io, kind: ServiceImport, name: web}`, goodCA),
		every: verdict{ReasonTargetNotFound, ReasonResolvedRefs, nil},
		istio: verdict{ReasonTargetNotFound, ReasonResolvedRefs, []string{"istio.io/mesh-controller ServiceImport /web TargetNotFound"}},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"istio", "istio", c.istio}} {
			opts := judgedBy(t, run.impl)
			opts.OwnedNamespaces = owned.OwnedNamespaces
			g := resolveYAML(t, opts, world, egClass, istioClasses, gateway(run.class), route,
				caConfigMap("app", "ca", ca.crt), caConfigMap("app", "ca-garbled", caNotPEM), tlsCrtOnly, c.policy, `
apiVersion: v1
kind: Secret
metadata: {name: ca-sds, namespace: app}
type: gateway.envoyproxy.io/sds
stringData: {secretName: ROOTCA, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"}`)
			p := g.TLSPolicies[0]
			var ancestors []string
			for i := range p.Ancestors {
				a := &p.Ancestors[i]
				accepted, _ := a.Conditions(p)
				ancestors = append(ancestors, fmt.Sprintf("%s %s %s %s", a.ControllerName, *a.Ref.Kind, parentRefName(a.Ref), accepted.Reason))
			}
			r := mustRoute(t, g, KindHTTPRoute, "app", "r")
			got := verdict{p.Accepted.Reason, r.ResolvedRefs.Reason, ancestors}
			if !reflect.DeepEqual(got, run.want) {
				t.Errorf("%s under %s:\n got %+v (%s)\nwant %+v", c.name, g.profile, got, p.Accepted.Message, run.want)
			}
		}
	}
}

// A BackendTLSPolicy reached through more Gateways than its 16 ancestor
// entries allow: cut at 16 everywhere; Envoy Gateway says so on the last.
func TestTruncatedPolicyAncestorsByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		aggregated  bool
	}{{"", "acme", false}, {"envoy-gateway", "eg", true}} {
		docs := []string{world, egClass, caConfigMap("app", "ca", newTestCert(t, year2020, year2200, true).crt), `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {hostname: web.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`}
		var parents []string
		for i := range 17 {
			docs = append(docs, fmt.Sprintf(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge-%02d, namespace: infra}
spec: {gatewayClassName: %s, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, i, c.class))
			parents = append(parents, fmt.Sprintf("{name: edge-%02d, namespace: infra}", i))
		}
		docs = append(docs, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [`+strings.Join(parents, ", ")+`]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`)
		p := resolveYAML(t, judgedBy(t, c.impl), docs...).TLSPolicies[0]
		if len(p.Ancestors) != 16 || p.Ancestors[15].Aggregated != c.aggregated || p.Ancestors[14].Aggregated {
			t.Errorf("class %s: %d ancestors, the last Aggregated %v; want 16, %v", c.class, len(p.Ancestors), p.Ancestors[len(p.Ancestors)-1].Aggregated, c.aggregated)
		}
	}
}

// parentRefName is "ns/name[/section][:port]" of a parentRef.
func parentRefName(r gwv1.ParentReference) string {
	s := "/" + string(r.Name)
	if r.Namespace != nil {
		s = string(*r.Namespace) + s
	}
	if r.SectionName != nil {
		s += "/" + string(*r.SectionName)
	}
	if r.Port != nil {
		s += fmt.Sprintf(":%d", *r.Port)
	}
	return s
}

// A Gateway's own Programmed and ResolvedRefs: the API's summary of its
// listeners, or only what the implementation writes there.
func TestGatewayConditionsByImplementation(t *testing.T) {
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
		notServed  = ReasonInvalid
		programmed = ReasonProgrammed
	)
	type verdict struct{ programmed, resolvedRefs Reason }
	cases := []struct {
		name, listeners  string
		every, eg, istio verdict
	}{{
		name: "a listener with a missing certificate", listeners: http + ", " + noCert,
		every: verdict{programmed, ReasonListenersNotResolved},
		eg:    verdict{programmed, ReasonResolvedRefs},
		istio: verdict{programmed, ReasonResolvedRefs},
	}, {
		name: "no valid listener", listeners: badProto,
		every: verdict{notServed, ReasonResolvedRefs},
		eg:    verdict{notServed, ReasonResolvedRefs},
		istio: verdict{programmed, ReasonResolvedRefs},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}, {"istio", "istio", c.istio}} {
			opts := judgedBy(t, run.impl)
			opts.StrictRefs = true
			gw := resolveYAML(t, opts, world, egClass, istioClasses, gateway(run.class, c.listeners)).Gateway("infra", "edge")
			if got := (verdict{gw.Programmed.Reason, gw.ResolvedRefs.Reason}); got != run.want {
				t.Errorf("%s under %s: Programmed %s, ResolvedRefs %s; want %+v", c.name, gw.Profile, got.programmed, got.resolvedRefs, run.want)
			}
		}
	}
}

// A Gateway refused for a reason of its own (an address type its
// implementation does not support): Envoy Gateway and Istio write no
// listener status; Istio's Programmed says no address is usable.
func TestRefusedGatewayStatusByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		listeners   int
		programmed  Reason
	}{
		{"", "acme", 1, ReasonInvalid},
		{"envoy-gateway", "eg", 0, ReasonInvalid},
		{"istio", "istio", 0, ReasonUnsupportedAddress},
	} {
		opts := judgedBy(t, c.impl)
		g := resolveYAML(t, opts, world, egClass, istioClasses, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  addresses: [{type: example.com/custom, value: x}]
  listeners: [{name: http, protocol: HTTP, port: 80}]`)
		gw := g.Gateway("infra", "edge")
		st := gw.gatewayStatus()
		if gw.Accepted.Reason != ReasonUnsupportedAddress || len(st.Listeners) != c.listeners || gw.Programmed.Reason != c.programmed {
			t.Errorf("class %s: Accepted %s, %d listener statuses, Programmed %s; want UnsupportedAddress, %d, %s",
				c.class, gw.Accepted.Reason, len(st.Listeners), gw.Programmed.Reason, c.listeners, c.programmed)
		}
	}
}

// The reason of a listener that is not programmed: the conflict's or
// Invalid; for a client-certificate validation without a usable CA,
// Invalid or the CA reference's own.
func TestListenerProgrammedReasonByImplementation(t *testing.T) {
	const gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: %s
  tls: {frontend: {default: {validation: {caCertificateRefs: [{group: "", kind: ConfigMap, name: nowhere}]}}}}
  listeners:
  - {name: a, protocol: HTTP, port: 8080}
  - {name: b, protocol: HTTP, port: 8080}
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: shop}]}}`
	cert := newTestCert(t, year2020, year2200, false, "shop.example.com")
	for _, c := range []struct {
		class           string
		conflict, noCAs Reason
	}{
		{"acme", ReasonHostnameConflict, ReasonInvalid},
		{"eg", ReasonInvalid, ReasonInvalidCACertificateRef},
	} {
		g := resolveYAML(t, Options{StrictRefs: true}, world, egClass, tlsSecret("infra", "shop", cert), fmt.Sprintf(gateway, c.class))
		ls := g.Gateway("infra", "edge").Listeners
		if ls[0].Programmed.Reason != c.conflict || ls[2].Programmed.Reason != c.noCAs {
			t.Errorf("class %s: Programmed %s (conflict), %s (no usable CA); want %s, %s", c.class,
				ls[0].Programmed.Reason, ls[2].Programmed.Reason, c.conflict, c.noCAs)
		}
	}
}

// NamedAddress, an address type of the API with implementation-specific
// support: Envoy Gateway refuses it.
func TestAddressTypesByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		accepted    Reason
	}{{"", "acme", ReasonAccepted}, {"envoy-gateway", "eg", ReasonUnsupportedAddress}} {
		gw := resolveYAML(t, judgedBy(t, c.impl), world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  addresses: [{type: NamedAddress, value: edge-ip}, {type: IPAddress, value: 192.0.2.1}]
  listeners: [{name: http, protocol: HTTP, port: 80}]`).Gateway("infra", "edge")
		if gw.Accepted.Reason != c.accepted {
			t.Errorf("class %s: Accepted %s (%s); want %s", c.class, gw.Accepted.Reason, gw.Accepted.Message, c.accepted)
		}
	}
}

// Envoy Gateway's SDS reference Secrets: certificates it accepts, when they
// name a secret and a unix socket (ir.NewSDSConfig); other profiles want
// tls.crt and tls.key.
func TestSDSReferenceSecretsByImplementation(t *testing.T) {
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
		impl, class string
		want        [3]Reason
	}{
		{"", "acme", [3]Reason{ReasonInvalidCertificateRef, ReasonInvalidCertificateRef, ReasonInvalidCertificateRef}},
		{"envoy-gateway", "eg", [3]Reason{ReasonResolvedRefs, ReasonInvalidCertificateRef, ReasonInvalidCertificateRef}},
	} {
		ls := resolveYAML(t, judgedBy(t, c.impl), world, egClass,
			sds("spiffe", `secretName: default, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"`),
			sds("no-url", `secretName: default`),
			sds("path-only", `secretName: default, url: /var/run/secrets/workload-spiffe-uds/socket`),
			gateway(c.class)).Gateway("infra", "edge").Listeners
		if got := [3]Reason{ls[0].ResolvedRefs.Reason, ls[1].ResolvedRefs.Reason, ls[2].ResolvedRefs.Reason}; got != c.want {
			t.Errorf("class %s: ResolvedRefs %v; want %v", c.class, got, c.want)
		}
	}
}

// An HTTPS listener without tls: unprogrammed everywhere; the API's reading
// blames its references, Envoy Gateway its configuration.
func TestHTTPSListenerWithoutTLSByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class  string
		resolvedRefs Reason
	}{{"", "acme", ReasonInvalidCertificateRef}, {"envoy-gateway", "eg", ReasonResolvedRefs}} {
		l := resolveYAML(t, judgedBy(t, c.impl), world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners: [{name: https, protocol: HTTPS, port: 443}]`).Gateway("infra", "edge").Listeners[0]
		if l.ResolvedRefs.Reason != c.resolvedRefs || l.Programmed.Reason != ReasonInvalid {
			t.Errorf("class %s: ResolvedRefs %s, Programmed %s; want %s, Invalid", c.class, l.ResolvedRefs.Reason, l.Programmed.Reason, c.resolvedRefs)
		}
	}
}

// A Passthrough listener with certificateRefs: the API ignores them, Envoy
// Gateway does not program the listener.
func TestPassthroughCertificatesByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		programmed  Reason
	}{{"", "acme", ReasonProgrammed}, {"envoy-gateway", "eg", ReasonInvalid}} {
		l := resolveYAML(t, judgedBy(t, c.impl), world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners: [{name: tls, protocol: TLS, port: 443, tls: {mode: Passthrough, certificateRefs: [{name: shop}]}}]`).Gateway("infra", "edge").Listeners[0]
		if l.Programmed.Reason != c.programmed {
			t.Errorf("class %s: Programmed %s (%s); want %s", c.class, l.Programmed.Reason, l.Programmed.Message, c.programmed)
		}
	}
}

// Client-certificate validation (spec.tls.frontend): the API refuses a
// listener when no CA certificate is usable.
func TestClientValidation(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	cert := newTestCert(t, year2020, year2200, false, "shop.example.com")
	gateway := func(cas, certNamespace string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: acme
  tls: {frontend: {default: {validation: {caCertificateRefs: [` + cas + `]}}}}
  listeners: [{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: shop, namespace: ` + certNamespace + `}]}}]`
	}
	const (
		goodCA    = `{group: "", kind: ConfigMap, name: ca}`
		missingCA = `{group: "", kind: ConfigMap, name: nope}`
		garbledCA = `{group: "", kind: ConfigMap, name: ca-garbled}`
		serviceCA = `{group: "", kind: Service, name: web}`
	)
	type verdict struct {
		accepted, resolvedRefs, programmed Reason // the listener's
		gateway                            Reason // the Gateway's ResolvedRefs
	}
	cases := []struct {
		name, cas, certNamespace string
		want                     verdict
	}{{
		name: "one usable CA of two", cas: goodCA + ", " + missingCA, certNamespace: "infra",
		want: verdict{ReasonAccepted, ReasonInvalidCACertificateRef, ReasonInvalid, ReasonListenersNotResolved},
	}, {
		name: "CA that is not PEM", cas: garbledCA, certNamespace: "infra",
		want: verdict{ReasonNoValidCACertificate, ReasonInvalidCACertificateRef, ReasonInvalid, ReasonListenersNotResolved},
	}, {
		name: "CA of a wrong kind, certificate not permitted", cas: serviceCA, certNamespace: "app",
		want: verdict{ReasonNoValidCACertificate, ReasonRefNotPermitted, ReasonInvalid, ReasonListenersNotResolved},
	}}
	for _, c := range cases {
		g := resolveYAML(t, owned, world, tlsSecret("infra", "shop", cert), tlsSecret("app", "shop", cert),
			caConfigMap("infra", "ca", ca.crt), caConfigMap("infra", "ca-garbled", caNotPEM),
			gateway(c.cas, c.certNamespace))
		gw := g.Gateway("infra", "edge")
		l := gw.Listeners[0]
		if got := (verdict{l.Accepted.Reason, l.ResolvedRefs.Reason, l.Programmed.Reason, gw.ResolvedRefs.Reason}); got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// A ListenerSet with one valid listener and one invalid: accepted either
// way; the API's reason ListenersNotValid, Istio's Accepted.
func TestPartlyValidListenerSetByImplementation(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		reason      Reason
	}{{"", "acme", ReasonListenersNotValid}, {"istio", "istio", ReasonAccepted}} {
		g := resolveYAML(t, judgedBy(t, c.impl), world, istioClasses, `
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

// A ListenerSet whose only listener is accepted but not programmed (its
// certificate is missing): the API's reading refuses the ListenerSet;
// Envoy Gateway accepts it and says so in Programmed.
func TestListenerSetOfUnprogrammedListenersByImplementation(t *testing.T) {
	for _, c := range []struct {
		class, certNamespace     string
		accepted, programmed, lp Reason
		acceptedTrue             bool
	}{
		{"acme", "infra", ReasonListenersNotValid, ReasonListenersNotValid, ReasonInvalid, false},
		{"eg", "infra", ReasonAccepted, ReasonListenersNotValid, ReasonListenersNotValid, true},
		// A certificate not permitted is not one that is missing: Envoy
		// Gateway writes the listener no Accepted condition.
		{"eg", "certs", ReasonListenersNotValid, ReasonListenersNotValid, ReasonListenersNotValid, false},
	} {
		g := resolveYAML(t, Options{StrictRefs: true}, world, egClass, `
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
  listeners: [{name: https, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: nowhere, namespace: `+c.certNamespace+`}]}}]`)
		ls := g.ListenerSet("infra", "team")
		l := ls.Listeners[0]
		if ls.Accepted.True() != c.acceptedTrue || ls.Accepted.Reason != c.accepted || ls.Programmed.Reason != c.programmed || l.Programmed.Reason != c.lp {
			t.Errorf("class %s: ListenerSet Accepted %s/%s, Programmed %s, listener Programmed %s; want %v/%s, %s, %s", c.class,
				ls.Accepted.Status, ls.Accepted.Reason, ls.Programmed.Reason, l.Programmed.Reason, c.acceptedTrue, c.accepted, c.programmed, c.lp)
		}
	}
}

// XBackend backendRefs: Istio (with PILOT_ENABLE_ALPHA_GATEWAY_API) takes
// them and checks the port against the XBackend's own; the API's reading
// refuses the kind.
func TestXBackendByImplementation(t *testing.T) {
	const docs = `
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XBackend
metadata: {name: payments, namespace: app}
spec: {type: ExternalHostname, externalHostname: {hostname: api.payments.example.com}, port: {port: 443}, tls: {mode: ServerOnly}}
---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XBackend
metadata: {name: ledger, namespace: other}
spec: {type: ExternalHostname, externalHostname: {hostname: ledger.example.com}, port: {port: 443}}`
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	}
	route := func(backend string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{group: gateway.networking.x-k8s.io, kind: XBackend, ` + backend + `}]}]`
	}
	for _, c := range []struct {
		name, backend string
		every, istio  Reason // the route's ResolvedRefs reason
	}{
		{"port from the XBackend", "name: payments", ReasonInvalidKind, ReasonResolvedRefs},
		{"the XBackend's port", "name: payments, port: 443", ReasonInvalidKind, ReasonResolvedRefs},
		{"another port", "name: payments, port: 8443", ReasonInvalidKind, ReasonBackendNotFound},
		// app is declared and holds XBackends: one it lacks does not exist.
		{"missing", "name: nowhere", ReasonInvalidKind, ReasonBackendNotFound},
		{"cross-namespace without a grant", "name: ledger, namespace: other", ReasonInvalidKind, ReasonRefNotPermitted},
	} {
		for _, run := range []struct {
			class string
			want  Reason
		}{{"acme", c.every}, {"istio", c.istio}} {
			g := resolveYAML(t, owned, world, istioClasses, docs, gateway(run.class), route(c.backend))
			if r := mustRoute(t, g, KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != run.want {
				t.Errorf("%s under %s: route ResolvedRefs %s (%s), want %s", c.name, g.profile, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
			}
		}
	}
	// Where the inputs hold no XBackend in the namespace, one that is not
	// there is outside them, not missing.
	g := resolveYAML(t, Options{}, world, istioClasses, docs, gateway("istio"), `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: infra}
spec:
  parentRefs: [{name: edge}]
  rules: [{backendRefs: [{group: gateway.networking.x-k8s.io, kind: XBackend, name: elsewhere}]}]`)
	if r := mustRoute(t, g, KindHTTPRoute, "infra", "r"); !r.ResolvedRefs.True() {
		t.Errorf("XBackend outside the inputs: route ResolvedRefs %s (%s), want True", r.ResolvedRefs.Reason, r.ResolvedRefs.Message)
	}
}
