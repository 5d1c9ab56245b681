package envoygateway

import "github.com/gwlint/gwlint/resolve"

// ReasonInvalidBackendTLS is its route ResolvedRefs reason for a backendRef
// whose TLS to the backend fails (status.RouteReasonInvalidBackendTLS).
const ReasonInvalidBackendTLS resolve.Reason = "InvalidBackendTLS"

// BackendTLSFailure: a backendRef whose BackendTLSPolicy is not accepted
// fails the route's ResolvedRefs with its own reason InvalidBackendTLS,
// where the API reports it on the policy alone.
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/route.go
// processDestination passes the backendRef to applyBackendTLSSetting, and
// a failure of backendtlspolicy.go's processBackendTLSPolicy returns
// status.RouteReasonInvalidBackendTLS on the route's ResolvedRefs
// (testdata/backendtlspolicy-invalid-ca.out.yaml).
func (Implementation) BackendTLSFailure() resolve.Reason { return ReasonInvalidBackendTLS }
