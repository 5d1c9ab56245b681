package envoygateway

import (
	"slices"
	"sort"
	"strconv"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// targetSelector is one of a policy's spec.targetSelectors
// (api/v1alpha1/policy_helpers.go TargetSelector): the objects of a kind
// whose labels match, in the policy's namespace or those Namespaces
// admits.
type targetSelector struct {
	Group      *string `json:"group,omitempty"`
	Kind       string  `json:"kind"`
	Namespaces *struct {
		From     string                `json:"from"`
		Selector *metav1.LabelSelector `json:"selector,omitempty"`
	} `json:"namespaces,omitempty"`
	MatchLabels      map[string]string                 `json:"matchLabels,omitempty"`
	MatchExpressions []metav1.LabelSelectorRequirement `json:"matchExpressions,omitempty"`
}

// SelectsTargets reports whether the policy has targetSelectors
// (resolve.TargetSelectingPolicy).
func (p *Policy) SelectsTargets() bool { return len(p.Spec.TargetSelectors) > 0 }

// TargetRefsIn are the policy's targets as its translator resolves them
// (internal/gatewayapi/helpers.go resolvePolicyTargets): the objects its
// selectors select, by their creation time, then the references it names
// that are not among them (resolve.TargetSelectingPolicy). A selector
// picks, among the objects of a kind the policy takes, those whose labels
// match (selectorFromTargetSelector: an invalid selector selects nothing)
// in a namespace it admits (targetNamespaceMatches), another than the
// policy's only when a ReferenceGrant there allows it
// (isCrossNamespaceReferencePermitted).
func (p *Policy) TargetRefsIn(g *resolve.Graph, kind *resolve.PolicyKind) []resolve.PolicyTargetRef {
	refs := p.PolicyTargetRefs()
	if kind == nil || len(p.Spec.TargetSelectors) == 0 {
		return refs
	}
	type selected struct {
		ref  resolve.PolicyTargetRef
		meta *resolve.Meta
	}
	var out []selected
	seen := map[resolve.ObjectRef]bool{}
	for i, sel := range p.Spec.TargetSelectors {
		group := resolve.GroupGateway
		if sel.Group != nil {
			group = *sel.Group
		}
		if takes, _ := kind.TakesTarget(group, sel.Kind); !takes {
			continue
		}
		match, err := metav1.LabelSelectorAsSelector(&metav1.LabelSelector{MatchLabels: sel.MatchLabels, MatchExpressions: sel.MatchExpressions})
		if err != nil {
			continue
		}
		for _, m := range candidates(g, resolve.QualifiedKind(group, sel.Kind)) {
			if seen[m.Ref] || !sel.admitsNamespace(g, p.Ref.Namespace, m.Ref.Namespace) || !match.Matches(m.Labels) {
				continue
			}
			if m.Ref.Namespace != p.Ref.Namespace && !g.Granted(Group, policyKind(p.Ref), p.Ref.Namespace, group, sel.Kind, m.Ref.Namespace, m.Ref.Name) {
				continue
			}
			seen[m.Ref] = true
			ns := gwv1.Namespace(m.Ref.Namespace)
			out = append(out, selected{resolve.PolicyTargetRef{
				PolicyTargetReference: resolve.PolicyTargetReference{Group: gwv1.Group(group), Kind: gwv1.Kind(sel.Kind), Name: gwv1.ObjectName(m.Ref.Name), Namespace: &ns},
				Path:                  "spec.targetSelectors[" + strconv.Itoa(i) + "]", Selected: true}, m})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].meta.Created(), out[j].meta.Created()
		return a.Before(&b)
	})
	all := make([]resolve.PolicyTargetRef, 0, len(out)+len(refs))
	for _, s := range out {
		all = append(all, s.ref)
	}
	for _, ref := range refs {
		// A named reference to a selected object adds nothing
		// (composePolicyTargetRefs).
		if ref.SectionName == nil && slices.ContainsFunc(out, func(s selected) bool {
			return s.ref.Group == ref.Group && s.ref.Kind == ref.Kind && s.ref.Name == ref.Name && s.meta.Ref.Namespace == p.Ref.Namespace
		}) {
			continue
		}
		all = append(all, ref)
	}
	return all
}

// candidates are the graph's Gateways, ListenerSets or routes of the
// qualified kind, in the graph's order.
func candidates(g *resolve.Graph, kind string) []*resolve.Meta {
	var out []*resolve.Meta
	switch kind {
	case resolve.KindGateway:
		for _, gw := range g.Gateways {
			out = append(out, &gw.Meta)
		}
	case resolve.KindListenerSet:
		for _, ls := range g.ListenerSets {
			out = append(out, &ls.Meta)
		}
	default:
		for _, r := range g.Routes {
			if r.Ref.Kind == kind {
				out = append(out, &r.Meta)
			}
		}
	}
	return out
}

// admitsNamespace reports whether the selector looks in namespace ns
// (targetSelectorNamespacesMatch): the policy's own by default, all, or
// those whose Namespace's labels match; a Namespace the inputs lack has
// no labels to match, as its translator finds none.
func (s *targetSelector) admitsNamespace(g *resolve.Graph, policyNS, ns string) bool {
	if s.Namespaces == nil {
		return ns == policyNS
	}
	switch s.Namespaces.From {
	case "", "Same":
		return ns == policyNS
	case "All":
		return true
	case "Selector":
		obj, _ := g.Lookup(resolve.ObjectRef{Kind: resolve.KindNamespace, Name: ns})
		if obj == nil || s.Namespaces.Selector == nil {
			return false
		}
		sel, err := metav1.LabelSelectorAsSelector(s.Namespaces.Selector)
		return err == nil && sel.Matches(obj.Metadata().Labels)
	}
	return false
}
