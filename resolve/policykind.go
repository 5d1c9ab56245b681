package resolve

import (
	"slices"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// PolicyTargetReference is one target reference of a policy as GEP-713
// writes it (spec.targetRef, spec.targetRefs[i]): the API's
// LocalPolicyTargetReferenceWithSectionName, with the namespace some
// implementations' references carry.
type PolicyTargetReference struct {
	Group       gwv1.Group        `json:"group"`
	Kind        gwv1.Kind         `json:"kind"`
	Name        gwv1.ObjectName   `json:"name"`
	Namespace   *gwv1.Namespace   `json:"namespace,omitempty"`
	SectionName *gwv1.SectionName `json:"sectionName,omitempty"`
	// APIVersion is no field of GEP-713's: a reference that has one is a
	// Kubernetes object reference (a VerticalPodAutoscaler's targetRef),
	// which makes its object no policy.
	APIVersion string `json:"apiVersion,omitempty"`
}

// PolicySpec is the part of a policy's spec GEP-713 defines: its target
// references, and the deprecated single one beside the list, which some
// implementations' kinds still take.
type PolicySpec struct {
	TargetRef  *PolicyTargetReference  `json:"targetRef,omitempty"`
	TargetRefs []PolicyTargetReference `json:"targetRefs,omitempty"`
}

// PolicyTargetRef is one target reference of a policy and where it is
// written.
type PolicyTargetRef struct {
	PolicyTargetReference
	Path string // "spec.targetRef", "spec.targetRefs[i]", "spec.targetSelectors[i]"
	// Selected: the policy's implementation picked the target
	// (TargetSelectingPolicy), which names its namespace, another than
	// the policy's when the implementation allows it.
	Selected bool
}

// Refs are the spec's target references, the single one first.
func (s *PolicySpec) Refs() []PolicyTargetRef {
	out := make([]PolicyTargetRef, 0, len(s.TargetRefs)+1)
	if s.TargetRef != nil {
		out = append(out, PolicyTargetRef{PolicyTargetReference: *s.TargetRef, Path: "spec.targetRef"})
	}
	for i, ref := range s.TargetRefs {
		out = append(out, PolicyTargetRef{PolicyTargetReference: ref, Path: "spec.targetRefs[" + strconv.Itoa(i) + "]"})
	}
	return out
}

// gep713 reports whether the spec has the GEP-713 shape: at least one
// target reference, each naming a kind and a name and no apiVersion.
func (s *PolicySpec) gep713() bool {
	refs := s.Refs()
	return len(refs) > 0 && !slices.ContainsFunc(refs, func(r PolicyTargetRef) bool {
		return r.Kind == "" || r.Name == "" || r.APIVersion != ""
	})
}

// PolicyObject is an object that attaches to others by GEP-713 target
// references: a GenericPolicy, a BackendTLSPolicy, or an object of an
// implementation's kind that its KindReader reads.
type PolicyObject interface {
	Object
	// PolicyTargetRefs are its target references, in order.
	PolicyTargetRefs() []PolicyTargetRef
}

// TargetSelectingPolicy is a policy that may pick targets by their labels
// besides those it names (an implementation's own selector field): a
// policy even without target references, whose implementation selects its
// targets among the graph's objects.
type TargetSelectingPolicy interface {
	PolicyObject
	// SelectsTargets reports whether it has selectors.
	SelectsTargets() bool
	// TargetRefsIn are its targets in g, those it selects (Selected) and
	// those it names, in the order its implementation takes them; kind is
	// its policy kind, nil when none is declared.
	TargetRefsIn(g *Graph, kind *PolicyKind) []PolicyTargetRef
}

// GenericPolicy is an object of a group the core does not model whose
// spec has the GEP-713 shape: a policy, whatever its kind. Only its target
// references are read.
type GenericPolicy struct {
	Meta
	Spec PolicySpec
}

// PolicyTargetRefs are its spec's target references.
func (p *GenericPolicy) PolicyTargetRefs() []PolicyTargetRef { return p.Spec.Refs() }

// PolicyTargetRefs are its spec.targetRefs.
func (p *BackendTLSPolicy) PolicyTargetRefs() []PolicyTargetRef {
	out := make([]PolicyTargetRef, len(p.Spec.TargetRefs))
	for i, ref := range p.Spec.TargetRefs {
		out[i] = PolicyTargetRef{PolicyTargetReference: PolicyTargetReference{Group: ref.Group, Kind: ref.Kind, Name: ref.Name, SectionName: ref.SectionName},
			Path: "spec.targetRefs[" + strconv.Itoa(i) + "]"}
	}
	return out
}

// PolicyKind is what an implementation does with the policies of one of
// its kinds (PolicyKindDeclarer), or the API with its own.
type PolicyKind struct {
	Group, Kind string
	// Implementation is the name of the implementation's profile; "" for
	// the API's own kinds.
	Implementation string
	// Targets are the kinds a policy of the kind may target.
	Targets []PolicyTargetKind
	// Inherited: the policy applies to what is under its target as well
	// (GEP-713's inherited attachment): a Gateway's listeners, the routes
	// attached to them and their rules. A direct policy applies to its
	// target alone.
	Inherited bool
	// Overrides: where policies of the kind reach one object from several
	// levels (Gateway, listener, route, rule), the most specific alone
	// applies and the others are overridden there; otherwise they merge,
	// the most specific winning field by field.
	Overrides bool
	// Conflicts says how policies of the kind on the same target and
	// sectionName are settled.
	Conflicts PolicyConflicts
	// Sources are where the facts above are written: the CRD's
	// validation, the documentation of attachment and precedence.
	Sources []string
}

// PolicyTargetKind is a kind a policy may target, and whether its
// sectionName may name a part of it (a listener, a rule, a port).
type PolicyTargetKind struct {
	Group, Kind string
	SectionName bool
}

// PolicyConflicts is how an implementation settles several policies of a
// kind on the same target and sectionName.
type PolicyConflicts int8

const (
	// OlderWins: the oldest by creationTimestamp, then the first by
	// namespace/name, applies; the others are Conflicted there and unused
	// (GEP-713's precedence).
	OlderWins PolicyConflicts = iota
	// AllApply: all of them apply, merged field by field or combined (as
	// authorization policies combine their ALLOW and DENY rules); which
	// field wins is the implementation's, and gwlint judges no conflict.
	AllApply
)

// PolicyKindDeclarer declares the policy kinds of an implementation. The
// core asks each implementation once per Resolve, and reads what a policy
// of such a kind attaches to as the declaration says.
type PolicyKindDeclarer interface {
	Implementation
	// PolicyKinds are its policy kinds.
	PolicyKinds() []PolicyKind
}

// backendTLSPolicyKind is the API's own BackendTLSPolicy: Services, a port
// by sectionName; the older wins
// (https://gateway-api.sigs.k8s.io/reference/spec/#backendtlspolicyspec,
// "targetRefs").
var backendTLSPolicyKind = &PolicyKind{
	Group: GroupGateway, Kind: KindBackendTLSPolicy,
	Targets: []PolicyTargetKind{{Group: GroupCore, Kind: KindService, SectionName: true}},
	Sources: []string{"https://gateway-api.sigs.k8s.io/reference/spec/#backendtlspolicyspec"},
}

// TakesTarget reports whether the kind takes a target of group and kind,
// and whether with a sectionName.
func (k *PolicyKind) TakesTarget(group, kind string) (takes, section bool) {
	i := slices.IndexFunc(k.Targets, func(t PolicyTargetKind) bool { return t.Group == group && t.Kind == kind })
	if i < 0 {
		return false, false
	}
	return true, k.Targets[i].SectionName
}

// policyKinds are the kinds the implementations declare, by qualified
// kind.
func (o Options) policyKinds() map[string]*PolicyKind {
	out := map[string]*PolicyKind{KindBackendTLSPolicy: backendTLSPolicyKind}
	for _, impl := range o.Implementations {
		if d, ok := impl.(PolicyKindDeclarer); ok {
			for _, k := range d.PolicyKinds() {
				out[qualifiedKind(k.Group, k.Kind)] = &k
			}
		}
	}
	return out
}
