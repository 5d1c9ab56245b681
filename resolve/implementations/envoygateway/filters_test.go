package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A RegularExpression match that does not compile as RE2: Envoy Gateway
// drops its rule; gwlint's own reading leaves the dialect open.
// Rules an implementation drops as it translates them: a regex it cannot
// compile, filters it refuses.
func TestDroppedRules(t *testing.T) {
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
	type verdict struct{ accepted, partially resolve.Reason }
	cases := []struct {
		name, rules string
		every, eg   verdict
	}{
		{"every rule invalid", bad, verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonUnsupportedValue, ""}},
		{"one rule of two invalid", bad + good, verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonUnsupportedValue}},
		{"all valid", good, verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, ""}},
		// Filters the CRDs admit and Envoy Gateway refuses.
		{"remove a name with '/'", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [example/2]}}]`),
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonUnsupportedValue, ""}},
		{"set Host", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: Host, value: example.com}]}}]`) + good,
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonUnsupportedValue}},
		{"remove a pseudo-header from responses", filtered(`[{type: ResponseHeaderModifier, responseHeaderModifier: {remove: [":status"]}}]`) + good,
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonUnsupportedValue}},
		{"add a value with a leading space", filtered(`[{type: ResponseHeaderModifier, responseHeaderModifier: {add: [{name: x-env, value: " prod"}]}}]`),
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonUnsupportedValue, ""}},
		{"mirror and redirect", filtered(`[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}, {type: RequestRedirect, requestRedirect: {scheme: https}}]`) + good,
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonIncompatibleFilters}},
		// Envoy Gateway drops a mirror it cannot resolve before it looks
		// for the conflict (ResolvedRefs=False says so).
		{"mirror to a missing Service and redirect", filtered(`[{type: RequestMirror, requestMirror: {backendRef: {name: gone, port: 8080}}}, {type: RequestRedirect, requestRedirect: {scheme: https}}]`),
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, ""}},
		{"redirect to an IP address", filtered(`[{type: RequestRedirect, requestRedirect: {hostname: 10.0.0.1}}]`) + good,
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonUnsupportedValue}},
		{"external auth", filtered(`[{type: ExternalAuth, externalAuth: {protocol: HTTP, backendRef: {name: web-v2, port: 8080}}}]`) + good,
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, resolve.ReasonUnsupportedValue}},
		// An extension filter may answer itself, and Envoy Gateway then
		// translates no filter after it.
		{"set Host after an ExtensionRef", filtered(`[{type: ExtensionRef, extensionRef: {group: gateway.envoyproxy.io, kind: HTTPRouteFilter, name: teapot}}, {type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: Host, value: example.com}]}}]`),
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, ""}},
		{"valid headers", filtered(`[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: x-env, value: "prod eu"}], remove: [x-debug]}}]`),
			verdict{resolve.ReasonAccepted, ""}, verdict{resolve.ReasonAccepted, ""}},
	}
	for _, c := range cases {
		for _, run := range []struct {
			class string
			want  verdict
		}{{"acme", c.every}, {"eg", c.eg}} {
			opts := byClass
			opts.OwnedNamespaces = []string{"infra", "app", "other"}
			g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, edge(run.class), route(c.rules))
			p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r").Parents[0]
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
func TestBackendRefFilters(t *testing.T) {
	cases := []struct {
		name, kind, filters string
		eg                  resolve.Reason
	}{
		{"redirect", resolve.KindHTTPRoute, `[{type: RequestRedirect, requestRedirect: {scheme: https}}]`, envoygateway.ReasonUnsupportedRefValue},
		{"path rewrite", resolve.KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {path: {type: ReplaceFullPath, replaceFullPath: /v2}}}]`, envoygateway.ReasonUnsupportedRefValue},
		{"rewrite to an IP address", resolve.KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {hostname: 10.0.0.1}}]`, envoygateway.ReasonInvalidBackendFilters},
		{"hostname rewrite", resolve.KindHTTPRoute, `[{type: URLRewrite, urlRewrite: {hostname: web.internal}}]`, resolve.ReasonResolvedRefs},
		{"remove Host", resolve.KindHTTPRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [host]}}]`, envoygateway.ReasonInvalidBackendFilters},
		{"remove Host, weight 0", resolve.KindHTTPRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {remove: [host]}}], weight: 0`, resolve.ReasonResolvedRefs},
		{"gRPC mirror", resolve.KindGRPCRoute, `[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}]`, envoygateway.ReasonUnsupportedRefValue},
		{"gRPC header", resolve.KindGRPCRoute, `[{type: RequestHeaderModifier, requestHeaderModifier: {set: [{name: x-env, value: prod}]}}]`, resolve.ReasonResolvedRefs},
	}
	for _, c := range cases {
		for _, run := range []struct {
			class string
			want  resolve.Reason
		}{{"acme", resolve.ReasonResolvedRefs}, {"eg", c.eg}} {
			g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, edge(run.class), `
apiVersion: gateway.networking.k8s.io/v1
kind: `+c.kind+`
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080, filters: `+c.filters+`}]}]`)
			r := resolvetest.Route(t, g, c.kind, "app", "r")
			if r.ResolvedRefs.Reason != run.want {
				t.Errorf("%s under class %s: ResolvedRefs %s (%s); want %s", c.name, run.class, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
			}
			if b := r.Rules[0].Backends[0]; b.Valid() != (run.want == resolve.ReasonResolvedRefs) {
				t.Errorf("%s under class %s: backend valid %v (%s)", c.name, run.class, b.Valid(), b.Message)
			}
		}
	}
}
