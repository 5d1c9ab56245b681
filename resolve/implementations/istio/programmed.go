package istio

import (
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// programForTLS writes a listener Programmed=False only for a conflict or
// its TLS configuration; one refused otherwise (for its protocol) is still
// programmed and invalid, and one with InvalidRouteKinds programmed and
// valid:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// buildListener: Programmed is set False ("Bad TLS configuration") only for
// a buildTLS error and a ListenerSet's HTTPS or TLS listener without tls
// (a placeholder's, JudgeGateway); a protocol error only sets Accepted
// (testdata/invalid.status.yaml.golden, protocol-lower-case: Programmed
// True). ReportListenerCondition's InvalidRouteKinds leaves the listener
// valid (route-binding.status.yaml.golden, scope-route); a conflict is
// gatewaycommon.ReportListenerConflict's, with its reason, as the core
// writes it.
func programForTLS(b *resolve.Builder, l *resolve.Listener) {
	if l.Conflicted.True() {
		return
	}
	switch {
	case l.Accepted.Reason == resolve.ReasonNoValidCACertificate:
		b.UnprogramListener(l, resolve.ReasonInvalid, l.Accepted.Message)
	case !l.ResolvedRefs.True() && l.ResolvedRefs.Reason != resolve.ReasonInvalidRouteKinds:
		b.UnprogramListener(l, resolve.ReasonInvalid, l.ResolvedRefs.Message)
	case l.ListenerSet != nil && placeholder(l):
		b.UnprogramListener(l, resolve.ReasonInvalid, l.Accepted.Message)
	default:
		b.ProgramListener(l, l.Accepted.True())
	}
}

// placeholder reports whether the listener is HTTPS or TLS without tls,
// which Istio takes as a placeholder on every Gateway (JudgeGateway).
func placeholder(l *resolve.Listener) bool {
	return (l.Protocol == gwv1.HTTPSProtocolType || l.Protocol == gwv1.TLSProtocolType) && l.TLS == nil
}
