package resolve

import (
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd"
)

// A version that the channel does not serve costs one finding, not the
// object: it is read as its successor and resolved like any other.
func TestUnservedVersionsAreReadAsTheirSuccessor(t *testing.T) {
	g := resolveYAML(t, Options{Validate: true}, world, `
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: GRPCRoute
metadata: {name: old, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules: [{backendRefs: [{name: catalog, namespace: shared, port: 9090}]}]`, `
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: new, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules: [{backendRefs: [{name: web, port: 9090}]}]`, `
apiVersion: v1
kind: Service
metadata: {name: catalog, namespace: shared}
spec: {ports: [{port: 9090}]}`, `
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: ReferenceGrant
metadata: {name: allow-app, namespace: shared}
spec:
  from: [{group: gateway.networking.k8s.io, kind: GRPCRoute, namespace: app}]
  to: [{group: "", kind: Service}]`)
	for _, name := range []string{"old", "new"} {
		r := mustRoute(t, g, KindGRPCRoute, "app", name)
		if !r.Accepted() || len(r.Parents[0].Listeners) != 1 {
			t.Errorf("GRPCRoute app/%s: accepted %t (%s), want attached to listener http", name, r.Accepted(), r.Parents[0].Accepted.Reason)
		}
		if b := r.Rules[0].Backends[0]; !b.Valid() {
			t.Errorf("GRPCRoute app/%s: backend %s %s, want resolved (the v1alpha2 ReferenceGrant permits it)", name, b.Reason, b.Message)
		}
		if v := r.Version(); (name == "old") != (v.State == VersionRetired) || v.ReadAs != GroupGateway+"/v1" {
			t.Errorf("GRPCRoute app/%s: version %+v", name, v)
		}
	}
	if v := mustRoute(t, g, KindGRPCRoute, "app", "old").Violations; len(v) != 0 {
		t.Errorf("v1alpha2 GRPCRoute read as v1: violations %v, want none", v)
	}
}

func TestAPIVersionInfo(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		ch               crd.Channel
		state            VersionState
		readAs, message  string
	}{
		{"gateway.networking.k8s.io/v1", "HTTPRoute", crd.Standard, VersionServed, "gateway.networking.k8s.io/v1", ""},
		// The storage version of ReferenceGrant in v1.6.3.
		{"gateway.networking.k8s.io/v1beta1", "ReferenceGrant", crd.Standard, VersionServed, "gateway.networking.k8s.io/v1beta1", ""},
		{"gateway.networking.k8s.io/v1alpha2", "GRPCRoute", crd.Experimental, VersionRetired, "gateway.networking.k8s.io/v1", "last served by v1.1"},
		{"gateway.networking.k8s.io/v1alpha2", "HTTPRoute", crd.Standard, VersionRetired, "gateway.networking.k8s.io/v1", "last served by v0.7"},
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", crd.Experimental, VersionDeprecated, "gateway.networking.k8s.io/v1alpha2", "The v1alpha2 version of TLSRoute has been deprecated"},
		{"gateway.networking.k8s.io/v1alpha3", "BackendTLSPolicy", crd.Standard, VersionExperimentalOnly, "gateway.networking.k8s.io/v1", "write gateway.networking.k8s.io/v1"},
		{"gateway.networking.x-k8s.io/v1alpha1", "XMesh", crd.Standard, VersionExperimentalOnly, "", "needs them installed"},
		{"gateway.networking.x-k8s.io/v1alpha1", "XListenerSet", crd.Standard, VersionRetired, "gateway.networking.k8s.io/v1",
			"last served by v1.4); write gateway.networking.k8s.io/v1 ListenerSet, which has its fields (spec.listeners[].port is required)"},
	} {
		doc := "apiVersion: " + tc.apiVersion + "\nkind: " + tc.kind + "\nmetadata: {name: x, namespace: app}\n"
		in := Load([]string{"-"}, strings.NewReader(doc), Options{Channel: tc.ch})
		if len(in.Objects) != 1 {
			t.Errorf("%s %s: %d objects, errors %v", tc.apiVersion, tc.kind, len(in.Objects), in.Errors)
			continue
		}
		v := in.Objects[0].Metadata().Version()
		if v.State != tc.state || v.ReadAs != tc.readAs || !strings.Contains(v.Message, tc.message) || (tc.message == "") != (v.Message == "") {
			t.Errorf("%s %s (channel %d): %+v, want state %d, read as %q, message with %q", tc.apiVersion, tc.kind, tc.ch, v, tc.state, tc.readAs, tc.message)
		}
	}
}

// Versions that never were are still not read: no release served ListenerSet
// in gateway.networking.k8s.io/v1alpha1 (XListenerSet had that version in
// the x-k8s.io group).
func TestUnknownVersionsAreErrors(t *testing.T) {
	for _, tc := range []struct{ apiVersion, kind, served string }{
		{"gateway.networking.k8s.io/v2", "BackendTLSPolicy", "v1, v1alpha3"},
		{"gateway.networking.k8s.io/v1alpha1", "ListenerSet", "v1"},
	} {
		doc := "apiVersion: " + tc.apiVersion + "\nkind: " + tc.kind + "\nmetadata: {name: x, namespace: app}\n"
		in := Load([]string{"-"}, strings.NewReader(doc), Options{})
		if len(in.Objects) != 0 || len(in.Errors) != 1 || !strings.Contains(in.Errors[0].Error(), "is not served by Gateway API v1.6.3 (served: "+tc.served+")") {
			t.Errorf("%s %s: objects %d, errors %v; want one error naming the served versions", tc.apiVersion, tc.kind, len(in.Objects), in.Errors)
		}
	}
}

// XListenerSet v1alpha1 (Gateway API v1.3–v1.4) is read as ListenerSet v1,
// the kind it became, and resolved; its status is a v1 ListenerSet's; a
// listener without a port, which v1alpha1 allowed, is the one field v1
// refuses.
func TestXListenerSetIsReadAsListenerSet(t *testing.T) {
	g := resolveYAML(t, Options{Validate: true}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: shared, namespace: infra}
spec:
  gatewayClassName: acme
  allowedListeners: {namespaces: {from: All}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: extra, namespace: app}
spec:
  parentRef: {name: shared, namespace: infra}
  listeners:
  - {name: web, protocol: HTTP, port: 8080, hostname: web.example.com}
---
apiVersion: gateway.networking.x-k8s.io/v1alpha1
kind: XListenerSet
metadata: {name: portless, namespace: app}
spec:
  parentRef: {name: shared, namespace: infra}
  listeners:
  - {name: web, protocol: HTTP, hostname: other.example.com}`)
	ls := g.ListenerSet("app", "extra")
	if ls == nil {
		t.Fatal("ListenerSet app/extra not read")
	}
	if !ls.Accepted.True() || len(ls.Listeners) != 1 || !ls.Listeners[0].Programmed.True() {
		t.Errorf("Accepted %+v, listeners %d; want accepted with listener web programmed", ls.Accepted, len(ls.Listeners))
	}
	if v := ls.Version(); v.State != VersionRetired || v.Kind != "XListenerSet" || v.ReadAs != GroupGateway+"/v1" {
		t.Errorf("version %+v; want retired XListenerSet read as v1", v)
	}
	if len(ls.Violations) != 0 {
		t.Errorf("violations %v; want none", ls.Violations)
	}
	for _, st := range g.Statuses() {
		if st.Metadata.Name == "extra" && (st.APIVersion != GroupGateway+"/v1" || st.Kind != KindListenerSet) {
			t.Errorf("status written as %s %s; want gateway.networking.k8s.io/v1 ListenerSet", st.APIVersion, st.Kind)
		}
	}
	if v := g.ListenerSet("app", "portless").Violations; len(v) != 1 || v[0].Path != "spec.listeners[0].port" {
		t.Errorf("portless violations %v; want spec.listeners[0].port required", v)
	}
}

// BackendTLSPolicy v1alpha2 (Gateway API v1.0–v1.1) is read with its fields
// renamed as v1alpha3 renamed them, and resolved.
func TestBackendTLSPolicyV1alpha2(t *testing.T) {
	g := resolveYAML(t, Options{Validate: true}, world, `
apiVersion: v1
kind: ConfigMap
metadata: {name: web-ca, namespace: app}
data: {ca.crt: "not a certificate"}
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: BackendTLSPolicy
metadata: {name: web, namespace: app}
spec:
  targetRef: {group: "", kind: Service, name: web}
  tls:
    caCertRefs: [{group: "", kind: ConfigMap, name: web-ca}]
    hostname: web.example.com`)
	p := g.TLSPolicies[0]
	if p.Version().State != VersionRetired || !strings.Contains(p.Version().Message, "renames its fields") {
		t.Errorf("version %+v; want retired, naming the renamed fields", p.Version())
	}
	if len(p.Targets) != 1 || p.Targets[0].Target.Name != "web" || !p.Targets[0].Applies() {
		t.Errorf("targets %+v; want Service app/web", p.Targets)
	}
	if len(p.CARefs) != 1 || p.CARefs[0].Target.Name != "web-ca" || p.Accepted.Reason != ReasonNoValidCACertificate {
		t.Errorf("CA refs %+v, Accepted %+v; want ConfigMap web-ca, which holds no certificate", p.CARefs, p.Accepted)
	}
	if v := p.Violations; len(v) != 0 {
		t.Errorf("violations %v; want none once renamed", v)
	}
}

// A version only the experimental channel serves is judged by that
// channel's schema of it, whichever channel is in effect, and read as its
// successor: TLSRoute and TCPRoute v1alpha2 as home-lab repositories write
// them (no hostnames, several rules) are valid, though v1 requires
// hostnames and takes one rule; what v1alpha2 refuses is still refused.
func TestExperimentalOnlyVersionsAreJudgedByTheirSchema(t *testing.T) {
	const gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: envoy-external, namespace: network}
spec:
  gatewayClassName: acme
  listeners:
  - {name: tls, protocol: TLS, port: 443, tls: {mode: Passthrough}, allowedRoutes: {namespaces: {from: All}}}
  - {name: postgres, protocol: TCP, port: 5432, allowedRoutes: {namespaces: {from: All}}}`
	const valid = `
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TLSRoute
metadata: {name: unifi, namespace: network}
spec:
  parentRefs: [{name: envoy-external, namespace: network, sectionName: tls}]
  rules: [{backendRefs: [{name: unifi, port: 8443}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: postgres, namespace: database}
spec:
  parentRefs: [{name: envoy-external, namespace: network, sectionName: postgres}]
  rules:
  - {name: primary, backendRefs: [{name: postgres-rw, port: 5432}]}
  - {name: replica, backendRefs: [{name: postgres-ro, port: 5432}]}`
	const invalid = `
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TLSRoute
metadata: {name: plex, namespace: media}
spec:
  parentRefs: [{name: envoy-external, namespace: network, sectionName: tls}]
  hostnames: [Plex.example.com]
  rules:
  - {name: plex, backendRefs: [{name: plex, port: 32400}]}
  - {name: plex, backendRefs: [{name: plex-direct, port: 32400}]}`
	for _, tc := range []struct {
		name string
		opts Options
	}{
		{"standard channel assumed", Options{Validate: true, ChannelAssumed: true}},
		{"standard channel", Options{Validate: true, Channel: crd.Standard}},
		{"experimental channel", Options{Validate: true, Channel: crd.Experimental}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := resolveYAML(t, tc.opts, world, gateway, valid, invalid)
			for _, r := range []struct{ kind, ns, name string }{{KindTLSRoute, "network", "unifi"}, {KindTCPRoute, "database", "postgres"}} {
				route := mustRoute(t, g, r.kind, r.ns, r.name)
				if len(route.Violations) != 0 {
					t.Errorf("%s %s: violations %v, want none", r.kind, r.name, route.Violations)
				}
				if !route.Accepted() {
					t.Errorf("%s %s: %s, want accepted", r.kind, r.name, route.Parents[0].Accepted.Reason)
				}
				if want := tc.opts.Channel == crd.Standard; route.Version().NotServed() != want {
					t.Errorf("%s %s: version %+v, not served %t", r.kind, r.name, route.Version(), want)
				}
			}
			if rules := mustRoute(t, g, KindTCPRoute, "database", "postgres").Rules; len(rules) != 2 {
				t.Errorf("TCPRoute postgres: %d rules, want both", len(rules))
			}
			var got []string
			for _, v := range mustRoute(t, g, KindTLSRoute, "media", "plex").Violations {
				got = append(got, v.Path+" "+v.Type)
			}
			want := "spec.hostnames[0] Invalid value; spec.rules Invalid value"
			if strings.Join(got, "; ") != want {
				t.Errorf("TLSRoute plex: violations %q, want %q", got, want)
			}
		})
	}
}

// A release judges its own versions: what gwlint's release retired may be
// served by an older one (GRPCRoute v1alpha2 by v1.1.0's experimental
// CRDs), and a version a newer release added is not served by an older
// one (TLSRoute v1 before v1.5), whose messages name the release.
func TestVersionsOfTheRelease(t *testing.T) {
	v110, _ := crd.ParseRelease("v1.1.0")
	v120, _ := crd.ParseRelease("v1.2.0")
	in := Load([]string{"-"}, strings.NewReader(`
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: GRPCRoute
metadata: {name: old, namespace: app}`), Options{Validate: true, Release: v110, Channel: crd.Experimental})
	if len(in.Errors) != 0 || len(in.Objects) != 1 {
		t.Fatalf("v1.1.0: %d objects, errors %v", len(in.Objects), in.Errors)
	}
	if v := in.Objects[0].Metadata().Version(); v.State != VersionDeprecated {
		t.Errorf("GRPCRoute v1alpha2 under v1.1.0 experimental: %+v, want deprecated", v)
	}
	in = Load([]string{"-"}, strings.NewReader(`
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: new, namespace: app}`), Options{Validate: true, Release: v120})
	if len(in.Errors) != 1 || !strings.Contains(in.Errors[0].Msg, "TLSRoute gateway.networking.k8s.io/v1 is not served by Gateway API v1.2.0 (served: v1alpha2)") {
		t.Errorf("TLSRoute v1 under v1.2.0: errors %v", in.Errors)
	}
}
