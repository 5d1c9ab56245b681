package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Mesh routes bound to a Service: a port the Service lacks, and route kinds
// that the API ranks on one port.
func TestMeshParents(t *testing.T) {
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
		wrongPort, tcp resolve.Reason // Accepted reasons
	}{
		{"", resolve.ReasonNoMatchingParent, resolve.ReasonConflicted},
		{"istio", resolve.ReasonAccepted, resolve.ReasonAccepted},
	} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, routes)
		for _, want := range []struct {
			kind, name string
			reason     resolve.Reason
		}{{resolve.KindHTTPRoute, "wrong-port", c.wrongPort}, {resolve.KindTCPRoute, "tcp", c.tcp}, {resolve.KindHTTPRoute, "http", resolve.ReasonAccepted}} {
			if p := resolvetest.Route(t, g, want.kind, "app", want.name).Parents[0]; p.Accepted.Reason != want.reason {
				t.Errorf("%s %s under %s: Accepted %s (%s), want %s", want.kind, want.name, g.Profile(), p.Accepted.Reason, p.Accepted.Message, want.reason)
			}
		}
	}
}

// A Service whose Istio waypoint label names a Gateway of another
// controller: Istio leaves the route's parentRef to that controller.
func TestForeignWaypoint(t *testing.T) {
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
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, classes, docs(c.class))
		for _, name := range []string{"r", "r2"} {
			if c.impl == "" && name == "r2" {
				continue // a ServiceEntry parent is Istio's kind
			}
			p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", name).Parents[0]
			if p.HasStatus() != c.status || p.Accepted.True() == !c.status {
				t.Errorf("%s under %s, waypoint of class %s: status written %v, Accepted %s/%s (%s); want written %v", name, g.Profile(), c.class,
					p.HasStatus(), p.Accepted.Status, p.Accepted.Reason, p.Accepted.Message, c.status)
			}
		}
	}
}
