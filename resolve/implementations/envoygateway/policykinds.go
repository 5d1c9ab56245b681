package envoygateway

import "github.com/gwlint/gwlint/resolve"

// Its policy kinds besides EnvoyExtensionPolicy and SecurityPolicy
// (policy.go), read by the core as any policy.
const (
	KindBackendTrafficPolicy = "BackendTrafficPolicy"
	KindClientTrafficPolicy  = "ClientTrafficPolicy"
)

// sourceCommit is the commit of Envoy Gateway whose code the facts below cite.
const sourceCommit = "https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/"

// policyKinds are its policy kinds. Each takes targets of
// gateway.networking.k8s.io only, as its CRD's validation lists them
// (api/v1alpha1/*_types.go, "this policy can only have a targetRefs[*].kind
// of ..."), a sectionName naming a listener of a Gateway or ListenerSet or
// a rule of a route. Each is inherited: a policy on a Gateway applies to
// its listeners and to the routes attached to them, and one on a more
// specific target overrides it there (securitypolicy.go: "policies
// attached to ... child scopes ... displace policies attached" to the
// parent, condition Overridden; mergeType, which merges a route's policy
// into the Gateway's, is not read). Of several policies of a kind on the
// same target and sectionName, the oldest, then the first by
// namespace/name, applies (internal/gatewayapi/resource/resource.go sorts
// them so) and the others are Conflicted ("another BackendTrafficPolicy has
// already attached to it", backendtrafficpolicy.go).
var policyKinds = func() []resolve.PolicyKind {
	gateway := func(kinds ...string) []resolve.PolicyTargetKind {
		out := make([]resolve.PolicyTargetKind, len(kinds))
		for i, k := range kinds {
			out[i] = resolve.PolicyTargetKind{Group: resolve.GroupGateway, Kind: k, SectionName: true}
		}
		return out
	}
	routes := []string{resolve.KindHTTPRoute, resolve.KindGRPCRoute, resolve.KindUDPRoute, resolve.KindTCPRoute, resolve.KindTLSRoute}
	kind := func(kind, file, doc string, targets []resolve.PolicyTargetKind) resolve.PolicyKind {
		return resolve.PolicyKind{Group: Group, Kind: kind, Implementation: "envoy-gateway", Targets: targets,
			Inherited: true, Overrides: true, Conflicts: resolve.OlderWins,
			Sources: []string{sourceCommit + "api/v1alpha1/" + file, sourceCommit + "internal/gatewayapi/", doc}}
	}
	return []resolve.PolicyKind{
		kind(KindBackendTrafficPolicy, "backendtrafficpolicy_types.go", "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/backend-traffic-policy/",
			gateway(append([]string{resolve.KindGateway, resolve.KindListenerSet}, routes...)...)),
		kind(KindClientTrafficPolicy, "clienttrafficpolicy_types.go", "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/client-traffic-policy/",
			gateway(resolve.KindGateway, resolve.KindListenerSet)),
		kind(KindEnvoyExtensionPolicy, "envoyextensionypolicy_types.go", "https://gateway.envoyproxy.io/docs/api/extension_types/#envoyextensionpolicy",
			gateway(append([]string{resolve.KindGateway, resolve.KindListenerSet}, routes...)...)),
		kind(KindSecurityPolicy, "securitypolicy_types.go", "https://gateway.envoyproxy.io/docs/concepts/gateway_api_extensions/security-policy/",
			gateway(resolve.KindGateway, resolve.KindListenerSet, resolve.KindHTTPRoute, resolve.KindGRPCRoute, resolve.KindTCPRoute)),
	}
}()

// PolicyKinds are Envoy Gateway's policy kinds (resolve.PolicyKindDeclarer).
func (Implementation) PolicyKinds() []resolve.PolicyKind { return policyKinds }
