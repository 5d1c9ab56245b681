package istio

import "github.com/gwlint/gwlint/resolve"

// meshController is the controller of Istio's waypoints, under which it
// writes a policy's per-target ancestors (constants.ManagedGatewayMeshController).
const meshController = "istio.io/mesh-controller"

// AncestorsByParentRef: one entry per Gateway, as the API says.
func (Implementation) AncestorsByParentRef() bool { return false }

// TargetAncestorsController: one entry per targetRef under its mesh
// controller, then each Gateway whose routes reach a target:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/backend_policies.go,
// BackendTLSPolicyCollection: "We add a status for Service (for mesh), and
// for each Gateway" (testdata/backend-tls-policy.status.yaml.golden).
func (Implementation) TargetAncestorsController() string { return meshController }

// TruncatedAncestorCondition: it cuts the list and says nothing.
func (Implementation) TruncatedAncestorCondition(int) (resolve.Condition, bool) {
	return resolve.Condition{}, false
}
