package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// classes are Istio's GatewayClasses as it installs them
// (pilot/pkg/config/kube/gatewaycommon/classinfo.go).
const classes = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-waypoint}
spec: {controllerName: istio.io/mesh-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio-east-west}
spec: {controllerName: istio.io/eastwest-controller}`

// judges are the implementations a case runs under: none, which lets
// each Gateway's class choose its profile, and Istio's.
var judges = map[string]resolve.Implementation{"": nil, "istio": istio.Implementation{}}

// How Istio writes a listener's conditions and counts it for its Gateway:
// Programmed=False only for TLS (programForTLS); an HTTPS listener without tls is
// a placeholder on a Gateway (TakePlaceholders); a waypoint's or
// east-west gateway's listener of another form is refused as a warning
// (ListenerShapes).
func TestListenerValidity(t *testing.T) {
	type verdict struct {
		accepted, programmed, resolvedRefs resolve.Reason // the listener's
		gateway                            resolve.Reason // the Gateway's Accepted
	}
	const (
		acc  = resolve.ReasonAccepted
		prog = resolve.ReasonProgrammed
		res  = resolve.ReasonResolvedRefs
		lnv  = resolve.ReasonListenersNotValid
	)
	cases := []struct {
		name, class, listener string
		every, istio          verdict
	}{{
		name: "a protocol in lower case", class: "istio",
		listener: "{name: l, protocol: http, port: 80}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, resolve.ReasonInvalid, res, lnv},
		istio:    verdict{resolve.ReasonUnsupportedProtocol, prog, res, lnv},
	}, {
		name: "only invalid route kinds", class: "istio",
		listener: "{name: l, protocol: HTTP, port: 80, allowedRoutes: {kinds: [{kind: TCPRoute}]}}",
		every:    verdict{acc, resolve.ReasonInvalid, resolve.ReasonInvalidRouteKinds, lnv},
		istio:    verdict{acc, prog, resolve.ReasonInvalidRouteKinds, acc},
	}, {
		name: "a missing certificate", class: "istio",
		listener: "{name: l, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: nowhere}]}}",
		every:    verdict{acc, resolve.ReasonInvalid, resolve.ReasonInvalidCertificateRef, lnv},
		istio:    verdict{acc, resolve.ReasonInvalid, resolve.ReasonInvalidCertificateRef, lnv},
	}, {
		name: "HTTPS without tls", class: "istio",
		listener: "{name: l, protocol: HTTPS, port: 443}",
		every:    verdict{acc, resolve.ReasonInvalid, resolve.ReasonInvalidCertificateRef, lnv},
		istio:    verdict{acc, prog, res, acc},
	}, {
		name: "a waypoint's HTTP listener", class: "istio-waypoint",
		listener: "{name: l, protocol: HTTP, port: 1234}",
		every:    verdict{acc, prog, res, acc},
		istio:    verdict{resolve.ReasonUnsupportedProtocol, prog, res, acc},
	}, {
		name: "an east-west gateway's HBONE listener without tls", class: "istio-east-west",
		listener: "{name: l, protocol: HBONE, port: 15008}",
		every:    verdict{resolve.ReasonUnsupportedProtocol, resolve.ReasonInvalid, res, lnv},
		istio:    verdict{resolve.ReasonUnsupportedProtocol, prog, res, acc},
	}, {
		name: "an east-west gateway's TLS passthrough listener", class: "istio-east-west",
		listener: "{name: l, protocol: TLS, port: 15443, tls: {mode: Passthrough}}",
		every:    verdict{acc, prog, res, acc},
		istio:    verdict{acc, prog, res, acc},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"istio", c.class, c.istio}} {
			opts := resolvetest.JudgedBy(t, judges[run.impl])
			opts.StrictRefs = true
			gw := resolvetest.Resolve(t, opts, resolvetest.World, classes, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: `+run.class+`, listeners: [`+c.listener+`]}`).Gateway("infra", "edge")
			l := gw.Listeners[0]
			if got := (verdict{l.Accepted.Reason, l.Programmed.Reason, l.ResolvedRefs.Reason, gw.Accepted.Reason}); got != run.want {
				t.Errorf("%s under %s: %+v; want %+v", c.name, gw.Judge, got, run.want)
			}
		}
	}
}
