package envoygateway_test

import (
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// edge is a Gateway "edge" in infra of class, with an HTTP listener on 80
// that takes routes from every namespace.
func edge(class string) string {
	return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
}

// withEnvoyGateway is opts with impl among its implementations.
func withEnvoyGateway(opts resolve.Options, impl envoygateway.Implementation) resolve.Options {
	opts.Implementations = []resolve.Implementation{impl}
	return opts
}

type backendVerdict struct {
	problem resolve.BackendProblem
	reason  resolve.Reason
}

// Envoy Gateway's own Backend kind: a Gateway of another implementation
// refuses the kind; Envoy Gateway's reads the Backend and judges it as its
// translator does.
func TestBackends(t *testing.T) {
	backend := func(name, spec string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: ` + name + `, namespace: app}
spec: ` + spec
	}
	route := func(backendRefs string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [` + backendRefs + `]}]`
	}
	ref := func(name string) string { return `{group: gateway.envoyproxy.io, kind: Backend, name: ` + name + `}` }
	owned := resolve.Options{OwnedNamespaces: []string{"infra", "app", "other", "edge"}}
	for _, c := range []struct {
		name    string
		backend string // the spec of Backend b; none when empty
		refs    string
		opts    resolve.Options
		config  envoygateway.Config
		problem resolve.BackendProblem
		reason  resolve.Reason // the route's ResolvedRefs reason under Envoy Gateway
	}{
		{name: "FQDN", backend: "{endpoints: [{fqdn: {hostname: api.example.com, port: 443}}]}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "IP", backend: "{endpoints: [{ip: {address: 10.0.0.7, port: 8080}}]}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "Unix socket", backend: "{endpoints: [{unix: {path: /var/run/app.sock}}]}", refs: ref("b"),
			problem: envoygateway.UnsupportedAddressType, reason: envoygateway.ReasonUnsupportedAddressType},
		{name: "FQDN beside IP", backend: "{endpoints: [{fqdn: {hostname: api.example.com, port: 443}}, {ip: {address: 10.0.0.7, port: 443}}]}", refs: ref("b"),
			problem: envoygateway.UnsupportedAddressType, reason: envoygateway.ReasonUnsupportedAddressType},
		{name: "loopback IP", backend: "{endpoints: [{ip: {address: 127.0.0.1, port: 8080}}]}", refs: ref("b"),
			problem: envoygateway.InvalidBackendAddress, reason: envoygateway.ReasonInvalidAddress},
		{name: "loopback IP, proxy on the host", backend: "{endpoints: [{ip: {address: 127.0.0.1, port: 8080}}]}", refs: ref("b"),
			config: envoygateway.Config{Backend: envoygateway.BackendAPI{OnHost: true}}, problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		// Unknown until Flux substitutes them: no verdict.
		{name: "FQDN holding a placeholder", backend: "{endpoints: [{fqdn: {hostname: 'omada.${PRIVATE_DOMAIN}', port: 443}}]}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "IP holding a placeholder", backend: "{endpoints: [{ip: {address: '${OMADA_IP}', port: 443}}]}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "single-label FQDN", backend: "{endpoints: [{fqdn: {hostname: localhost, port: 8080}}]}", refs: ref("b"),
			problem: envoygateway.InvalidBackendAddress, reason: envoygateway.ReasonInvalidAddress},
		{name: "DynamicResolver with endpoints", backend: "{type: DynamicResolver, endpoints: [{ip: {address: 10.0.0.7, port: 8080}}]}", refs: ref("b"),
			problem: envoygateway.InvalidBackend, reason: envoygateway.ReasonInvalidBackendRef},
		{name: "TLS without CA certificates", backend: "{endpoints: [{ip: {address: 10.0.0.7, port: 8443}}], tls: {}}", refs: ref("b"),
			problem: envoygateway.InvalidBackend, reason: envoygateway.ReasonInvalidBackendRef},
		{name: "TLS skipping verification", backend: "{endpoints: [{ip: {address: 10.0.0.7, port: 8443}}], tls: {insecureSkipVerify: true}}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "DynamicResolver beside a Service", backend: "{type: DynamicResolver}", refs: ref("b") + ", {name: web, port: 8080}",
			problem: envoygateway.DynamicResolverShared, reason: envoygateway.ReasonInvalidBackendRef},
		{name: "DynamicResolver alone", backend: "{type: DynamicResolver}", refs: ref("b"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "Backend API off", backend: "{endpoints: [{ip: {address: 10.0.0.7, port: 8080}}]}", refs: ref("b"),
			config: envoygateway.Config{Backend: envoygateway.BackendAPI{Disabled: true}}, problem: envoygateway.BackendDisabled, reason: resolve.ReasonUnsupportedValue},
		// Missing only on evidence: the inputs hold the Namespace app and
		// Backends in it, so they hold all of its Backends; with none there
		// the Backend is outside the inputs.
		{name: "missing", backend: "{endpoints: [{ip: {address: 10.0.0.7, port: 8080}}]}", refs: ref("other"),
			opts: owned, problem: resolve.NotFound, reason: resolve.ReasonBackendNotFound},
		{name: "outside the inputs", refs: ref("other"),
			problem: resolve.NoProblem, reason: resolve.ReasonResolvedRefs},
		{name: "another namespace, no ReferenceGrant", refs: `{group: gateway.envoyproxy.io, kind: Backend, name: b, namespace: infra}`,
			opts: resolve.Options{StrictRefs: true}, problem: resolve.NotPermitted, reason: resolve.ReasonRefNotPermitted},
		// Envoy Gateway picks the object by kind alone (BackendGroupOfKind):
		// the Backend is read, and judged.
		{name: "no group", backend: "{endpoints: [{unix: {path: /var/run/app.sock}}]}", refs: `{kind: Backend, name: b}`,
			problem: envoygateway.UnsupportedAddressType, reason: envoygateway.ReasonUnsupportedAddressType},
	} {
		for _, class := range []string{"acme", "eg"} {
			docs := []string{resolvetest.World, egClass, edge(class), route(c.refs)}
			if c.backend != "" {
				docs = append(docs, backend("b", c.backend))
			}
			g := resolvetest.Resolve(t, withEnvoyGateway(c.opts, envoygateway.Implementation{Config: c.config}), docs...)
			r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
			b := r.Rules[0].Backends[0]
			want := backendVerdict{c.problem, c.reason}
			if class == "acme" {
				want = backendVerdict{resolve.UnsupportedRef, resolve.ReasonInvalidKind} // not the API's kind
			}
			if got := (backendVerdict{b.Problem, r.ResolvedRefs.Reason}); got != want {
				t.Errorf("%s, class %s: backend problem %q, route ResolvedRefs %s (%s); want %+v", c.name, class, b.Problem, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, want)
			}
		}
	}
}

// A backendRef of kind Backend with no group on a Gateway whose
// implementation is unknown (its class is not among the inputs, and nothing
// says which runs it): Envoy Gateway would take it as its Backend, so
// whether the implementation that runs it does is unknown; the API's
// reading refuses a core kind other than Service.
func TestUngroupedBackendUnderUnknownImplementation(t *testing.T) {
	for _, c := range []struct {
		opts    resolve.Options
		problem resolve.BackendProblem
	}{
		{resolve.Options{}, resolve.UnsupportedRef},
		{byClass, resolve.NoProblem},
	} {
		g := resolvetest.Resolve(t, c.opts, edge("internal"), `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: infra}
spec:
  parentRefs: [{name: edge}]
  rules:
  - backendRefs: [{kind: Backend, name: b}]`)
		b := resolvetest.Route(t, g, resolve.KindHTTPRoute, "infra", "r").Rules[0].Backends[0]
		if b.Problem != c.problem || b.Group != "" {
			t.Errorf("%d implementations: problem %q, group %q (%s); want %q, the core group", len(c.opts.Implementations), b.Problem, b.Group, b.Message, c.problem)
		}
	}
}

// A kind of the same name in another group (kgateway's Backend) is never
// looked up as Envoy Gateway's: the inputs say nothing of it.
func TestOtherBackendKindNotTaken(t *testing.T) {
	g := resolvetest.Resolve(t, withEnvoyGateway(resolve.Options{StrictRefs: true}, envoygateway.Implementation{}), resolvetest.World, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: kgateway}
spec: {controllerName: kgateway.dev/kgateway}`, edge("kgateway"), `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: b, namespace: app}
spec: {endpoints: [{unix: {path: /var/run/app.sock}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{group: gateway.kgateway.dev, kind: Backend, name: b}, {group: gateway.kgateway.dev, kind: Backend, name: c}]}]`)
	r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
	for _, b := range r.Rules[0].Backends {
		if !b.Valid() || b.Presence != resolve.External || b.Object() != nil {
			t.Errorf("%s: valid %v, presence %s, object %v; want valid, external, none", b.Path, b.Valid(), b.Presence, b.Object())
		}
	}
}

// A BackendTLSPolicy selects a port of an Envoy Gateway Backend by its
// number as sectionName: Envoy Gateway applies it to a route's backendRef
// to that port and writes the route's parent as its ancestor. The API's
// reading does not take the kind as a target.
func TestBackendSection(t *testing.T) {
	for _, run := range []struct {
		impl      resolve.Implementation
		class     string
		ancestors []string
	}{{nil, "acme", nil}, {envoygateway.Implementation{}, "eg", []string{"Gateway infra/edge"}}} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, run.impl), resolvetest.World, egClass, edge(run.class), `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: api, namespace: app}
spec: {endpoints: [{ip: {address: 10.0.0.7, port: 3001}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: api, port: 3001}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: api-tls, namespace: app}
spec:
  targetRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: api, sectionName: "3001"}]
  validation: {hostname: api.example.com, wellKnownCACertificates: System}`)
		p := g.TLSPolicies[0]
		var got []string
		for _, a := range p.Ancestors {
			got = append(got, fmt.Sprintf("%s %s/%s", *a.Ref.Kind, *a.Ref.Namespace, a.Ref.Name))
		}
		b := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r").Rules[0].Backends[0]
		if !reflect.DeepEqual(got, run.ancestors) || (b.TLSPolicy != nil) != (run.ancestors != nil) {
			t.Errorf("under %s: ancestors %q, backend's policy %v; want %q", g.Profile(), got, b.TLSPolicy != nil, run.ancestors)
		}
	}
}

// A rule whose HTTPRouteFilter rewrites the Host from the path, to a
// dynamic resolver Backend: Envoy Gateway refuses the Backend
// (UnsupportedValue); the API's reading refuses the kind.
func TestHostFromPathToDynamicResolver(t *testing.T) {
	for _, run := range []struct {
		class string
		want  resolve.Reason
	}{{"acme", resolve.ReasonInvalidKind}, {"eg", resolve.ReasonUnsupportedValue}} {
		opts := withEnvoyGateway(resolve.Options{OwnedNamespaces: []string{"infra", "app", "other"}}, envoygateway.Implementation{})
		g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, edge(run.class), `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: HTTPRouteFilter
metadata: {name: f, namespace: app}
spec: {urlRewrite: {hostname: {type: PathRegex, pathRegex: {pattern: '^/(.*)', substitution: '\1'}}}}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: any, namespace: app}
spec: {type: DynamicResolver}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules:
  - backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: any}]
    filters: [{type: ExtensionRef, extensionRef: {group: gateway.envoyproxy.io, kind: HTTPRouteFilter, name: f}}]
  - {backendRefs: [{name: web, port: 8080}]}`)
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		p := r.Parents[0]
		if !p.Accepted.True() || p.PartiallyInvalid.Reason != "" || r.ResolvedRefs.Reason != run.want {
			t.Errorf("under class %s: Accepted %s, PartiallyInvalid %q, ResolvedRefs %s (%s); want Accepted, ResolvedRefs %s",
				run.class, p.Accepted.Reason, p.PartiallyInvalid.Reason, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, run.want)
		}
		if b := r.Rules[0].Backends[0]; run.class == "eg" && b.Problem != envoygateway.HostFromPathRefused {
			t.Errorf("backend problem %q, want %q", b.Problem, envoygateway.HostFromPathRefused)
		}
	}
}

// A Backend's spec of the wrong type is named in the document's terms.
func TestBackendWrongTypeNamedInDocumentTerms(t *testing.T) {
	in := resolve.Load([]string{"-"}, strings.NewReader(`apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: b, namespace: x}
spec: {endpoints: "10.0.0.1"}
`), withEnvoyGateway(resolve.Options{}, envoygateway.Implementation{}))
	const want = "Backend x/b: spec.endpoints must be a list, not string"
	if len(in.Errors) != 1 || !strings.HasSuffix(in.Errors[0].Error(), want) {
		t.Errorf("errors %v, want one ending %q", in.Errors, want)
	}
}
