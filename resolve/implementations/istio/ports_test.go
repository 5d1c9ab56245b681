package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A backendRef port the Service lacks: BackendNotFound under every
// feature; Istio does not check it, and the route's ResolvedRefs stays
// True. A Service that does not exist is BackendNotFound under each.
func TestMissingServicePort(t *testing.T) {
	const gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: istio, namespace: infra}
spec: {gatewayClassName: istio, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	route := func(parent, backend string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: ` + parent + `, namespace: infra}]
  rules: [{backendRefs: [` + backend + `]}]`
	}
	// The namespaces are held whole: a Service they lack does not exist.
	opts := byClass
	opts.OwnedNamespaces = []string{"infra", "app"}
	for _, c := range []struct {
		parent string
		// resolved is the route's ResolvedRefs reason.
		resolved   resolve.Reason
		unreported bool
	}{
		{"gw", resolve.ReasonBackendNotFound, false},
		{"istio", resolve.ReasonResolvedRefs, true},
	} {
		g := resolvetest.Resolve(t, opts, resolvetest.World, classes, gateway, route(c.parent, "{name: web, port: 7777}"))
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		b := r.Rules[0].Backends[0]
		if b.Problem != resolve.PortNotFound || b.Valid() || b.Reason != resolve.ReasonBackendNotFound || b.Unreported != c.unreported {
			t.Errorf("parent %s: backend %s/%s unreported=%v valid=%v; want %s/%s unreported=%v, never valid", c.parent,
				b.Problem, b.Reason, b.Unreported, b.Valid(), resolve.PortNotFound, resolve.ReasonBackendNotFound, c.unreported)
		}
		if r.ResolvedRefs.Reason != c.resolved {
			t.Errorf("parent %s: route ResolvedRefs %s (%s), want %s", c.parent, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, c.resolved)
		}
		g = resolvetest.Resolve(t, opts, resolvetest.World, classes, gateway, route(c.parent, "{name: nowhere, port: 80}"))
		if r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != resolve.ReasonBackendNotFound {
			t.Errorf("missing Service under Gateway %s: route ResolvedRefs %s, want BackendNotFound", c.parent, r.ResolvedRefs.Reason)
		}
	}
}
