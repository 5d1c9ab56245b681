package resolve

import gwv1 "sigs.k8s.io/gateway-api/apis/v1"

// Reason is the reason of a status condition, or of a refused reference or
// listener: a CamelCase name a controller would write.
//
// Every reason resolve produces is one of the constants below, so that a
// consumer matching on a reason (a lint rule, gwctl) names a constant the
// compiler checks rather than a string a typo would silently break.
type Reason string

// The Gateway API's own reasons, one constant per distinct name: the API
// declares some under several condition types (RefNotPermitted for routes,
// listeners and Gateways; Accepted for all of them), and Condition.Type tells
// those apart.
const (
	ReasonAccepted     = Reason(gwv1.RouteReasonAccepted)
	ReasonProgrammed   = Reason(gwv1.GatewayReasonProgrammed)
	ReasonResolvedRefs = Reason(gwv1.RouteReasonResolvedRefs)
	ReasonInvalid      = Reason(gwv1.GatewayReasonInvalid)
	ReasonPending      = Reason(gwv1.RouteReasonPending)

	// Gateways and ListenerSets.
	ReasonListenersNotValid           = Reason(gwv1.GatewayReasonListenersNotValid)
	ReasonListenersNotResolved        = Reason(gwv1.GatewayReasonListenersNotResolved)
	ReasonInvalidClientCertificateRef = Reason(gwv1.GatewayReasonInvalidClientCertificateRef)
	ReasonNotAllowed                  = Reason(gwv1.ListenerSetReasonNotAllowed)
	ReasonParentNotAccepted           = Reason(gwv1.ListenerSetReasonParentNotAccepted)
	ReasonInvalidParameters           = Reason(gwv1.GatewayReasonInvalidParameters)
	ReasonSupportedVersion            = Reason(gwv1.GatewayClassReasonSupportedVersion)
	ReasonUnsupportedAddress          = Reason(gwv1.GatewayReasonUnsupportedAddress)
	ReasonAddressNotUsable            = Reason(gwv1.GatewayReasonAddressNotUsable)
	ReasonConfigurationChanged        = Reason(gwv1.GatewayReasonConfigurationChanged)

	// Listeners.
	ReasonUnsupportedProtocol   = Reason(gwv1.ListenerReasonUnsupportedProtocol)
	ReasonInvalidRouteKinds     = Reason(gwv1.ListenerReasonInvalidRouteKinds)
	ReasonInvalidCertificateRef = Reason(gwv1.ListenerReasonInvalidCertificateRef)
	ReasonNoConflicts           = Reason(gwv1.ListenerReasonNoConflicts)
	ReasonProtocolConflict      = Reason(gwv1.ListenerReasonProtocolConflict)
	ReasonHostnameConflict      = Reason(gwv1.ListenerReasonHostnameConflict)
	ReasonNoValidCACertificate  = Reason(gwv1.ListenerReasonNoValidCACertificate)
	// OverlappingTLSConfig.
	ReasonOverlappingHostnames    = Reason(gwv1.ListenerReasonOverlappingHostnames)
	ReasonOverlappingCertificates = Reason(gwv1.ListenerReasonOverlappingCertificates)

	// Routes: attachment to parents.
	ReasonNoMatchingParent           = Reason(gwv1.RouteReasonNoMatchingParent)
	ReasonNotAllowedByListeners      = Reason(gwv1.RouteReasonNotAllowedByListeners)
	ReasonNoMatchingListenerHostname = Reason(gwv1.RouteReasonNoMatchingListenerHostname)
	ReasonUnsupportedValue           = Reason(gwv1.RouteReasonUnsupportedValue)
	ReasonIncompatibleFilters        = Reason(gwv1.RouteReasonIncompatibleFilters)

	// References: backendRefs, certificateRefs, CA certificate refs.
	ReasonRefNotPermitted          = Reason(gwv1.RouteReasonRefNotPermitted)
	ReasonBackendNotFound          = Reason(gwv1.RouteReasonBackendNotFound)
	ReasonInvalidKind              = Reason(gwv1.RouteReasonInvalidKind)
	ReasonInvalidCACertificateRef  = Reason(gwv1.ListenerReasonInvalidCACertificateRef)
	ReasonInvalidCACertificateKind = Reason(gwv1.ListenerReasonInvalidCACertificateKind)

	// Policies (BackendTLSPolicy). Conflicted is also GEP-1426's reason for
	// a mesh route that lost to a route of a higher-precedence type on the
	// same Service and port.
	ReasonConflicted     = Reason(gwv1.PolicyReasonConflicted)
	ReasonTargetNotFound = Reason(gwv1.PolicyReasonTargetNotFound)
)

// Reasons an implementation writes that the API does not define, written
// only under that implementation's profile (profile.Implementation).
