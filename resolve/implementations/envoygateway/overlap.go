package envoygateway

import (
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/resolve"
)

// ConditionRouteRulesOverlap is Envoy Gateway's own route condition type:
// another route's match is identical to one of this route's
// (status.RouteConditionRouteRulesOverlap).
const ConditionRouteRulesOverlap = "RouteRulesOverlap"

// ReasonRouteRulesOverlap is its reason for ConditionRouteRulesOverlap.
const ReasonRouteRulesOverlap resolve.Reason = "RouteRulesOverlap"

// JudgeOverlap writes RouteRulesOverlap=True on the parent of a route with
// a match identical to other routes' on a listener and hostname:
// https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/route.go
// checkRouteOverlaps buckets each IR listener's routes by buildOverlapKey
// (hostname, path, headers with :method, query parameters) and writes
// status.RouteConditionRouteRulesOverlap on the parentRefs of every route
// that shares a bucket with another
// (testdata/httproute-overlapping-matches.out.yaml).
func (Implementation) JudgeOverlap(b *resolve.Builder, p *resolve.ParentResult, others []*resolve.RouteResult) {
	names := make([]string, len(others))
	for i, r := range others {
		names[i] = r.Ref.String()
	}
	b.AddParentCondition(p, resolve.Condition{Type: ConditionRouteRulesOverlap, Status: metav1.ConditionTrue, Reason: ReasonRouteRulesOverlap,
		Message: "Overlapping match conditions with route(s): " + strings.Join(names, ", ")})
}
