package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A parentRef to Istio's ServiceEntry binds the route under Istio; elsewhere
// the kind is one no route attaches to.
func TestServiceEntryParent(t *testing.T) {
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: egress, namespace: app}
spec:
  parentRefs: [{group: networking.istio.io, kind: ServiceEntry, name: payments}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	for _, c := range []struct {
		impl        string
		accepted    resolve.Reason
		unsupported bool
	}{{"", resolve.ReasonUnsupportedValue, true}, {"istio", resolve.ReasonAccepted, false}} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, route)
		p := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "egress").Parents[0]
		if p.Accepted.Reason != c.accepted || p.UnsupportedKind != c.unsupported || (c.accepted == resolve.ReasonAccepted && p.Presence != resolve.External) {
			t.Errorf("under %q: Accepted %s, unsupported kind %v, presence %v; want %s, %v", c.impl, p.Accepted.Reason, p.UnsupportedKind, p.Presence, c.accepted, c.unsupported)
		}
	}
}

// A BackendTLSPolicy targeting ports of an Istio ServiceEntry by name.
func TestServiceEntryPolicyTarget(t *testing.T) {
	const docs = `
apiVersion: networking.istio.io/v1
kind: ServiceEntry
metadata: {name: payments, namespace: app}
spec:
  hosts: [api.payments.example.com]
  ports: [{number: 443, name: https, protocol: HTTPS}]
  resolution: DNS
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs:
  - {group: networking.istio.io, kind: ServiceEntry, name: payments, sectionName: https}
  - {group: networking.istio.io, kind: ServiceEntry, name: payments, sectionName: grpc}
  validation: {wellKnownCACertificates: System, hostname: api.payments.example.com}`
	for _, c := range []struct {
		impl        string
		https, grpc resolve.Reason // the targets' reasons
	}{
		{"", resolve.ReasonTargetNotFound, resolve.ReasonTargetNotFound},
		{"istio", "", resolve.ReasonTargetNotFound},
	} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, judges[c.impl]), resolvetest.World, docs)
		ts := g.TLSPolicies[0].Targets
		if ts[0].Reason != c.https || ts[1].Reason != c.grpc {
			t.Errorf("under %s: targets %q (%s), %q (%s); want %q, %q", g.Profile(), ts[0].Reason, ts[0].Message, ts[1].Reason, ts[1].Message, c.https, c.grpc)
		}
	}
}
