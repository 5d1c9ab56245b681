package resolve

import (
	"fmt"
	"maps"
	"slices"
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
	// Ancestors are where the policy's status is written: by default the
	// Gateways that accepted a route with a backendRef to a targeted
	// Service and port (see policyAncestors).
	Ancestors []PolicyAncestor

	Accepted     Condition
	ResolvedRefs Condition
	// OptedOut: the policy opts out of the implementation judging it
	// (BackendTLSPolicyJudge), which ignores it.
	OptedOut bool
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
func (g *Graph) resolveBackendTLSPolicies(b *Builder) {
	held := map[policyKey]*BackendTLSPolicyResult{}
	// "When more than one BackendTLSPolicy selects the same target and
	// sectionName, implementations MUST determine precedence using the
	// following criteria, continuing on ties: The older policy by creation
	// timestamp takes precedence ... The policy appearing first in
	// alphabetical order by {namespace}/{name}."
	byAge := append([]*BackendTLSPolicyResult(nil), g.TLSPolicies...)
	sort.SliceStable(byAge, func(i, j int) bool { return olderOrFirst(&byAge[i].Meta, &byAge[j].Meta) })
	for _, p := range byAge {
		judges := g.policyJudges(p)
		if ignored(p, judges) {
			continue
		}
		g.resolveTargets(b, p, judges)
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
		// CA certificates are read as the one implementation judging the
		// policy reads them; the run's profile decides between several.
		reader := g.defaultJudge
		if len(judges) == 1 {
			reader = judges[0]
		}
		ca := caReading(reader)
		for i, ref := range p.Spec.Validation.CACertificateRefs {
			p.CARefs = append(p.CARefs, g.resolveCARef(&p.Meta, "spec.validation.caCertificateRefs["+strconv.Itoa(i)+"]",
				gwv1.ObjectReference{Group: ref.Group, Kind: ref.Kind, Name: ref.Name}, ReasonInvalidKind, ca))
		}
		skipOtherKinds(p.CARefs, ReasonInvalidKind, ca, reader)
		p.decide(ca.AllOrNothing)
	}
	g.applyBackendTLSPolicies(b, held)
}

// olderOrFirst orders policies as the API's precedence does: the older
// first, then the first by namespace/name.
func olderOrFirst(a, b *Meta) bool {
	if ac, bc := a.Created(), b.Created(); !ac.Equal(&bc) {
		return ac.Before(&bc)
	}
	return refLess(a.Ref, b.Ref)
}

// BackendTLSPolicyJudge reads the BackendTLSPolicies it judges otherwise
// than the API does. The core asks it about each policy, in the API's
// order of precedence, before deciding the policy's targets, and about
// each target of a kind other than Service.
type BackendTLSPolicyJudge interface {
	Implementation
	// IgnoresBackendTLSPolicy returns the reason for which it ignores p
	// and why, as a phrase ("for its annotation ..."); "" when it does
	// not.
	IgnoresBackendTLSPolicy(p *BackendTLSPolicyResult) (reason Reason, why string)
	// TakesPolicyTarget reports whether a policy may target objects of
	// group and kind, a kind of its own, which a backendRef of that kind
	// then uses.
	TakesPolicyTarget(group, kind string) bool
	// JudgePolicyTarget decides a target of a kind it takes: its presence,
	// and its Reason and Message when the policy cannot apply to it.
	JudgePolicyTarget(b *Builder, t *PolicyTarget)
}

// policyTargetJudge is the BackendTLSPolicyJudge of the first of judges
// when each of them takes targets of group and kind; nil otherwise.
func policyTargetJudge(judges []*Judge, group, kind string) BackendTLSPolicyJudge {
	var first BackendTLSPolicyJudge
	for i, j := range judges {
		judge, ok := j.steps.(BackendTLSPolicyJudge)
		if !ok || !judge.TakesPolicyTarget(group, kind) {
			return nil
		}
		if i == 0 {
			first = judge
		}
	}
	return first
}

// DidYouMean is "; did you mean "name"?" for a reference to an object
// the inputs lack that misspells name, else "".
func (b *Builder) DidYouMean(ref ObjectRef) string { return b.g.didYouMean(ref, Missing) }

// ignored reports whether every implementation judging policies ignores p
// (BackendTLSPolicyJudge), and if so writes why, as the first of them
// says, on the policy and each of its targets: it applies to none and
// holds none from another policy.
func ignored(p *BackendTLSPolicyResult, judges []*Judge) bool {
	var reason Reason
	var cause string
	for i, j := range judges {
		judge, ok := j.steps.(BackendTLSPolicyJudge)
		if !ok {
			return false
		}
		r, c := judge.IgnoresBackendTLSPolicy(p)
		if r == "" {
			return false
		}
		if i == 0 {
			reason, cause = r, c
		}
	}
	why := fmt.Sprintf("ignored by %s %s", judges[0], cause)
	for i, ref := range p.Spec.TargetRefs {
		t := newPolicyTarget(p, i, ref)
		t.Reason, t.Message = reason, why
		p.Targets = append(p.Targets, t)
	}
	p.OptedOut = true
	p.Accepted = condition(string(gwv1.PolicyConditionAccepted), false, reason, "Policy "+why)
	return true
}

// policyJudges are the implementations that read p: those of the
// Gateways whose routes send to one of its targets, else (none among the
// inputs, or one selected by Options.Implementation) the one gwlint
// stands for. A policy is read by the controllers that route to its
// targets, whatever profile gwlint was given by default.
func (g *Graph) policyJudges(p *BackendTLSPolicyResult) []*Judge {
	if g.opts.Implementation != nil {
		return []*Judge{g.defaultJudge}
	}
	targets := map[ObjectRef]bool{}
	for _, ref := range p.Spec.TargetRefs {
		targets[ObjectRef{Kind: string(ref.Kind), Namespace: p.Ref.Namespace, Name: string(ref.Name)}] = true
	}
	var out []*Judge
	for _, r := range g.Routes {
		if !slices.ContainsFunc(r.Rules, func(rr *RuleResult) bool {
			return slices.ContainsFunc(rr.Backends, func(b *BackendResult) bool { return targets[b.Target] })
		}) {
			continue
		}
		for _, gw := range g.routeGateways(r.Route, nil, nil) {
			if gw.Managed && !slices.Contains(out, gw.Judge) {
				out = append(out, gw.Judge)
			}
		}
	}
	if len(out) == 0 {
		return []*Judge{g.defaultJudge}
	}
	return out
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
func (g *Graph) resolveTargets(b *Builder, p *BackendTLSPolicyResult, judges []*Judge) {
	for i, ref := range p.Spec.TargetRefs {
		t := newPolicyTarget(p, i, ref)
		p.Targets = append(p.Targets, t)
		service := t.Group == GroupCore && t.Target.Kind == KindService
		// The implementations of the Gateways whose routes reach the
		// target decide (an Envoy Gateway Backend targeted without
		// --implementation): every one of them must take the kind.
		takesKind := !slices.ContainsFunc(judges, func(j *Judge) bool { return !j.AcceptsPolicyTargetKind(t.Group, t.Target.Kind) })
		judge := policyTargetJudge(judges, t.Group, t.Target.Kind)
		switch {
		case kindUnknown(t.Group, t.Target.Kind):
			t.Presence = Unresolved
			continue
		case service:
		case judge != nil:
			judge.JudgePolicyTarget(b, t)
			continue
		case !takesKind:
			t.Reason = ReasonTargetNotFound
			t.Message = fmt.Sprintf("target kind %s is not supported; target a core Service", groupKind(t.Group, t.Target.Kind))
			continue
		default:
			// An object gwlint does not read: assumed to exist.
			t.Presence = External
			continue
		}
		obj, presence := g.Lookup(t.Target)
		t.Presence = presence
		switch o := obj.(type) {
		case nil:
			if presence == Missing {
				t.Reason = ReasonTargetNotFound
				t.Message = fmt.Sprintf("%s does not exist%s", t.Target, g.didYouMean(t.Target, Missing))
			}
		case *Service:
			if t.SectionName != "" && !holdsPlaceholder(t.SectionName) && !hasPortNamed(o, t.SectionName) {
				t.Reason = ReasonTargetNotFound
				t.Message = fmt.Sprintf("%s has no port named %q (ports: %s)", t.Target, t.SectionName, PortList(o.Spec.Ports))
			}
		}
	}
}

// newPolicyTarget is p's targetRef i, not yet looked up.
func newPolicyTarget(p *BackendTLSPolicyResult, i int, ref gwv1.LocalPolicyTargetReferenceWithSectionName) *PolicyTarget {
	t := &PolicyTarget{Path: "spec.targetRefs[" + strconv.Itoa(i) + "]", Group: string(ref.Group),
		Target: ObjectRef{Kind: string(ref.Kind), Namespace: p.Ref.Namespace, Name: string(ref.Name)}}
	if ref.SectionName != nil {
		t.SectionName = string(*ref.SectionName)
	}
	return t
}

func hasPortNamed(s *Service, name string) bool {
	for _, p := range s.Spec.Ports {
		if p.Name == name {
			return true
		}
	}
	return false
}

// decide writes the policy's Accepted and ResolvedRefs conditions;
// allOrNothing is CAReading.AllOrNothing.
func (p *BackendTLSPolicyResult) decide(allOrNothing bool) {
	typ := string(gwv1.PolicyConditionAccepted)
	bad, allBad := firstInvalid(p.CARefs)
	allBad = allBad || (allOrNothing && bad != nil)
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
// Service — and, for every policy, where its status is written
// (policyAncestors).
func (g *Graph) applyBackendTLSPolicies(b *Builder, held map[policyKey]*BackendTLSPolicyResult) {
	if len(g.TLSPolicies) == 0 {
		return
	}
	reached := map[policyKey]*reachers{}
	reachersOf := func(key policyKey) *reachers {
		if reached[key] == nil {
			reached[key] = &reachers{gateways: map[*GatewayResult]bool{}, parents: map[*ParentResult]bool{}, callers: map[ObjectRef]BackendCaller{}}
		}
		return reached[key]
	}
	for _, r := range g.Routes {
		for _, rr := range r.Rules {
			for _, b := range append(append([]*BackendResult(nil), rr.Backends...), rr.FilterBackends...) {
				if (b.Group != GroupCore || b.Target.Kind != KindService) &&
					!g.judgedAllWith(r.Route, func(j *Judge) bool { return j.AcceptsPolicyTargetKind(b.Group, b.Target.Kind) }) &&
					policyTargetJudge(g.routeJudgesOf(r.Route), b.Group, b.Target.Kind) == nil {
					continue
				}
				section := b.policySection()
				if b.Port != nil {
					section = b.Port.Name
				}
				b.TLSPolicy = held[policyKey{b.Target, section}]
				if b.TLSPolicy == nil {
					b.TLSPolicy = held[policyKey{b.Target, ""}]
				}
				reachersOf(policyKey{b.Target, ""}).add(r, b)
				if section != "" {
					reachersOf(policyKey{b.Target, section}).add(r, b)
				}
				g.reportBackendTLS(r, b)
			}
		}
	}
	for _, impl := range g.opts.Implementations {
		if judge, ok := impl.(BackendCallerJudge); ok {
			judge.JudgeBackendCallers(b, func(caller BackendCaller, backend ObjectRef, section string) {
				reachersOf(policyKey{backend, ""}).callers[caller.Ref] = caller
				if section != "" {
					reachersOf(policyKey{backend, section}).callers[caller.Ref] = caller
				}
			})
		}
	}
	for _, p := range g.TLSPolicies {
		p.Ancestors = g.policyAncestors(p, reached)
	}
}

// reachers are what reaches a Service (or one of its ports) through routes:
// the Gateways that accepted such a route, and the managed parentRefs of
// the routes that send it traffic; and the objects of an implementation's
// own kinds that call it (BackendCallerJudge).
type reachers struct {
	gateways map[*GatewayResult]bool
	parents  map[*ParentResult]bool
	callers  map[ObjectRef]BackendCaller
}

func (rs *reachers) add(r *RouteResult, b *BackendResult) {
	for _, gw := range acceptingGateways(r) {
		rs.gateways[gw] = true
	}
	if !b.Valid() || b.Weight == 0 {
		return
	}
	for _, p := range r.Parents {
		if gatewayOf(p) != nil {
			rs.parents[p] = true
		}
	}
}

// PolicyAncestor is one entry of a BackendTLSPolicy's status.ancestors.
type PolicyAncestor struct {
	Ref            gwv1.ParentReference
	ControllerName string
	// Target is the targetRef the entry stands for when the implementation
	// writes one per target (PolicyAncestorsJudge); nil for a Gateway or a
	// route parent.
	Target *PolicyTarget
	// OwnConditions are the implementation's own conditions on the entry,
	// beside the API's Accepted and ResolvedRefs.
	OwnConditions []Condition
	// writer is the implementation that writes the entry.
	writer *Judge
}

// PolicyAncestorsJudge writes a BackendTLSPolicy's status.ancestors
// otherwise than the API's reading. The API leaves the choice to the policy
// ("choosing the relevant ancestor is left to the Policy designers") and
// says "implementations SHOULD use Gateway": the core writes one entry per
// Gateway that accepted a route to a targeted Service, and cuts the list at
// the 16 it allows. The core asks the implementation of each Gateway a
// route to a target reaches, and of the selected profile.
type PolicyAncestorsJudge interface {
	Implementation
	// AncestorsByParentRef reports whether it writes one entry per
	// parentRef, to one of its Gateways, of a route that sends traffic to
	// a targeted Service, in place of one per Gateway.
	AncestorsByParentRef() bool
	// TargetAncestorsController returns the controller under which it
	// writes one entry per targetRef (the target itself), whether or not a
	// route reaches it; "" for none.
	TargetAncestorsController() string
	// TruncatedAncestorCondition returns the condition it adds to the last
	// entry written, of kept, when more were due; false for none.
	TruncatedAncestorCondition(kept int) (Condition, bool)
}

// ancestorsJudge is the PolicyAncestorsJudge of j, nil when it writes the
// API's ancestors.
func ancestorsJudge(j *Judge) PolicyAncestorsJudge {
	judge, _ := j.steps.(PolicyAncestorsJudge)
	return judge
}

// policyAncestors is where the implementations write the policy's status
// (PolicyAncestorsJudge): one entry per Gateway reached, unless that
// Gateway's implementation writes one per route parentRef; and one per
// targetRef when the selected implementation, or that of a Gateway reached,
// writes those.
func (g *Graph) policyAncestors(p *BackendTLSPolicyResult, reached map[policyKey]*reachers) []PolicyAncestor {
	gateways := map[*GatewayResult]bool{}
	parents := map[string]*ParentResult{}
	callers := map[ObjectRef]BackendCaller{}
	targetsBy, targetsWriter := "", g.defaultJudge
	if judge := ancestorsJudge(g.defaultJudge); judge != nil {
		targetsBy = judge.TargetAncestorsController()
	}
	// An ignored policy is written only where its targets are.
	for _, t := range p.Targets {
		rs := reached[policyKey{t.Target, t.SectionName}]
		if rs == nil || p.OptedOut {
			continue
		}
		for gw := range rs.gateways {
			if judge := ancestorsJudge(gw.Judge); judge == nil || !judge.AncestorsByParentRef() {
				gateways[gw] = true
			}
		}
		for pr := range rs.parents {
			writer := gatewayOf(pr).Judge
			judge := ancestorsJudge(writer)
			if judge == nil {
				continue
			}
			if judge.AncestorsByParentRef() {
				parents[parentRefKey(*pr.Ref)] = pr
			}
			if c := judge.TargetAncestorsController(); c != "" && targetsBy == "" {
				targetsBy, targetsWriter = c, writer
			}
		}
		maps.Copy(callers, rs.callers)
	}
	var out []PolicyAncestor
	if targetsBy != "" {
		for i, t := range p.Targets {
			ref := p.Spec.TargetRefs[i]
			group, kind := ref.Group, ref.Kind
			out = append(out, PolicyAncestor{
				Ref:            gwv1.ParentReference{Group: &group, Kind: &kind, Name: ref.Name, SectionName: ref.SectionName},
				ControllerName: targetsBy, Target: t, writer: targetsWriter,
			})
		}
	}
	group, kind := gwv1.Group(GroupGateway), gwv1.Kind(KindGateway)
	for _, gw := range sortedGateways(gateways) {
		ns := gwv1.Namespace(gw.Ref.Namespace)
		out = append(out, PolicyAncestor{
			Ref:            gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gwv1.ObjectName(gw.Ref.Name)},
			ControllerName: gw.ControllerName, writer: gw.Judge,
		})
	}
	for _, key := range slices.Sorted(maps.Keys(parents)) {
		pr := parents[key]
		out = append(out, PolicyAncestor{Ref: *pr.Ref, ControllerName: pr.ControllerName, writer: gatewayOf(pr).Judge})
	}
	refs := slices.Collect(maps.Keys(callers))
	sort.Slice(refs, func(i, j int) bool { return refLess(refs[i], refs[j]) })
	for _, ref := range refs {
		c := callers[ref]
		out = append(out, PolicyAncestor{Ref: c.Ancestor, ControllerName: c.Gateway.ControllerName, writer: c.Gateway.Judge})
	}
	// "A maximum of 16 ancestors will be represented in this list ... If
	// this slice is full, implementations MUST NOT add further entries."
	if len(out) > maxPolicyAncestors {
		out = out[:maxPolicyAncestors]
		last := &out[maxPolicyAncestors-1]
		if judge := ancestorsJudge(last.writer); judge != nil {
			if c, ok := judge.TruncatedAncestorCondition(maxPolicyAncestors); ok {
				last.OwnConditions = append(last.OwnConditions, c)
			}
		}
	}
	return out
}

// maxPolicyAncestors is PolicyStatus.Ancestors' MaxItems.
const maxPolicyAncestors = 16

// Conditions are the ancestor's Accepted and ResolvedRefs: the policy's,
// except that a per-target entry whose target the policy does not apply to
// says why.
func (a *PolicyAncestor) Conditions(p *BackendTLSPolicyResult) (accepted, resolvedRefs Condition) {
	if a.Target != nil && !a.Target.Applies() {
		return condition(string(gwv1.PolicyConditionAccepted), false, a.Target.Reason, a.Target.Path+": "+a.Target.Message), p.ResolvedRefs
	}
	return p.Accepted, p.ResolvedRefs
}

func sortedGateways(set map[*GatewayResult]bool) []*GatewayResult {
	out := slices.Collect(maps.Keys(set))
	sort.Slice(out, func(i, j int) bool { return refLess(out[i].Ref, out[j].Ref) })
	return out
}

// BackendTLSReporter reports on the routes it judges what the API reports
// on a BackendTLSPolicy alone: a backendRef whose policy is not accepted,
// so that TLS to its backend fails. The core asks it, when every
// implementation judging a route is one and they agree, for the reason of
// the route's ResolvedRefs=False, which it writes for a backendRef that
// carries traffic when no other reference problem is reported there.
type BackendTLSReporter interface {
	Implementation
	// BackendTLSFailure is the reason of the route's ResolvedRefs=False
	// for a backendRef whose TLS to its backend fails.
	BackendTLSFailure() Reason
}

// backendTLSFailure is the reason the implementations judging the route
// write on its ResolvedRefs for a backendRef whose TLS fails
// (BackendTLSReporter); "" when one of them does not, or they disagree.
func (g *Graph) backendTLSFailure(route *Route) Reason {
	var reason Reason
	for i, judge := range routeJudges[BackendTLSReporter](g, route) {
		if i > 0 && judge.BackendTLSFailure() != reason {
			return ""
		}
		reason = judge.BackendTLSFailure()
	}
	return reason
}

// reportBackendTLS writes a backendRef whose BackendTLSPolicy is not
// accepted on the route's ResolvedRefs when the implementations judging
// the route report it (backendTLSFailure), and no other reference problem
// is reported there. So too one whose policy is accepted when every
// Gateway that accepted the route offers the backend a client certificate,
// named by its parameters, that cannot be used (ClientCertificateProblem).
func (g *Graph) reportBackendTLS(r *RouteResult, b *BackendResult) {
	if b.TLSPolicy == nil || !b.Valid() || b.Weight == 0 || !r.ResolvedRefs.True() {
		return
	}
	reason := g.backendTLSFailure(r.Route)
	if reason == "" {
		return
	}
	if b.TLSFails() {
		r.ResolvedRefs = condition(string(gwv1.RouteConditionResolvedRefs), false, reason,
			fmt.Sprintf("BackendTLSPolicy %s of %s is not accepted: %s", b.TLSPolicy.Ref.NamespacedName(), b.Target, b.TLSPolicy.Accepted.Message))
		return
	}
	var problem *ParametersProblem
	for _, gw := range acceptingGateways(r) {
		if problem = gw.ClientCertificateProblem; problem == nil {
			return
		}
	}
	if problem != nil {
		r.ResolvedRefs = condition(string(gwv1.RouteConditionResolvedRefs), false, reason,
			fmt.Sprintf("TLS to %s: %s", b.Target, problem.Message))
	}
}

// acceptingGateways are the managed Gateways that accepted the route, through
// their own listeners or a ListenerSet's.
func acceptingGateways(r *RouteResult) []*GatewayResult {
	var out []*GatewayResult
	for _, p := range r.Parents {
		if gw := gatewayOf(p); gw != nil && p.Accepted.True() {
			out = append(out, gw)
		}
	}
	return out
}

// gatewayOf is the managed Gateway a parentRef names, itself or through a
// ListenerSet; nil for any other parent.
func gatewayOf(p *ParentResult) *GatewayResult {
	gw := p.Gateway
	if p.ListenerSet != nil {
		gw = p.ListenerSet.Parent
	}
	if gw == nil || !gw.Managed {
		return nil
	}
	return gw
}

// parentRefKey orders and tells apart defaulted parentRefs.
func parentRefKey(r gwv1.ParentReference) string {
	key := fmt.Sprintf("%s/%s/%s/%s", *r.Group, *r.Kind, *r.Namespace, r.Name)
	if r.SectionName != nil {
		key += "/" + string(*r.SectionName)
	}
	if r.Port != nil {
		key += fmt.Sprintf(":%d", *r.Port)
	}
	return key
}
