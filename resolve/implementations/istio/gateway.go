package istio

import (
	"github.com/gwlint/gwlint/resolve"
)

// remoteController is the controller of the istio-remote class, whose
// Gateways stand for gateways of another cluster:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gatewaycommon/classinfo.go,
// UnmanagedGatewayController, "Remote to this cluster. Does not deploy or
// affect configuration" (DisableRouteGeneration). gateway_collection.go's
// GatewayCollection gives its Gateways conversion.go's
// reportUnmanagedGatewayStatus (Accepted, Programmed "This Gateway is
// remote; Istio will not program it", no listeners) and no listener for
// routes to bind to, so extractParentReferenceInfo finds no parent and
// writes nothing (testdata/eastwest-remote.status.yaml.golden: "parents:
// []").
const remoteController = "istio.io/unmanaged-gateway"

// JudgeGateway marks a Gateway of its remote controller remote, names
// the Services its traffic enters by (gatewayServices), and writes the
// listener protocols it serves (judgeProtocols). Of every Gateway:
//   - an HTTPS or TLS listener without tls is a placeholder:
//     https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
//     buildListener, "This is a placeholder listener for ListenerSets": a
//     Gateway's gets no server and no error; a ListenerSet's "protocol is %s
//     but no TLS section is defined" (UnsupportedProtocol)
//     (testdata/listenerset-overlapping-port.status.yaml.golden,
//     listenerset-https-missing-tls.status.yaml.golden);
//   - a listener checks a route's hostnames first: conversion.go,
//     referenceAllowed, a listener's hostnames carry its allowed namespaces
//     ("ns/host", buildHostnameMatch), so a route whose hostnames match
//     none is ParentErrorNoHostname whatever its namespace, and NotAllowed
//     only when a hostname matched; kinds come last. conditions.go,
//     createRouteStatus, reports the least severe listener's error:
//     rankParentErrorNotAllowed before rankParentErrorNoHostname
//     (testdata/route-binding.status.yaml.golden, same-namespace-invalid);
//   - a listener whose certificate is not permitted is refused:
//     conversion.go, buildListener, a TLS error of reason
//     InvalidCACertificateRef, InvalidCACertificateKind or
//     InvalidListenerRefNotPermitted sets Accepted=False with
//     ListenerReasonNoValidCACertificate
//     (testdata/frontend-tls-refgrant.status.yaml.golden,
//     listenerset-cross-namespace.status.yaml.golden).
func (Implementation) JudgeGateway(b *resolve.Builder, gw *resolve.GatewayResult) {
	if gw.ControllerName == remoteController {
		b.MarkRemote(gw)
	}
	b.TakePlaceholders(gw)
	b.CheckHostnamesFirst(gw)
	b.RefuseNotPermittedCertificates(gw)
	b.EnterBy(gw, gatewayServices(b.Graph(), gw)...)
	judgeProtocols(b, gw)
}
