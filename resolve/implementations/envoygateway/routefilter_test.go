package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/profile"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Envoy Gateway's HTTPRouteFilter, named by an ExtensionRef filter: the API
// leaves the ExtensionRef to the implementation; Envoy Gateway reads the
// object and judges the rule by it.
func TestRouteFilters(t *testing.T) {
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
	type verdict struct{ partially, resolvedRefs resolve.Reason }
	fine := verdict{"", resolve.ReasonResolvedRefs}
	unsupported := verdict{resolve.ReasonUnsupportedValue, resolve.ReasonResolvedRefs}
	owned := resolve.Options{OwnedNamespaces: []string{"infra", "app", "other", "edge"}}
	cases := []struct {
		name, kind, objects, filters string
		backend                      string // the rule's backendRef
		every, eg                    verdict
	}{
		{"inline direct response", resolve.KindHTTPRoute, known + filter("f", "{directResponse: {statusCode: 503, body: {type: Inline, inline: down}}}"),
			"[" + ext("f") + "]", "", fine, fine},
		{"missing filter", resolve.KindHTTPRoute, known, "[" + ext("gone") + "]", "", fine, verdict{"", resolve.ReasonUnsupportedValue}},
		// No HTTPRouteFilter in the namespace: it may be defined elsewhere.
		{"unlisted filter", resolve.KindHTTPRoute, "", "[" + ext("gone") + "]", "", fine, fine},
		{"regex rewrite that does not compile", resolve.KindHTTPRoute,
			known + filter("f", "{urlRewrite: {path: {type: ReplaceRegexMatch, replaceRegexMatch: {pattern: '(', substitution: /}}}}"),
			"[" + ext("f") + "]", "", fine, unsupported},
		{"Header hostname rewrite without a header", resolve.KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Header}}}"),
			"[" + ext("f") + "]", "", fine, unsupported},
		{"two hostname rewrites", resolve.KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Backend}}}"),
			"[{type: URLRewrite, urlRewrite: {hostname: web.internal}}, " + ext("f") + "]", "", fine, unsupported},
		{"a path and a hostname rewrite", resolve.KindHTTPRoute, known + filter("f", "{urlRewrite: {hostname: {type: Header, header: x-host}}}"),
			"[{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /v2}}}, " + ext("f") + "]", "", fine, fine},
		{"body from a missing ConfigMap", resolve.KindHTTPRoute,
			known + filter("f", "{directResponse: {body: {type: ValueRef, valueRef: {group: '', kind: ConfigMap, name: gone}}}}"),
			"[" + ext("f") + "]", "", fine, unsupported},
		{"credential from a missing Secret", resolve.KindHTTPRoute,
			known + filter("f", "{credentialInjection: {credential: {valueRef: {name: gone}}}}"),
			"[" + ext("f") + "]", "", fine, unsupported},
		{"credential", resolve.KindHTTPRoute, known + filter("f", "{credentialInjection: {credential: {valueRef: {name: token}}}}"),
			"[" + ext("f") + "]", "", fine, fine},
		{"mirror and direct response", resolve.KindHTTPRoute, known,
			"[{type: RequestMirror, requestMirror: {backendRef: {name: web-v2, port: 8080}}}, " + ext("spare") + "]", "", fine,
			verdict{resolve.ReasonIncompatibleFilters, resolve.ReasonResolvedRefs}},
		// On a backendRef, any problem makes the backendRef invalid.
		{"backendRef filter missing", resolve.KindHTTPRoute, known, "[]", "{name: web, port: 8080, filters: [" + ext("gone") + "]}",
			fine, verdict{"", envoygateway.ReasonInvalidBackendFilters}},
		{"backendRef credential", resolve.KindHTTPRoute, known + filter("f", "{credentialInjection: {credential: {valueRef: {name: token}}}}"),
			"[]", "{name: web, port: 8080, filters: [" + ext("f") + "]}", fine, fine},
		{"gRPC 2xx direct response", resolve.KindGRPCRoute, known + filter("f", "{directResponse: {statusCode: 200}}"),
			"[" + ext("f") + "]", "", fine, unsupported},
		{"gRPC 4xx direct response", resolve.KindGRPCRoute, known, "[" + ext("spare") + "]", "", fine, fine},
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
			docs := []string{resolvetest.World, egClass, edge(run.class), `
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
				opts = resolve.Options{} // the case of a namespace the inputs do not hold whole
			}
			g := resolvetest.Resolve(t, withEnvoyGateway(opts, envoygateway.Implementation{}), docs...)
			r := resolvetest.Route(t, g, c.kind, "app", "r")
			p := r.Parents[0]
			if got := (verdict{p.PartiallyInvalid.Reason, r.ResolvedRefs.Reason}); got != run.want || !p.Accepted.True() {
				t.Errorf("%s under class %s: Accepted %s, PartiallyInvalid %q (%s), ResolvedRefs %s (%s); want %+v", c.name, run.class,
					p.Accepted.Reason, got.partially, p.PartiallyInvalid.Message, got.resolvedRefs, r.ResolvedRefs.Message, run.want)
			}
		}
	}
}

// An ExtensionRef to a kind other than Envoy Gateway's own: its
// configuration decides (Config.ExtensionFilters). Unknown to gwlint, the
// kind is taken; known, a kind it does not register drops the rule.
func TestExtensionFilterKindsByConfiguration(t *testing.T) {
	foo := profile.GroupKind{Group: "foo.example.io", Kind: "Foo"}
	for _, c := range []struct {
		name      string
		filters   envoygateway.ExtensionFilters
		partially resolve.Reason
	}{
		{"configuration unknown", envoygateway.ExtensionFilters{}, ""},
		{"kind registered", envoygateway.ExtensionFilters{Known: true, Kinds: []profile.GroupKind{foo}}, ""},
		{"kind not registered", envoygateway.ExtensionFilters{Known: true}, resolve.ReasonUnsupportedValue},
	} {
		impl := envoygateway.Implementation{Config: envoygateway.Config{ExtensionFilters: c.filters}}
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, impl), resolvetest.World, egClass, edge("eg"), `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:
  - {backendRefs: [{name: web, port: 8080}], filters: [{type: ExtensionRef, extensionRef: {group: foo.example.io, kind: Foo, name: f}}]}
  - {backendRefs: [{name: web, port: 8080}]}`)
		p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r").Parents[0]
		if p.PartiallyInvalid.Reason != c.partially || !p.Accepted.True() {
			t.Errorf("%s: Accepted %s, PartiallyInvalid %q (%s); want Accepted, PartiallyInvalid %q", c.name, p.Accepted.Reason, p.PartiallyInvalid.Reason, p.PartiallyInvalid.Message, c.partially)
		}
	}
}
