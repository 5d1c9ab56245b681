package resolve

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// StatusObject is an object's identity and the .status a conformant
// controller would write for it, in the API's own status schema.
type StatusObject struct {
	APIVersion string         `json:"apiVersion"`
	Kind       string         `json:"kind"`
	Metadata   StatusMetadata `json:"metadata"`
	Status     any            `json:"status"`
}

// StatusMetadata identifies the object a status belongs to.
type StatusMetadata struct {
	Name       string `json:"name"`
	Namespace  string `json:"namespace,omitempty"`
	Generation int64  `json:"generation"`
}

// epoch stands in for lastTransitionTime, which is unknowable offline; the
// CRDs' own defaulted conditions use the same value, and it keeps the output
// schema-valid and deterministic.
var epoch = metav1.NewTime(time.Unix(0, 0).UTC())

// Statuses returns the status of every GatewayClass, every managed Gateway,
// every ListenerSet whose Gateway is managed, every route, every
// BackendTLSPolicy and every other policy with ancestors written
// (PolicyStatusWriter), in that order, each group sorted by namespace/name
// (policies by kind first).
func (g *Graph) Statuses() []StatusObject {
	var out []StatusObject
	for _, c := range g.GatewayClasses {
		out = append(out, statusObject(&c.Meta, c.gatewayClassStatus()))
	}
	for _, gw := range g.Gateways {
		if gw.Managed {
			out = append(out, statusObject(&gw.Meta, gw.gatewayStatus()))
		}
	}
	for _, ls := range g.ListenerSets {
		if ls.Parent != nil && ls.Parent.Managed {
			out = append(out, statusObject(&ls.Meta, ls.listenerSetStatus()))
		}
	}
	for _, r := range g.Routes {
		out = append(out, statusObject(&r.Meta, r.routeStatus()))
	}
	for _, p := range g.TLSPolicies {
		out = append(out, statusObject(&p.Meta, p.policyStatus()))
	}
	for _, p := range g.Policies {
		if len(p.Ancestors) > 0 {
			so := statusObject(p.Meta(), p.policyStatus())
			so.Kind = p.Kind // as written, not qualified by its group
			out = append(out, so)
		}
	}
	return out
}

func statusObject(m *Meta, status any) StatusObject {
	apiVersion := m.APIVersion
	if m.Version().Kind != "" {
		// Read as a renamed kind (XListenerSet as ListenerSet): its status
		// is the successor's, under the successor's apiVersion.
		apiVersion = m.Version().ReadAs
	}
	return StatusObject{
		APIVersion: apiVersion, Kind: m.Ref.Kind,
		Metadata: StatusMetadata{Name: m.Ref.Name, Namespace: m.Ref.Namespace, Generation: generation(m)},
		Status:   status,
	}
}

// generation is metadata.generation, or 1 for an object as first created.
func generation(m *Meta) int64 {
	if m.Generation > 0 {
		return m.Generation
	}
	return 1
}

func conditions(m *Meta, cs ...Condition) []metav1.Condition {
	out := make([]metav1.Condition, 0, len(cs))
	for _, c := range cs {
		msg := c.Message
		if msg == "" {
			msg = string(c.Reason)
		}
		out = append(out, metav1.Condition{
			Type: c.Type, Status: c.Status, Reason: string(c.Reason), Message: msg,
			ObservedGeneration: generation(m), LastTransitionTime: epoch,
		})
	}
	return out
}

func (gw *GatewayResult) gatewayStatus() gwv1.GatewayStatus {
	if gw.Remote() {
		return gwv1.GatewayStatus{Conditions: conditions(&gw.Meta, gw.Accepted, gw.Programmed), Listeners: []gwv1.ListenerStatus{}}
	}
	conds := []Condition{gw.Accepted, gw.Programmed, gw.ResolvedRefs}
	if gw.InsecureFrontend != nil {
		conds = append(conds, *gw.InsecureFrontend)
	}
	st := gwv1.GatewayStatus{Conditions: conditions(&gw.Meta, conds...), Listeners: []gwv1.ListenerStatus{}}
	if !gw.omitsListeners || gw.ParametersRefusal != nil {
		st.Listeners = listenerStatuses(&gw.Meta, gw.Listeners)
	}
	if gw.Spec.AllowedListeners != nil {
		n := int32(0)
		for _, ls := range gw.ListenerSets {
			if ls.Accepted.True() {
				n++
			}
		}
		st.AttachedListenerSets = &n
	}
	return st
}

func (ls *ListenerSetResult) listenerSetStatus() gwv1.ListenerSetStatus {
	st := gwv1.ListenerSetStatus{Conditions: conditions(&ls.Meta, ls.Accepted, ls.Programmed)}
	if ls.omitsListeners {
		return st
	}
	for _, l := range listenerStatuses(&ls.Meta, ls.Listeners) {
		st.Listeners = append(st.Listeners, gwv1.ListenerEntryStatus(l))
	}
	return st
}

func listenerStatuses(m *Meta, listeners []*Listener) []gwv1.ListenerStatus {
	out := make([]gwv1.ListenerStatus, 0, len(listeners))
	for _, l := range listeners {
		kinds := l.SupportedKinds
		if kinds == nil {
			kinds = []gwv1.RouteGroupKind{}
		}
		conds := []Condition{l.Accepted, l.Conflicted, l.Programmed, l.ResolvedRefs}
		if l.OverlappingTLS.True() {
			conds = append(conds, l.OverlappingTLS)
		}
		out = append(out, gwv1.ListenerStatus{
			Name:           gwv1.SectionName(l.Name),
			SupportedKinds: kinds,
			AttachedRoutes: l.AttachedRoutes,
			Conditions:     conditions(m, conds...),
		})
	}
	return out
}

func (r *RouteResult) routeStatus() gwv1.RouteStatus {
	st := gwv1.RouteStatus{Parents: []gwv1.RouteParentStatus{}}
	for _, p := range r.Parents {
		if !p.HasStatus() {
			continue
		}
		st.Parents = append(st.Parents, gwv1.RouteParentStatus{
			ParentRef:      *p.Ref,
			ControllerName: gwv1.GatewayController(p.ControllerName),
			Conditions:     conditions(&r.Meta, p.conditions()...),
		})
	}
	return st
}

// conditions are the route's conditions for this parent.
func (p *ParentResult) conditions() []Condition {
	cs := []Condition{p.Accepted, p.Route.ResolvedRefs}
	if p.PartiallyInvalid.True() {
		cs = append(cs, p.PartiallyInvalid)
	}
	return append(cs, p.Conditions...)
}

// policyStatus writes the policy's ancestors (policyAncestors).
func (p *BackendTLSPolicyResult) policyStatus() gwv1.PolicyStatus {
	st := gwv1.PolicyStatus{Ancestors: []gwv1.PolicyAncestorStatus{}}
	for i := range p.Ancestors {
		a := &p.Ancestors[i]
		accepted, resolvedRefs := a.Conditions(p)
		cs := []Condition{accepted}
		if resolvedRefs.Type != "" { // an ignored policy's is never decided
			cs = append(cs, resolvedRefs)
		}
		cs = append(cs, a.OwnConditions...)
		st.Ancestors = append(st.Ancestors, gwv1.PolicyAncestorStatus{
			AncestorRef:    a.Ref,
			ControllerName: gwv1.GatewayController(a.ControllerName),
			Conditions:     conditions(&p.Meta, cs...),
		})
	}
	return st
}
