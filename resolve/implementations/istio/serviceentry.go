package istio

import (
	"fmt"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Istio's ServiceEntry (group networking.istio.io, read in any version)
// names hosts outside the mesh's Services. A route may name one as its
// parent:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// the parentRef handling binds the route for mesh traffic to the
// ServiceEntry's hosts (testdata/serviceentry.status.yaml.golden). Same
// function: a BackendTLSPolicy's targetRef may be a Service or a
// ServiceEntry.
const (
	Group            = "networking.istio.io"
	KindServiceEntry = "ServiceEntry"
)

// qualifiedServiceEntry is the kind under which the graph holds
// ServiceEntries (resolve.KindReader).
const qualifiedServiceEntry = KindServiceEntry + "." + Group

// kinds are the kinds of Istio that gwlint reads.
var kinds = []profile.GroupKind{{Group: Group, Kind: KindServiceEntry}}

// ServiceEntry is the part of a ServiceEntry gwlint reads: its labels (in
// Meta) and the names of its ports, which a BackendTLSPolicy's sectionName
// names. Its Ref's kind is qualified: ServiceEntry.networking.istio.io.
type ServiceEntry struct {
	resolve.Meta
	Spec struct {
		Ports []ServiceEntryPort `json:"ports"`
	}
}

// ServiceEntryPort is a port of a ServiceEntry, by name.
type ServiceEntryPort struct {
	Name string `json:"name"`
}

// hasPortNamed reports whether the ServiceEntry has a port named name.
func (s *ServiceEntry) hasPortNamed(name string) bool {
	return slices.ContainsFunc(s.Spec.Ports, func(p ServiceEntryPort) bool { return p.Name == name })
}

// isServiceEntry reports whether group and kind name a ServiceEntry.
func isServiceEntry(group, kind string) bool { return group == Group && kind == KindServiceEntry }

// Kinds are the kinds of Istio that gwlint reads.
func (Implementation) Kinds() []profile.GroupKind { return kinds }

// NewObject returns an empty ServiceEntry or policy (policy.go), of any
// version, and its spec. Its policies are read only in part, so not among
// kinds: the lack of one says nothing.
func (Implementation) NewObject(group, _, kind string) (resolve.Object, any) {
	switch {
	case isServiceEntry(group, kind):
		s := &ServiceEntry{}
		return s, &s.Spec
	case isPolicyKind(group, kind):
		p := &Policy{}
		return p, &p.Spec
	}
	return nil, nil
}

// TakesParent: a route may name a ServiceEntry as its parent.
func (Implementation) TakesParent(_ *resolve.Route, ref gwv1.ParentReference) bool {
	return isServiceEntry(string(*ref.Group), string(*ref.Kind))
}

// JudgeParent binds the route to a ServiceEntry parent, which it assumes
// exists.
func (i Implementation) JudgeParent(b *resolve.Builder, p *resolve.ParentResult) {
	p.Presence = resolve.External
	p.ControllerName = b.StandInController()
	b.SetParentAccepted(p, true, resolve.ReasonAccepted, fmt.Sprintf("Route bound to %s %s (%s; not read by gwlint)",
		qualifiedServiceEntry, p.Parent().NamespacedName(), i.profileOf(b, p.Route.Route)))
}

// profileOf is the first of Istio's profiles judging the route, which the
// core hands a parentRef only when one judges it.
func (i Implementation) profileOf(b *resolve.Builder, route *resolve.Route) *profile.Profile {
	js := b.RouteJudges(route)
	return js[slices.IndexFunc(js, func(j *resolve.Judge) bool { return j.Name == i.Name() })].Profile
}

// TakesPolicyTarget: a BackendTLSPolicy may target a ServiceEntry.
func (Implementation) TakesPolicyTarget(group, kind string) bool { return isServiceEntry(group, kind) }

// JudgePolicyTarget looks a ServiceEntry target up: one that does not exist,
// or lacks the port its sectionName names, is TargetNotFound.
func (Implementation) JudgePolicyTarget(b *resolve.Builder, t *resolve.PolicyTarget) {
	lookup := t.Target
	lookup.Kind = qualifiedServiceEntry
	obj, presence := b.Graph().Lookup(lookup)
	t.Presence = presence
	switch o := obj.(type) {
	case nil:
		if presence == resolve.Missing {
			t.Reason = resolve.ReasonTargetNotFound
			t.Message = fmt.Sprintf("%s does not exist%s", t.Target, b.DidYouMean(lookup))
		}
	case *ServiceEntry:
		if t.SectionName != "" && !o.hasPortNamed(t.SectionName) {
			t.Reason = resolve.ReasonTargetNotFound
			t.Message = fmt.Sprintf("%s has no port named %q", t.Target, t.SectionName)
		}
	}
}
