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
		if v := r.Version; (name == "old") != (v.State == VersionRetired) || v.ReadAs != GroupGateway+"/v1" {
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
	} {
		doc := "apiVersion: " + tc.apiVersion + "\nkind: " + tc.kind + "\nmetadata: {name: x, namespace: app}\n"
		in := Load([]string{"-"}, strings.NewReader(doc), Options{Channel: tc.ch})
		if len(in.Objects) != 1 {
			t.Errorf("%s %s: %d objects, errors %v", tc.apiVersion, tc.kind, len(in.Objects), in.Errors)
			continue
		}
		v := in.Objects[0].Metadata().Version
		if v.State != tc.state || v.ReadAs != tc.readAs || !strings.Contains(v.Message, tc.message) || (tc.message == "") != (v.Message == "") {
			t.Errorf("%s %s (channel %d): %+v, want state %d, read as %q, message with %q", tc.apiVersion, tc.kind, tc.ch, v, tc.state, tc.readAs, tc.message)
		}
	}
}

// Versions that never were, or whose fields v1 renamed, are still not read.
func TestUnknownVersionsAreErrors(t *testing.T) {
	doc := "apiVersion: gateway.networking.k8s.io/v2\nkind: BackendTLSPolicy\nmetadata: {name: x, namespace: app}\n"
	in := Load([]string{"-"}, strings.NewReader(doc), Options{})
	if len(in.Objects) != 0 || len(in.Errors) != 1 || !strings.Contains(in.Errors[0].Error(), "is not served by Gateway API v1.6.3 (served: v1, v1alpha3)") {
		t.Errorf("v2 BackendTLSPolicy: objects %d, errors %v; want one error naming the served versions", len(in.Objects), in.Errors)
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
	if p.Version.State != VersionRetired || !strings.Contains(p.Version.Message, "renames its fields") {
		t.Errorf("version %+v; want retired, naming the renamed fields", p.Version)
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
