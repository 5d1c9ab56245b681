package resolve

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// PolicyAncestorStatus is one entry of a policy's status.ancestors
// (GEP-713's PolicyAncestorStatus), as the implementation of its kind
// writes it for a Gateway it manages.
type PolicyAncestorStatus struct {
	Ref            gwv1.ParentReference
	ControllerName string
	// Gateway is the Gateway whose controller writes the entry: the
	// ancestor itself, or the parent of the ListenerSet it names.
	Gateway *GatewayResult
	// Targets are the policy's targets the entry stands for.
	Targets []*PolicyTargetResult
	// Accepted is the API's condition: True, or False with the reason
	// of the first target that does not apply (Conflicted,
	// TargetNotFound), or the implementation's (Invalid); an entry the
	// implementation adds may have none (Type "").
	Accepted Condition
	// OwnConditions are the implementation's own conditions on the entry
	// (PolicyStatusWriter), after Accepted.
	OwnConditions []Condition
}

// PolicyStatusWriter is an implementation that writes status.ancestors
// for the policies of its kinds (PolicyKind.Implementation) on the
// Gateways it manages. GEP-713 leaves the choice of ancestor to the policy;
// the core writes the common reading: for a target that exists, the
// targeted Gateway or ListenerSet with its sectionName, or for a route
// every parentRef of it to a Gateway (or ListenerSet) the implementation
// manages, named as the parentRef names it; Accepted True, or False
// Conflicted (an older policy holds the target) or TargetNotFound (the
// sectionName names nothing). A missing target has no ancestor to write
// the status under, so none is written. The core writes the status of a
// policy kind only for an implementation that is a PolicyStatusWriter:
// the others' behaviour is not cited.
type PolicyStatusWriter interface {
	Implementation
	// JudgePolicyAncestors adjusts the entries the core wrote for its
	// policies, all at once (one policy's entries may depend on others'):
	// its own conditions and entries, its own refusals.
	JudgePolicyAncestors(b *Builder, policies []*PolicyResult)
}

// writePolicyStatuses writes the ancestors of every policy of a kind whose
// implementation is a PolicyStatusWriter, then hands each to it.
func (g *Graph) writePolicyStatuses() {
	var routes map[ObjectRef]*RouteResult
	written := map[string][]*PolicyResult{} // by implementation name
	var writers []PolicyStatusWriter
	for _, p := range g.Policies {
		if p.TLS != nil || p.Known == nil || p.Known.Implementation == "" {
			continue
		}
		writer := g.policyStatusWriter(p.Known.Implementation)
		if writer == nil {
			continue
		}
		if routes == nil {
			routes = make(map[ObjectRef]*RouteResult, len(g.Routes))
			for _, r := range g.Routes {
				routes[r.Ref] = r
			}
		}
		for _, t := range p.Targets {
			g.writeTargetAncestors(p, t, routes)
		}
		if len(p.Ancestors) > 0 {
			if written[writer.Name()] == nil {
				writers = append(writers, writer)
			}
			written[writer.Name()] = append(written[writer.Name()], p)
		}
	}
	for _, w := range writers {
		w.JudgePolicyAncestors(&Builder{g}, written[w.Name()])
	}
}

// policyStatusWriter is the implementation of the name when it writes
// policy status.
func (g *Graph) policyStatusWriter(name string) PolicyStatusWriter {
	for _, impl := range g.opts.Implementations {
		if w, ok := impl.(PolicyStatusWriter); ok && impl.Name() == name {
			return w
		}
	}
	return nil
}

// writeTargetAncestors adds the entries t stands for to p's ancestors.
func (g *Graph) writeTargetAncestors(p *PolicyResult, t *PolicyTargetResult, routes map[ObjectRef]*RouteResult) {
	switch t.Problem {
	case "", PolicyConflicted, PolicySectionNotFound:
	default:
		return
	}
	if t.Object == nil {
		return
	}
	writes := func(gw *GatewayResult) bool {
		return gw != nil && gw.Managed && gw.Judge.Name == p.Known.Implementation
	}
	section := func(s string) *gwv1.SectionName {
		if s == "" {
			return nil
		}
		name := gwv1.SectionName(s)
		return &name
	}
	switch o := t.Object.(type) {
	case *Gateway:
		if gw := g.Gateway(o.Ref.Namespace, o.Ref.Name); writes(gw) {
			p.addAncestor(AncestorRef(KindGateway, o.Ref, section(t.SectionName)), gw, t)
		}
	case *ListenerSet:
		if ls := g.ListenerSet(o.Ref.Namespace, o.Ref.Name); ls != nil && writes(ls.Parent) {
			p.addAncestor(AncestorRef(KindListenerSet, o.Ref, section(t.SectionName)), ls.Parent, t)
		}
	case *Route:
		r := routes[o.Ref]
		if r == nil {
			return
		}
		for _, parent := range r.Parents {
			gw := gatewayOf(parent)
			if !writes(gw) {
				continue
			}
			kind, ref := KindGateway, gw.Ref
			if parent.ListenerSet != nil {
				kind, ref = KindListenerSet, parent.ListenerSet.Ref
			}
			p.addAncestor(AncestorRef(kind, ref, parent.Ref.SectionName), gw, t)
		}
	}
}

// AncestorRef names a Gateway or ListenerSet as an ancestor, its group,
// kind and namespace written out.
func AncestorRef(kind string, ref ObjectRef, section *gwv1.SectionName) gwv1.ParentReference {
	group, k, ns := gwv1.Group(GroupGateway), gwv1.Kind(kind), gwv1.Namespace(ref.Namespace)
	return gwv1.ParentReference{Group: &group, Kind: &k, Namespace: &ns, Name: gwv1.ObjectName(ref.Name), SectionName: section}
}

// addAncestor adds t to the entry of ref, written by gw's controller, or a
// new entry. A target that does not apply decides the entry's Accepted:
// a refusal is never undone by another target accepted there.
func (p *PolicyResult) addAncestor(ref gwv1.ParentReference, gw *GatewayResult, t *PolicyTargetResult) {
	var a *PolicyAncestorStatus
	for _, have := range p.Ancestors {
		if have.ControllerName == gw.ControllerName && parentRefKey(have.Ref) == parentRefKey(ref) {
			a = have
			break
		}
	}
	if a == nil {
		a = &PolicyAncestorStatus{Ref: ref, ControllerName: gw.ControllerName, Gateway: gw,
			Accepted: condition(string(gwv1.PolicyConditionAccepted), true, Reason(gwv1.PolicyReasonAccepted), "Policy has been accepted.")}
		p.Ancestors = append(p.Ancestors, a)
	}
	a.Targets = append(a.Targets, t)
	if !t.Applies() && a.Accepted.Status == metav1.ConditionTrue {
		a.Accepted = condition(string(gwv1.PolicyConditionAccepted), false, t.Reason, t.Message)
	}
}

// policyStatus writes the policy's ancestors.
func (p *PolicyResult) policyStatus() gwv1.PolicyStatus {
	st := gwv1.PolicyStatus{Ancestors: []gwv1.PolicyAncestorStatus{}}
	for _, a := range p.Ancestors {
		st.Ancestors = append(st.Ancestors, gwv1.PolicyAncestorStatus{
			AncestorRef:    a.Ref,
			ControllerName: gwv1.GatewayController(a.ControllerName),
			Conditions:     conditions(p.Meta(), a.conditions()...),
		})
	}
	return st
}

// conditions are Accepted, when written, then the implementation's.
func (a *PolicyAncestorStatus) conditions() []Condition {
	if a.Accepted.Type == "" {
		return a.OwnConditions
	}
	return append([]Condition{a.Accepted}, a.OwnConditions...)
}
