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
