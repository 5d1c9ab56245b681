package envoygateway

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// JudgeGateway: of every Gateway's listeners, as
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/validate.go
// validateListenerConditions reads them:
//   - an HTTPS listener without tls: "Listener must have TLS set when
//     protocol is HTTPS", Programmed=False/Invalid alone, ResolvedRefs True
//     (testdata/backendtrafficpolicy-status-conditions.out.yaml, gateway-2's
//     https listener);
//   - a Passthrough listener with certificateRefs: "Listener must not have
//     TLS certificate refs set for TLS mode Passthrough"
//     (testdata/tlsroute-with-listener-both-passthrough-and-cert-data.out.yaml).
//
// Of the API's address types, it refuses NamedAddress:
// internal/gatewayapi/translator.go, unsupportedAddressType: any type but
// IPAddress and Hostname is GatewayReasonUnsupportedAddress
// (testdata/gateway-with-unsupported-address-type.out.yaml).
func (Implementation) JudgeGateway(b *resolve.Builder, gw *resolve.GatewayResult) {
	b.KeepResolvedWithoutTLS(gw)
	b.RefusePassthroughCertificates(gw)
	b.RefuseAddressType(gw, gwv1.NamedAddressType)
}

// JudgeListener writes the reason of a listener it does not program.
// validate.go, validateListenerConditions: "Listener is invalid" with
// ListenerReasonInvalid for every failure, conflicts included on a
// Gateway's own listeners
// (testdata/gateway-with-two-listeners-with-same-port-and-incompatible-protocol.out.yaml;
// a ListenerSet's keep the conflict's, listenerset-hostname-conflict.out.yaml).
// validateListenerConditions gives a frontend CA failure its own reason,
// written after the certificates', on Programmed and ResolvedRefs
// (testdata/gateway-tls-frontend-backend.out.yaml: Programmed
// False/InvalidCACertificateRef; https-invalid-kind, whose certificate is
// not permitted either: InvalidCACertificateKind). contexts.go,
// ListenerContext.SetCondition: on a ListenerSet's listener,
// ListenerReasonInvalid is written ListenersNotValid.
func (Implementation) JudgeListener(b *resolve.Builder, l *resolve.Listener) {
	switch {
	case l.Conflicted.True() && l.ListenerSet == nil:
		b.UnprogramListener(l, resolve.ReasonInvalid, l.Conflicted.Message)
	case l.Conflicted.True():
	case l.ClientValidation != nil && l.ClientValidation.Unresolved() != nil:
		bad := l.ClientValidation.Unresolved()
		l.ResolvedRefs = resolve.Condition{Type: string(gwv1.ListenerConditionResolvedRefs), Status: metav1.ConditionFalse,
			Reason: bad.Reason, Message: bad.Path + ": " + bad.Message}
		b.UnprogramListener(l, bad.Reason, l.ResolvedRefs.Message)
	}
	if l.ListenerSet != nil && l.Programmed.Reason == resolve.ReasonInvalid {
		l.Programmed.Reason = resolve.ReasonListenersNotValid
	}
}
