package istio

import (
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// JudgeListenerSetConditions keeps the reason Accepted of an admitted
// ListenerSet with some invalid listeners: it "is only Accepted if at least
// one of its listeners is valid":
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gatewaycommon/conversion.go,
// ReportListenerSetStatus
// (testdata/listenerset-cross-namespace.status.yaml.golden).
func (Implementation) JudgeListenerSetConditions(b *resolve.Builder, ls *resolve.ListenerSetResult) {
	if ls.Accepted.True() && ls.Accepted.Reason == resolve.ReasonListenersNotValid {
		b.AdmitListenerSet(ls)
	}
}

// JudgeGatewayConditions writes the Gateway's conditions as
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// reportGatewayStatus, does: Accepted and ResolvedRefs start True;
// Accepted takes gatewayErr and the listener count, ResolvedRefs only
// backendTLSErr (spec.tls.backend), and Programmed only
// setProgrammedCondition's address resolution
// (testdata/invalid.status.yaml.golden: invalid-cert-kind is
// Accepted=False/ListenersNotValid and Programmed, ResolvedRefs True).
// gwlint cannot see the data plane and writes Programmed True, or
// False/UnsupportedAddress when no address is usable
// (gatewaycommon/conversion.go, SetProgrammedCondition).
//
// A ListenerSet takes its Gateway's refusal only for its addresses, with
// the Gateway's reason; a Gateway refused for its listeners leaves its
// ListenerSets as they are. gateway_collection.go (the same directory),
// ListenerSetCollection:
// a ListenerSet takes its parent's error only from extractGatewayServices
// (addresses), which ReportListenerSetStatus writes "Parent not accepted:
// ..." with the parent's reason; ListenersNotValid of the parent does not
// reach it (testdata/listenerset-invalid.status.yaml.golden,
// not-accepted-parent).
func (Implementation) JudgeGatewayConditions(b *resolve.Builder, gw *resolve.GatewayResult) {
	b.ResolveOwnRefs(gw)
	typ := string(gwv1.GatewayConditionProgrammed)
	switch {
	case gw.Accepted.Reason == resolve.ReasonUnsupportedAddress:
		gw.Programmed = resolve.Condition{Type: typ, Status: metav1.ConditionFalse, Reason: resolve.ReasonUnsupportedAddress, Message: gw.Accepted.Message}
		b.ShareRefusal(gw, resolve.ReasonUnsupportedAddress, "Gateway "+gw.Ref.NamespacedName()+" is not accepted: "+gw.Accepted.Message)
		return
	case gw.Accepted.True():
		return
	case gw.Programmed.Reason == resolve.ReasonInvalid:
		// Not programmed for its refusal alone, where its address is usable.
		gw.Programmed = resolve.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: resolve.ReasonProgrammed,
			Message: fmt.Sprintf("not accepted, yet %s programs a Gateway once its data plane has an address", gw.Judge)}
	}
	b.ShareRefusal(gw, "", "")
}

// refusedWithoutListeners are the Accepted=False reasons of a Gateway or
// ListenerSet for which it writes no listener status: a Gateway refused for
// an unusable address (one with InvalidParameters gets it), and a
// ListenerSet it does not admit
// (testdata/listenerset-invalid.status.yaml.golden,
// gateway-invalid-parameters-ref.status.yaml.golden).
var refusedWithoutListeners = []resolve.Reason{resolve.ReasonUnsupportedAddress, resolve.ReasonNotAllowed, resolve.ReasonParentNotAccepted}

// OmitsListenerStatus: see refusedWithoutListeners.
func (Implementation) OmitsListenerStatus(accepted resolve.Condition) bool {
	return !accepted.True() && slices.Contains(refusedWithoutListeners, accepted.Reason)
}
