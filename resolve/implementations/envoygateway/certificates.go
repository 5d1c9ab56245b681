package envoygateway

import (
	"fmt"
	"net/url"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// ReasonPartiallyInvalidCertificateRef is its listener ResolvedRefs reason
// when some certificateRefs resolve and it serves the listener with those
// (status.ListenerReasonPartiallyInvalidCertificateRef).
const ReasonPartiallyInvalidCertificateRef resolve.Reason = "PartiallyInvalidCertificateRef"

// SecretTypeSDS is the type of its SDS reference Secrets, which name a
// secret its proxy fetches over SDS from a unix socket in place of
// tls.crt and tls.key:
// https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/shared_types.go
// (SDSSecretType).
const SecretTypeSDS = "gateway.envoyproxy.io/sds"

// CertificateSecretTypes: it takes an SDS reference Secret as a
// certificate, for certificateRefs in internal/gatewayapi/validate.go.
func (Implementation) CertificateSecretTypes() []string { return []string{SecretTypeSDS} }

// ReferenceSecretProblem validates an SDS reference Secret as
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/ir/xds.go
// NewSDSConfig does: a non-empty secretName, and a url that
// internal/utils/net/url.go's ParseURL takes, unix:///absolute/path or
// unix://./relative/path (http and https are not supported yet).
func (Implementation) ReferenceSecretProblem(typ string, values resolve.SecretValues) (string, bool) {
	if typ != SecretTypeSDS {
		return "", false
	}
	if name, problem := values.Value("secretName"); problem != "" || len(name) == 0 {
		return "it has no secretName", true
	}
	raw, problem := values.Value("url")
	if problem != "" || len(raw) == 0 {
		return "it has no url", true
	}
	u, err := url.Parse(string(raw))
	switch {
	case err != nil:
		return fmt.Sprintf("url %q does not parse: %v", raw, err), true
	case u.Scheme != "unix":
		return fmt.Sprintf("url %q is not unix:///path (scheme %q is not supported)", raw, u.Scheme), true
	case u.Host != "" && u.Host != ".":
		return fmt.Sprintf("url %q has a host; use unix:///absolute/path", raw), true
	case u.Path == "" && u.Host != ".":
		return fmt.Sprintf("url %q has no path", raw), true
	}
	return "", true
}

// JudgeCertificates serves a listener with the certificateRefs that
// resolve: some that do not are its own PartiallyInvalidCertificateRef, and
// the listener stays programmed; when none resolves, ResolvedRefs is
// RefNotPermitted only if every one is not permitted, else
// InvalidCertificateRef.
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/validate.go
// validateTerminateModeAndGetTLSSecrets and validateListenerConditions:
// "The listener is ready because we program it using only the valid
// certificates"; with none valid, RefNotPermitted "only if ALL errors are
// RefNotPermitted"
// (testdata/gateway-with-listener-with-invalid-multiple-tls-configuration.out.yaml).
func (Implementation) JudgeCertificates(b *resolve.Builder, l *resolve.Listener) {
	var bad []*resolve.RefResult
	for _, r := range l.CertRefs {
		if !r.OK() {
			bad = append(bad, r)
		}
	}
	switch {
	case len(bad) == 0:
	case len(bad) < len(l.CertRefs):
		b.ServeResolvedCertificates(l, ReasonPartiallyInvalidCertificateRef,
			fmt.Sprintf("served with the certificates that resolve; %s: %s", bad[0].Path, bad[0].Message))
	default:
		reason := resolve.ReasonRefNotPermitted
		for _, r := range bad {
			if r.Reason != resolve.ReasonRefNotPermitted {
				reason = resolve.ReasonInvalidCertificateRef
			}
		}
		l.ResolvedRefs = resolve.Condition{Type: string(gwv1.ListenerConditionResolvedRefs), Status: metav1.ConditionFalse,
			Reason: reason, Message: bad[0].Message}
	}
}
