package resolve

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// PolicyResult is a policy (GEP-713) with what its targets resolve to and
// the objects it reaches.
type PolicyResult struct {
	Object PolicyObject
	// Ref names the policy, its kind qualified as the graph holds it;
	// Group and Kind are as written.
	Ref         ObjectRef
	Group, Kind string
	// Known is what its implementation does with the kind; nil for a kind
	// no implementation declares, which is shown and never judged: its
	// targets are resolved, it applies to them alone and conflicts with
	// nothing.
	Known *PolicyKind
	// TLS is the BackendTLSPolicy this view is of, judged by its own
	// resolution (btls.go) and its own rules; nil for other kinds.
	TLS *BackendTLSPolicyResult
	// Targets are its target references resolved, in order.
	Targets []*PolicyTargetResult
	// Reaches are the objects it applies to or would apply to but for a
	// conflict: each target, and what is under the target of an inherited
	// kind, sorted by object and section.
	Reaches []*PolicyReach
	// Ancestors are its status.ancestors, as the implementation of its
	// kind writes them (PolicyStatusWriter); none for other kinds.
	Ancestors []*PolicyAncestorStatus
}

// Meta is the policy's metadata.
func (p *PolicyResult) Meta() *Meta { return p.Object.Metadata() }

// PolicyProblem is why a policy does not apply to a target.
type PolicyProblem string

// The problems of a policy's target.
const (
	// PolicyTargetNotFound: the target does not exist (Missing).
	PolicyTargetNotFound PolicyProblem = "TargetNotFound"
	// PolicySectionNotFound: the target has no listener, rule or port of
	// the sectionName.
	PolicySectionNotFound PolicyProblem = "SectionNotFound"
	// PolicyKindUnsupported: the policy's kind takes no target of that
	// kind.
	PolicyKindUnsupported PolicyProblem = "KindUnsupported"
	// PolicySectionUnsupported: the policy's kind takes a target of that
	// kind only whole, without a sectionName.
	PolicySectionUnsupported PolicyProblem = "SectionUnsupported"
	// PolicyOtherNamespace: the reference names another namespace than
	// the policy's; a policy attaches within its own.
	PolicyOtherNamespace PolicyProblem = "OtherNamespace"
	// PolicyConflicted: an older policy of the kind holds the same target
	// and sectionName (PolicyKind.Conflicts OlderWins).
	PolicyConflicted PolicyProblem = "Conflicted"
	// PolicyIgnored: the implementation judging the policy ignores it
	// (BackendTLSPolicyJudge).
	PolicyIgnored PolicyProblem = "Ignored"
)

// PolicyTargetResult is one target reference of a policy, resolved.
type PolicyTargetResult struct {
	Path  string // "spec.targetRefs[i]", "spec.targetRef"
	Group string // as written
	// Target is the object referred to, its kind qualified as the graph
	// holds it (Graph.Lookup); its namespace is the policy's (none for a
	// cluster-scoped kind), or the one the reference names when another.
	Target      ObjectRef
	SectionName string
	Presence    Presence
	// Object is the target when the inputs hold it.
	Object Object
	// Problem is why the policy does not apply to the target, "" when it
	// does; Reason is the status reason a controller writes for it
	// (TargetNotFound, Invalid, Conflicted), Message says it in words.
	Problem PolicyProblem
	Reason  Reason
	Message string
	// HeldBy is the policy that holds the target and section when this
	// one is Conflicted.
	HeldBy *PolicyResult
}

// Applies reports whether the policy applies to the target.
func (t *PolicyTargetResult) Applies() bool { return t.Problem == "" }

// String is the target and its section: "Gateway infra/gw listener http".
func (t *PolicyTargetResult) String() string {
	if t.SectionName == "" {
		return t.Target.String()
	}
	return t.Target.String() + " section " + t.SectionName
}

// PolicyReach is an object a policy applies to, through one of its
// targets.
type PolicyReach struct {
	Policy *PolicyResult
	// Target is the target reference it reaches the object by: the object
	// itself, or the Gateway (ListenerSet, GatewayClass) above it.
	Target *PolicyTargetResult
	// Object is the object reached; Section the part of it the policy
	// applies to ("" for all of it): a listener of a Gateway or
	// ListenerSet, a rule of a route, a port of a Service.
	Object  ObjectRef
	Section string
	// Inherited: the object is under the target (a route attached to a
	// targeted Gateway), not the target itself.
	Inherited bool
	// OverriddenBy is the policy of the same kind that reaches the object
	// from a more specific level and applies there in this one's place
	// (PolicyKind.Overrides); nil when none does.
	OverriddenBy *PolicyResult
}

// Conflicted reports whether an older policy holds the target it reaches
// the object by.
func (r *PolicyReach) Conflicted() bool { return r.Target.Problem == PolicyConflicted }

// Effective reports whether the policy applies to the object: its target
// is not conflicted and no more specific policy overrides it there.
func (r *PolicyReach) Effective() bool { return r.Target.Applies() && r.OverriddenBy == nil }

// PoliciesReaching returns the policies that reach the object, direct and
// inherited, effective or not: by policy kind, the most specific first,
// then by policy.
func (g *Graph) PoliciesReaching(ref ObjectRef) []*PolicyReach { return g.reachesOf[ref] }

// Policy returns the policy ref names (its kind qualified, as
// PolicyResult.Ref), nil when the inputs hold none.
func (g *Graph) Policy(ref ObjectRef) *PolicyResult {
	i, found := slices.BinarySearchFunc(g.Policies, ref, func(p *PolicyResult, ref ObjectRef) int { return compareRefs(p.Ref, ref) })
	if !found {
		return nil
	}
	return g.Policies[i]
}

func compareRefs(a, b ObjectRef) int {
	switch {
	case a == b:
		return 0
	case refLess(a, b):
		return -1
	}
	return 1
}

// resolvePolicies resolves every policy once routes are attached and the
// BackendTLSPolicies decided: targets, conflicts (oldest first), then the
// objects each reaches.
func (g *Graph) resolvePolicies() {
	g.addBackendTLSPolicyViews()
	if len(g.Policies) == 0 {
		return
	}
	kinds := g.opts.policyKinds()
	byAge := make([]*PolicyResult, 0, len(g.Policies))
	for _, p := range g.Policies {
		if p.TLS == nil {
			p.Known = kinds[p.Ref.Kind]
			byAge = append(byAge, p)
		}
	}
	sort.SliceStable(byAge, func(i, j int) bool { return olderOrFirst(byAge[i].Meta(), byAge[j].Meta()) })
	held := map[heldTarget]*PolicyResult{}
	for _, p := range byAge {
		refs := p.Object.PolicyTargetRefs()
		if sel, ok := p.Object.(TargetSelectingPolicy); ok {
			refs = sel.TargetRefsIn(g, p.Known)
		}
		for _, ref := range refs {
			t := g.resolvePolicyTarget(p, ref)
			p.Targets = append(p.Targets, t)
			if !t.Applies() || p.Known == nil || p.Known.Conflicts != OlderWins || t.Presence == Unresolved || holdsPlaceholder(t.SectionName) {
				// Two policies of one shared Flux component, each deployed
				// by its own Kustomization with its own substitutions, may
				// name the same placeholder and two targets.
				continue
			}
			key := heldTarget{p.Ref.Kind, t.Target, t.SectionName}
			if holder := held[key]; holder != nil {
				t.Problem, t.Reason, t.HeldBy = PolicyConflicted, ReasonConflicted, holder
				t.Message = fmt.Sprintf("%s %s, older or first by name, already targets %s", holder.Kind, holder.Ref.NamespacedName(), t)
				continue
			}
			held[key] = p
		}
	}
	reach := newReacher(g)
	for _, p := range g.Policies {
		for _, t := range p.Targets {
			if t.Applies() || t.Problem == PolicyConflicted {
				reach.add(p, t)
			}
		}
	}
	g.reachesOf = reach.finish()
	g.writePolicyStatuses()
}

// heldTarget is what two policies of a kind conflict on.
type heldTarget struct {
	kind    string
	target  ObjectRef
	section string
}

// resolvePolicyTarget resolves one target reference of p: its namespace,
// whether p's kind takes its kind (and sectionName), then the object and
// its section.
func (g *Graph) resolvePolicyTarget(p *PolicyResult, ref PolicyTargetRef) *PolicyTargetResult {
	group, kind := string(ref.Group), string(ref.Kind)
	t := &PolicyTargetResult{Path: ref.Path, Group: group, Target: ObjectRef{Kind: qualifiedKind(group, kind), Namespace: p.Ref.Namespace, Name: string(ref.Name)}}
	if ref.SectionName != nil {
		t.SectionName = string(*ref.SectionName)
	}
	if clusterScoped(kind) && (group == GroupGateway || group == GroupCore) {
		t.Target.Namespace = ""
	}
	fail := func(problem PolicyProblem, reason Reason, format string, args ...any) *PolicyTargetResult {
		t.Problem, t.Reason, t.Message = problem, reason, fmt.Sprintf(format, args...)
		return t
	}
	if kindUnknown(group, kind) {
		t.Presence = Unresolved
		return t
	}
	if ns := ref.Namespace; ns != nil && *ns != "" && string(*ns) != p.Ref.Namespace && t.Target.Namespace != "" {
		t.Target.Namespace = string(*ns)
		// A target its implementation selected there is allowed; one
		// substituted at deploy time may be the policy's own (Lookup).
		if !ref.Selected && !holdsPlaceholder(string(*ns)) {
			return fail(PolicyOtherNamespace, ReasonInvalid, "%s is in namespace %s: a %s attaches only to objects of its own namespace, %s", t.Target, *ns, p.Kind, p.Ref.Namespace)
		}
	}
	if k := p.Known; k != nil {
		takes, section := k.TakesTarget(group, kind)
		switch {
		case !takes:
			return fail(PolicyKindUnsupported, ReasonInvalid, "%s takes no target of kind %s; it takes %s", p.Kind, groupKind(group, kind), k.targetKinds())
		case t.SectionName != "" && !section:
			return fail(PolicySectionUnsupported, ReasonInvalid, "%s takes targets of kind %s only whole, without sectionName", p.Kind, kind)
		}
	}
	obj, presence := g.Lookup(t.Target)
	t.Object, t.Presence = obj, presence
	switch {
	case obj == nil && presence == Missing:
		return fail(PolicyTargetNotFound, ReasonTargetNotFound, "%s", g.describeAbsence(t.Target, presence))
	case obj != nil && t.SectionName != "" && !holdsPlaceholder(t.SectionName):
		if names, ok := sectionNames(obj); ok && !slices.Contains(names, t.SectionName) {
			return fail(PolicySectionNotFound, ReasonTargetNotFound, "%s has no %s named %q (%s)", t.Target, sectionNoun(obj), t.SectionName, quotedList(names))
		}
	}
	return t
}

// targetKinds lists the kinds k takes: "Gateway, HTTPRoute".
func (k *PolicyKind) targetKinds() string {
	names := make([]string, len(k.Targets))
	for i, t := range k.Targets {
		names[i] = groupKind(t.Group, t.Kind)
	}
	return strings.Join(names, ", ")
}

// sectionNames are the names a sectionName may give in obj: a Gateway's or
// ListenerSet's listeners, a route's rules, a Service's ports; ok is false
// for other kinds, whose sections the core does not know.
func sectionNames(obj Object) (names []string, ok bool) {
	switch o := obj.(type) {
	case *Gateway:
		for _, l := range o.Spec.Listeners {
			names = append(names, string(l.Name))
		}
	case *ListenerSet:
		for _, l := range o.Spec.Listeners {
			names = append(names, string(l.Name))
		}
	case *Route:
		for _, r := range o.Rules {
			if r.Name != "" {
				names = append(names, r.Name)
			}
		}
	case *Service:
		for _, p := range o.Spec.Ports {
			names = append(names, p.Name)
		}
	default:
		return nil, false
	}
	return names, true
}

// sectionNoun is what a sectionName names in obj.
func sectionNoun(obj Object) string {
	switch obj.(type) {
	case *Gateway, *ListenerSet:
		return "listener"
	case *Route:
		return "rule"
	}
	return "port"
}

// quotedList is "names: "a", "b"", or "none named" when empty.
func quotedList(names []string) string {
	if len(names) == 0 {
		return "it names none"
	}
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	return "names: " + strings.Join(quoted, ", ")
}

// addBackendTLSPolicyViews adds the policy view of each BackendTLSPolicy,
// as its own resolution decided it.
func (g *Graph) addBackendTLSPolicyViews() {
	if len(g.TLSPolicies) == 0 {
		return
	}
	views := make(map[*BackendTLSPolicyResult]*PolicyResult, len(g.TLSPolicies))
	for _, tp := range g.TLSPolicies {
		views[tp] = &PolicyResult{Object: tp.BackendTLSPolicy, Ref: tp.Ref, Group: GroupGateway, Kind: KindBackendTLSPolicy, Known: backendTLSPolicyKind, TLS: tp}
	}
	for _, tp := range g.TLSPolicies {
		view := views[tp]
		for _, pt := range tp.Targets {
			t := &PolicyTargetResult{Path: pt.Path, Group: pt.Group, SectionName: pt.SectionName, Presence: pt.Presence,
				Target: ObjectRef{Kind: qualifiedKind(pt.Group, pt.Target.Kind), Namespace: pt.Target.Namespace, Name: pt.Target.Name},
				Reason: pt.Reason, Message: pt.Message}
			if pt.Presence == Present {
				t.Object, _ = g.object(t.Target)
			}
			switch {
			case pt.Reason == "":
			case pt.Reason == ReasonConflicted:
				t.Problem, t.HeldBy = PolicyConflicted, views[pt.HeldBy]
			case pt.Reason != ReasonTargetNotFound:
				t.Problem = PolicyIgnored
			case t.Object != nil:
				t.Problem = PolicySectionNotFound
			case pt.Presence == Missing:
				t.Problem = PolicyTargetNotFound
			default:
				t.Problem = PolicyKindUnsupported
			}
			view.Targets = append(view.Targets, t)
		}
		g.Policies = append(g.Policies, view)
	}
	sort.Slice(g.Policies, func(i, j int) bool { return refLess(g.Policies[i].Ref, g.Policies[j].Ref) })
}

// reacher finds the objects policies reach.
type reacher struct {
	g  *Graph
	at map[ObjectRef][]*PolicyReach
	// attached are the routes attached to each Gateway and ListenerSet,
	// by the listener that accepted them; built when first needed.
	attached map[ObjectRef][]attachedRoute
}

// attachedRoute is a route a listener accepted.
type attachedRoute struct {
	route    *RouteResult
	listener *Listener
}

func newReacher(g *Graph) *reacher { return &reacher{g: g, at: map[ObjectRef][]*PolicyReach{}} }

// add records what p reaches through t: the target, and for an inherited
// kind what is under it — a GatewayClass's Gateways, a Gateway's or
// ListenerSet's routes (by the listener of the sectionName when set).
func (r *reacher) add(p *PolicyResult, t *PolicyTargetResult) {
	r.reach(p, t, t.Target, t.SectionName, false)
	if p.Known == nil || !p.Known.Inherited || t.Object == nil {
		return
	}
	var gateways []*GatewayResult
	switch o := t.Object.(type) {
	case *GatewayClass:
		for _, gw := range r.g.Gateways {
			if string(gw.Spec.GatewayClassName) == o.Ref.Name {
				r.reach(p, t, gw.Ref, "", true)
				gateways = append(gateways, gw)
			}
		}
	case *Gateway, *ListenerSet:
		r.reachRoutes(p, t, t.Target, t.SectionName)
	}
	for _, gw := range gateways {
		r.reachRoutes(p, t, gw.Ref, "")
	}
}

// reachRoutes records the routes attached to owner (a Gateway or
// ListenerSet), by its listener named section when set, as inherited
// through t.
func (r *reacher) reachRoutes(p *PolicyResult, t *PolicyTargetResult, owner ObjectRef, section string) {
	if r.attached == nil {
		r.attached = r.g.attachedRoutes()
	}
	var seen *RouteResult
	for _, a := range r.attached[owner] {
		own := owner.Kind == KindListenerSet || a.listener.ListenerSet == nil
		if section != "" && (!own || a.listener.Name != section) || a.route == seen {
			continue
		}
		seen = a.route
		r.reach(p, t, a.route.Ref, "", true)
	}
}

// attachedRoutes are the routes attached to each Gateway and ListenerSet,
// by listener, in the graph's order of routes: a ListenerSet's listeners
// count for its Gateway too.
func (g *Graph) attachedRoutes() map[ObjectRef][]attachedRoute {
	out := map[ObjectRef][]attachedRoute{}
	for _, route := range g.Routes {
		for _, parent := range route.Parents {
			if !parent.Accepted.True() {
				continue
			}
			for _, o := range parent.Listeners {
				if !o.Accepted() {
					continue
				}
				l := o.Listener
				out[l.Gateway.Ref] = append(out[l.Gateway.Ref], attachedRoute{route, l})
				if l.ListenerSet != nil {
					out[l.ListenerSet.Ref] = append(out[l.ListenerSet.Ref], attachedRoute{route, l})
				}
			}
		}
	}
	return out
}

func (r *reacher) reach(p *PolicyResult, t *PolicyTargetResult, obj ObjectRef, section string, inherited bool) {
	at := &PolicyReach{Policy: p, Target: t, Object: obj, Section: section, Inherited: inherited}
	p.Reaches = append(p.Reaches, at)
	r.at[obj] = append(r.at[obj], at)
}

// finish sorts every policy's reaches and every object's, and marks those
// a more specific policy of a kind that overrides applies in place of.
func (r *reacher) finish() map[ObjectRef][]*PolicyReach {
	for _, p := range r.g.Policies {
		sort.SliceStable(p.Reaches, func(i, j int) bool {
			a, b := p.Reaches[i], p.Reaches[j]
			if a.Object != b.Object {
				return refLess(a.Object, b.Object)
			}
			return a.Section < b.Section
		})
	}
	for _, reaches := range r.at {
		sort.SliceStable(reaches, func(i, j int) bool {
			a, b := reaches[i], reaches[j]
			if a.Policy.Ref.Kind != b.Policy.Ref.Kind {
				return a.Policy.Ref.Kind < b.Policy.Ref.Kind
			}
			if la, lb := level(a), level(b); la != lb {
				return la > lb
			}
			if a.Section != b.Section {
				return a.Section < b.Section
			}
			return refLess(a.Policy.Ref, b.Policy.Ref)
		})
		for i, a := range reaches {
			if a.Policy.Known == nil || !a.Policy.Known.Overrides || !a.Target.Applies() {
				continue
			}
			// The most specific applying reach of the kind and section
			// sorts first.
			for _, b := range reaches[:i] {
				if b.Policy.Ref.Kind == a.Policy.Ref.Kind && b.Section == a.Section && b.Policy != a.Policy && b.Target.Applies() && level(b) > level(a) {
					a.OverriddenBy = b.Policy
					break
				}
			}
		}
	}
	return r.at
}

// level is how specific the target a reach comes by is: a GatewayClass,
// a Gateway, its listener, a ListenerSet, its listener, then any other
// object (a route, a Service) and a section of it (a rule, a port).
func level(r *PolicyReach) int {
	n := 6
	switch r.Target.Target.Kind {
	case KindGatewayClass:
		n = 0
	case KindGateway:
		n = 2
	case KindListenerSet:
		n = 4
	}
	if r.Target.SectionName != "" {
		n++
	}
	return n
}
