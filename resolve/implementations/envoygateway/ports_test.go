package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A backendRef port the Service lacks: BackendNotFound under every
// feature, Envoy Gateway's own PortNotFound under its class; a Service
// that does not exist is BackendNotFound under each.
func TestMissingServicePort(t *testing.T) {
	const gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: eg, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
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
		// reason is the backend's and the route's ResolvedRefs reason.
		reason resolve.Reason
	}{
		{"gw", resolve.ReasonBackendNotFound},
		{"eg", envoygateway.ReasonPortNotFound},
	} {
		g := resolvetest.Resolve(t, opts, resolvetest.World, class, gateway, route(c.parent, "{name: web, port: 7777}"))
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		b := r.Rules[0].Backends[0]
		if b.Problem != resolve.PortNotFound || b.Valid() || b.Reason != c.reason || b.Unreported {
			t.Errorf("parent %s: backend %s/%s unreported=%v valid=%v; want %s/%s reported, never valid", c.parent,
				b.Problem, b.Reason, b.Unreported, b.Valid(), resolve.PortNotFound, c.reason)
		}
		if r.ResolvedRefs.Reason != c.reason {
			t.Errorf("parent %s: route ResolvedRefs %s (%s), want %s", c.parent, r.ResolvedRefs.Reason, r.ResolvedRefs.Message, c.reason)
		}
		g = resolvetest.Resolve(t, opts, resolvetest.World, class, gateway, route(c.parent, "{name: nowhere, port: 80}"))
		if r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != resolve.ReasonBackendNotFound {
			t.Errorf("missing Service under Gateway %s: route ResolvedRefs %s, want BackendNotFound", c.parent, r.ResolvedRefs.Reason)
		}
	}
}
