package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// byClass lets each Gateway's class choose its profile, and reads the
// world as Istio does for Istio's: as gwlint check resolves.
var byClass = resolve.Options{Implementations: []resolve.Implementation{istio.Implementation{}}}

// A Gateway of Istio's istio-remote class stands for another cluster's:
// Istio accepts it, programs nothing, writes no listener status, and no
// status on the routes that name it. The API's reading judges it as any.
func TestRemoteGateway(t *testing.T) {
	docs := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-remote}
spec: {controllerName: istio.io/unmanaged-gateway}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eastwest, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  listeners: [{name: cross-network, protocol: TLS, port: 15443, tls: {mode: Passthrough}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: istiod, namespace: infra}
spec:
  parentRefs: [{name: eastwest, sectionName: istiod-grpc}]
  hostnames: [istiod.example.com]
  rules: [{backendRefs: [{name: istiod, port: 15012}]}]`
	}
	for _, c := range []struct {
		impl, class string
		listeners   int
		parent      resolve.Reason // the route's Accepted reason
		status      bool           // whether the route's parent has a status entry
	}{{"", "acme", 1, resolve.ReasonNoMatchingParent, true}, {"istio", "istio-remote", 0, resolve.ReasonPending, false}} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, docs(c.class))
		gw := g.Gateway("infra", "eastwest")
		p := resolvetest.Route(t, g, resolve.KindTLSRoute, "infra", "istiod").Parents[0]
		if st := resolvetest.GatewayStatus(t, g, "infra", "eastwest"); !gw.Programmed.True() || len(st.Listeners) != c.listeners || p.Accepted.Reason != c.parent || p.HasStatus() != c.status {
			t.Errorf("under %q: Programmed %s, %d listener statuses, route parent %s (status %v); want True, %d, %s (%v)",
				c.impl, gw.Programmed.Status, len(st.Listeners), p.Accepted.Reason, p.HasStatus(), c.listeners, c.parent, c.status)
		}
	}
}

// A ListenerSet of a Gateway refused for its addresses: the API's
// ParentNotAccepted, Istio's UnsupportedAddress; of a Gateway refused for
// its listeners: ParentNotAccepted, and under Istio its own verdict. A
// ListenerSet's HTTPS listener without tls is no placeholder.
func TestListenerSetParent(t *testing.T) {
	gateway := func(class, name, spec string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: ` + name + `, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  allowedListeners: {namespaces: {from: Same}}
  ` + spec + `
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: ` + name + `, namespace: infra}
spec:
  parentRef: {name: ` + name + `}
  listeners:
  - {name: web, protocol: HTTP, port: 8080, hostname: web.example.com}
  - {name: secure, protocol: HTTPS, port: 8443, hostname: web.example.com}`
	}
	type verdict struct{ address, listeners, secure resolve.Reason }
	for _, run := range []struct {
		impl, class string
		want        verdict
	}{
		{"", "acme", verdict{resolve.ReasonParentNotAccepted, resolve.ReasonParentNotAccepted, resolve.ReasonAccepted}},
		{"istio", "istio", verdict{resolve.ReasonUnsupportedAddress, resolve.ReasonAccepted, resolve.ReasonUnsupportedProtocol}},
	} {
		opts := resolvetest.JudgedBy(t, judges[run.impl])
		opts.StrictRefs = true
		g := resolvetest.Resolve(t, opts, resolvetest.World, classes,
			gateway(run.class, "by-address", "addresses: [{type: example.com/custom, value: x}]\n  listeners: [{name: http, protocol: HTTP, port: 80}]"),
			gateway(run.class, "by-listeners", "listeners: [{name: odd, protocol: example.com/odd, port: 80}]"))
		by := func(name string) *resolve.ListenerSetResult { return g.ListenerSet("infra", name) }
		got := verdict{by("by-address").Accepted.Reason, by("by-listeners").Accepted.Reason, by("by-listeners").Listeners[1].Accepted.Reason}
		if got != run.want {
			t.Errorf("under %q: %+v; want %+v", run.impl, got, run.want)
		}
	}
}

// A certificateRef to another namespace that no ReferenceGrant permits:
// ResolvedRefs=False/RefNotPermitted everywhere; Istio also refuses the
// listener.
func TestNotPermittedCertificate(t *testing.T) {
	// Which certificate it holds does not matter: the grant is checked
	// before the Secret is read.
	const secret = `
apiVersion: v1
kind: Secret
metadata: {name: shop, namespace: app}
type: kubernetes.io/tls
data: {tls.crt: "", tls.key: ""}`
	for _, c := range []struct {
		impl, class string
		accepted    resolve.Reason
	}{{"", "acme", resolve.ReasonAccepted}, {"istio", "istio", resolve.ReasonNoValidCACertificate}} {
		l := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, classes, secret, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners: [{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: shop, namespace: app}]}}]`).Gateway("infra", "edge").Listeners[0]
		if l.ResolvedRefs.Reason != resolve.ReasonRefNotPermitted || l.Accepted.Reason != c.accepted {
			t.Errorf("class %s: ResolvedRefs %s, Accepted %s; want RefNotPermitted, %s", c.class, l.ResolvedRefs.Reason, l.Accepted.Reason, c.accepted)
		}
	}
}
