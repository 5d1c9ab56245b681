package resolve

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/profile"
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

// A RegularExpression match that does not compile as RE2: Envoy Gateway
// drops its rule; gwlint's own reading leaves the dialect open.
// Rules an implementation drops as it translates them: a regex it cannot
// compile, filters it refuses.
func TestDroppedRulesByImplementation(t *testing.T) {
	route := func(rules string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:` + rules
	}
	const (
		bad  = "\n  - {matches: [{path: {type: RegularExpression, value: '*.foo'}}], backendRefs: [{name: web, port: 8080}]}"
		good = "\n  - {matches: [{path: {type: PathPrefix, value: /}}], backendRefs: [{name: web, port: 8080}]}"
	)
	filtered := func(filters string) string {
		return "\n  - matches: [{path: {type: PathPrefix, value: /api}}]\n    backendRefs: [{name: web, port: 8080}]\n    filters: " + filters
	}
	type verdict struct{ accepted, partially Reason }
	cases := []struct {
		name, rules string
		every, eg   verdict
	}{
		{"every rule invalid", bad, verdict{ReasonAccepted, ""}, verdict{ReasonUnsupportedValue, ""}},
		{"one rule of two invalid", bad + good, verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonUnsupportedValue}},
		{"all valid", good, verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ""}},
		// Filters the CRDs admit and Envoy Gateway refuses
		// (profile.FilterChecks).
		{"remove a name with '/'", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [example/2]}}]`),
			verdict{ReasonAccepted, ""}, verdict{ReasonUnsupportedValue, ""}},
		{"set Host", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: Host, value: example.com}]}}]`) + good,
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonUnsupportedValue}},
		{"remove a pseudo-header from responses", filtered(`[{type: ResponseHeaderModifier, responseHeaderModifier: {remove: [":status"]}}]`) + good,
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonUnsupportedValue}},
		{"add a value with a leading space", filtered(`[{type: ResponseHeaderModifier, responseHeaderModifier: {add: [{name: x-env, value: " prod"}]}}]`),
			verdict{ReasonAccepted, ""}, verdict{ReasonUnsupportedValue, ""}},
		{"mirror and redirect", filtered(`[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}, {type: RequestRedirect, requestRedirect: {scheme: https}}]`) + good,
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonIncompatibleFilters}},
		// Envoy Gateway drops a mirror it cannot resolve before it looks
		// for the conflict (ResolvedRefs=False says so).
		{"mirror to a missing Service and redirect", filtered(`[{type: RequestMirror, requestMirror: {backendRef: {name: gone, port: 8080}}}, {type: RequestRedirect, requestRedirect: {scheme: https}}]`),
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ""}},
		{"redirect to an IP address", filtered(`[{type: RequestRedirect, requestRedirect: {hostname: 10.0.0.1}}]`) + good,
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonUnsupportedValue}},
		{"external auth", filtered(`[{type: ExternalAuth, externalAuth: {protocol: HTTP, backendRef: {name: web-v2, port: 8080}}}]`) + good,
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ReasonUnsupportedValue}},
		// An extension filter may answer itself, and Envoy Gateway then
		// translates no filter after it.
		{"set Host after an ExtensionRef", filtered(`[{type: ExtensionRef, extensionRef: {group: gateway.envoyproxy.io, kind: HTTPRouteFilter, name: teapot}}, {type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: Host, value: example.com}]}}]`),
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ""}},
		{"valid headers", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: x-env, value: "prod eu"}], remove: [x-debug]}}]`),
			verdict{ReasonAccepted, ""}, verdict{ReasonAccepted, ""}},
	}
	for _, c := range cases {
		for _, run := range []struct {
			class string
			want  verdict
		}{{"acme", c.every}, {"eg", c.eg}} {
			g := resolveYAML(t, owned, world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+run.class+`, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`,
				route(c.rules))
			p := mustRoute(t, g, KindHTTPRoute, "app", "r").Parents[0]
			if got := (verdict{p.Accepted.Reason, p.PartiallyInvalid.Reason}); got != run.want {
				t.Errorf("%s under class %s: Accepted %s, PartiallyInvalid %q (%s%s); want %+v", c.name, run.class,
					got.accepted, got.partially, p.Accepted.Message, p.PartiallyInvalid.Message, run.want)
			}
			if l := g.Gateway("infra", "edge").Listeners[0]; l.AttachedRoutes != 1 {
				t.Errorf("%s under class %s: attachedRoutes %d; the route still counts, as Envoy Gateway counts it", c.name, run.class, l.AttachedRoutes)
			}
		}
	}
}

// BackendRef-level filters: "Support: Implementation-specific". Envoy
// Gateway takes header modifiers, URLRewrite of the hostname and its own
// extensions there, and checks header modifiers as at rule level.
func TestBackendRefFiltersByImplementation(t *testing.T) {
	cases := []struct {
		name, kind, filters string
		eg                  Reason
	}{
		{"redirect", KindHTTPRoute, `[{type: RequestRedirect, requestRedirect: {scheme: https}}]`, ReasonUnsupportedRefValue},
		{"path rewrite", KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /v2}}}]`, ReasonUnsupportedRefValue},
		{"rewrite to an IP address", KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {hostname: 10.0.0.1}}]`, ReasonInvalidBackendFilters},
		{"hostname rewrite", KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {hostname: web.internal}}]`, ReasonResolvedRefs},
		{"remove Host", KindHTTPRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [host]}}]`, ReasonInvalidBackendFilters},
		{"remove Host, weight 0", KindHTTPRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [host]}}], weight: 0`, ReasonResolvedRefs},
		{"gRPC mirror", KindGRPCRoute, `[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}]`, ReasonUnsupportedRefValue},
		{"gRPC header", KindGRPCRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: x-env, value: prod}]}}]`, ReasonResolvedRefs},
	}
	for _, c := range cases {
		for _, run := range []struct {
			class string
			want  Reason
		}{{"acme", ReasonResolvedRefs}, {"eg", c.eg}} {
			g := resolveYAML(t, Options{}, world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+run.class+`, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, `
apiVersion: gateway.networking.k8s.io/v1
kind: `+c.kind+`
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080, filters: `+c.filters+`}]}]`)
			r := mustRoute(t, g, c.kind, "app", "r")
			if r.ResolvedRefs.Reason != run.want {
				t.Errorf("%s under class %s: ResolvedRefs %s (%s); want %s", c.name, run.class, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
			}
			if b := r.Rules[0].Backends[0]; b.Valid() != (run.want == ReasonResolvedRefs) {
				t.Errorf("%s under class %s: backend valid %v (%s)", c.name, run.class, b.Valid(), b.Message)
			}
		}
	}
}

// A listener with one certificateRef that resolves and one that does not.
func TestPartlyValidCertificatesByImplementation(t *testing.T) {
	cert := newTestCert(t, year2020, year2200, false, "shop.example.com")
	for _, c := range []struct {
		class                  string
		resolvedRefs, programm Reason
	}{
		{"acme", ReasonInvalidCertificateRef, ReasonInvalid},
		{"eg", ReasonPartiallyInvalidCertificateRef, ReasonProgrammed},
	} {
		g := resolveYAML(t, Options{StrictRefs: true}, world, egClass, tlsSecret("infra", "shop", cert), `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners:
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: shop}, {name: gone}]}}`)
		l := g.Gateway("infra", "edge").Listeners[0]
		if l.ResolvedRefs.Reason != c.resolvedRefs || l.Programmed.Reason != c.programm {
			t.Errorf("class %s: ResolvedRefs %s, Programmed %s; want %s, %s", c.class, l.ResolvedRefs.Reason, l.Programmed.Reason, c.resolvedRefs, c.programm)
		}
	}
}

// A parentRef to Istio's ServiceEntry binds the route under Istio; elsewhere
// the kind is one no route attaches to.
func TestParentKindsByImplementation(t *testing.T) {
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: egress, namespace: app}
spec:
  parentRefs: [{group: networking.istio.io, kind: ServiceEntry, name: payments}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	for _, c := range []struct {
		impl        string
		accepted    Reason
		unsupported bool
	}{{"", ReasonUnsupportedValue, true}, {"istio", ReasonAccepted, false}} {
		opts := judgedBy(t, c.impl)
		p := mustRoute(t, resolveYAML(t, opts, world, route), KindHTTPRoute, "app", "egress").Parents[0]
		if p.Accepted.Reason != c.accepted || p.UnsupportedKind != c.unsupported || (c.accepted == ReasonAccepted && p.Presence != External) {
			t.Errorf("under %q: Accepted %s, unsupported kind %v, presence %v; want %s, %v", c.impl, p.Accepted.Reason, p.UnsupportedKind, p.Presence, c.accepted, c.unsupported)
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

// Envoy Gateway's HTTPRouteFilter, named by an ExtensionRef filter: the API
// leaves the ExtensionRef to the implementation; Envoy Gateway reads the
// object and judges the rule by it (profile.Implementation.OwnRouteFilters).
func TestRouteFiltersByImplementation(t *testing.T) {
	filter := func(name, spec string) string {
		return `
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: HTTPRouteFilter
metadata: {name: ` + name + `, namespace: app}
spec: ` + spec
	}
	// The app namespace holds its HTTPRouteFilters, ConfigMaps and
	// Secrets, so that one it lacks is missing.
	known := filter("spare", "{directResponse: {statusCode: 404}}") + `
---
apiVersion: v1
kind: ConfigMap
metadata: {name: spare, namespace: app}
data: {response.body: nothing}
---
apiVersion: v1
kind: Secret
metadata: {name: token, namespace: app}
data: {credential: c2VjcmV0}`
	ext := func(name string) string {
		return `{type: ExtensionRef, extensionRef: {group: gateway.envoyproxy.io, kind: HTTPRouteFilter, name: ` + name + `}}`
	}
	type verdict struct{ partially, resolvedRefs Reason }
	fine := verdict{"", ReasonResolvedRefs}
	cases := []struct {
		name, kind, objects, filters string
		backend                      string // the rule's backendRef
		every, eg                    verdict
	}{
		{"inline direct response", KindHTTPRoute, known + filter("f", "{directResponse: {statusCode: 503, body: {type: Inline, inline: down}}}"),
			"[" + ext("f") + "]", "", fine, fine},
		{"missing filter", KindHTTPRoute, known, "[" + ext("gone") + "]", "", fine, verdict{"", ReasonUnsupportedValue}},
		// No HTTPRouteFilter in the namespace: it may be defined elsewhere.
		{"unlisted filter", KindHTTPRoute, "", "[" + ext("gone") + "]", "", fine, fine},
		{"regex rewrite that does not compile", KindHTTPRoute,
			known + filter("f", "{urlRewrite: {path: {type: ReplaceRegexMatch, replaceRegexMatch: {pattern: '(', substitution: /}}}}"),
			"[" + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"Header hostname rewrite without a header", KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Header}}}"),
			"[" + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"two hostname rewrites", KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Backend}}}"),
			"[{type: URLRewrite, urlRewrite: {hostname: web.internal}}, " + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"a path and a hostname rewrite", KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Header, header: x-host}}}"),
			"[{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /v2}}}, " + ext("f") + "]", "", fine, fine},
		{"body from a missing ConfigMap", KindHTTPRoute,
			known + filter("f", "{directResponse: {body: {type: ValueRef, valueRef: {group: '', kind: ConfigMap, name: gone}}}}"),
			"[" + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"credential from a missing Secret", KindHTTPRoute,
			known + filter("f", "{credentialInjection: {credential: {valueRef: {name: gone}}}}"),
			"[" + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"credential", KindHTTPRoute, known + filter("f", "{credentialInjection: {credential: {valueRef: {name: token}}}}"),
			"[" + ext("f") + "]", "", fine, fine},
		{"mirror and direct response", KindHTTPRoute, known,
			"[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}, " + ext("spare") + "]", "", fine, verdict{ReasonIncompatibleFilters, ReasonResolvedRefs}},
		// On a backendRef, any problem makes the backendRef invalid.
		{"backendRef filter missing", KindHTTPRoute, known, "[]", "{name: web, port: 8080, filters: [" + ext("gone") + "]}",
			fine, verdict{"", ReasonInvalidBackendFilters}},
		{"backendRef credential", KindHTTPRoute, known + filter("f", "{credentialInjection: {credential: {valueRef: {name: token}}}}"),
			"[]", "{name: web, port: 8080, filters: [" + ext("f") + "]}", fine, fine},
		{"gRPC 2xx direct response", KindGRPCRoute, known + filter("f", "{directResponse: {statusCode: 200}}"),
			"[" + ext("f") + "]", "", fine, verdict{ReasonUnsupportedValue, ReasonResolvedRefs}},
		{"gRPC 4xx direct response", KindGRPCRoute, known, "[" + ext("spare") + "]", "", fine, fine},
	}
	for _, c := range cases {
		backend := c.backend
		if backend == "" {
			backend = "{name: web, port: 8080}"
		}
		for _, run := range []struct {
			class string
			want  verdict
		}{{"acme", c.every}, {"eg", c.eg}} {
			docs := []string{world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + run.class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, `
apiVersion: gateway.networking.k8s.io/v1
kind: ` + c.kind + `
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:
  - {backendRefs: [` + backend + `], filters: ` + c.filters + `}
  - {backendRefs: [{name: web, port: 8080}]}`}
			if c.objects != "" {
				docs = append(docs, c.objects)
			}
			opts := owned
			if c.name == "unlisted filter" {
				opts = Options{} // the case of a namespace the inputs do not hold whole
			}
			g := resolveYAML(t, opts, docs...)
			r := mustRoute(t, g, c.kind, "app", "r")
			p := r.Parents[0]
			if got := (verdict{p.PartiallyInvalid.Reason, r.ResolvedRefs.Reason}); got != run.want || !p.Accepted.True() {
				t.Errorf("%s under class %s: Accepted %s, PartiallyInvalid %q (%s), ResolvedRefs %s (%s); want %+v", c.name, run.class,
					p.Accepted.Reason, got.partially, p.PartiallyInvalid.Message, got.resolvedRefs, r.ResolvedRefs.Message, run.want)
			}
		}
	}
}

// An ExtensionRef to a kind other than Envoy Gateway's own: its
// configuration decides (profile.ExtensionFilters). Unknown to gwlint, the
// kind is taken; known, a kind it does not register drops the rule.
func TestExtensionFilterKindsByConfiguration(t *testing.T) {
	eg := mustProfile(t, "envoy-gateway")
	configured := func(kinds ...profile.GroupKind) *profile.Profile {
		p := *eg
		p.Implementation.ExtensionFilters = profile.ExtensionFilters{Known: true, Kinds: kinds}
		return &p
	}
	foo := profile.GroupKind{Group: "foo.example.io", Kind: "Foo"}
	for _, c := range []struct {
		name      string
		impl      *profile.Profile
		partially Reason
	}{
		{"configuration unknown", eg, ""},
		{"kind registered", configured(foo), ""},
		{"kind not registered", configured(), ReasonUnsupportedValue},
	} {
		g := resolveYAML(t, Options{Implementation: c.impl}, world, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:
  - {backendRefs: [{name: web, port: 8080}], filters: [{type: ExtensionRef, extensionRef: {group: foo.example.io, kind: Foo, name: f}}]}
  - {backendRefs: [{name: web, port: 8080}]}`)
		p := mustRoute(t, g, KindHTTPRoute, "app", "r").Parents[0]
		if p.PartiallyInvalid.Reason != c.partially || !p.Accepted.True() {
			t.Errorf("%s: Accepted %s, PartiallyInvalid %q (%s); want Accepted, PartiallyInvalid %q", c.name, p.Accepted.Reason, p.PartiallyInvalid.Reason, p.PartiallyInvalid.Message, c.partially)
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

// Mesh routes bound to a Service: a port the Service lacks, and route kinds
// that the API ranks on one port.
func TestMeshParentsByImplementation(t *testing.T) {
	const routes = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: wrong-port, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web, port: 7777}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: http, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: tcp, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web}]
  rules: [{backendRefs: [{name: web, port: 9090}]}]`
	for _, c := range []struct {
		impl           string
		wrongPort, tcp Reason // Accepted reasons
	}{
		{"", ReasonNoMatchingParent, ReasonConflicted},
		{"istio", ReasonAccepted, ReasonAccepted},
	} {
		g := resolveYAML(t, judgedBy(t, c.impl), world, routes)
		for _, want := range []struct {
			kind, name string
			reason     Reason
		}{{KindHTTPRoute, "wrong-port", c.wrongPort}, {KindTCPRoute, "tcp", c.tcp}, {KindHTTPRoute, "http", ReasonAccepted}} {
			if p := mustRoute(t, g, want.kind, "app", want.name).Parents[0]; p.Accepted.Reason != want.reason {
				t.Errorf("%s %s under %s: Accepted %s (%s), want %s", want.kind, want.name, g.profile, p.Accepted.Reason, p.Accepted.Message, want.reason)
			}
		}
	}
}

// A BackendTLSPolicy targeting ports of an Istio ServiceEntry by name.
func TestServiceEntryPolicyTargetByImplementation(t *testing.T) {
	const docs = `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: payments, namespace: app}
spec:
  hosts: [api.payments.example.com]
  ports: [{number: 443, name: https, protocol: HTTPS}]
  resolution: DNS
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs:
  - {group: networking.istio.io, kind: ServiceEntry, name: payments, sectionName: https}
  - {group: networking.istio.io, kind: ServiceEntry, name: payments, sectionName: grpc}
  validation: {wellKnownCACertificates: System, hostname: api.payments.example.com}`
	for _, c := range []struct {
		impl        string
		https, grpc Reason // the targets' reasons
	}{
		{"", ReasonTargetNotFound, ReasonTargetNotFound},
		{"istio", "", ReasonTargetNotFound},
	} {
		g := resolveYAML(t, judgedBy(t, c.impl), world, docs)
		ts := g.TLSPolicies[0].Targets
		if ts[0].Reason != c.https || ts[1].Reason != c.grpc {
			t.Errorf("under %s: targets %q (%s), %q (%s); want %q, %q", g.profile, ts[0].Reason, ts[0].Message, ts[1].Reason, ts[1].Message, c.https, c.grpc)
		}
	}
}

// A Service whose Istio waypoint label names a Gateway of another
// controller: Istio leaves the route's parentRef to that controller.
func TestForeignWaypointByImplementation(t *testing.T) {
	docs := func(waypointClass string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: other-mesh}
spec: {controllerName: example.com/waypoint-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: waypoint, namespace: app}
spec: {gatewayClassName: ` + waypointClass + `, listeners: [{name: mesh, protocol: HBONE, port: 15008}]}
---
apiVersion: v1
kind: Service
metadata: {name: orders, namespace: app, labels: {istio.io/use-waypoint: waypoint}}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: orders}]
  rules: [{backendRefs: [{name: orders, port: 80}]}]
---
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: partner, namespace: app, labels: {istio.io/use-waypoint: waypoint}}
spec: {hosts: [api.partner.example.com], ports: [{number: 443, name: https, protocol: HTTPS}], resolution: DNS}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r2, namespace: app}
spec:
  parentRefs: [{group: networking.istio.io, kind: ServiceEntry, name: partner}]
  rules: [{backendRefs: [{name: orders, port: 80}]}]`
	}
	for _, c := range []struct {
		impl, class string
		status      bool // whether the judging implementation writes the parent's status
	}{
		{"", "other-mesh", true},
		{"istio", "other-mesh", false},
		{"istio", "istio-waypoint", true},
	} {
		g := resolveYAML(t, judgedBy(t, c.impl), world, istioClasses, docs(c.class))
		for _, name := range []string{"r", "r2"} {
			if c.impl == "" && name == "r2" {
				continue // a ServiceEntry parent is Istio's kind
			}
			p := mustRoute(t, g, KindHTTPRoute, "app", name).Parents[0]
			if p.HasStatus() != c.status || p.Accepted.True() == !c.status {
				t.Errorf("%s under %s, waypoint of class %s: status written %v, Accepted %s/%s (%s); want written %v", name, g.profile, c.class,
					p.HasStatus(), p.Accepted.Status, p.Accepted.Reason, p.Accepted.Message, c.status)
			}
		}
	}
}

// Envoy Gateway writes its own policy that calls a backend (a
// SecurityPolicy's extAuth, an EnvoyExtensionPolicy's extProc) as an
// ancestor of that backend's BackendTLSPolicy, when it translates the
// policy: its target is held, the backendRef is one it takes. The API's
// reading knows only routes' parents.
func TestOwnPolicyAncestorsByImplementation(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	base := func(class string) []string {
		return []string{world, egClass, caConfigMap("app", "ca", ca.crt), `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: app}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: authz-tls, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: authz, sectionName: grpc}]
  validation: {hostname: authz.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`}
	}
	securityPolicy := func(target, backendRef string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: authn, namespace: app}
spec:
  targetRefs: [` + target + `]
  extAuth: {grpc: {backendRefs: [` + backendRef + `]}}`
	}
	extensionPolicy := `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyExtensionPolicy
metadata: {name: processor, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
  extProc: [{backendRefs: [{name: authz, namespace: app, port: 9000}]}]`
	grant := `
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: processors, namespace: app}
spec:
  from: [{group: gateway.envoyproxy.io, kind: EnvoyExtensionPolicy, namespace: infra}]
  to: [{group: "", kind: Service}]`
	onRoute := `{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}`
	for _, c := range []struct {
		name      string
		docs      []string
		every, eg []string
	}{{
		name:  "SecurityPolicy on a route",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9000}`)},
		every: nil, eg: []string{"SecurityPolicy app/authn"},
	}, {
		name:  "SecurityPolicy on a route that does not exist",
		docs:  []string{securityPolicy(`{group: gateway.networking.k8s.io, kind: HTTPRoute, name: cart}`, `{name: authz, port: 9000}`)},
		every: nil, eg: nil,
	}, {
		// The later by name is Conflicted on the route: not translated.
		name: "two SecurityPolicies on a route",
		docs: []string{securityPolicy(onRoute, `{name: authz, port: 9000}`),
			strings.Replace(securityPolicy(onRoute, `{name: authz, port: 9000}`), "name: authn,", "name: authz-check,", 1)},
		every: nil, eg: []string{"SecurityPolicy app/authn"},
	}, {
		name:  "backendRef of weight 0",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9000, weight: 0}`)},
		every: nil, eg: nil,
	}, {
		name:  "backendRef to a port the Service lacks",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9001}`)},
		every: nil, eg: nil,
	}, {
		name:  "EnvoyExtensionPolicy on the Gateway, another namespace's backend without a grant",
		docs:  []string{extensionPolicy},
		every: nil, eg: nil,
	}, {
		name:  "EnvoyExtensionPolicy on the Gateway, another namespace's backend with a grant",
		docs:  []string{extensionPolicy, grant},
		every: nil, eg: []string{"EnvoyExtensionPolicy infra/processor"},
	}} {
		for _, run := range []struct {
			impl, class string
			want        []string
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}} {
			g := resolveYAML(t, judgedBy(t, run.impl), append(base(run.class), c.docs...)...)
			p := g.TLSPolicies[0]
			var got []string
			for _, a := range p.Ancestors {
				if accepted, _ := a.Conditions(p); !accepted.True() {
					t.Errorf("%s under %s: ancestor %s: %s", c.name, g.profile, parentRefName(a.Ref), accepted.Message)
				}
				got = append(got, fmt.Sprintf("%s %s", *a.Ref.Kind, parentRefName(a.Ref)))
			}
			if !reflect.DeepEqual(got, run.want) {
				t.Errorf("%s under %s: ancestors %q, want %q", c.name, g.profile, got, run.want)
			}
		}
	}
}

func TestEnvoyProxyParametersByImplementation(t *testing.T) {
	class := func(proxy string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: ` + proxy + `}`
	}
	gateway := func(infra string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  infrastructure: ` + infra + `
  listeners: [{name: http, protocol: HTTP, port: 80}]`
	}
	proxy := func(name, spec string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: ` + name + `, namespace: infra}
spec: ` + spec
	}
	proxies := proxy("plain", "{}") + "\n---\n" +
		proxy("no-file", "{telemetry: {accessLog: {settings: [{sinks: [{type: File}]}]}}}") + "\n---\n" +
		proxy("clusterip-lb-ip", "{provider: {type: Kubernetes, kubernetes: {envoyService: {type: ClusterIP, loadBalancerIP: 10.0.0.9}}}}") + "\n---\n" +
		proxy("host-without-host", "{provider: {type: Host}}") + "\n---\n" +
		proxy("merged", "{mergeGateways: true}") + "\n---\n" +
		proxy("merged-backends", "{mergeGateways: true, mergeBackends: {}}")
	own := func(name string) string {
		return "{parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: " + name + "}}"
	}
	for _, c := range []struct {
		name, classProxy, infra string
		class, gateway          Reason // Accepted reasons under Envoy Gateway; the default profile accepts both
	}{
		{"valid class EnvoyProxy", "plain", "null", ReasonAccepted, ReasonAccepted},
		{"class EnvoyProxy with a File sink without file", "no-file", "null", ReasonInvalidParameters, ReasonInvalidParameters},
		{"valid own EnvoyProxy beside an invalid class one", "no-file", own("plain"), ReasonInvalidParameters, ReasonAccepted},
		{"own EnvoyProxy with loadBalancerIP on a ClusterIP Service", "plain", own("clusterip-lb-ip"), ReasonAccepted, ReasonInvalidParameters},
		{"own EnvoyProxy on the host without host", "plain", own("host-without-host"), ReasonAccepted, ReasonInvalidParameters},
		{"own EnvoyProxy beside a class one merging Gateways", "merged", own("plain"), ReasonAccepted, ReasonInvalidParameters},
		{"class EnvoyProxy merging both Gateways and backends", "merged-backends", "null", ReasonAccepted, ReasonInvalidParameters},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, run := range []struct {
				impl           string
				class, gateway Reason
			}{{"", ReasonAccepted, ReasonAccepted}, {"envoy-gateway", c.class, c.gateway}} {
				g := resolveYAML(t, judgedBy(t, run.impl), class(c.classProxy), gateway(c.infra), proxies)
				gc, gw := g.GatewayClasses[0], g.Gateway("infra", "edge")
				if gc.Accepted.Reason != run.class || gw.Accepted.Reason != run.gateway {
					t.Errorf("%q: GatewayClass Accepted %s (%s), Gateway Accepted %s (%s); want %s, %s", run.impl,
						gc.Accepted.Reason, gc.Accepted.Message, gw.Accepted.Reason, gw.Accepted.Message, run.class, run.gateway)
				}
			}
		})
	}
}

// Envoy Gateway's configuration may give every EnvoyProxy mergeBackends
// (profile.EnvoyProxyDefaults), which a class merging its Gateways refuses.
func TestEnvoyProxyDefaultsByConfiguration(t *testing.T) {
	docs := `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: merged}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: merged, namespace: infra}
spec: {mergeGateways: true}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: edge, listeners: [{name: http, protocol: HTTP, port: 80}]}`
	eg := mustProfile(t, "envoy-gateway")
	for _, mergeBackends := range []bool{false, true} {
		p := *eg
		p.Implementation.EnvoyProxyDefaults.MergeBackends = mergeBackends
		want := ReasonAccepted
		if mergeBackends {
			want = ReasonInvalidParameters
		}
		gw := resolveYAML(t, Options{Implementation: &p}, docs).Gateway("infra", "edge")
		if gw.Accepted.Reason != want {
			t.Errorf("configuration merging backends %v: Gateway Accepted %s (%s), want %s", mergeBackends, gw.Accepted.Reason, gw.Accepted.Message, want)
		}
	}
}

// Gateways of a class whose EnvoyProxy merges them share one proxy under
// Envoy Gateway: a listener repeating another Gateway's protocol, hostname
// and port is conflicted, and HTTPS listeners overlap across them.
func TestMergedGatewaysByImplementation(t *testing.T) {
	cert := newTestCert(t, year2020, year2200, false, "*.example.com")
	docs := []string{world, tlsSecret("infra", "wildcard", cert), `
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
    tls: {certificateRefs: [{name: wildcard}]}`)
	}
	for _, c := range []struct {
		impl       string
		conflict   Reason // gateway b's http listener's Conflicted reason
		overlap    Reason // gateway a's https listener's OverlappingTLSConfig reason
		programmed bool   // gateway b's http listener
	}{
		{"", ReasonNoConflicts, "", true},
		{"envoy-gateway", ReasonHostnameConflict, ReasonOverlappingCertificates, false},
	} {
		g := resolveYAML(t, judgedBy(t, c.impl), docs...)
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

// The client certificate a Gateway's EnvoyProxy offers backends over TLS:
// under Envoy Gateway one in another namespace, or one that does not
// exist, fails the route's backendRefs that a BackendTLSPolicy verifies
// (InvalidBackendTLS). The API does not know the field.
func TestEnvoyProxyClientCertificateByImplementation(t *testing.T) {
	docs := func(ref string) []string {
		return []string{world, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec: {backendTLS: {clientCertificateRef: ` + ref + `}}
---
apiVersion: v1
kind: Secret
metadata: {name: client, namespace: infra}
type: kubernetes.io/tls
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: web, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.example.com}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`}
	}
	for _, c := range []struct {
		name, ref string
		reason    Reason // the route's ResolvedRefs reason under Envoy Gateway
	}{
		{"in the EnvoyProxy's namespace", "{name: client}", ReasonResolvedRefs},
		{"in another namespace", "{name: client, namespace: app}", ReasonInvalidBackendTLS},
		{"missing", "{name: absent}", ReasonInvalidBackendTLS},
	} {
		t.Run(c.name, func(t *testing.T) {
			againstEnvoyGateway(t, ReasonResolvedRefs, c.reason, func(opts Options) Condition {
				return mustRoute(t, resolveYAML(t, opts, docs(c.ref)...), KindHTTPRoute, "app", "r").ResolvedRefs
			})
		})
	}
}

// Where an EnvoyProxy sends telemetry: under Envoy Gateway a Service
// backendRef to a missing Service, or to one without the port, refuses
// the Gateway (InvalidParameters) after its listeners are translated,
// whose status stays.
func TestEnvoyProxyTelemetryByImplementation(t *testing.T) {
	docs := func(backendRef string) []string {
		return []string{world, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec:
  telemetry:
    tracing:
      provider: {type: OpenTelemetry, backendRefs: [` + backendRef + `]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  listeners: [{name: http, protocol: HTTP, port: 80}]`}
	}
	for _, c := range []struct {
		name, ref string
		reason    Reason // the Gateway's Accepted reason under Envoy Gateway
	}{
		{"a Service with the port", "{name: web, namespace: app, port: 8080}", ReasonAccepted},
		{"a Service without the port", "{name: web, namespace: app, port: 4317}", ReasonInvalidParameters},
		{"a missing Service", "{name: collector, namespace: app, port: 4317}", ReasonInvalidParameters},
	} {
		t.Run(c.name, func(t *testing.T) {
			againstEnvoyGateway(t, ReasonAccepted, c.reason, func(opts Options) Condition {
				gw := resolveYAML(t, opts, docs(c.ref)...).Gateway("infra", "edge")
				if len(gw.gatewayStatus().Listeners) != 1 {
					t.Errorf("listener status %v, want the listener's", gw.gatewayStatus().Listeners)
				}
				return gw.Accepted
			})
		})
	}
}

// againstEnvoyGateway wants the condition judge returns to have reason
// want under the default profile and eg under Envoy Gateway's, with
// --strict-refs.
func againstEnvoyGateway(t *testing.T, want, eg Reason, judge func(Options) Condition) {
	t.Helper()
	for _, run := range []struct {
		impl   string
		reason Reason
	}{{"", want}, {"envoy-gateway", eg}} {
		opts := judgedBy(t, run.impl)
		opts.StrictRefs = true
		if got := judge(opts); got.Reason != run.reason {
			t.Errorf("%q: %s %s (%s), want %s", run.impl, got.Type, got.Reason, got.Message, run.reason)
		}
	}
}

// A GatewayClass's parametersRef without a namespace: Envoy Gateway looks
// its EnvoyProxy up in "default", so it is found there and judged.
func TestEnvoyProxyOfClassWithoutNamespace(t *testing.T) {
	g := resolveYAML(t, Options{StrictRefs: true}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: default}
spec: {provider: {type: Host}}`)
	for _, c := range g.GatewayClasses {
		if c.Ref.Name == "eg" && (c.Proxy == nil || c.Accepted.Reason != ReasonInvalidParameters) {
			t.Errorf("GatewayClass eg: Proxy %v, Accepted %s (%s); want EnvoyProxy default/proxy, InvalidParameters", c.Proxy, c.Accepted.Reason, c.Accepted.Message)
		}
	}
}

// Without --implementation, a BackendTLSPolicy is judged by the
// implementation of the Gateways whose routes reach its target: Envoy
// Gateway's reads a CA bundle under tls.crt, the API's reading does not.
func TestBackendTLSPolicyJudgedByItsGateways(t *testing.T) {
	ca := newTestCert(t, year2020, year2200, true)
	for _, c := range []struct {
		class string
		want  Reason
	}{{"acme", ReasonNoValidCACertificate}, {"eg", ReasonAccepted}} {
		g := resolveYAML(t, Options{}, world, egClass, fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca, namespace: app}\ndata: {tls.crt: %q}", ca.crt), `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+c.class+`, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
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
