package gke

import "github.com/gwlint/gwlint/resolve"

// Implementation is GKE's reading of the world, where it differs from the
// API's; Implementation{} is the one the registry lists.
type Implementation struct{}

// Name is GKE's name in its conformance reports.
func (Implementation) Name() string { return "gke-gateway" }

// Group is the API group of GKE's policies.
const Group = "networking.gke.io"

// docs is GKE's documentation of its policies.
const docs = "https://cloud.google.com/kubernetes-engine/docs/how-to/configure-gateway-resources"

// policyKinds are its policy kinds, which attach directly to "Gateways,
// Services or ServiceImports" (docs): GCPBackendPolicy and
// HealthCheckPolicy to a Service or a multi-cluster ServiceImport
// (net.gke.io), GCPGatewayPolicy to a Gateway; by a single targetRef,
// without sectionName. The documentation says nothing of several policies
// on one target: gwlint judges no conflict.
var policyKinds = func() []resolve.PolicyKind {
	backends := []resolve.PolicyTargetKind{{Group: resolve.GroupCore, Kind: resolve.KindService}, {Group: "net.gke.io", Kind: "ServiceImport"}}
	kind := func(kind string, targets []resolve.PolicyTargetKind) resolve.PolicyKind {
		return resolve.PolicyKind{Group: Group, Kind: kind, Implementation: "gke-gateway", Targets: targets,
			Conflicts: resolve.AllApply, Sources: []string{docs}}
	}
	return []resolve.PolicyKind{
		kind("GCPBackendPolicy", backends),
		kind("GCPGatewayPolicy", []resolve.PolicyTargetKind{{Group: resolve.GroupGateway, Kind: resolve.KindGateway}}),
		kind("HealthCheckPolicy", backends),
	}
}()

// PolicyKinds are GKE's policy kinds (resolve.PolicyKindDeclarer).
func (Implementation) PolicyKinds() []resolve.PolicyKind { return policyKinds }
