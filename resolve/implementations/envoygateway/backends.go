package envoygateway

import (
	"fmt"

	"github.com/gwlint/gwlint/resolve"
)

// JudgeServiceBackend refuses what Envoy Gateway refuses of a backendRef to a
// Service or ServiceImport.
//
// An ExternalName Service:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/validate.go
// validateBackendRefService: "is of type ExternalName, which is not
// supported as a backend", RouteReasonUnsupportedValue
// (testdata/httproute-with-externalname-service-backend.out.yaml).
//
// A port of the ref's number for another transport protocol than the
// route's: validateBackendService and validateBackendServiceImport match a
// port's number and protocol (getServicePortProtocol: TCP when unset)
// against the route's, UDP for a UDPRoute: "UDP Port 8080 not found on
// Service"
// (testdata/gateway-with-listener-with-udproute-with-mismatch-port-protocol.out.yaml).
func (Implementation) JudgeServiceBackend(_ *resolve.Builder, by *resolve.Judge, route *resolve.Route, b *resolve.BackendResult) (resolve.BackendProblem, resolve.Reason, string) {
	switch {
	case b.Service != nil && b.Service.ExternalName():
		return resolve.ExternalNameRefused, resolve.ReasonUnsupportedValue,
			fmt.Sprintf("Service %s is of type ExternalName, which %s does not support as a backend", b.Target.NamespacedName(), by)
	case b.Port != nil && b.Port.Transport() != route.Transport():
		return resolve.PortNotFound, resolve.ReasonBackendNotFound, fmt.Sprintf("%s %s has no %s port %d: port %d is %s, and %s matches protocols",
			b.Target.Kind, b.Target.NamespacedName(), route.Transport(), b.Port.Port, b.Port.Port, b.Port.Transport(), by)
	}
	return resolve.NoProblem, "", ""
}
