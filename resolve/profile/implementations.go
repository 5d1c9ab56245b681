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
	// naming one is the implementation's (Choice).
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
	// BackendKinds are the implementation-specific backendRef kinds it
	// accepts.
	BackendKinds []GroupKind
	// ParametersKinds are the kinds it takes as a Gateway's
	// spec.infrastructure.parametersRef.
	ParametersKinds []GroupKind
	// PolicyTargetKinds are the implementation-specific kinds a
	// BackendTLSPolicy may target besides core Services.
	PolicyTargetKinds []GroupKind
}

// Release is an implementation release that no conformance report in the
// pinned Gateway API module describes yet.
type Release struct {
	Version string
	// Adds are the features it supports that its newest report does not
	// claim.
	Adds []features.FeatureName
}

// implementations are the hand-kept facts, sorted by name. Add an
// implementation here under the name of its conformance report (see
// docs/implementations.md).
var implementations = []Implementation{
	{
		Name: "agentgateway",
		// https://github.com/agentgateway/agentgateway/blob/75b4e6ce6e0e1ac7959d5548ebe8dbeaede4f180/controller/pkg/wellknown/controller.go:
		// DefaultAgwControllerName, and DefaultAgwClassName, "the primary
		// GatewayClass this controller creates and manages"
		// (controller/api/settings/settings.go, AgentgatewayClassName).
		ControllerNames: []string{"agentgateway.dev/agentgateway"},
		Classes:         []string{"agentgateway"},
		// controller/api/v1alpha1/agentgateway (GroupName agentgateway.dev):
		// its own kinds.
		Groups: []string{"agentgateway.dev"},
		// controller/install/helm/agentgateway (Chart.yaml name).
		Charts: []string{"agentgateway"},
		// controller/pkg/wellknown/agw.go: AgentgatewayBackend, and
		// AgentgatewayParameters as a Gateway's parametersRef
		// (controller/pkg/deployer/agentgateway_parameters.go).
		BackendKinds:    []GroupKind{{Group: "agentgateway.dev", Kind: "AgentgatewayBackend"}},
		ParametersKinds: []GroupKind{{Group: "agentgateway.dev", Kind: "AgentgatewayParameters"}},
	},
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
		// backendtlspolicy.go's getBackendTLSPolicy matches a policy's
		// targetRefs against the backendRef's own group and kind, so its
		// Backend kind can be targeted
		// (testdata/backend-tls-settings-invalid.in.yaml), and so can a
		// ServiceImport, whose port names route.go's
		// getTargetBackendReference reads as a Service's
		// (testdata/backendtlspolicy-serviceimport-target.out.yaml).
		PolicyTargetKinds: []GroupKind{{Group: "gateway.envoyproxy.io", Kind: "Backend"}, {Group: "multicluster.x-k8s.io", Kind: "ServiceImport"}},
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
		// buildDestination: backendRefs of kind Hostname in group
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
