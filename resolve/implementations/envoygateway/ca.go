package envoygateway

import (
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

// caReading is how it reads CA certificate references:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/backendtlspolicy.go
// getCaCertsFromCARefs takes ConfigMap, Secret and ClusterTrustBundle; the
// bundle is helpers.go's getFirstMatchOrFirstFromData(data, "ca.crt",
// "tls.crt"), which falls back to a sole key; any reference it cannot read
// returns an error, and processBackendTLSPolicy then writes
// Accepted=False/NoValidCACertificate
// (testdata/backendtlspolicy-ca-only-fallback-tlscrt.out.yaml,
// backendtlspolicy-ca-clustertrustbundle.out.yaml). It never parses the
// bundle (only clienttrafficpolicy.go's filterValidCACertificates does):
// gateway-tls-frontend-backend.in.yaml's tls-validity-checks-ca-certificate
// holds no certificate and its listeners are Accepted. listener.go's
// ProcessGatewayTLS reads a Gateway's spec.tls.frontend CAs with the same
// getCaCertsFromCARefs.
var caReading = resolve.CAReading{
	Kinds:        []profile.GroupKind{{Group: "certificates.k8s.io", Kind: "ClusterTrustBundle"}},
	AnyKey:       true,
	AllOrNothing: true,
	Unparsed:     true,
	// getCaCertsFromCARefs switches on caRef.Kind alone
	// (testdata/backendtlspolicy-ca-clustertrustbundle.in.yaml names a
	// ClusterTrustBundle of group "", Accepted).
	AnyGroup: true,
	// The same function takes an SDS reference Secret
	// (egv1a1.SDSSecretType, ir.NewSDSConfig) in place of a bundle
	// (testdata/sds.out.yaml).
	SecretTypes: []string{SecretTypeSDS},
	// The same function skips a reference of any other kind (its switch
	// has no default) and returns ErrInvalidCACertificateKind only when no
	// reference was of a kind it takes (foundSupportedRef).
	SkipsOtherKinds: true,
}

// CAReading is how it reads the CA certificate references of a Gateway's
// frontend validations and of a BackendTLSPolicy (caReading).
func (Implementation) CAReading() resolve.CAReading { return caReading }
