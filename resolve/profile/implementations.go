package profile

import (
	"slices"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// GroupKind names a kind of object by API group and kind.
type GroupKind struct {
	Group, Kind string
}

// Implementation is what the conformance reports do not say about an
// implementation, kept by hand. Every fact cites its source.
type Implementation struct {
	Name string
	// Releases are its releases newer than its newest conformance report,
	// oldest first, each with the features it added: a profile each, built
	// on the newest report. The newest is the implementation's default.
	Releases []Release
	// ControllerNames are the spec.controllerName values of its
	// GatewayClasses: a class naming one selects this implementation.
	ControllerNames []string
	// Classes are the GatewayClasses (path.Match patterns) it installs
	// itself: a Gateway naming one is judged by this implementation even
	// when the class is not among the inputs, and the class is never
	// reported as missing.
	Classes []string
	// ClassNames are GatewayClass names (path.Match patterns) its own
	// documentation and charts give the class it does not install itself:
	// evidence, when the class is not among the inputs, that a Gateway
	// naming one is the implementation's (infer.go of package resolve).
	ClassNames []string
	// Groups are API groups only it serves, whose objects among the inputs
	// say it runs in the cluster. A group a mesh, CNI or ingress controller
	// serves beside its Gateway support (networking.istio.io, cilium.io,
	// traefik.io) is not one: the cluster may run that beside another
	// implementation of the API; a route's reference to one of its kinds
	// (BackendKinds, PolicyTargetKinds, ...) still is evidence.
	Groups []string
	// Charts are the names of Helm charts only it publishes, whose release
	// says it runs in the cluster, as Groups do; not a mesh's, CNI's or
	// ingress controller's (istiod, cilium, traefik), installed for more
	// than the API.
	Charts []string
	// Protocols are the implementation-specific listener protocols it
	// serves.
	Protocols []Protocol
	// RefusedProtocols are the API's own listener protocols it does not
	// serve: a listener of one is Accepted=False/UnsupportedProtocol. No
	// conformance report runs GATEWAY-UDP, so only a hand-kept fact can
	// say an implementation lacks UDP.
	RefusedProtocols []string
	// BackendKinds are the implementation-specific backendRef kinds it
	// accepts.
	BackendKinds []GroupKind
	// BackendKindAlone: it checks a backendRef's group and kind apart and
	// picks the object by kind, so one of its BackendKinds written without
	// a group (the core group, which has no such kind) names its own.
	BackendKindAlone bool
	// SecretTypes are the certificate Secret types it accepts besides
	// kubernetes.io/tls.
	SecretTypes []string
	// AddressTypes are the implementation-specific (domain-prefixed)
	// spec.addresses types it accepts.
	AddressTypes []string
	// RefusedAddressTypes are the API's own spec.addresses types it does
	// not support (Hostname and NamedAddress have implementation-specific
	// support): a Gateway with one is Accepted=False/UnsupportedAddress.
	RefusedAddressTypes []string
	// MissingServicePort is what it writes on a route whose backendRef
	// names a port the Service does not have.
	MissingServicePort MissingServicePort
	// ListenerProgrammed is the reason it gives a listener it does not
	// program.
	ListenerProgrammed ListenerProgrammed
	// GatewayConditions is what a Gateway's own conditions summarise.
	GatewayConditions GatewayConditions
	// ParametersKinds are the kinds it takes as a Gateway's
	// spec.infrastructure.parametersRef.
	ParametersKinds []GroupKind
	// PolicyTargetKinds are the implementation-specific kinds a
	// BackendTLSPolicy may target besides core Services.
	PolicyTargetKinds []GroupKind
	// PolicyAncestors is where it writes a BackendTLSPolicy's status.
	PolicyAncestors PolicyAncestors
}

// ListenerProgrammed is the Programmed=False reason an implementation gives
// a listener. The zero value: a conflicted listener's conflict reason, as the
// conformance suite expects, and Invalid otherwise.
type ListenerProgrammed struct {
	// ConflictInvalid: Invalid for a conflicted listener of the Gateway
	// itself too (a ListenerSet's keeps the conflict's reason).
	ConflictInvalid bool
	// ListenerSetInvalid: a ListenerSet's listener gets
	// ListenersNotValid where a Gateway's gets Invalid.
	ListenerSetInvalid bool
	// CAReason: a listener whose client-certificate validation fails
	// carries the failing CA reference's reason (InvalidCACertificateRef,
	// InvalidCACertificateKind, RefNotPermitted) on Programmed and on
	// ResolvedRefs, over any other reason there.
	CAReason bool
	// MissingTLSInvalid: an HTTPS listener without tls is not programmed
	// (Invalid) and its ResolvedRefs stays True: nothing it references is
	// missing. The API's reading is ResolvedRefs=False/InvalidCertificateRef.
	MissingTLSInvalid bool
	// PassthroughCertificatesInvalid: a Passthrough listener with
	// certificateRefs is not programmed (Invalid). The API ignores them.
	PassthroughCertificatesInvalid bool
	// TLSOnly: Programmed=False only for a conflict or the listener's TLS
	// configuration (its certificates, client validation, a ListenerSet's
	// HTTPS listener without tls); a listener refused for its protocol
	// still reads Programmed=True and serves nothing, and one with
	// InvalidRouteKinds is programmed and valid.
	TLSOnly bool
}

// GatewayConditions is what an implementation's Gateway conditions
// summarise. The zero value is the API's reading: Programmed follows
// Accepted, and ResolvedRefs is also "a positive-polarity summary of
// Listener's ResolvedRefs condition" (ListenersNotResolved).
type GatewayConditions struct {
	// ProgrammedWhenDeployed: Programmed says whether its data plane has an
	// address, whatever Accepted says. gwlint cannot see the data plane and
	// writes True, or False/UnsupportedAddress when no address is usable.
	ProgrammedWhenDeployed bool
	// ListenerSets is how it decides an admitted ListenerSet's Accepted
	// and Programmed from its listeners.
	ListenerSets ListenerSetAcceptance
	// NoListenersWhenRefused are the Accepted=False reasons of a Gateway
	// or ListenerSet (addresses, parameters, not allowed) for which it
	// writes no listener status.
	NoListenersWhenRefused []string
	// OwnRefsOnly: ResolvedRefs reports the Gateway's own references
	// (spec.tls) and no summary of its listeners'.
	OwnRefsOnly bool
	// FrontendInvalidParameters: a spec.tls.frontend validation (the
	// default or a perPort entry, whether or not a listener uses it) with
	// a CA certificate reference that does not resolve makes ResolvedRefs
	// False/InvalidParameters, a reason the API gives parametersRef.
	FrontendInvalidParameters bool
	// ListenerSetsFollowAddress: a ListenerSet shares its Gateway's
	// refusal only when the Gateway is refused for its addresses, and
	// then with the Gateway's reason (Accepted and Programmed
	// False/UnsupportedAddress); a Gateway refused for its listeners
	// leaves its ListenerSets as they are. The API's reading writes
	// ParentNotAccepted whenever the Gateway is not accepted.
	ListenerSetsFollowAddress bool
}

// ListenerSetAcceptance is how an implementation decides an admitted
// ListenerSet's own conditions from its listeners.
type ListenerSetAcceptance int

const (
	// ByValidListeners: the API's reading. Accepted while a listener is
	// valid (programmed), with reason ListenersNotValid when some are not;
	// Programmed follows Accepted. Every profile without a fact to the
	// contrary.
	ByValidListeners ListenerSetAcceptance = iota
	// ByValidListenersReasonAccepted: as ByValidListeners, but a
	// ListenerSet with some invalid listeners keeps the reason Accepted.
	ByValidListenersReasonAccepted
	// ByAcceptedListeners: Accepted by the listeners' Accepted conditions
	// (all: Accepted; some: True/ListenersNotValid; none:
	// False/ListenersNotValid), not by whether they are programmed, and
	// Programmed when any listener is (else False/ListenersNotValid). It
	// writes a listener Accepted=True only when nothing but its
	// certificates fails.
	ByAcceptedListeners
)

// PolicyAncestors is how an implementation fills a BackendTLSPolicy's
// status.ancestors. The API leaves the choice to the policy ("choosing the
// relevant ancestor is left to the Policy designers") and says
// "implementations SHOULD use Gateway": the zero value, one entry per
// Gateway that accepted a route to a targeted Service, is that.
type PolicyAncestors struct {
	// RouteParents: one entry per parentRef, to one of its Gateways, of a
	// route that sends traffic to a targeted Service, instead of one per
	// Gateway.
	RouteParents bool
	// Aggregated: when more entries than the 16 allowed are due, the last
	// one written gets its own condition Aggregated=True (reason
	// Aggregated) saying the list is cut.
	Aggregated bool
	// TargetsController, when set, adds one entry per targetRef (the
	// targeted Service itself, for its mesh traffic), written by this
	// controller whether or not a route reaches it.
	TargetsController string
}

// Release is an implementation release that no conformance report in the
// pinned Gateway API module describes yet.
type Release struct {
	Version string
	// Adds are the features it supports that its newest report does not
	// claim.
	Adds []features.FeatureName
}

// MissingServicePort is how an implementation reports a backendRef to a
// Service (or ServiceImport) that exists but lacks the port. The API names
// no reason for it: BackendNotFound is for "a backendRef referring to a
// resource that does not exist", and implementations differ. Requests to
// such a backend fail under every one of them.
type MissingServicePort int

const (
	// PortBackendNotFound: ResolvedRefs=False/BackendNotFound, gwlint's
	// reading of the API. Every profile without a fact to the contrary.
	PortBackendNotFound MissingServicePort = iota
	// PortNotFoundReason: ResolvedRefs=False with the implementation's own
	// reason PortNotFound.
	PortNotFoundReason
	// PortUnchecked: the port is not checked and the route's ResolvedRefs
	// says nothing of it.
	PortUnchecked
)

// Protocol is an implementation-specific listener protocol.
type Protocol struct {
	Name string
	// ControllerNames, when set, are the only controllers of the
	// implementation whose Gateways serve it (Istio serves HBONE on
	// waypoints and east-west gateways, not on ingress gateways).
	ControllerNames []string
}

// implementations are the hand-kept facts, sorted by name. Add an
// implementation here under the name of its conformance report (see
// docs/implementations.md).
var implementations = []Implementation{
	{
		Name: "cilium",
		// https://github.com/cilium/cilium/blob/main/operator/pkg/gateway-api/gatewayclass.go
		// (controllerName "io.cilium/gateway-controller").
		ControllerNames: []string{"io.cilium/gateway-controller"},
		// The Helm chart creates the "cilium" GatewayClass
		// (gatewayAPI.gatewayClass.create): https://docs.cilium.io/en/stable/network/servicemesh/gateway-api/gateway-api/
		Classes: []string{"cilium"},
	},
	{
		Name: "contour",
		// https://projectcontour.io/docs/main/guides/gateway-api/ ("controllerName:
		// projectcontour.io/gateway-controller").
		ControllerNames: []string{"projectcontour.io/gateway-controller"},
	},
	{
		Name: "envoy-gateway",
		// https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/envoygateway_types.go
		// (GatewayControllerName).
		ControllerNames: []string{"gateway.envoyproxy.io/gatewayclass-controller"},
		// https://gateway.envoyproxy.io/docs/tasks/quickstart/ names its
		// class eg; the Helm chart creates none.
		ClassNames: []string{"eg", "envoy", "envoy-gateway"},
		// https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/groupversion_info.go
		Groups: []string{"gateway.envoyproxy.io"},
		// https://gateway.envoyproxy.io/docs/install/install-helm/:
		// oci://docker.io/envoyproxy/gateway-helm.
		Charts: []string{"gateway-helm"},
		// https://gateway.envoyproxy.io/docs/tasks/operations/customize-envoyproxy/
		// (a Gateway's infrastructure.parametersRef names an EnvoyProxy).
		ParametersKinds: []GroupKind{{Group: "gateway.envoyproxy.io", Kind: "EnvoyProxy"}},
		// https://github.com/envoyproxy/gateway/blob/main/internal/gatewayapi/validate.go:
		// backendRefs may be Service, ServiceImport or egv1a1.KindBackend
		// (group gateway.envoyproxy.io, api/v1alpha1/groupversion_info.go).
		BackendKinds: []GroupKind{{Group: "gateway.envoyproxy.io", Kind: "Backend"}},
		// Same file: validateBackendRefGroup admits the core group, and
		// validateBackendRefKind the kind Backend, each on its own; the
		// translator then switches on the kind alone, so `kind: Backend`
		// with no group is its Backend
		// (testdata/backendtrafficpolicy-dns-lookup-family.in.yaml).
		BackendKindAlone: true,
		// https://github.com/envoyproxy/gateway/blob/main/api/v1alpha1/shared_types.go
		// (SDSSecretType), accepted for certificateRefs in
		// internal/gatewayapi/validate.go.
		SecretTypes: []string{"gateway.envoyproxy.io/sds"},
		// internal/gatewayapi/translator.go, unsupportedAddressType: any type
		// but IPAddress and Hostname is GatewayReasonUnsupportedAddress
		// (testdata/gateway-with-unsupported-address-type.out.yaml).
		RefusedAddressTypes: []string{"NamedAddress"},
		// Same validate.go, validateBackendService and
		// validateBackendServiceImport: "Port %d not found on Service",
		// status.RouteReasonPortNotFound (internal/gatewayapi/status/error.go).
		MissingServicePort: PortNotFoundReason,
		// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/route.go
		// processDestination passes the route's parentRef (group, kind,
		// namespace, name, sectionName, port) to applyBackendTLSSetting,
		// and backendtlspolicy.go's processBackendTLSPolicy writes the
		// policy's ancestor status for it; a failure returns
		// status.RouteReasonInvalidBackendTLS on the route's ResolvedRefs
		// (testdata/backendtlspolicy-invalid-ca.out.yaml).
		// status/policy.go, TruncatePolicyAncestors: beyond 16 entries it
		// keeps 16 and sets egv1a1.PolicyConditionAggregated on the last
		// (testdata/backendtlspolicy-status-conditions-truncated.out.yaml).
		PolicyAncestors: PolicyAncestors{RouteParents: true, Aggregated: true},
		// backendtlspolicy.go's getBackendTLSPolicy matches a policy's
		// targetRefs against the backendRef's own group and kind, so its
		// Backend kind can be targeted
		// (testdata/backend-tls-settings-invalid.in.yaml), and so can a
		// ServiceImport, whose port names route.go's
		// getTargetBackendReference reads as a Service's
		// (testdata/backendtlspolicy-serviceimport-target.out.yaml).
		PolicyTargetKinds: []GroupKind{{Group: "gateway.envoyproxy.io", Kind: "Backend"}, {Group: "multicluster.x-k8s.io", Kind: "ServiceImport"}},
		// internal/gatewayapi/listener.go writes the Gateway's ResolvedRefs
		// (status.UpdateGatewayStatusResolvedRefsCondition) from
		// spec.tls's frontend CAs and backend client certificate only
		// (testdata/gateway-with-listener-with-tls-terminate-and-invalid-certificate.out.yaml:
		// the listener's ResolvedRefs False, the Gateway's not written).
		// Gateways refused before their listeners are translated
		// (InvalidParameters, UnsupportedAddress) and ListenerSets it does
		// not admit get no listener status
		// (testdata/gateway-with-unsupported-address-type.out.yaml,
		// listenerset-cross-namespace.out.yaml).
		// listenerset.go: a ListenerSet's Accepted comes from its
		// listeners' Accepted conditions and its Programmed from theirs
		// ("No listeners are programmed": ListenersNotValid)
		// (testdata/listenerset-https-tls-secret-does-not-exist.out.yaml).
		// listener.go's ProcessGatewayTLS writes ResolvedRefs
		// False/InvalidParameters ("Failed to get default frontend CA certs
		// for gateway") for each frontend validation whose
		// getCaCertsFromCARefs fails, then the backend client certificate's
		// failure over it (testdata/gateway-tls-frontend-backend.out.yaml,
		// client-validation-per-port-disable-invalid-default).
		GatewayConditions: GatewayConditions{OwnRefsOnly: true, FrontendInvalidParameters: true, ListenerSets: ByAcceptedListeners,
			NoListenersWhenRefused: []string{"InvalidParameters", "UnsupportedAddress", "NotAllowed"}},
		// validate.go, validateListenerConditions: "Listener is invalid"
		// with ListenerReasonInvalid for every other failure, conflicts
		// included on a Gateway's own listeners
		// (testdata/gateway-with-two-listeners-with-same-port-and-incompatible-protocol.out.yaml;
		// a ListenerSet's keep the conflict's, listenerset-hostname-conflict.out.yaml);
		// validateListenerConditions gives a frontend CA failure its own
		// reason, written after the certificates' (testdata/gateway-tls-frontend-backend.out.yaml:
		// Programmed False/InvalidCACertificateRef; https-invalid-kind,
		// whose certificate is not permitted either: InvalidCACertificateKind).
		// contexts.go, ListenerContext.SetCondition: on a ListenerSet's
		// listener, ListenerReasonInvalid is written ListenersNotValid.
		// validate.go, validateListenerConditions: "Listener must have TLS
		// set when protocol is HTTPS", Programmed=False/Invalid alone
		// (testdata/backendtrafficpolicy-status-conditions.out.yaml,
		// gateway-2's https listener: ResolvedRefs True).
		// The same function: "Listener must not have TLS certificate refs
		// set for TLS mode Passthrough" (testdata/tlsroute-with-listener-both-passthrough-and-cert-data.out.yaml).
		ListenerProgrammed: ListenerProgrammed{ConflictInvalid: true, CAReason: true, ListenerSetInvalid: true, MissingTLSInvalid: true,
			PassthroughCertificatesInvalid: true},
	},
	{
		Name: "gke-gateway",
		// https://cloud.google.com/kubernetes-engine/docs/concepts/gateway-api#gatewayclass:
		// the single-cluster and multi-cluster controllers, and the gke-l7-*
		// classes every GKE cluster has installed.
		ControllerNames: []string{"networking.gke.io/gateway", "networking.gke.io/gateway-multicluster"},
		Classes:         []string{"gke-l7-*"},
		// Multi-cluster Gateways route to ServiceImports of net.gke.io:
		// https://cloud.google.com/kubernetes-engine/docs/how-to/deploying-multi-cluster-gateways
		BackendKinds: []GroupKind{{Group: "net.gke.io", Kind: "ServiceImport"}},
	},
	{
		Name: "istio",
		// https://github.com/istio/istio/blob/master/pilot/pkg/features/pilot.go
		// (PILOT_GATEWAY_API_CONTROLLER_NAME default istio.io/gateway-controller) and
		// pkg/config/constants/constants.go (mesh, unmanaged and east-west controllers).
		ControllerNames: []string{"istio.io/gateway-controller", "istio.io/mesh-controller",
			"istio.io/unmanaged-gateway", "istio.io/eastwest-controller"},
		// https://github.com/istio/istio/blob/master/pilot/pkg/config/kube/gatewaycommon/classinfo.go
		// (GetBuiltinGatewayClasses: istio, and with their features on,
		// istio-remote, istio-waypoint, istio-east-west).
		Classes: []string{"istio", "istio-remote", "istio-waypoint", "istio-east-west"},
		// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/gateway_collection.go
		// validateParametersRef: "only ConfigMap is supported".
		ParametersKinds: []GroupKind{{Group: "", Kind: "ConfigMap"}},
		// https://github.com/istio/istio/pull/58638 (268e334588ce, "Implement
		// TLSRoute termination and mixed modes", first tagged 1.30.0): its
		// newest report in the module is 1.28's.
		Releases: []Release{{Version: "1.30", Adds: []features.FeatureName{
			features.SupportTLSRouteModeTerminate, features.SupportTLSRouteModeMixed}}},
		// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go
		// listenerProtocolToIstio: HBONE "is only supported for waypoint
		// proxies", the mesh and east-west controllers
		// (constants.ManagedGatewayMeshController,
		// ManagedGatewayEastWestController); any other controller's listener
		// gets Accepted=False/UnsupportedProtocol.
		Protocols: []Protocol{{Name: "HBONE", ControllerNames: []string{"istio.io/eastwest-controller", "istio.io/mesh-controller"}}},
		// Same function: "the k8s.UDPProtocolType is explicitly left to hit
		// this path", `protocol "UDP" is unsupported`
		// (Accepted=False/UnsupportedProtocol, testdata/invalid.yaml's
		// udp-protocol Gateway).
		RefusedProtocols: []string{"UDP"},
		// Same file, buildDestination: a Service backendRef is
		// BackendNotFound only when the Service does not exist; its port is
		// copied into the destination unchecked (ServiceImports are looked
		// up as Services).
		MissingServicePort: PortUnchecked,
		// Same file, buildDestination: backendRefs of kind Hostname in group
		// networking.istio.io, and InferencePools. (ServiceEntry is a parentRef
		// kind there, not a backendRef kind.)
		// XBackends too, behind the feature flag
		// PILOT_ENABLE_ALPHA_GATEWAY_API (pilot/pkg/features/experimental.go,
		// off by default; its conversion tests turn it on): without it the
		// ref is InvalidKind ("The Alpha Gateway API is not enabled"). With
		// it, a missing XBackend, or a backendRef port other than the
		// XBackend's spec.port.port, is BackendNotFound, and a ref with no
		// port takes the XBackend's (testdata/xbackend.status.yaml.golden).
		BackendKinds: []GroupKind{
			{Group: "inference.networking.k8s.io", Kind: "InferencePool"},
			{Group: "networking.istio.io", Kind: "Hostname"},
			{Group: "gateway.networking.x-k8s.io", Kind: "XBackend"},
		},
		// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/backend_policies.go
		// BackendTLSPolicyCollection: "We add a status for Service (for
		// mesh), and for each Gateway": one ancestor per targetRef under
		// constants.ManagedGatewayMeshController, then each Gateway whose
		// routes reach a target (testdata/backend-tls-policy.status.yaml.golden).
		PolicyAncestors: PolicyAncestors{TargetsController: "istio.io/mesh-controller"},
		// Same file, reportGatewayStatus: Accepted and ResolvedRefs start
		// True; Accepted takes gatewayErr and the listener count,
		// ResolvedRefs only backendTLSErr (spec.tls.backend), and
		// Programmed only setProgrammedCondition's address resolution
		// (testdata/invalid.status.yaml.golden: invalid-cert-kind is
		// Accepted=False/ListenersNotValid and Programmed, ResolvedRefs
		// True).
		// A Gateway refused for an unusable address gets no listener status
		// (one with InvalidParameters does), nor does a ListenerSet it does
		// not admit (testdata/listenerset-invalid.status.yaml.golden,
		// gateway-invalid-parameters-ref.status.yaml.golden); with no usable
		// address Programmed is UnsupportedAddress
		// (gatewaycommon/conversion.go, SetProgrammedCondition).
		// gatewaycommon/conversion.go, ReportListenerSetStatus: a
		// ListenerSet "is only Accepted if at least one of its listeners
		// is valid", with reason Accepted
		// (testdata/listenerset-cross-namespace.status.yaml.golden).
		// gateway_collection.go, ListenerSetCollection: a ListenerSet takes
		// its parent's error only from extractGatewayServices (addresses),
		// which ReportListenerSetStatus writes "Parent not accepted: ..."
		// with the parent's reason; ListenersNotValid of the parent does
		// not reach it (testdata/listenerset-invalid.status.yaml.golden,
		// not-accepted-parent).
		GatewayConditions: GatewayConditions{ProgrammedWhenDeployed: true, OwnRefsOnly: true, ListenerSets: ByValidListenersReasonAccepted,
			NoListenersWhenRefused:    []string{"UnsupportedAddress", "NotAllowed", "ParentNotAccepted"},
			ListenerSetsFollowAddress: true},
		// conversion.go, buildListener: Programmed is set False ("Bad TLS
		// configuration") only for a buildTLS error and a ListenerSet's
		// HTTPS or TLS listener without tls; a protocol error only sets
		// Accepted (testdata/invalid.status.yaml.golden,
		// protocol-lower-case: Programmed True). ReportListenerCondition's
		// InvalidRouteKinds leaves the listener valid
		// (route-binding.status.yaml.golden, scope-route); a conflict is
		// gatewaycommon.ReportListenerConflict's, with its reason.
		ListenerProgrammed: ListenerProgrammed{TLSOnly: true},
	},
	{
		Name: "kgateway",
		// https://kgateway.dev/docs/setup/default/: the kgateway and
		// kgateway-waypoint classes, created on install, controllerName
		// kgateway.dev/kgateway.
		ControllerNames: []string{"kgateway.dev/kgateway"},
		// https://kgateway.dev/docs/reference/api/: its own kinds.
		Groups: []string{"gateway.kgateway.dev"},
		// https://github.com/kgateway-dev/kgateway/releases:
		// oci://cr.kgateway.dev/kgateway-dev/charts/kgateway.
		Charts: []string{"kgateway"},
		// https://kgateway.dev/docs/setup/customize/: GatewayParameters.
		ParametersKinds: []GroupKind{{Group: "gateway.kgateway.dev", Kind: "GatewayParameters"}},
		Classes:         []string{"kgateway", "kgateway-waypoint"},
		// https://kgateway.dev/docs/traffic-management/destination-types/backends/
		BackendKinds: []GroupKind{{Group: "gateway.kgateway.dev", Kind: "Backend"}},
	},
	{
		Name: "nginx-gateway-fabric",
		// https://docs.nginx.com/nginx-gateway-fabric/install/helm/: the Helm
		// chart creates the "nginx" GatewayClass for
		// gateway.nginx.org/nginx-gateway-controller.
		ControllerNames: []string{"gateway.nginx.org/nginx-gateway-controller"},
		// https://docs.nginx.com/nginx-gateway-fabric/reference/api/: its
		// own kinds (NginxProxy, ClientSettingsPolicy, ...).
		Groups: []string{"gateway.nginx.org"},
		// https://docs.nginx.com/nginx-gateway-fabric/install/helm/:
		// oci://ghcr.io/nginx/charts/nginx-gateway-fabric.
		Charts: []string{"nginx-gateway-fabric"},
		// https://docs.nginx.com/nginx-gateway-fabric/how-to/data-plane-configuration/:
		// NginxProxy.
		ParametersKinds: []GroupKind{{Group: "gateway.nginx.org", Kind: "NginxProxy"}},
		Classes:         []string{"nginx"},
	},
	{
		Name: "traefik",
		// https://doc.traefik.io/traefik/routing/providers/kubernetes-gateway/
		// (controllerName traefik.io/gateway-controller; backendRefs to
		// TraefikService in group traefik.io).
		ControllerNames: []string{"traefik.io/gateway-controller"},
		BackendKinds:    []GroupKind{{Group: "traefik.io", Kind: "TraefikService"}},
	},
}

// implementationNamed returns the hand-kept facts of an implementation,
// or just its name when there are none.
func implementationNamed(name string) Implementation {
	i := slices.IndexFunc(implementations, func(impl Implementation) bool { return impl.Name == name })
	if i < 0 {
		return Implementation{Name: name}
	}
	return implementations[i]
}
