package envoygateway

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/resolve"
)

// ConditionAggregated is the type of its policy ancestor condition that
// says the ancestors are cut, and ReasonAggregated its reason
// (egv1a1.PolicyConditionAggregated, PolicyReasonAggregated).
const (
	ConditionAggregated                = "Aggregated"
	ReasonAggregated    resolve.Reason = "Aggregated"
)

// AncestorsByParentRef: one entry per route parentRef:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/route.go
// processDestination passes the route's parentRef (group, kind, namespace,
// name, sectionName, port) to applyBackendTLSSetting, and
// backendtlspolicy.go's processBackendTLSPolicy writes the policy's
// ancestor status for it (testdata/backendtlspolicy-invalid-ca.out.yaml).
func (Implementation) AncestorsByParentRef() bool { return true }

// TargetAncestorsController: it writes no entry for a target itself.
func (Implementation) TargetAncestorsController() string { return "" }

// TruncatedAncestorCondition: status/policy.go, TruncatePolicyAncestors:
// beyond 16 entries it keeps 16 and sets egv1a1.PolicyConditionAggregated
// on the last (testdata/backendtlspolicy-status-conditions-truncated.out.yaml).
func (Implementation) TruncatedAncestorCondition(kept int) (resolve.Condition, bool) {
	return resolve.Condition{Type: ConditionAggregated, Status: metav1.ConditionTrue, Reason: ReasonAggregated,
		Message: fmt.Sprintf("ancestors beyond the first %d are not listed", kept)}, true
}
