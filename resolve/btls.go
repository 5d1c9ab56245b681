package resolve

import (
	"fmt"
	"sort"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// BackendTLSPolicyResult is a BackendTLSPolicy with what a controller
// decides about it.
type BackendTLSPolicyResult struct {
	*BackendTLSPolicy
	Targets []*PolicyTarget
	// CARefs are spec.validation.caCertificateRefs resolved.
	CARefs []*RefResult
	// Ancestors are the Gateways the targeted Services are reached through
	// (parents that accepted a route with a backendRef to a targeted Service
	// and port), where the policy's status is written; sorted.
	Ancestors []*GatewayResult

	Accepted     Condition
	ResolvedRefs Condition
}

// PolicyTarget is one spec.targetRefs entry of a BackendTLSPolicy.
type PolicyTarget struct {
	Path        string // "spec.targetRefs[i]"
	Group       string
	Target      ObjectRef
	SectionName string
	Presence    Presence
	// Reason is TargetNotFound when the target is not a Service that
	// exists (with a port named SectionName), Conflicted when an older
	// policy holds the same Service and sectionName; "" when the policy
	// applies to it.
	Reason  Reason
	Message string
	// HeldBy is the policy that holds the target when this one lost it.
	HeldBy *BackendTLSPolicyResult
}

// Applies reports whether the policy applies to the target.
func (t *PolicyTarget) Applies() bool { return t.Reason == "" }

// policyKey is what two BackendTLSPolicies conflict on: the same Service
// and sectionName ("" for the whole Service).
type policyKey struct {
	service ObjectRef
	section string
}

// resolveBackendTLSPolicies evaluates every BackendTLSPolicy once routes are
// attached: targets, conflicts, CA certificates, then which policy each
// backendRef to a Service uses and the Gateways each policy's status is
// written for.
func (g *Graph) resolveBackendTLSPolicies() {
	held := map[policyKey]*BackendTLSPolicyResult{}
	// "When more than one BackendTLSPolicy selects the same target and
	// sectionName, implementations MUST determine precedence using the
	// following criteria, continuing on ties: The older policy by creation
	// timestamp takes precedence ... The policy appearing first in
	// alphabetical order by {namespace}/{name}."
	byAge := append([]*BackendTLSPolicyResult(nil), g.TLSPolicies...)
	sort.SliceStable(byAge, func(i, j int) bool {
		a, b := byAge[i], byAge[j]
		if !a.Created.Equal(&b.Created) {
			return a.Created.Before(&b.Created)
		}
		return refLess(a.Ref, b.Ref)
	})
	for _, p := range byAge {
		g.resolveTargets(p)
		for _, t := range p.Targets {
			if !t.Applies() {
				continue
			}
			key := policyKey{t.Target, t.SectionName}
			if holder := held[key]; holder != nil {
				t.Reason, t.HeldBy = ReasonConflicted, holder
				t.Message = fmt.Sprintf("BackendTLSPolicy %s, older or first by name, already targets %s", holder.Ref.NamespacedName(), targetName(t))
				continue
			}
			held[key] = p
		}
		for i, ref := range p.Spec.Validation.CACertificateRefs {
			p.CARefs = append(p.CARefs, g.resolveCARef(&p.Meta, "spec.validation.caCertificateRefs["+strconv.Itoa(i)+"]",
				gwv1.ObjectReference{Group: ref.Group, Kind: ref.Kind, Name: ref.Name}, ReasonInvalidKind))
		}
		p.decide()
	}
	g.applyBackendTLSPolicies(held)
}

func targetName(t *PolicyTarget) string {
	if t.SectionName == "" {
		return t.Target.String()
	}
	return t.Target.String() + " port " + t.SectionName
}

// resolveTargets: the spec gives Extended support to "Kubernetes Service
// referenced by backendRefs used on a Route"; any other kind is an invalid
// target ("PolicyReasonTargetNotFound is used with the Accepted condition
// when the policy is attached to an invalid target resource"). A
// sectionName names a Service port.
func (g *Graph) resolveTargets(p *BackendTLSPolicyResult) {
	for i, ref := range p.Spec.TargetRefs {
		t := &PolicyTarget{Path: "spec.targetRefs[" + strconv.Itoa(i) + "]", Group: string(ref.Group),
			Target: ObjectRef{Kind: string(ref.Kind), Namespace: p.Ref.Namespace, Name: string(ref.Name)}}
		if ref.SectionName != nil {
			t.SectionName = string(*ref.SectionName)
		}
		p.Targets = append(p.Targets, t)
		if t.Group != GroupCore || t.Target.Kind != KindService {
			t.Reason = ReasonTargetNotFound
			t.Message = fmt.Sprintf("target kind %s is not supported; target a core Service", groupKind(t.Group, t.Target.Kind))
			continue
		}
		obj, presence := g.Lookup(t.Target)
		t.Presence = presence
		switch {
		case presence == Missing:
			t.Reason = ReasonTargetNotFound
			t.Message = fmt.Sprintf("%s does not exist", t.Target)
		case obj != nil && t.SectionName != "" && !hasPortNamed(obj.(*Service), t.SectionName):
			t.Reason = ReasonTargetNotFound
			t.Message = fmt.Sprintf("%s has no port named %q (ports: %s)", t.Target, t.SectionName, portList(obj.(*Service).Spec.Ports))
		}
	}
}

func hasPortNamed(s *Service, name string) bool {
	for _, p := range s.Spec.Ports {
		if p.Name == name {
			return true
		}
	}
	return false
}

// decide writes the policy's Accepted and ResolvedRefs conditions.
func (p *BackendTLSPolicyResult) decide() {
	typ := string(gwv1.PolicyConditionAccepted)
	bad, allBad := firstInvalid(p.CARefs)
	wellKnown := p.Spec.Validation.WellKnownCACertificates
	var lost *PolicyTarget
	applies := false
	for _, t := range p.Targets {
		switch {
		case t.Applies():
			applies = true
		case lost == nil || (t.Reason == ReasonConflicted && lost.Reason != ReasonConflicted):
			lost = t
		}
	}
	switch {
	case !applies && lost != nil:
		p.Accepted = condition(typ, false, lost.Reason, lost.Path+": "+lost.Message)
	case wellKnown != nil && *wellKnown != "" && *wellKnown != gwv1.WellKnownCACertificatesSystem:
		// "If an implementation does not support the WellKnownCACertificates
		// field, or the supplied value is not recognized, the implementation
		// MUST ensure the Accepted Condition ... is set to status: False,
		// with a Reason Invalid."
		p.Accepted = condition(typ, false, ReasonInvalid,
			fmt.Sprintf("spec.validation.wellKnownCACertificates %q is not recognized; use System", *wellKnown))
	case allBad:
		p.Accepted = condition(typ, false, ReasonNoValidCACertificate, "no CA certificate is usable: "+bad.Message)
	default:
		p.Accepted = condition(typ, true, ReasonAccepted, "Policy accepted")
	}
	if bad != nil {
		p.ResolvedRefs = condition(string(gwv1.BackendTLSPolicyConditionResolvedRefs), false, bad.Reason, bad.Path+": "+bad.Message)
	} else {
		p.ResolvedRefs = condition(string(gwv1.BackendTLSPolicyConditionResolvedRefs), true, ReasonResolvedRefs, "All CA certificate references resolved")
	}
}

// applyBackendTLSPolicies records which policy each backendRef to a Service
// uses — the one holding its port's name, else the one holding the whole
// Service — and, for every policy targeting a Service, the Gateways that
// accepted a route reaching that Service (on the targeted port).
func (g *Graph) applyBackendTLSPolicies(held map[policyKey]*BackendTLSPolicyResult) {
	if len(g.TLSPolicies) == 0 {
		return
	}
	reached := map[policyKey]map[*GatewayResult]bool{}
	reach := func(key policyKey, gws []*GatewayResult) {
		if reached[key] == nil {
			reached[key] = map[*GatewayResult]bool{}
		}
		for _, gw := range gws {
			reached[key][gw] = true
		}
	}
	for _, r := range g.Routes {
		gws := acceptingGateways(r)
		for _, rr := range r.Rules {
			for _, b := range append(append([]*BackendResult(nil), rr.Backends...), rr.FilterBackends...) {
				if b.Group != GroupCore || b.Target.Kind != KindService {
					continue
				}
				section := ""
				if b.Port != nil {
					section = b.Port.Name
				}
				b.TLSPolicy = held[policyKey{b.Target, section}]
				if b.TLSPolicy == nil {
					b.TLSPolicy = held[policyKey{b.Target, ""}]
				}
				reach(policyKey{b.Target, ""}, gws)
				if section != "" {
					reach(policyKey{b.Target, section}, gws)
				}
			}
		}
	}
	for _, p := range g.TLSPolicies {
		seen := map[*GatewayResult]bool{}
		for _, t := range p.Targets {
			for gw := range reached[policyKey{t.Target, t.SectionName}] {
				if !seen[gw] {
					seen[gw] = true
					p.Ancestors = append(p.Ancestors, gw)
				}
			}
		}
		sort.Slice(p.Ancestors, func(i, j int) bool { return refLess(p.Ancestors[i].Ref, p.Ancestors[j].Ref) })
	}
}

// acceptingGateways are the managed Gateways that accepted the route, through
// their own listeners or a ListenerSet's.
func acceptingGateways(r *RouteResult) []*GatewayResult {
	var out []*GatewayResult
	for _, p := range r.Parents {
		gw := p.Gateway
		if p.ListenerSet != nil {
			gw = p.ListenerSet.Parent
		}
		if gw != nil && gw.Managed && p.Accepted.True() {
			out = append(out, gw)
		}
	}
	return out
}
