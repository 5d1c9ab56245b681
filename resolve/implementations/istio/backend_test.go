package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A ServiceImport backendRef where the inputs hold the Service of its name
// and no ServiceImport: Istio looks it up as that Service.
func TestServiceImportBackend(t *testing.T) {
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [{group: multicluster.x-k8s.io, kind: ServiceImport, name: web, port: 8080}]}]`
	for _, c := range []struct {
		impl string
		want resolve.Reason
	}{{"", resolve.ReasonBackendNotFound}, {"istio", resolve.ReasonResolvedRefs}} {
		opts := resolvetest.JudgedBy(t, judges[c.impl])
		opts.StrictRefs = true
		g := resolvetest.Resolve(t, opts, resolvetest.World, route)
		if r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r"); r.ResolvedRefs.Reason != c.want {
			t.Errorf("under %s: route ResolvedRefs %s (%s), want %s", g.Profile(), r.ResolvedRefs.Reason, r.ResolvedRefs.Message, c.want)
		}
	}
}
