package envoygateway_test

import (
	"fmt"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// strict are byClass's Options with references to objects the inputs do
// not hold read as missing.
var strict = func() resolve.Options {
	opts := byClass
	opts.StrictRefs = true
	return opts
}()

// The reason of a listener that is not programmed: the API's reading gives a
// conflicted listener its conflict's reason and Invalid otherwise; Envoy
// Gateway gives Invalid to a Gateway's conflicted listeners too, and a
// failing client-certificate validation's reason over any other.
func TestListenerProgrammedReason(t *testing.T) {
	const gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: %s
  tls: {frontend: {default: {validation: {caCertificateRefs: [{group: "", kind: ConfigMap, name: nowhere}]}}}}
  listeners:
  - {name: a, protocol: HTTP, port: 8080}
  - {name: b, protocol: HTTP, port: 8080}
  - {name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: inline}]}}`
	for _, c := range []struct {
		class           string
		conflict, noCAs resolve.Reason
	}{
		{"acme", resolve.ReasonHostnameConflict, resolve.ReasonInvalid},
		{"eg", resolve.ReasonInvalid, resolve.ReasonInvalidCACertificateRef},
	} {
		g := resolvetest.Resolve(t, strict, resolvetest.World, egClass, inlineSecret, fmt.Sprintf(gateway, c.class))
		ls := g.Gateway("infra", "edge").Listeners
		if ls[0].Programmed.Reason != c.conflict || ls[2].Programmed.Reason != c.noCAs {
			t.Errorf("class %s: Programmed %s (conflict), %s (no usable CA); want %s, %s", c.class,
				ls[0].Programmed.Reason, ls[2].Programmed.Reason, c.conflict, c.noCAs)
		}
	}
}

// An HTTPS listener without tls: not programmed under both; the API's
// reading also sets its ResolvedRefs False, Envoy Gateway leaves it True.
func TestHTTPSListenerWithoutTLS(t *testing.T) {
	for _, c := range []struct {
		impl, class  string
		resolvedRefs resolve.Reason
	}{{"", "acme", resolve.ReasonInvalidCertificateRef}, {"envoy-gateway", "eg", resolve.ReasonResolvedRefs}} {
		l := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners: [{name: https, protocol: HTTPS, port: 443}]`).Gateway("infra", "edge").Listeners[0]
		if l.ResolvedRefs.Reason != c.resolvedRefs || l.Programmed.Reason != resolve.ReasonInvalid {
			t.Errorf("class %s: ResolvedRefs %s, Programmed %s; want %s, Invalid", c.class, l.ResolvedRefs.Reason, l.Programmed.Reason, c.resolvedRefs)
		}
	}
}

// A Passthrough listener with certificateRefs: the API ignores them, Envoy
// Gateway does not program the listener.
func TestPassthroughCertificates(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		programmed  resolve.Reason
	}{{"", "acme", resolve.ReasonProgrammed}, {"envoy-gateway", "eg", resolve.ReasonInvalid}} {
		l := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners: [{name: tls, protocol: TLS, port: 443, tls: {mode: Passthrough, certificateRefs: [{name: shop}]}}]`).Gateway("infra", "edge").Listeners[0]
		if l.Programmed.Reason != c.programmed {
			t.Errorf("class %s: Programmed %s (%s); want %s", c.class, l.Programmed.Reason, l.Programmed.Message, c.programmed)
		}
	}
}

// A ListenerSet whose only listener is accepted but not programmed (its
// certificate is missing): the API's reading refuses the ListenerSet;
// Envoy Gateway accepts it and says so in Programmed, and writes its
// listener's Invalid as ListenersNotValid.
func TestListenerSetOfUnprogrammedListeners(t *testing.T) {
	for _, c := range []struct {
		class, certNamespace     string
		accepted, programmed, lp resolve.Reason
		acceptedTrue             bool
	}{
		{"acme", "infra", resolve.ReasonListenersNotValid, resolve.ReasonListenersNotValid, resolve.ReasonInvalid, false},
		{"eg", "infra", resolve.ReasonAccepted, resolve.ReasonListenersNotValid, resolve.ReasonListenersNotValid, true},
		// A certificate not permitted is not one that is missing: Envoy
		// Gateway writes the listener no Accepted condition.
		{"eg", "certs", resolve.ReasonListenersNotValid, resolve.ReasonListenersNotValid, resolve.ReasonListenersNotValid, false},
	} {
		g := resolvetest.Resolve(t, strict, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  allowedListeners: {namespaces: {from: Same}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team, namespace: infra}
spec:
  parentRef: {name: edge}
  listeners: [{name: https, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: nowhere, namespace: `+c.certNamespace+`}]}}]`)
		ls := g.ListenerSet("infra", "team")
		l := ls.Listeners[0]
		if ls.Accepted.True() != c.acceptedTrue || ls.Accepted.Reason != c.accepted || ls.Programmed.Reason != c.programmed || l.Programmed.Reason != c.lp {
			t.Errorf("class %s: ListenerSet Accepted %s/%s, Programmed %s, listener Programmed %s; want %v/%s, %s, %s", c.class,
				ls.Accepted.Status, ls.Accepted.Reason, ls.Programmed.Reason, l.Programmed.Reason, c.acceptedTrue, c.accepted, c.programmed, c.lp)
		}
	}
}

// NamedAddress, an address type of the API with implementation-specific
// support: Envoy Gateway refuses it.
func TestAddressTypes(t *testing.T) {
	for _, c := range []struct {
		impl     resolve.Implementation
		class    string
		accepted resolve.Reason
	}{{nil, "acme", resolve.ReasonAccepted}, {envoygateway.Implementation{}, "eg", resolve.ReasonUnsupportedAddress}} {
		gw := resolvetest.Resolve(t, resolvetest.JudgedBy(t, c.impl), resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  addresses: [{type: NamedAddress, value: edge-ip}, {type: IPAddress, value: 192.0.2.1}]
  listeners: [{name: http, protocol: HTTP, port: 80}]`).Gateway("infra", "edge")
		if gw.Accepted.Reason != c.accepted {
			t.Errorf("class %s: Accepted %s (%s); want %s", c.class, gw.Accepted.Reason, gw.Accepted.Message, c.accepted)
		}
	}
}
