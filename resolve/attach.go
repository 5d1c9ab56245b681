package resolve

import (
	"cmp"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/gwlint/gwlint/internal/parallel"

	"github.com/gwlint/gwlint/resolve/placeholder"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RouteResult is a route with what a conformant controller decides about
// it: per parentRef attachment, per rule backend resolution and split.
type RouteResult struct {
	*Route
	Parents []*ParentResult
	Rules   []*RuleResult
	// ResolvedRefs is the route's ResolvedRefs condition, the same for
	// every parent: the first backendRef that fails decides the reason.
	ResolvedRefs Condition
}

// Accepted reports whether any parentRef attached.
func (r *RouteResult) Accepted() bool {
	for _, p := range r.Parents {
		if p.Accepted.True() {
			return true
		}
	}
	return false
}

// Refused reports whether every parentRef was refused: none accepted, and
// none undecided because its parent is outside the inputs.
func (r *RouteResult) Refused() bool {
	for _, p := range r.Parents {
		if p.Accepted.Status != metav1.ConditionFalse {
			return false
		}
	}
	return true
}

// ParentResult is the outcome of one parentRef.
type ParentResult struct {
	Route *RouteResult
	Index int
	Path  string // "spec.parentRefs[i]"
	// Ref is the defaulted parentRef (group, kind, namespace filled in),
	// the route's own (Route.ParentRefs).
	Ref *gwv1.ParentReference

	// UnsupportedKind: the parentRef names a kind no route attaches to
	// (not a Gateway, ListenerSet or Service).
	UnsupportedKind bool

	// Exactly one of these is set when the parent is among the inputs.
	Gateway     *GatewayResult
	ListenerSet *ListenerSetResult
	Service     *ServiceResult
	Presence    Presence

	// Listeners are the listeners the parentRef selected (by sectionName
	// and port) and what each decided; empty for mesh parents.
	Listeners []*ListenerOutcome
	// MeshPorts are the Service ports a mesh parentRef binds (GEP-1426).
	MeshPorts []ServicePort

	Accepted Condition
	// PartiallyInvalid is True when the implementation drops some of the
	// route's rules for this parent (dropInvalidRules); the zero Condition,
	// never written, otherwise.
	PartiallyInvalid Condition
	// Dropped are the rules the implementation drops for this parent, in
	// order, with why.
	Dropped []RuleRefusal
	// Conditions are the implementation's own conditions on the parent,
	// beyond the API's, in the order it wrote them (Builder.AddParentCondition).
	Conditions []Condition
	// Unknown is the value holding a deploy-time placeholder (a sectionName,
	// a hostname) that leaves Accepted Unknown, or "".
	Unknown string
	// ControllerName is the controller that would write this parent's
	// status; empty when none would (the parent is Missing or unmanaged).
	ControllerName string
}

// Parent names the parent object: "Gateway ns/name", "Service ns/name".
func (p *ParentResult) Parent() ObjectRef {
	return ObjectRef{Kind: string(*p.Ref.Kind), Namespace: string(*p.Ref.Namespace), Name: string(p.Ref.Name)}
}

// Mesh reports whether the parent is a Service (GEP-1426 mesh binding).
func (p *ParentResult) Mesh() bool {
	return string(*p.Ref.Group) == GroupCore && string(*p.Ref.Kind) == KindService
}

// HasStatus reports whether a controller would write a status.parents entry
// for this parentRef: only a controller that owns the parent does.
func (p *ParentResult) HasStatus() bool { return p.ControllerName != "" }

// ListenerOutcome is what one listener decided about a parentRef.
type ListenerOutcome struct {
	Listener *Listener
	// Reason is ReasonAccepted, ReasonNotAllowedByListeners,
	// ReasonNoMatchingListenerHostname, or ReasonPending when the verdict
	// depends on a Namespace the inputs do not hold.
	Reason  Reason
	Message string
	// Hostnames are the effective hostnames on the listener when accepted;
	// empty means any.
	Hostnames []string
	// Unknown is the hostname holding a deploy-time placeholder that leaves
	// the verdict Pending (hostname.go), or "".
	Unknown string
}

// Accepted reports whether the listener accepted the parentRef.
func (o *ListenerOutcome) Accepted() bool { return o.Reason == ReasonAccepted }

// Undecided reports whether the listener's verdict depends on objects the
// inputs do not hold.
func (o *ListenerOutcome) Undecided() bool { return o.Reason == ReasonPending }

// resolveRoutes resolves every route, on every core. That is safe because a
// route writes only its own results (its RouteResult, ParentResults,
// RuleResults and BackendResults) and reads what no route writes: the
// Gateways, ListenerSets and their listeners, the objects and grants, and
// the Judges of each route, all found before (routeJudgesOf). What
// the implementations' steps write to the graph goes through the Builder
// under a lock (Decide, HandTo), and the one write whose order shows,
// HandTo's, is put back in the graph's order after.
func (g *Graph) resolveRoutes(b *Builder) {
	judges := make([][]*Judge, len(g.Routes))
	parallel.For(len(g.Routes), func(i int) { judges[i] = g.findRouteJudges(g.Routes[i].Route) })
	g.judgesOf = make(map[*Route][]*Judge, len(g.Routes))
	for i, r := range g.Routes {
		g.judgesOf[r.Route] = judges[i]
	}
	parallel.For(len(g.Routes), func(i int) { g.resolveRoute(b, g.Routes[i]) })
	g.orderHandOffs()
}

// resolveRoute resolves a route's backendRefs, then attaches each of its
// parentRefs.
func (g *Graph) resolveRoute(b *Builder, r *RouteResult) {
	if !g.cache.routeBackends(g, r) {
		g.resolveBackends(b, r)
		g.cache.keepRouteBackends(g, r)
	}
	parents := make([]ParentResult, len(r.ParentRefs)) // one allocation for all
	r.Parents = make([]*ParentResult, len(r.ParentRefs))
	for i := range r.ParentRefs {
		ref := &r.ParentRefs[i]
		p := &parents[i]
		*p = ParentResult{Route: r, Index: i, Path: parentRefPath(i), Ref: ref}
		r.Parents[i] = p
		group, kind := string(*ref.Group), string(*ref.Kind)
		switch {
		case g.leftToOtherController(b, p):
		case kindUnknown(group, kind):
			p.Presence, p.Unknown = Unresolved, groupKind(group, kind)
			p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted),
				"parentRef "+placeholderKind(group, kind)+": which parent it names is unknown")
		case group == GroupGateway && kind == KindGateway:
			g.attachToGateway(p)
		case group == GroupGateway && kind == KindListenerSet:
			g.attachToListenerSet(p)
		case p.Mesh():
			g.bindToService(p)
		case g.judgeParent(b, p):
		case group == GroupMultiCluster && kind == KindServiceImport:
			// The API's own examples bind mesh routes to a ServiceImport
			// (multi-cluster mesh); whether a route binds there is the
			// implementation's to say, and gwlint does not model it.
			p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted),
				"a ServiceImport parent (multi-cluster mesh) binds the route only where the implementation supports it; gwlint does not model it")
		default:
			p.UnsupportedKind = true
			msg := fmt.Sprintf("parentRef kind %s is not supported; use a Gateway, a ListenerSet or a Service, unless the implementation supports it", groupKind(group, kind))
			if group == GroupGatewayExperimental && kind == "XListenerSet" {
				msg = fmt.Sprintf("parentRef kind %s was renamed: write group %s, kind %s", groupKind(group, kind), GroupGateway, KindListenerSet)
			}
			p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, ReasonUnsupportedValue, msg)
		}
		g.dropInvalidRules(p)
	}
}

func (g *Graph) attachToGateway(p *ParentResult) {
	target := p.Parent()
	if !g.lookupParent(p, target) {
		return
	}
	p.Gateway = g.gateways[target]
	if p.Gateway.Remote() {
		// Programmed in its own cluster, whose listeners these are not.
		p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted),
			fmt.Sprintf("Gateway %s is remote: %s does not program it here, and writes no status for it", target.NamespacedName(), p.Gateway.Judge))
		return
	}
	if p.Gateway.Managed {
		p.ControllerName = p.Gateway.ControllerName
	}
	g.attachToListeners(p, p.Gateway.Listeners, "Gateway "+target.NamespacedName())
}

func (g *Graph) attachToListenerSet(p *ParentResult) {
	target := p.Parent()
	if !g.lookupParent(p, target) {
		return
	}
	ls := g.lsets[target]
	p.ListenerSet = ls
	if ls.Parent != nil && ls.Parent.Managed {
		p.ControllerName = ls.Parent.ControllerName
	}
	byListeners := false
	if ls.Parent != nil {
		judge, ok := ls.Parent.Judge.steps.(ListenersJudge)
		byListeners = ok && judge.BindsByListeners(ls)
	}
	switch {
	case ls.Accepted.Status == metav1.ConditionUnknown:
		p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted),
			fmt.Sprintf("whether ListenerSet %s is accepted cannot be decided: %s", target.NamespacedName(), ls.Accepted.Message))
		return
	case ls.Accepted.Status == metav1.ConditionFalse && byListeners && ls.Accepted.Reason == ReasonListenersNotValid:
		// Admitted, its listeners all invalid: they judge the route.
	case ls.Accepted.Status == metav1.ConditionFalse:
		if byListeners {
			// Not admitted: its controller does not count the parentRef
			// as its own and writes nothing.
			p.ControllerName = ""
		}
		p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, ReasonNoMatchingParent,
			fmt.Sprintf("ListenerSet %s is not accepted: %s", target.NamespacedName(), ls.Accepted.Message))
		return
	}
	g.attachToListeners(p, ls.Listeners, "ListenerSet "+target.NamespacedName())
}

// ParentJudge decides a route's parentRefs of kinds it gives a meaning of
// its own, beyond the API's Gateways, ListenerSets and Services, in place of
// the core, which refuses a kind it does not know: a kind of the API's
// groups when every implementation judging the route takes the parentRef;
// one of a group the API does not define when an implementation judging the
// route takes it, the first that does (the others ignore a parent that is
// not theirs).
type ParentJudge interface {
	Implementation
	// TakesParent reports whether it gives the route's parentRef a meaning
	// of its own.
	TakesParent(route *Route, ref gwv1.ParentReference) bool
	// JudgeParent decides the parentRef: its presence, Accepted condition
	// and ControllerName.
	JudgeParent(b *Builder, p *ParentResult)
}

// judgeParent hands a parentRef to an implementation judging its route
// that takes it (ParentJudge), and reports whether one did.
func (g *Graph) judgeParent(b *Builder, p *ParentResult) bool {
	route := p.Route.Route
	takes := func(j ParentJudge) bool { return j.TakesParent(route, *p.Ref) }
	var judge ParentJudge
	if group, kind := string(*p.Ref.Group), string(*p.Ref.Kind); qualifiedKind(group, kind) != kind {
		for _, by := range g.routeJudgesOf(route) {
			if j, ok := by.steps.(ParentJudge); ok && takes(j) {
				judge = j
				break
			}
		}
	} else if judges := routeJudges[ParentJudge](g, route); len(judges) > 0 && !slices.ContainsFunc(judges, func(j ParentJudge) bool { return !takes(j) }) {
		judge = judges[0]
	}
	if judge == nil {
		return false
	}
	judge.JudgeParent(b, p)
	return true
}

// LookupParent finds a parentRef's target, and reports whether the inputs
// hold it. A Missing parent refuses the route (NoMatchingParent); one whose
// presence is otherwise unknown leaves it Pending.
func (b *Builder) LookupParent(p *ParentResult) bool { return b.g.lookupParent(p, p.Parent()) }

// SetParentAccepted writes a parentRef's Accepted condition.
func (b *Builder) SetParentAccepted(p *ParentResult, ok bool, reason Reason, message string) {
	p.Accepted = condition(string(gwv1.RouteConditionAccepted), ok, reason, message)
}

// ControllerOf is the controller that programs a route, and so writes the
// status of what it hands traffic to: that of the first managed Gateway it
// reaches, else the one gwlint stands for.
func (b *Builder) ControllerOf(route *Route) string {
	for _, gw := range b.g.routeGateways(route, nil, nil) {
		if gw.Managed {
			return gw.ControllerName
		}
	}
	return b.StandInController()
}

// StandInController is the controller gwlint stands for, which writes the
// status of what no Gateway among the inputs programs:
// Options.ControllerName, else DefaultControllerName.
func (b *Builder) StandInController() string {
	return cmp.Or(b.g.opts.ControllerName, DefaultControllerName)
}

// lookupParent finds a parentRef's target. A Missing parent refuses the
// route (NoMatchingParent); one the inputs do not show leaves Accepted
// Unknown, since its listeners or ports cannot be seen.
func (g *Graph) lookupParent(p *ParentResult, target ObjectRef) bool {
	_, p.Presence = g.Lookup(target)
	switch p.Presence {
	case Present:
		return true
	case Missing:
		p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, ReasonNoMatchingParent, g.describeAbsence(target, p.Presence))
	default:
		p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted), g.describeAbsence(target, p.Presence)+": whether the route attaches cannot be decided")
	}
	return false
}

// attachToListeners decides a parentRef against the listeners of its
// parent, following ParentReference.SectionName and .Port ("When both Port
// and SectionName are specified, the name and port of the selected listener
// must match both specified values"), then each listener's allowedRoutes
// and hostname. The route is accepted if any listener accepts it;
// otherwise the reason is the furthest step every listener failed at.
func (g *Graph) attachToListeners(p *ParentResult, listeners []*Listener, parent string) {
	r := p.Route
	var selected []*Listener
	for _, l := range listeners {
		if p.Ref.SectionName != nil && string(*p.Ref.SectionName) != l.Name {
			continue
		}
		if p.Ref.Port != nil && *p.Ref.Port != l.Port {
			continue
		}
		selected = append(selected, l)
	}
	typ := string(gwv1.RouteConditionAccepted)
	if p.Ref.SectionName != nil && holdsPlaceholder(string(*p.Ref.SectionName)) {
		name := string(*p.Ref.SectionName)
		p.Unknown = name
		p.Accepted = undecidedCondition(typ, fmt.Sprintf("sectionName %s %s: which listener of %s it selects is unknown",
			name, placeholder.All.Why(name), parent))
		return
	}
	if len(selected) == 0 {
		p.Accepted = condition(typ, false, ReasonNoMatchingParent, parent+" has no listener "+describeSelection(*p.Ref))
		return
	}
	routeHosts := make([]string, len(r.Hostnames))
	for i, h := range r.Hostnames {
		routeHosts[i] = string(h)
	}
	hostnameFirst := selected[0].Gateway.hostnameFirst
	var notAllowed, noHostname int
	var firstNotAllowed, firstUndecided string
	outcomes := make([]ListenerOutcome, len(selected)) // one allocation for all
	p.Listeners = make([]*ListenerOutcome, len(selected))
	for i, l := range selected {
		o := &outcomes[i]
		o.Listener = l
		p.Listeners[i] = o
		adm, why := g.listenerAllows(l, r)
		hosts, hostsOK, maybe := g.listenerHostnames(l, r, routeHosts)
		switch {
		case adm == refused && (hostsOK || maybe != "" || !hostnameFirst || !l.Accepted.True()):
			notAllowed++
			o.Reason, o.Message = ReasonNotAllowedByListeners, why
			if firstNotAllowed == "" {
				firstNotAllowed = why
			}
		case !hostsOK && maybe == "":
			// Refused whatever the namespace's labels are.
			noHostname++
			o.Reason = ReasonNoMatchingListenerHostname
			o.Message = fmt.Sprintf("listener %s hostname %s does not intersect the route's hostnames %s",
				l.Name, l.HostnameString(), strings.Join(routeHosts, ", "))
		case adm == undecided:
			o.Reason, o.Message = ReasonPending, why
			if !l.allows(r.Kind()) {
				o.Unknown = l.unknownKind() // not the namespaces' labels
			}
			if firstUndecided == "" {
				firstUndecided, p.Unknown = why, o.Unknown
			}
		case !hostsOK:
			// A hostname holding a placeholder may intersect.
			o.Reason, o.Unknown = ReasonPending, maybe
			o.Message = fmt.Sprintf("whether listener %s hostname %s intersects the route's hostnames %s is unknown: %s",
				l.Name, l.HostnameString(), strings.Join(routeHosts, ", "), placeholder.All.Why(maybe))
			if firstUndecided == "" {
				firstUndecided, p.Unknown = o.Message, maybe
			}
		default:
			o.Reason, o.Hostnames = ReasonAccepted, hosts
			if l.Conflicted.True() {
				o.Message = fmt.Sprintf("listener %s is conflicted: %s attaches the route to it, but it serves no traffic",
					l.Name, l.Gateway.Judge)
			}
		}
	}
	// The listeners' refusals decide the reason: under the API's reading
	// NotAllowedByListeners when no listener allowed the route, where
	// hostnames come first when any listener refused it so.
	refusedByListeners := noHostname == 0 || (hostnameFirst && notAllowed > 0)
	switch {
	case slices.ContainsFunc(p.Listeners, (*ListenerOutcome).Accepted):
		msg := p.Listeners[0].Listener.attached // the one listener selected
		if len(p.Listeners) > 1 {
			var names []string
			for _, o := range p.Listeners {
				if o.Accepted() {
					names = append(names, o.Listener.Name)
				}
			}
			msg = fmt.Sprintf("Route attached to %s %s of %s", nouns(len(names), "listener"), strings.Join(names, ", "), parent)
		}
		p.Accepted = condition(typ, true, ReasonAccepted, msg)
	case firstUndecided != "":
		p.Accepted = undecidedCondition(typ, firstUndecided)
	case refusedByListeners:
		p.Accepted = condition(typ, false, ReasonNotAllowedByListeners, firstNotAllowed)
	default:
		p.Accepted = condition(typ, false, ReasonNoMatchingListenerHostname,
			fmt.Sprintf("no listener of %s has a hostname that intersects %s", parent, strings.Join(routeHosts, ", ")))
	}
}

func describeSelection(ref gwv1.ParentReference) string {
	var parts []string
	if ref.SectionName != nil {
		parts = append(parts, fmt.Sprintf("named %q", *ref.SectionName))
	}
	if ref.Port != nil {
		parts = append(parts, fmt.Sprintf("on port %d", *ref.Port))
	}
	return strings.Join(parts, " and ")
}

// listenerAllows applies the listener's allowedRoutes (kinds and namespaces).
func (g *Graph) listenerAllows(l *Listener, r *RouteResult) (admission, string) {
	// Routes do not attach to a listener that is not accepted (unsupported
	// protocol, conflicts): it serves nothing. Some implementations attach
	// them to a conflicted one all the same.
	if !l.Accepted.True() && !(l.Conflicted.True() && l.attachesWhileConflicted()) {
		return refused, fmt.Sprintf("listener %s is not accepted: %s", l.Name, l.Accepted.Message)
	}
	kindOK := false
	for _, k := range l.SupportedKinds {
		if string(*k.Group) == GroupGateway && string(k.Kind) == r.Kind() {
			kindOK = true
			break
		}
	}
	unknownKind := l.unknownKind()
	if !kindOK && unknownKind == "" {
		kinds := make([]string, len(l.SupportedKinds))
		for i, k := range l.SupportedKinds {
			kinds[i] = string(k.Kind)
		}
		return refused, fmt.Sprintf("listener %s (%s) allows kinds [%s], not %s", l.Name, l.Protocol, strings.Join(kinds, ", "), r.Kind())
	}
	ar := l.AllowedRoutes.Namespaces
	adm, why := g.namespaceAllowed(*ar.From, ar.Selector, l.Owner().Ref.Namespace, r.Ref.Namespace)
	switch adm {
	case refused:
		return refused, fmt.Sprintf("listener %s does not allow routes %s", l.Name, why)
	case undecided:
		return undecided, fmt.Sprintf("listener %s allows routes %s", l.Name, why)
	}
	if !kindOK {
		return undecided, fmt.Sprintf("listener %s allows %s: whether it allows %s is unknown", l.Name, unknownKind, r.Kind())
	}
	return admitted, ""
}

// unknownKind says which of the listener's allowedRoutes.kinds holds a
// deploy-time placeholder, the first; "" when none does.
func (l *Listener) unknownKind() string {
	if len(l.UnknownKinds) == 0 {
		return ""
	}
	k := l.UnknownKinds[0]
	return placeholderKind(string(*k.Group), string(k.Kind))
}

// listenerHostnames intersects hostnames where the route kind has them;
// TCPRoute and UDPRoute ignore listener hostnames.
func (g *Graph) listenerHostnames(l *Listener, r *RouteResult, routeHosts []string) ([]string, bool, string) {
	if !r.HasHostnames() {
		return nil, true, ""
	}
	lh := ""
	if l.Hostname != nil {
		lh = string(*l.Hostname)
	}
	return intersectHostnames(lh, routeHosts)
}

// countAttachments fills each listener's Attached, Refused and
// AttachedRoutes: "the number of Routes with the Accepted condition set to
// True that have been attached to this Listener".
func (g *Graph) countAttachments() {
	for _, r := range g.Routes {
		for _, p := range r.Parents {
			for _, o := range p.Listeners {
				switch {
				case o.Accepted():
					o.Listener.Attached = append(o.Listener.Attached, p)
				case o.Undecided():
					o.Listener.Undecided = append(o.Listener.Undecided, p)
				default:
					o.Listener.Refused = append(o.Listener.Refused, p)
				}
			}
		}
	}
	listeners := slices.Collect(g.Listeners())
	parallel.For(len(listeners), func(i int) { finishListenerCount(listeners[i]) })
}

func finishListenerCount(l *Listener) {
	seen := map[*RouteResult]bool{}
	for _, p := range l.Attached {
		seen[p.Route] = true
	}
	l.AttachedRoutes = int32(len(seen))
	byRoute := func(s []*ParentResult) func(i, j int) bool {
		return func(i, j int) bool {
			if s[i].Route != s[j].Route {
				return refLess(s[i].Route.Ref, s[j].Route.Ref)
			}
			return s[i].Index < s[j].Index
		}
	}
	sort.SliceStable(l.Attached, byRoute(l.Attached))
	sort.SliceStable(l.Refused, byRoute(l.Refused))
	sort.SliceStable(l.Undecided, byRoute(l.Undecided))
}
