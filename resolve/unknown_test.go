package resolve

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// A Flux-style cluster: the domain, some names and ports are substituted at
// deploy time. The namespaces and their Services are all among the inputs,
// so an absent Service would be Missing: only the placeholders keep the
// verdicts open.
const fluxWorld = `
apiVersion: v1
kind: Namespace
metadata: {name: network}
---
apiVersion: v1
kind: Namespace
metadata: {name: media}
---
apiVersion: v1
kind: Service
metadata: {name: radarr, namespace: media}
spec: {ports: [{name: http, port: 7878}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: internal, namespace: network}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: https, protocol: HTTPS, port: 443, hostname: "*.${SECRET_DOMAIN}", allowedRoutes: {namespaces: {from: All}}, tls: {certificateRefs: [{name: wildcard-tls}]}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: external, namespace: network}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: https, protocol: HTTPS, port: 443, hostname: "*.example.com", allowedRoutes: {namespaces: {from: All}}, tls: {certificateRefs: [{name: example-tls}]}}
  - {name: web, protocol: HTTP, port: 80, hostname: web.example.com, allowedRoutes: {namespaces: {from: All}}}
`

func TestUnknownValues(t *testing.T) {
	g := resolveYAML(t, Options{OwnedNamespaces: []string{"media"}}, fluxWorld, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: radarr, namespace: media}
spec:
  parentRefs: [{name: internal, namespace: network}]
  hostnames: ["radarr.${SECRET_DOMAIN}"]
  rules: [{backendRefs: [{name: radarr, port: 7878}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: maybe, namespace: media}
spec:
  parentRefs: [{name: external, namespace: network, sectionName: https}]
  hostnames: ["radarr.${SECRET_DOMAIN}"]
  rules: [{backendRefs: [{name: "app-${ENV}", port: 80}, {name: radarr, port: "${RADARR_PORT}"}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: names, namespace: media}
spec:
  parentRefs: [{name: "${GATEWAY}", namespace: network}, {name: internal, namespace: network, sectionName: "${SECTION}"}]
  rules: [{backendRefs: [{name: "<path:kv/data/media#service>", port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: never, namespace: media}
spec:
  parentRefs: [{name: external, namespace: network, sectionName: web}]
  hostnames: ["app.${SECRET_DOMAIN}"]
  rules: [{backendRefs: [{name: gone, port: 80}]}]`)

	// Certain: *.${SECRET_DOMAIN} covers radarr.${SECRET_DOMAIN}.
	radarr := mustRoute(t, g, "HTTPRoute", "media", "radarr")
	if p := radarr.Parents[0]; !p.Accepted.True() || p.Unknown != "" {
		t.Errorf("radarr: %+v, unknown %q; want accepted", p.Accepted, p.Unknown)
	}

	// Possible: *.example.com may cover radarr.${SECRET_DOMAIN}.
	maybe := mustRoute(t, g, "HTTPRoute", "media", "maybe")
	p := maybe.Parents[0]
	if p.Accepted.Status != metav1.ConditionUnknown || p.Unknown != "radarr.${SECRET_DOMAIN}" ||
		!strings.Contains(p.Accepted.Message, "depends on ${SECRET_DOMAIN}, substituted at deploy time") {
		t.Errorf("maybe: %+v, unknown %q; want Unknown, depending on ${SECRET_DOMAIN}", p.Accepted, p.Unknown)
	}
	if l := p.Listeners[0]; !l.Undecided() || l.Unknown == "" {
		t.Errorf("maybe's listener outcome: %+v; want undecided by the hostname", l)
	}
	app, port := maybe.Rules[0].Backends[0], maybe.Rules[0].Backends[1]
	if app.Presence != Unresolved || !app.Valid() || !strings.Contains(app.Message, "depends on ${ENV}") {
		t.Errorf("app-${ENV}: presence %s, reason %q, message %q; want unresolved and valid", app.Presence, app.Reason, app.Message)
	}
	if !port.Valid() || !strings.Contains(port.Message, "port ${RADARR_PORT} depends on ${RADARR_PORT}") {
		t.Errorf("port ${RADARR_PORT}: reason %q, message %q; want valid, unknown", port.Reason, port.Message)
	}
	if !maybe.ResolvedRefs.True() {
		t.Errorf("maybe ResolvedRefs: %+v", maybe.ResolvedRefs)
	}

	names := mustRoute(t, g, "HTTPRoute", "media", "names")
	if p := names.Parents[0]; p.Presence != Unresolved || p.Accepted.Status != metav1.ConditionUnknown || p.HasStatus() {
		t.Errorf("parentRef ${GATEWAY}: presence %s, %+v; want unresolved, Unknown, no status", p.Presence, p.Accepted)
	}
	if p := names.Parents[1]; p.Accepted.Status != metav1.ConditionUnknown || p.Unknown != "${SECTION}" {
		t.Errorf("sectionName ${SECTION}: %+v; want Unknown", p.Accepted)
	}
	if b := names.Rules[0].Backends[0]; b.Presence != Unresolved || !b.Valid() {
		t.Errorf("<path:...> backend: presence %s, reason %q", b.Presence, b.Reason)
	}

	// Still refused: "app.${SECRET_DOMAIN}" can never be web.example.com,
	// and a Service absent from a namespace the inputs own is missing.
	never := mustRoute(t, g, "HTTPRoute", "media", "never")
	if p := never.Parents[0]; p.Accepted.Reason != ReasonNoMatchingListenerHostname {
		t.Errorf("never: %+v; want NoMatchingListenerHostname", p.Accepted)
	}
	if b := never.Rules[0].Backends[0]; b.Presence != Missing || b.Reason != ReasonBackendNotFound {
		t.Errorf("gone: presence %s, reason %q; want missing", b.Presence, b.Reason)
	}

	// No certificate verdict on a listener hostname holding a placeholder.
	for l := range g.Listeners() {
		for _, c := range l.CertRefs {
			if c.HostnameProblem != "" {
				t.Errorf("%s: %s", l.Name, c.HostnameProblem)
			}
		}
	}
}

// A group or kind holding a placeholder (a shared Flux component's
// `kind: ${EXT_AUTH_KIND:-HTTPRoute}`) leaves the reference Unresolved:
// which kind it names, and so whether the field may name it, is unknown.
func TestUnknownKinds(t *testing.T) {
	g := resolveYAML(t, Options{OwnedNamespaces: []string{"media", "network"}}, fluxWorld, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: substituted, namespace: network}
spec:
  gatewayClassName: envoy
  listeners:
  - {name: http, protocol: HTTP, port: 8080, allowedRoutes: {namespaces: {from: All}, kinds: [{kind: "${ROUTE_KIND}"}]}}
  - {name: https, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: cert, kind: "${CERT_KIND}", group: "${CERT_GROUP}"}]}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: kinds, namespace: media}
spec:
  parentRefs: [{name: external, namespace: network, kind: "${PARENT_KIND}"}, {name: substituted, namespace: network, sectionName: http}]
  rules: [{backendRefs: [{name: radarr, port: 7878, group: "${BACKEND_GROUP}"}]}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: ext-auth, namespace: media}
spec:
  targetRefs: [{group: "${EXT_AUTH_GROUP:-gateway.networking.k8s.io}", kind: "${EXT_AUTH_KIND:-HTTPRoute}", name: kinds}]
---
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: authz, namespace: media}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: external, namespace: "${GATEWAY_NAMESPACE}"}
  action: DENY
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: tls, namespace: media}
spec:
  targetRefs: [{group: "", kind: "${TLS_KIND}", name: radarr}]
  validation: {hostname: radarr.media.svc, wellKnownCACertificates: System}`)

	r := mustRoute(t, g, "HTTPRoute", "media", "kinds")
	if p := r.Parents[0]; p.Presence != Unresolved || p.Accepted.Status != metav1.ConditionUnknown || p.HasStatus() ||
		p.Unknown != "${PARENT_KIND}.gateway.networking.k8s.io" || !strings.Contains(p.Accepted.Message, "depends on ${PARENT_KIND}") {
		t.Errorf("parentRef kind ${PARENT_KIND}: presence %s, %+v, unknown %q; want unresolved, Unknown, no status", p.Presence, p.Accepted, p.Unknown)
	}
	if p := r.Parents[1]; p.Accepted.Status != metav1.ConditionUnknown || p.Unknown == "" ||
		!strings.Contains(p.Accepted.Message, "whether it allows HTTPRoute is unknown") {
		t.Errorf("listener kinds ${ROUTE_KIND}: %+v, unknown %q; want Unknown", p.Accepted, p.Unknown)
	}
	if b := r.Rules[0].Backends[0]; b.Presence != Unresolved || !b.Valid() || !strings.Contains(b.Message, "depends on ${BACKEND_GROUP}") {
		t.Errorf("backend group ${BACKEND_GROUP}: presence %s, reason %q, message %q; want unresolved and valid", b.Presence, b.Reason, b.Message)
	}
	for l := range g.Listeners() {
		if l.Gateway.Ref.Name != "substituted" {
			continue
		}
		if !l.ResolvedRefs.True() || len(l.InvalidKinds) > 0 {
			t.Errorf("listener %s: %+v, invalid kinds %v; want its references resolved", l.Name, l.ResolvedRefs, l.InvalidKinds)
		}
		for _, c := range l.CertRefs {
			if c.Presence != Unresolved || c.Reason != "" {
				t.Errorf("certificateRef kind ${CERT_KIND}: presence %s, reason %q; want unresolved", c.Presence, c.Reason)
			}
		}
	}
	if p := g.Policy(ObjectRef{Kind: "SecurityPolicy.gateway.envoyproxy.io", Namespace: "media", Name: "ext-auth"}); p == nil {
		t.Error("no SecurityPolicy media/ext-auth")
	} else if tg := p.Targets[0]; tg.Presence != Unresolved || !tg.Applies() {
		t.Errorf("SecurityPolicy target kind ${EXT_AUTH_KIND}: presence %s, problem %q; want unresolved, applying", tg.Presence, tg.Problem)
	}
	if p := g.Policy(ObjectRef{Kind: "AuthorizationPolicy.security.istio.io", Namespace: "media", Name: "authz"}); p == nil {
		t.Error("no AuthorizationPolicy media/authz")
	} else if tg := p.Targets[0]; tg.Presence != Unresolved || !tg.Applies() {
		t.Errorf("AuthorizationPolicy target namespace ${GATEWAY_NAMESPACE}: presence %s, problem %q; want unresolved, applying", tg.Presence, tg.Problem)
	}
	if len(g.TLSPolicies) != 1 {
		t.Fatalf("%d BackendTLSPolicies, want 1", len(g.TLSPolicies))
	}
	for _, p := range g.TLSPolicies {
		if tg := p.Targets[0]; tg.Presence != Unresolved || tg.Reason != "" {
			t.Errorf("BackendTLSPolicy target kind ${TLS_KIND}: presence %s, reason %q; want unresolved", tg.Presence, tg.Reason)
		}
	}
}
