package istio_test

import (
	"testing"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// policyStatus is the status the graph writes for BackendTLSPolicy ns/name.
func policyStatus(t *testing.T, g *resolve.Graph, ns, name string) gwv1.PolicyStatus {
	t.Helper()
	return resolvetest.StatusOf[gwv1.PolicyStatus](t, g, resolve.KindBackendTLSPolicy, ns, name)
}

// A BackendTLSPolicy opted out by Istio's annotation, beside a newer one for
// the same Service.
func TestIgnoredBackendTLSPolicy(t *testing.T) {
	const policies = `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: old
  namespace: app
  creationTimestamp: "2024-01-01T00:00:00Z"
  annotations: {istio.io/ignore-policy-attachment: "True"}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.example.com}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: new, namespace: app, creationTimestamp: "2025-01-01T00:00:00Z"}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.example.com}`
	for _, c := range []struct {
		impl     string
		old, new resolve.Reason // Accepted reasons
	}{
		{"", resolve.ReasonAccepted, resolve.ReasonConflicted},
		{"istio", resolve.Reason("IgnoredByIstio"), resolve.ReasonAccepted},
	} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, policies)
		byName := map[string]*resolve.BackendTLSPolicyResult{}
		for _, p := range g.TLSPolicies {
			byName[p.Ref.Name] = p
		}
		if got := byName["old"].Accepted.Reason; got != c.old {
			t.Errorf("under %s: old policy %s, want %s", g.Profile(), got, c.old)
		}
		if got := byName["new"].Accepted.Reason; got != c.new {
			t.Errorf("under %s: new policy %s, want %s", g.Profile(), got, c.new)
		}
		if c.impl != "istio" {
			continue
		}
		// Written once per targetRef by the mesh controller, with Accepted
		// alone.
		st := policyStatus(t, g, "app", "old")
		if len(st.Ancestors) != 1 || st.Ancestors[0].ControllerName != "istio.io/mesh-controller" ||
			len(st.Ancestors[0].Conditions) != 1 || st.Ancestors[0].Conditions[0].Reason != "IgnoredByIstio" {
			t.Errorf("ignored policy's status %+v, want one ancestor, Accepted=False/IgnoredByIstio alone", st.Ancestors)
		}
	}
}

// With no implementation selected, Istio's opt-out annotation is read
// when the policy's Service is reached through routes of Istio's Gateways
// only, as the implementations that read the policy are those: it was
// read only when istio was selected.
func TestIgnoredBackendTLSPolicyByGatewayClass(t *testing.T) {
	docs := func(controller string) []string {
		return []string{`
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: c}
spec: {controllerName: ` + controller + `}`, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: app}
spec:
  gatewayClassName: c
  listeners: [{name: http, port: 80, protocol: HTTP}]`, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: web, port: 443}]}]`, `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata:
  name: p
  namespace: app
  annotations: {istio.io/ignore-policy-attachment: "true"}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.example.com}`}
	}
	for controller, want := range map[string]resolve.Reason{
		"istio.io/gateway-controller":                   resolve.Reason("IgnoredByIstio"),
		"gateway.envoyproxy.io/gatewayclass-controller": resolve.ReasonAccepted,
	} {
		g := resolvetest.Resolve(t, byClass, docs(controller)...)
		if got := g.TLSPolicies[0].Accepted.Reason; got != want {
			t.Errorf("under %s: policy %s (%s), want %s", controller, got, g.TLSPolicies[0].Accepted.Message, want)
		}
	}
}
