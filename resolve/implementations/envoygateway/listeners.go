package envoygateway

import (
	"fmt"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// ReasonSDSCertificateOpaque is its OverlappingTLSConfig reason for the
// listeners on a port where one serves certificates over SDS
// (status.ListenerReasonSDSCertificateOpaque).
const ReasonSDSCertificateOpaque resolve.Reason = "SDSCertificateOpaque"

// InConflicts: a listener invalid on its own (unsupported protocol,
// unusable TLS configuration or certificates, bad selector) takes no part
// in conflict detection, so it conflicts with none and holds its port
// against none:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/validate.go
// validateConflictedProtocolsListeners and the other conflict checks skip
// a listener that fails isSpecValidForConflictChecks
// (validateListenerSpec's verdict)
// (testdata/listenerset-protocol-conflict.out.yaml: an SCTP listener
// beside an HTTP one on port 81, the HTTP one NoConflicts).
func (Implementation) InConflicts(l *resolve.Listener) bool {
	return !l.InvalidOnItsOwn()
}

// AttachesWhileConflicted: a route still attaches to a conflicted listener
// of the Gateway itself (not of a ListenerSet), is Accepted and counted in
// its attachedRoutes, and the listener keeps its supported kinds; it
// serves no traffic all the same. The same validate.go's
// setConflictedConditions sets only Conflicted=True on a Gateway's own
// listener (Accepted and Programmed False on a ListenerSet's), and
// internal/gatewayapi/route.go's processAllowedListenersForParentRefs
// admits a route by kind and namespace alone;
// processHTTPRouteParentRefListener counts it (IncrementAttachedRoutes)
// before it skips a listener that is not ready
// (testdata/gateway-with-two-listeners-with-same-port-and-incompatible-protocol.out.yaml:
// both listeners ProtocolConflict, attachedRoutes 1, the route Accepted).
func (Implementation) AttachesWhileConflicted(l *resolve.Listener) bool {
	return l.ListenerSet == nil
}

// BindsByListeners: a route's parentRef to a ListenerSet its Gateway
// admitted binds by that ListenerSet's listeners, accepted or not
// (NotAllowedByListeners where none takes the route); one to a ListenerSet
// it did not admit (its Gateway not accepted, or not allowed) gets no
// status. listenerset.go, processListenerSet: a ListenerSet whose Gateway
// is not accepted, or that it does not allow, adds no listener to the
// Gateway; helpers.go's GetReferencedListeners then finds no ListenerSet
// for the parentRef, which route.go skips ("not to a Gateway that we
// control"). An admitted ListenerSet's listeners take routes as a
// Gateway's do (testdata/listenerset-invalid.out.yaml:
// NotAllowedByListeners on a ListenerSet of INVALID listeners;
// listenerset-cross-namespace.out.yaml: no status for a route to one not
// allowed).
func (Implementation) BindsByListeners(*resolve.ListenerSetResult) bool { return true }

// JudgeListeners marks, on a port with two or more programmed HTTPS
// listeners, each listener whose certificates may be those of one served
// over an SDS reference, which nobody can inspect: that listener itself,
// every listener when it has no hostname, else one with a certificate SAN
// its hostname matches. It gets OverlappingTLSConfig=True with reason
// SDSCertificateOpaque (HTTP/2 is turned off there, as for overlapping
// certificates). listener.go, checkOverlappingCertificates: "Envoy Gateway
// cannot inspect certificates served over SDS",
// status.ListenerReasonSDSCertificateOpaque, set after
// checkOverlappingHostnames and before the certificate overlaps
// (testdata/sds-listener.out.yaml, sds-multiple). Found before the core's
// pairwise overlaps, it wins over OverlappingHostnames and yields to
// OverlappingCertificates, in Envoy Gateway's order.
func (Implementation) JudgeListeners(b *resolve.Builder, gw *resolve.GatewayResult) {
	listeners := gw.AllListeners()
	for _, l := range listeners {
		onPort := slices.DeleteFunc(slices.Clone(listeners), func(o *resolve.Listener) bool {
			return o.Port != l.Port || !o.Valid() || o.Protocol != gwv1.HTTPSProtocolType
		})
		if len(onPort) < 2 || !slices.Contains(onPort, l) {
			continue
		}
		for _, o := range onPort {
			if !slices.ContainsFunc(o.CertRefs, func(r *resolve.RefResult) bool { return r.Opaque }) {
				continue
			}
			if l == o || o.Hostname == nil || certificateMatches(l, string(*o.Hostname)) {
				b.MarkOverlappingTLS(l, ReasonSDSCertificateOpaque, fmt.Sprintf(
					"%s on port %d serves certificates over SDS whose names cannot be inspected; HTTP/2 is off on this port", o, l.Port))
				break
			}
		}
	}
}

// certificateMatches: a SAN of the listener's certificates and hostname h
// match some host.
func certificateMatches(l *resolve.Listener, h string) bool {
	for _, r := range l.CertRefs {
		if r.Certificate == nil {
			continue
		}
		for _, san := range r.Certificate.DNSNames {
			if resolve.HostnamesOverlap(h, san) {
				return true
			}
		}
	}
	return false
}
