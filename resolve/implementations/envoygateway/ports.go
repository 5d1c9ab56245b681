package envoygateway

import "github.com/gwlint/gwlint/resolve"

// ReasonPortNotFound is its route ResolvedRefs reason for a backendRef port
// the Service (or ServiceImport) lacks (status.RouteReasonPortNotFound,
// internal/gatewayapi/status/error.go).
const ReasonPortNotFound resolve.Reason = "PortNotFound"

// ReportsMissingPort: a backendRef port the Service lacks is
// ResolvedRefs=False/PortNotFound:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/validate.go,
// validateBackendService and validateBackendServiceImport, "Port %d not
// found on Service", status.RouteReasonPortNotFound.
func (Implementation) ReportsMissingPort() (resolve.Reason, bool) { return ReasonPortNotFound, false }
