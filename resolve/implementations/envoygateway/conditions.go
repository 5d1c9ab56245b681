package envoygateway

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// JudgeListenerSetConditions decides an admitted ListenerSet's conditions
// by its listeners' Accepted conditions, not by whether they are
// programmed: Accepted when all are, True/ListenersNotValid when some are,
// False/ListenersNotValid when none; Programmed when any listener is
// programmed, else False/ListenersNotValid:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/listenerset.go,
// "No listeners are programmed"
// (testdata/listenerset-https-tls-secret-does-not-exist.out.yaml).
func (Implementation) JudgeListenerSetConditions(b *resolve.Builder, ls *resolve.ListenerSetResult) {
	// The core refuses an admitted ListenerSet only for its listeners.
	if !ls.Accepted.True() && ls.Accepted.Reason != resolve.ReasonListenersNotValid {
		return
	}
	accepted, programmed := 0, 0
	for _, l := range ls.Listeners {
		if acceptedButForCertificates(l) {
			accepted++
		}
		if l.Valid() {
			programmed++
		}
	}
	b.AdmitListenerSet(ls)
	typ := string(gwv1.ListenerSetConditionAccepted)
	switch {
	case accepted == len(ls.Listeners):
	case accepted > 0:
		ls.Accepted = resolve.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: resolve.ReasonListenersNotValid, Message: "some listeners are not accepted"}
	default:
		ls.Accepted = resolve.Condition{Type: typ, Status: metav1.ConditionFalse, Reason: resolve.ReasonListenersNotValid, Message: "no listener is accepted"}
	}
	if programmed == 0 {
		ls.Programmed = resolve.Condition{Type: string(gwv1.ListenerSetConditionProgrammed), Status: metav1.ConditionFalse,
			Reason: resolve.ReasonListenersNotValid, Message: "no listener is programmed"}
	}
}

// acceptedButForCertificates reports whether the listener is accepted with
// no problem but, at most, certificates that do not resolve: the listeners
// it writes Accepted=True (validate.go, validateListenerConditions; any
// other problem leaves Accepted unwritten).
func acceptedButForCertificates(l *resolve.Listener) bool {
	return l.Accepted.True() && l.TLSProblem == "" && l.SelectorProblem == "" &&
		(l.ResolvedRefs.True() || l.ResolvedRefs.Reason == resolve.ReasonInvalidCertificateRef ||
			l.ResolvedRefs.Reason == ReasonPartiallyInvalidCertificateRef)
}

// JudgeGatewayConditions writes the Gateway's ResolvedRefs from spec.tls
// alone, and False/InvalidParameters for a spec.tls.frontend validation (the
// default or a perPort entry, whether or not a listener uses it) with a CA
// certificate reference that does not resolve, a reason the API gives
// parametersRef. internal/gatewayapi/listener.go writes the Gateway's
// ResolvedRefs (status.UpdateGatewayStatusResolvedRefsCondition) from
// spec.tls's frontend CAs and backend client certificate only
// (testdata/gateway-with-listener-with-tls-terminate-and-invalid-certificate.out.yaml:
// the listener's ResolvedRefs False, the Gateway's not written).
// ProcessGatewayTLS writes ResolvedRefs False/InvalidParameters ("Failed to
// get default frontend CA certs for gateway") for each frontend validation
// whose getCaCertsFromCARefs fails, then the backend client certificate's
// failure over it (testdata/gateway-tls-frontend-backend.out.yaml,
// client-validation-per-port-disable-invalid-default).
func (Implementation) JudgeGatewayConditions(b *resolve.Builder, gw *resolve.GatewayResult) {
	b.ResolveOwnRefs(gw)
	if gw.ClientCertificate != nil && !gw.ClientCertificate.OK() {
		return
	}
	if bad := gw.FrontendProblem(); bad != nil {
		gw.ResolvedRefs = resolve.Condition{Type: string(gwv1.GatewayConditionResolvedRefs), Status: metav1.ConditionFalse,
			Reason: resolve.ReasonInvalidParameters, Message: bad.Path + ": " + bad.Message}
	}
}

// refusedWithoutListeners are the Accepted=False reasons of a Gateway or
// ListenerSet for which it writes no listener status: Gateways refused
// before their listeners are translated (InvalidParameters,
// UnsupportedAddress) and ListenerSets it does not admit
// (testdata/gateway-with-unsupported-address-type.out.yaml,
// listenerset-cross-namespace.out.yaml).
var refusedWithoutListeners = []resolve.Reason{resolve.ReasonInvalidParameters, resolve.ReasonUnsupportedAddress, resolve.ReasonNotAllowed}

// OmitsListenerStatus: see refusedWithoutListeners.
func (Implementation) OmitsListenerStatus(accepted resolve.Condition) bool {
	return !accepted.True() && slices.Contains(refusedWithoutListeners, accepted.Reason)
}
