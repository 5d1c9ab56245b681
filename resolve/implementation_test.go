package resolve

import (
	"testing"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile"
)

func mustProfile(t *testing.T, selector string) *profile.Profile {
	t.Helper()
	p, err := profile.Lookup(selector)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// judgedBy returns Options selecting the implementation named, or none for
// "" (the "every feature" profile, unless a class selects another).
func judgedBy(t *testing.T, impl string) Options {
	t.Helper()
	if impl == "" {
		return Options{}
	}
	return Options{Implementation: mustProfile(t, impl)}
}

func TestProfileSelection(t *testing.T) {
	const classes = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: by-controller, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: by-installed-class, namespace: infra}
spec: {gatewayClassName: istio-waypoint, listeners: [{name: mesh, protocol: HBONE, port: 15008}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: unknown, namespace: infra}
spec: {gatewayClassName: acme, listeners: [{name: http, protocol: HTTP, port: 80}]}`
	g := resolveYAML(t, Options{StrictRefs: true}, classes)
	for name, want := range map[string]string{"by-controller": "envoy-gateway", "by-installed-class": "istio", "unknown": "every feature"} {
		gw := g.Gateway("infra", name)
		if gw.Judge.Name != want && gw.Judge.String() != want {
			t.Errorf("Gateway %s: profile %s, want %s", name, gw.Judge, want)
		}
	}
	// A class its implementation installs is never missing, even with
	// --strict-refs; another absent class is.
	if p := g.Gateway("infra", "by-installed-class").ClassPresence; p != External {
		t.Errorf("istio-waypoint: presence %s, want external", p)
	}
	if p := g.Gateway("infra", "unknown").ClassPresence; p != Missing {
		t.Errorf("acme: presence %s, want missing", p)
	}
	// HBONE is not one of the API's protocols (Istio serves it: its
	// package's TestListenerProtocols).
	g = resolveYAML(t, Options{Implementation: mustProfile(t, "envoy-gateway")}, classes)
	if l := g.Gateway("infra", "by-installed-class").Listeners[0]; l.Accepted.Reason != ReasonUnsupportedProtocol {
		t.Errorf("HBONE under envoy-gateway: %+v", l.Accepted)
	}
	if p := g.Gateway("infra", "unknown").Judge; p.Name != "envoy-gateway" {
		t.Errorf("--implementation: profile %s, want envoy-gateway", p)
	}
}

func TestImplementationSpecificValues(t *testing.T) {
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - backendRefs: [{group: gateway.envoyproxy.io, kind: Backend, name: external}]`
	for _, c := range []struct {
		impl      string
		backendOK bool
	}{{"", false}, {"envoy-gateway", true}, {"istio", false}} {
		opts := judgedBy(t, c.impl)
		g := resolveYAML(t, opts, world, route)
		b := mustRoute(t, g, KindHTTPRoute, "app", "r").Rules[0].Backends[0]
		if b.Valid() != c.backendOK {
			t.Errorf("%q: Backend backendRef valid = %v (%s), want %v", c.impl, b.Valid(), b.Message, c.backendOK)
		}
	}
}

func TestFeatureGaps(t *testing.T) {
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - filters: [{type: CORS, cors: {allowOrigins: ["https://a.example.com"]}}]
    backendRefs: [{name: web, port: 8080}]`
	gaps := func(opts Options) []string {
		var out []string
		for _, gap := range resolveYAML(t, opts, world, route).FeatureGaps {
			out = append(out, string(gap.Feature)+" "+gap.Path+" "+gap.Profile.String())
		}
		return out
	}
	if got := gaps(Options{}); len(got) != 0 {
		t.Errorf("every feature: gaps %v", got)
	}
	want := "HTTPRouteCORS spec.rules[0].filters[0] cilium@v1.20.0-pre.2"
	if got := gaps(Options{Implementation: mustProfile(t, "cilium")}); len(got) != 1 || got[0] != want {
		t.Errorf("cilium: gaps %v, want [%s]", got, want)
	}
	if got := gaps(Options{Implementation: mustProfile(t, "envoy-gateway")}); len(got) != 0 {
		t.Errorf("envoy-gateway: gaps %v", got)
	}
	got := gaps(Options{WithoutFeatures: []features.FeatureName{features.SupportHTTPRouteCORS}})
	if len(got) != 1 || got[0] != "HTTPRouteCORS spec.rules[0].filters[0] every feature without HTTPRouteCORS" {
		t.Errorf("--without-features HTTPRouteCORS: gaps %v", got)
	}
}
