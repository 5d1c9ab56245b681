package envoygateway

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// Its own policy ancestor conditions (api/v1alpha1/policy_helpers.go:
// PolicyConditionOverridden, PolicyConditionMerged, PolicyConditionWarning
// and their reasons).
const (
	ConditionOverridden                    = "Overridden"
	ConditionMerged                        = "Merged"
	ConditionWarning                       = "Warning"
	ReasonOverridden        resolve.Reason = "Overridden"
	ReasonMerged            resolve.Reason = "Merged"
	ReasonDeprecatedField   resolve.Reason = "DeprecatedField"
	policyOverriddenMessage                = "This policy is being overridden by other %s for %s"
)

// JudgePolicyAncestors adds to the entries the core wrote for its
// policies what its translator adds (internal/gatewayapi/
// backendtrafficpolicy.go, clienttrafficpolicy.go, securitypolicy.go,
// envoyextensionpolicy.go; status/policy.go): a policy whose own fields
// it refuses is Invalid wherever it applies (policyInvalid); a route's policy with a
// mergeType is Merged into the policy of the Gateway (or listener,
// ListenerSet) each of its listeners belongs to; a policy a more specific
// one of its kind displaces somewhere is Overridden, naming where; an
// accepted target of a policy that uses a deprecated field warns of it
// (resolve.PolicyStatusWriter).
func (impl Implementation) JudgePolicyAncestors(b *resolve.Builder, policies []*resolve.PolicyResult) {
	g := b.Graph()
	byKind := map[string][]*resolve.PolicyResult{}
	for _, p := range g.Policies {
		if p.Known != nil && p.Known.Implementation == impl.Name() {
			byKind[p.Ref.Kind] = append(byKind[p.Ref.Kind], p)
		}
	}
	scopes := map[string]*policyScopes{}
	for kind, ps := range byKind {
		scopes[kind] = newPolicyScopes(ps)
	}
	invalid := make(map[*resolve.PolicyResult]policyErrors, len(policies))
	for _, p := range policies {
		if obj, ok := p.Object.(*Policy); ok {
			invalid[p] = impl.policyInvalid(g, obj)
		}
	}
	for _, p := range policies {
		s := scopes[p.Ref.Kind]
		// A policy whose translation fails merges into nothing
		// (processBackendTrafficPolicyForRoute: Invalid, then continue).
		if len(invalid[p]) == 0 {
			s.merge(g, p)
		}
	}
	for _, p := range policies {
		s := scopes[p.Ref.Kind]
		deprecated := deprecatedFields(p)
		for _, a := range slices.Clone(p.Ancestors) {
			applies := slices.ContainsFunc(a.Targets, (*resolve.PolicyTargetResult).Applies)
			if !applies {
				continue
			}
			msg := invalid[p].message()
			switch policyKind(p.Ref) {
			case KindClientTrafficPolicy:
				msg = clientTrafficPolicyEntryError(g, p, a, invalid[p])
			case KindSecurityPolicy:
				msg = geoIPEntryError(g, p, a, invalid[p])
			}
			if msg != "" && a.Accepted.Status == metav1.ConditionTrue {
				a.Accepted = resolve.Condition{Type: string(gwv1.PolicyConditionAccepted), Status: metav1.ConditionFalse, Reason: ReasonInvalid, Message: msg}
			}
			if deprecated != "" {
				a.OwnConditions = append(a.OwnConditions, ownCondition(ConditionWarning, ReasonDeprecatedField, deprecated))
			}
			if msg := s.mergedInto(p, a); msg != "" {
				a.OwnConditions = append(a.OwnConditions, ownCondition(ConditionMerged, ReasonMerged,
					fmt.Sprintf("This policy is being merged by other %s for %s", plural(p.Kind), msg)))
			}
			if msg := s.overriding(p, a); msg != "" {
				a.OwnConditions = append(a.OwnConditions, ownCondition(ConditionOverridden, ReasonOverridden,
					fmt.Sprintf(policyOverriddenMessage, plural(p.Kind), msg)))
			}
		}
		truncateAncestors(p)
	}
}

// truncateAncestors keeps the 16 entries the API allows, as
// status/policy.go TruncatePolicyAncestors chooses them: those not
// accepted first, then those overridden, then by namespace and name; the
// last kept says the list is cut (Aggregated).
func truncateAncestors(p *resolve.PolicyResult) {
	const kept = 16
	if len(p.Ancestors) <= kept {
		return
	}
	rank := func(a *resolve.PolicyAncestorStatus) int {
		switch {
		case a.Accepted.Type != "" && a.Accepted.Status == metav1.ConditionFalse:
			return 0
		case slices.ContainsFunc(a.OwnConditions, func(c resolve.Condition) bool { return c.Type == ConditionOverridden }):
			return 1
		}
		return 2
	}
	sort.SliceStable(p.Ancestors, func(i, j int) bool {
		a, b := p.Ancestors[i], p.Ancestors[j]
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra < rb
		}
		if *a.Ref.Namespace != *b.Ref.Namespace {
			return *a.Ref.Namespace < *b.Ref.Namespace
		}
		return a.Ref.Name < b.Ref.Name
	})
	p.Ancestors = p.Ancestors[:kept]
	last := p.Ancestors[kept-1]
	last.OwnConditions = append(last.OwnConditions, ownCondition(ConditionAggregated, ReasonAggregated,
		"Ancestors have been truncated because the number of policy ancestors exceeds 16."))
}

func ownCondition(typ string, reason resolve.Reason, message string) resolve.Condition {
	return resolve.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, Message: message}
}

// plural names policies of a kind as its messages do: "backendTrafficPolicies".
func plural(kind string) string {
	return strings.ToLower(kind[:1]) + strings.TrimSuffix(kind[1:], "y") + "ies"
}

// deprecatedFields is the warning of the deprecated fields the policy
// uses, "" when none (deprecatedFieldsUsedIn* of each kind, and
// status/policy.go buildDeprecationWarningMessage: sorted, "; "-joined).
func deprecatedFields(p *resolve.PolicyResult) string {
	obj, ok := p.Object.(*Policy)
	if !ok {
		return ""
	}
	spec := &obj.Spec
	used := map[string]string{}
	if spec.TargetRef != nil {
		used["spec.targetRef"] = "spec.targetRefs"
	}
	switch policyKind(p.Ref) {
	case KindBackendTrafficPolicy:
		if len(spec.Compression) > 0 {
			used["spec.compression"] = "spec.compressor"
		}
	case KindClientTrafficPolicy:
		if spec.EnableProxyProtocol != nil {
			used["spec.enableProxyProtocol"] = "spec.proxyProtocol"
		}
		if spec.Headers != nil && spec.Headers.PreserveXRequestID != nil {
			used["spec.headers.preserveXRequestID"] = "spec.headers.requestID"
		}
		if spec.TLS != nil && spec.TLS.ClientValidation != nil && spec.TLS.ClientValidation.Optional {
			used["spec.tls.clientValidation.optional"] = "spec.tls.clientValidation.mode"
		}
	case KindSecurityPolicy:
		if a := spec.ExtAuth; a != nil {
			if a.GRPC != nil && a.GRPC.BackendRef != nil {
				used["spec.extAuth.grpc.backendRef"] = "spec.extAuth.grpc.backendRefs"
			}
			if a.HTTP != nil && a.HTTP.BackendRef != nil {
				used["spec.extAuth.http.backendRef"] = "spec.extAuth.http.backendRefs"
			}
		}
	}
	parts := make([]string, 0, len(used))
	for _, field := range slices.Sorted(maps.Keys(used)) {
		parts = append(parts, field+" is deprecated, use "+used[field]+" instead")
	}
	return strings.Join(parts, "; ")
}

// scope is where a policy attaches, as its translator records it
// (helpers.go policyScope): a Gateway, one of its listeners, a ListenerSet,
// one of its listeners, or a route.
type scope struct {
	kind    string // resolve.KindGateway, resolve.KindListenerSet or a route kind
	ref     resolve.ObjectRef
	section string
}

func (s scope) String() string {
	if s.section == "" {
		return s.ref.NamespacedName()
	}
	return s.ref.NamespacedName() + "/" + s.section
}

// policyScopes are the policies of one kind by the scopes they attach to,
// and which route scopes are merged into which parent scopes.
type policyScopes struct {
	// children are, by scope, the more specific scopes with a policy of
	// the kind under it: a listener's under its Gateway, a route's under
	// each parent it names (overrides.Add).
	children map[scope]map[scope]bool
	// listenerSets are the ListenerSets under each Gateway with a policy
	// (overrides.RegisterListenerSet).
	listenerSets map[scope]map[scope]bool
	// rules are the rules of each route that a policy targets.
	rules map[resolve.ObjectRef][]string
	// parents are, by scope, the oldest policy on it whose section exists
	// (buildGatewayPolicyMap).
	parents map[scope]*resolve.PolicyResult
	// merged are, by parent scope, the route scopes merged into it; and
	// by route policy, the entries it writes Merged on.
	merged map[scope]map[scope]bool
}

func newPolicyScopes(policies []*resolve.PolicyResult) *policyScopes {
	s := &policyScopes{children: map[scope]map[scope]bool{}, listenerSets: map[scope]map[scope]bool{},
		rules: map[resolve.ObjectRef][]string{}, parents: map[scope]*resolve.PolicyResult{}, merged: map[scope]map[scope]bool{}}
	byAge := slices.Clone(policies)
	sort.SliceStable(byAge, func(i, j int) bool { return resolve.OlderOrFirst(byAge[i].Meta(), byAge[j].Meta()) })
	for _, p := range byAge {
		for _, t := range p.Targets {
			s.add(p, t)
		}
	}
	return s
}

func add(m map[scope]map[scope]bool, parent, child scope) {
	if m[parent] == nil {
		m[parent] = map[scope]bool{}
	}
	m[parent][child] = true
}

// add records where t attaches p: a target the translator finds (in a
// Gateway it manages) and, for a Gateway or ListenerSet, whose section
// exists and which no older policy holds.
func (s *policyScopes) add(p *resolve.PolicyResult, t *resolve.PolicyTargetResult) {
	if t.Object == nil || len(p.Ancestors) == 0 {
		return
	}
	own := scope{t.Target.Kind, t.Target, t.SectionName}
	switch o := t.Object.(type) {
	case *resolve.Gateway:
		if t.Problem == "" || t.Problem == resolve.PolicyConflicted {
			if s.parents[own] == nil {
				s.parents[own] = p
			}
		}
		if t.Applies() && t.SectionName != "" {
			add(s.children, scope{kind: resolve.KindGateway, ref: t.Target}, own)
		}
	case *resolve.ListenerSet:
		if t.Problem == "" || t.Problem == resolve.PolicyConflicted {
			if s.parents[own] == nil {
				s.parents[own] = p
			}
		}
		if !t.Applies() {
			return
		}
		whole := scope{kind: resolve.KindListenerSet, ref: t.Target}
		if gw := listenerSetGateway(o); gw != nil {
			add(s.listenerSets, scope{kind: resolve.KindGateway, ref: *gw}, whole)
			if t.SectionName == "" {
				add(s.children, scope{kind: resolve.KindGateway, ref: *gw}, own)
			}
		}
		if t.SectionName != "" {
			add(s.children, whole, own)
		}
	case *resolve.Route:
		if t.SectionName != "" && t.Applies() {
			s.rules[t.Target] = append(s.rules[t.Target], t.SectionName)
		}
		route := scope{kind: t.Target.Kind, ref: t.Target}
		for _, a := range p.Ancestors {
			if !slices.Contains(a.Targets, t) {
				continue
			}
			parent := ancestorScope(a.Ref)
			add(s.children, parent, route)
			if parent.kind == resolve.KindListenerSet && a.Gateway != nil {
				add(s.listenerSets, scope{kind: resolve.KindGateway, ref: a.Gateway.Ref}, scope{kind: resolve.KindListenerSet, ref: parent.ref})
			}
		}
	}
}

// listenerSetGateway is the Gateway a ListenerSet's parentRef names.
func listenerSetGateway(ls *resolve.ListenerSet) *resolve.ObjectRef {
	ref := ls.Spec.ParentRef
	ns := ls.Ref.Namespace
	if ref.Namespace != nil {
		ns = string(*ref.Namespace)
	}
	return &resolve.ObjectRef{Kind: resolve.KindGateway, Namespace: ns, Name: string(ref.Name)}
}

// ancestorScope is the scope an ancestor entry names.
func ancestorScope(ref gwv1.ParentReference) scope {
	s := scope{kind: string(*ref.Kind), ref: resolve.ObjectRef{Kind: string(*ref.Kind), Namespace: string(*ref.Namespace), Name: string(ref.Name)}}
	if ref.SectionName != nil {
		s.section = string(*ref.SectionName)
	}
	return s
}

// merge writes Merged on the entries of a route's policy with a mergeType
// that merges into the policy of a listener's Gateway, listener or
// ListenerSet: one entry per listener the route is attached to, named by
// the listener (processBackendTrafficPolicyForRoute), and records the
// route under that parent scope.
func (s *policyScopes) merge(g *resolve.Graph, p *resolve.PolicyResult) {
	obj, ok := p.Object.(*Policy)
	if !ok || obj.Spec.MergeType == nil {
		return
	}
	for _, t := range p.Targets {
		if _, ok := t.Object.(*resolve.Route); !ok || !t.Applies() {
			continue
		}
		route := scope{kind: t.Target.Kind, ref: t.Target}
		for _, a := range slices.Clone(p.Ancestors) {
			if !slices.Contains(a.Targets, t) {
				continue
			}
			for _, l := range attachedListeners(g, a) {
				entry, parentScope, parent := s.parentPolicy(l)
				if parent == nil {
					continue
				}
				add(s.merged, parentScope, route)
				e := entryFor(p, entry, a.Gateway)
				e.OwnConditions = append(e.OwnConditions, ownCondition(ConditionMerged, ReasonMerged,
					"Merged with policy "+parent.Ref.NamespacedName()))
			}
		}
	}
}

// attachedListeners are the listeners the route of entry a's parentRef is
// attached to.
func attachedListeners(g *resolve.Graph, a *resolve.PolicyAncestorStatus) []*resolve.Listener {
	var out []*resolve.Listener
	for _, t := range a.Targets {
		for _, r := range g.FindRoutes(t.Target.Kind, t.Target.Namespace, t.Target.Name) {
			for _, parent := range r.Parents {
				if !sameParent(parent, a.Ref) {
					continue
				}
				for _, o := range parent.Listeners {
					if o.Accepted() {
						out = append(out, o.Listener)
					}
				}
			}
		}
	}
	return out
}

// sameParent reports whether the parentRef is the ancestor entry's.
func sameParent(parent *resolve.ParentResult, ref gwv1.ParentReference) bool {
	name := parent.Ref.Name
	kind := resolve.KindGateway
	if parent.ListenerSet != nil {
		kind = resolve.KindListenerSet
	}
	section := ""
	if parent.Ref.SectionName != nil {
		section = string(*parent.Ref.SectionName)
	}
	want := ancestorScope(ref)
	return want.kind == kind && want.ref.Name == string(name) && want.ref.Namespace == string(*parent.Ref.Namespace) && want.section == section
}

// parentPolicy is the closest policy above a listener: its own, then its
// ListenerSet's, then its Gateway's; with the entry named by the listener
// and the scope the policy attaches to.
func (s *policyScopes) parentPolicy(l *resolve.Listener) (gwv1.ParentReference, scope, *resolve.PolicyResult) {
	gw := scope{kind: resolve.KindGateway, ref: l.Gateway.Ref}
	section := gwv1.SectionName(l.Name)
	candidates := []scope{{kind: resolve.KindGateway, ref: l.Gateway.Ref, section: l.Name}, gw}
	entry := resolve.AncestorRef(resolve.KindGateway, l.Gateway.Ref, &section)
	if ls := l.ListenerSet; ls != nil {
		lsScope := scope{kind: resolve.KindListenerSet, ref: ls.Ref}
		candidates = []scope{{kind: resolve.KindListenerSet, ref: ls.Ref, section: l.Name}, lsScope, gw}
		entry = resolve.AncestorRef(resolve.KindListenerSet, ls.Ref, &section)
	}
	for _, c := range candidates {
		if p := s.parents[c]; p != nil {
			return entry, c, p
		}
	}
	return entry, scope{}, nil
}

// entryFor is p's entry of ref, added without Accepted when p has none
// (SetConditionForPolicyAncestor).
func entryFor(p *resolve.PolicyResult, ref gwv1.ParentReference, gw *resolve.GatewayResult) *resolve.PolicyAncestorStatus {
	want := ancestorScope(ref)
	for _, a := range p.Ancestors {
		if ancestorScope(a.Ref) == want {
			return a
		}
	}
	a := &resolve.PolicyAncestorStatus{Ref: ref, ControllerName: gw.ControllerName, Gateway: gw}
	p.Ancestors = append(p.Ancestors, a)
	return a
}

// mergedInto names the route scopes merged into the policy at entry a
// ("these routes: [...]"), "" for none.
func (s *policyScopes) mergedInto(p *resolve.PolicyResult, a *resolve.PolicyAncestorStatus) string {
	own := ancestorScope(a.Ref)
	if s.parents[own] != p {
		return ""
	}
	return formatScopes(s.merged[own])
}

// overriding names the scopes whose policies displace p's at entry a,
// "" for none (GetWithDescendants less the merged routes; for a route,
// its rules with a policy of their own).
func (s *policyScopes) overriding(p *resolve.PolicyResult, a *resolve.PolicyAncestorStatus) string {
	for _, t := range a.Targets {
		if _, ok := t.Object.(*resolve.Route); ok && t.SectionName == "" && t.Applies() {
			if rules := s.rules[t.Target]; len(rules) > 0 {
				names := make([]string, len(rules))
				for i, r := range rules {
					names[i] = t.Target.NamespacedName() + "/" + r
				}
				sort.Strings(names)
				return fmt.Sprintf("these route rules: %v", names)
			}
		}
	}
	own := ancestorScope(a.Ref)
	if _, ok := a.Targets[0].Object.(*resolve.Route); ok {
		return ""
	}
	found := map[scope]bool{}
	maps.Copy(found, s.children[own])
	switch {
	case own.section != "":
		// A listener inherits the routes attached to its whole parent.
		for c := range s.children[scope{kind: own.kind, ref: own.ref}] {
			if c.kind != resolve.KindGateway && c.kind != resolve.KindListenerSet {
				found[c] = true
			}
		}
	default:
		// A Gateway or ListenerSet holds its listeners, and a Gateway its
		// ListenerSets and theirs (GetWithDescendants).
		holders := map[resolve.ObjectRef]bool{own.ref: true}
		for ls := range s.listenerSets[own] {
			holders[ls.ref] = true
		}
		for parent, children := range s.children {
			if holders[parent.ref] && parent != own {
				maps.Copy(found, children)
			}
		}
	}
	for c := range s.merged[own] {
		delete(found, c)
	}
	return formatScopes(found)
}

// formatScopes names scopes by kind, as formatPolicyScopes does.
func formatScopes(scopes map[scope]bool) string {
	if len(scopes) == 0 {
		return ""
	}
	byLabel := map[string][]string{}
	for sc := range scopes {
		label := "these routes"
		switch {
		case sc.kind == resolve.KindGateway:
			label = "these gateway listeners"
		case sc.kind == resolve.KindListenerSet && sc.section == "":
			label = "these listener sets"
		case sc.kind == resolve.KindListenerSet:
			label = "these listener set listeners"
		}
		byLabel[label] = append(byLabel[label], sc.String())
	}
	var parts []string
	for _, label := range []string{"these gateway listeners", "these listener sets", "these listener set listeners", "these routes"} {
		if names := byLabel[label]; len(names) > 0 {
			sort.Strings(names)
			parts = append(parts, fmt.Sprintf("%s: %v", label, names))
		}
	}
	return strings.Join(parts, " and ")
}
