package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// An ExternalName Service: its ports do not bound the backendRef's port;
// Envoy Gateway refuses it as a backend.
func TestExternalNameBackend(t *testing.T) {
	const docs = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}
---
apiVersion: v1
kind: Service
metadata: {name: payments, namespace: app}
spec: {type: ExternalName, externalName: api.payments.example.com}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: payments, port: 443}]}]`
	for _, c := range []struct {
		class   string
		problem resolve.BackendProblem
		route   resolve.Reason
	}{
		{"acme", resolve.NoProblem, resolve.ReasonResolvedRefs},
		{"eg", resolve.ExternalNameRefused, resolve.ReasonUnsupportedValue},
		{"istio", resolve.NoProblem, resolve.ReasonResolvedRefs},
	} {
		g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+c.class+`, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, docs)
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		if b := r.Rules[0].Backends[0]; b.Problem != c.problem || r.ResolvedRefs.Reason != c.route {
			t.Errorf("class %s: backend problem %q, route ResolvedRefs %s (%s); want %q, %s", c.class, b.Problem, r.ResolvedRefs.Reason, b.Message, c.problem, c.route)
		}
	}
}

// A UDPRoute to a Service port of the right number but for TCP: Envoy
// Gateway matches the protocol too and finds no port; the API's reading
// matches numbers only.
func TestPortProtocol(t *testing.T) {
	const docs = `
apiVersion: v1
kind: Service
metadata: {name: dns, namespace: app}
spec: {ports: [{name: tcp, port: 53, protocol: TCP}, {name: metrics, port: 9153}]}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: u, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: UDPRoute
metadata: {name: both, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: dns-both, port: 53}]}]
---
apiVersion: v1
kind: Service
metadata: {name: dns-both, namespace: app}
spec: {ports: [{name: tcp, port: 53, protocol: TCP}, {name: udp, port: 53, protocol: UDP}]}`
	for _, c := range []struct {
		class    string
		uProblem resolve.BackendProblem
		u        resolve.Reason // the route u's ResolvedRefs reason
	}{
		{"acme", resolve.NoProblem, resolve.ReasonResolvedRefs},
		{"eg", resolve.PortNotFound, envoygateway.ReasonPortNotFound},
	} {
		g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+c.class+`, listeners: [{name: dns, protocol: UDP, port: 53, allowedRoutes: {namespaces: {from: All}}}]}`, docs)
		u := resolvetest.Route(t, g, resolve.KindUDPRoute, "app", "u")
		if b := u.Rules[0].Backends[0]; b.Problem != c.uProblem || u.ResolvedRefs.Reason != c.u {
			t.Errorf("class %s, UDPRoute u: backend problem %q, ResolvedRefs %s (%s); want %q, %s", c.class, b.Problem, u.ResolvedRefs.Reason, u.ResolvedRefs.Message, c.uProblem, c.u)
		}
		// A Service with the number for both protocols: its UDP port.
		both := resolvetest.Route(t, g, resolve.KindUDPRoute, "app", "both")
		if b := both.Rules[0].Backends[0]; !b.Valid() || b.Port == nil || b.Port.Name != "udp" || both.ResolvedRefs.Reason != resolve.ReasonResolvedRefs {
			t.Errorf("class %s, UDPRoute both: valid %v, port %+v, ResolvedRefs %s; want the UDP port", c.class, b.Valid(), b.Port, both.ResolvedRefs.Reason)
		}
	}
}
