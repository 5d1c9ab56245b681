package nginx

import "github.com/gwlint/gwlint/resolve"

// Implementation is NGINX Gateway Fabric's reading of the world, where it
// differs from the API's; Implementation{} is the one the registry lists.
type Implementation struct{}

// Name is NGINX Gateway Fabric's name in its conformance reports.
func (Implementation) Name() string { return "nginx-gateway-fabric" }

// Group is NGINX Gateway Fabric's API group.
const Group = "gateway.nginx.org"

// sourceCommit is the commit of NGINX Gateway Fabric whose code the facts
// below cite.
const sourceCommit = "https://github.com/nginx/nginx-gateway-fabric/blob/e55bfe33969f313b210d3497b3ae56b923175d69/"

// policyKinds are its policy kinds, as its documentation's table has them
// (https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/:
// attachment type, supported targets, mergeable) and its CRDs validate
// them (apis/v1alpha1/clientsettingspolicy_types.go,
// upstreamsettingspolicy_types.go, apis/v1alpha2/observabilitypolicy_types.go:
// LocalPolicyTargetReference, no sectionName). A mergeable kind's policies
// on one target all apply unless they set the same field, which gwlint
// does not judge; of ObservabilityPolicies, which do not merge, the oldest
// (then the first by namespace/name) applies and the others are
// Conflicted (internal/controller/state/graph/policies.go,
// markConflictedPolicies).
var policyKinds = func() []resolve.PolicyKind {
	gw := func(kinds ...string) []resolve.PolicyTargetKind {
		out := make([]resolve.PolicyTargetKind, len(kinds))
		for i, k := range kinds {
			out[i] = resolve.PolicyTargetKind{Group: resolve.GroupGateway, Kind: k}
		}
		return out
	}
	docs := "https://docs.nginx.com/nginx-gateway-fabric/overview/custom-policies/"
	return []resolve.PolicyKind{
		{Group: Group, Kind: "ClientSettingsPolicy", Implementation: "nginx-gateway-fabric",
			Targets:   gw(resolve.KindGateway, resolve.KindHTTPRoute, resolve.KindGRPCRoute),
			Inherited: true, Conflicts: resolve.AllApply,
			Sources: []string{docs, sourceCommit + "apis/v1alpha1/clientsettingspolicy_types.go"}},
		{Group: Group, Kind: "ObservabilityPolicy", Implementation: "nginx-gateway-fabric",
			Targets:   gw(resolve.KindHTTPRoute, resolve.KindGRPCRoute),
			Conflicts: resolve.OlderWins,
			Sources: []string{docs, sourceCommit + "apis/v1alpha2/observabilitypolicy_types.go",
				sourceCommit + "internal/controller/state/graph/policies.go"}},
		{Group: Group, Kind: "UpstreamSettingsPolicy", Implementation: "nginx-gateway-fabric",
			Targets:   []resolve.PolicyTargetKind{{Group: resolve.GroupCore, Kind: resolve.KindService}},
			Conflicts: resolve.AllApply,
			Sources:   []string{docs, sourceCommit + "apis/v1alpha1/upstreamsettingspolicy_types.go"}},
	}
}()

// PolicyKinds are NGINX Gateway Fabric's policy kinds
// (resolve.PolicyKindDeclarer).
func (Implementation) PolicyKinds() []resolve.PolicyKind { return policyKinds }
