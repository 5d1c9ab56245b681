package resolve

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve/placeholder"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// RuleResult is one rule of a route with its resolved backends and split.
type RuleResult struct {
	*RouteRule
	Backends []*BackendResult
	// FilterBackends are the resolved FilterRefs (mirrors, external auth).
	FilterBackends []*BackendResult
	// TotalWeight is the sum of all backend weights: "weight/(sum of all
	// weights in this BackendRefs list)".
	TotalWeight int64
}

// AllBackends returns the rule's backends, then its filters' backends;
// the caller must not change the list. It is the rule's own list when it
// has no filter backends, as most rules have none: six rules walk every
// backend, and an iterator cost an allocation per rule and walk.
func (rr *RuleResult) AllBackends() []*BackendResult {
	if len(rr.FilterBackends) == 0 {
		return rr.Backends
	}
	return slices.Concat(rr.Backends, rr.FilterBackends)
}

// Mirrors reports whether the rule's own RequestMirror filters send
// requests to a valid backend.
func (rr *RuleResult) Mirrors() bool {
	for _, b := range rr.FilterBackends {
		if b.Valid() && strings.HasPrefix(b.Path, rr.Path+".filters[") && strings.HasSuffix(b.Path, ".requestMirror.backendRef") {
			return true
		}
	}
	return false
}

// Outcome says what happens to requests the rule matches as a whole.
type Outcome string

const (
	// Forwarded: at least part of the traffic reaches a backend.
	Forwarded Outcome = "forwarded"
	// AllErrors500: "If all entries in BackendRefs are invalid, and there are
	// also no filters specified in this route rule, all traffic which matches
	// this rule MUST receive a 500 status code." (HTTPRoute, GRPCRoute)
	AllErrors500 Outcome = "all-500"
	// NoBackends: the rule has no backendRefs and no filters: nothing is
	// forwarded (for a mesh parent, traffic goes to the parent Service).
	NoBackends Outcome = "no-backends"
	// FiltersOnly: no backend receives traffic, and filters (a redirect, a
	// direct response) answer instead.
	FiltersOnly Outcome = "filters-only"
	// ZeroWeight: every backend has weight 0, so none receives traffic.
	ZeroWeight Outcome = "zero-weight"
	// Dropped: a TLS/TCP/UDP rule with no valid backend: connections are
	// rejected.
	Dropped Outcome = "dropped"
)

// Outcome decides what the rule does with the requests it matches.
func (rr *RuleResult) Outcome(route *Route) Outcome {
	if len(rr.Backends) == 0 {
		if rr.Filters > 0 {
			return FiltersOnly
		}
		return NoBackends
	}
	if rr.TotalWeight == 0 {
		return ZeroWeight
	}
	for _, b := range rr.Backends {
		if b.Share > 0 && b.Valid() {
			return Forwarded
		}
	}
	switch {
	case rr.Filters > 0:
		return FiltersOnly
	case route.Answers500():
		return AllErrors500
	default:
		return Dropped
	}
}

// BackendResult is one backendRef (or filter backendRef) resolved.
type BackendResult struct {
	Path string // "spec.rules[i].backendRefs[j]"
	// Ref is the defaulted reference, the route's own (RouteRule).
	Ref    *gwv1.BackendObjectReference
	Target ObjectRef
	Group  string
	// Reason is the route ResolvedRefs reason when the ref is invalid
	// (BackendNotFound, RefNotPermitted, InvalidKind, UnsupportedValue,
	// or an implementation's own, PortNotFound), else "".
	Reason Reason
	// Message says why the ref is invalid, or, for an Unlisted or
	// Unresolved target or a port holding a placeholder, what is unknown
	// about it.
	Message string
	// Problem tells apart the ways a ref can be invalid, for output.
	Problem BackendProblem
	Service *Service // the target Service, when present
	// reached is what few refs have (Object, TargetPath, Generation and
	// the BackendTLSPolicy section): a target of another kind than a
	// Service, a field of it at fault, a target that another object will
	// create; nil for the many that name a Service among the inputs,
	// which keeps a result a size class smaller.
	reached *reachedBackend
	Port    *ServicePort    // the Service port the ref selects, when found
	Grant   *ReferenceGrant // the grant that permits a cross-namespace ref
	// TLSPolicy is the BackendTLSPolicy that holds the Service and port the
	// ref reaches (the port's sectionName before the whole Service), nil
	// when none does: the Gateway then speaks plain text to the backend.
	TLSPolicy *BackendTLSPolicyResult

	Weight          int32
	WeightDefaulted bool
	// Presence of the target object among the inputs (beside the other
	// small fields: tens of thousands of results).
	Presence Presence
	// Unreported is true for an invalid ref that the implementation does
	// not check (MissingPortReporter): requests to it fail, and the
	// route's ResolvedRefs does not say so.
	Unreported bool
	// Filter is true for the backendRef of a filter (RequestMirror), which
	// is sent a copy of the requests rather than a share of them.
	Filter bool
	// Share is Weight / TotalWeight of the rule: the fraction of matching
	// requests meant for this backend.
	Share float64
}

// BackendProblem is why a backendRef is invalid.
type BackendProblem string

const (
	NoProblem      BackendProblem = ""
	NotFound       BackendProblem = "not found"
	NotPermitted   BackendProblem = "not permitted"
	UnsupportedRef BackendProblem = "unsupported kind"
	NoPort         BackendProblem = "no port"
	PortNotFound   BackendProblem = "port not found"
	// ExternalNameRefused: an ExternalName Service, which the judging
	// implementations refuse as a backend.
	ExternalNameRefused BackendProblem = "ExternalName refused"
	// FiltersRefused: the backendRef's filters, which the judging
	// implementations refuse (BackendFilterJudge).
	FiltersRefused BackendProblem = "filters refused"
)

// Valid reports whether requests sent to this backend reach it.
func (b *BackendResult) Valid() bool { return b.Reason == "" }

// TLSFails reports whether the BackendTLSPolicy the ref uses is not
// accepted (no usable CA certificate, an unrecognized well-known CA set):
// "Connections using an invalid CACertificateRef MUST fail, and the client
// MUST receive an HTTP 5xx error response." The route's own status does not
// change.
func (b *BackendResult) TLSFails() bool { return b.TLSPolicy != nil && !b.TLSPolicy.Accepted.True() }

// Fails reports whether requests sent to the ref fail (HTTP 500, or a
// rejected connection): the ref is invalid, or its BackendTLSPolicy is.
func (b *BackendResult) Fails() bool { return !b.Valid() || b.TLSFails() }

// FailReason is the reason Fails is true, "" when it is not.
func (b *BackendResult) FailReason() string {
	switch {
	case !b.Valid():
		return string(b.Reason)
	case b.TLSFails():
		return string(b.TLSPolicy.Accepted.Reason)
	}
	return ""
}

func (g *Graph) resolveBackends(bld *Builder, r *RouteResult) {
	r.ResolvedRefs = condition(string(gwv1.RouteConditionResolvedRefs), true, ReasonResolvedRefs, "All references resolved")
	for i := range r.Route.Rules {
		rule := &r.Route.Rules[i]
		rr := &RuleResult{RouteRule: rule}
		// One allocation for all the rule's results: a large repository
		// has tens of thousands.
		results := make([]BackendResult, len(rule.BackendRefs)+len(rule.FilterRefs))
		rr.Backends = make([]*BackendResult, len(rule.BackendRefs))
		for j, ref := range rule.BackendRefs {
			b := &results[j]
			g.resolveBackend(bld, b, r.Route, ref.Path, &ref.BackendObjectReference, false)
			g.judgeServiceBackend(bld, r.Route, b)
			g.refuseBackendFilters(b, r.Route, &rule.BackendRefs[j])
			b.Weight = *ref.Weight
			b.WeightDefaulted = ref.WeightDefaulted
			rr.Backends[j] = b
			// A negative weight is the CRDs' finding (minimum 0); it
			// takes no share.
			rr.TotalWeight += int64(max(b.Weight, 0))
		}
		for j, ref := range rule.FilterRefs {
			b := &results[len(rule.BackendRefs)+j]
			g.resolveBackend(bld, b, r.Route, ref.Path, ref.BackendObjectReference, true)
			g.judgeServiceBackend(bld, r.Route, b)
			rr.FilterBackends = append(rr.FilterBackends, b)
		}
		if judge, alone := firstRouteJudge[FilterJudge](g, r.Route); judge != nil {
			judge.JudgeFilters(bld, r, rr, alone)
		}
		for _, judge := range routeJudges[RuleJudge](g, r.Route) {
			judge.JudgeRule(bld, r, rr)
		}
		for i := range results {
			reportBackend(r, &results[i])
		}
		for _, b := range rr.Backends {
			if rr.TotalWeight > 0 {
				b.Share = float64(max(b.Weight, 0)) / float64(rr.TotalWeight)
			}
		}
		r.Rules = append(r.Rules, rr)
	}
	for _, judge := range routeJudges[RuleJudge](g, r.Route) {
		judge.JudgeRules(bld, r)
	}
}

// FilterJudge reads the filters of a route's rules, and of their
// backendRefs, that name objects of its own kinds (ExtensionRef): the API
// leaves them to the implementation. The core asks the first
// implementation judging the route that takes part, for each rule once its
// backendRefs are resolved, before RuleJudge; alone is true when every
// implementation judging the route takes part, and only then may it write
// the route's own results (Builder.ReportUnresolved, a backendRef's
// Problem). A rule it refuses is its RuleDropper's to drop at the parents
// it judges.
type FilterJudge interface {
	Implementation
	JudgeFilters(b *Builder, route *RouteResult, rule *RuleResult, alone bool)
}

// ReportUnresolved writes the route's ResolvedRefs False with reason for a
// reference at path that does not resolve, unless it is False already (as
// ReportBackend).
func (b *Builder) ReportUnresolved(route *RouteResult, reason Reason, path, message string) {
	if route.ResolvedRefs.True() {
		route.ResolvedRefs = condition(string(gwv1.RouteConditionResolvedRefs), false, reason, path+": "+message)
	}
}

// RuleJudge adjusts the rules of the routes it judges, once the core has
// resolved their backendRefs: JudgeRule each rule, before the route's
// ResolvedRefs takes the verdicts of the rule's backendRefs, then
// JudgeRules the route's rules together. The core asks it when every
// implementation judging the route takes part.
type RuleJudge interface {
	Implementation
	JudgeRule(b *Builder, route *RouteResult, rule *RuleResult)
	JudgeRules(b *Builder, route *RouteResult)
}

// BackendGroupReader checks a backendRef's group and kind apart, and picks
// the object by kind alone: a backendRef of the core group (which has no
// backend kind but Service) naming a kind of its own names its object. The
// core asks it for a backendRef of the core group and another kind than
// Service, before BackendJudge and before it checks the kind, when every
// implementation judging the route takes part and they agree; and, when
// which implementation runs the route is unknown, each of
// Options.Implementations, to leave such a kind unjudged.
type BackendGroupReader interface {
	Implementation
	// BackendGroupOfKind returns the group of its own backend kind named
	// kind, "" when it has none.
	BackendGroupOfKind(kind string) string
}

// backendGroupOfKind is the group a backendRef of the core group and a
// kind other than Service stands for: the core group, unless every
// implementation judging the route picks its own backend kind by kind
// alone, of the same group (BackendGroupReader).
func (g *Graph) backendGroupOfKind(route *Route, kind string) string {
	judges := routeJudges[BackendGroupReader](g, route)
	if len(judges) == 0 {
		return GroupCore
	}
	group := judges[0].BackendGroupOfKind(kind)
	for _, j := range judges[1:] {
		if j.BackendGroupOfKind(kind) != group {
			return GroupCore
		}
	}
	return group
}

// picksBackendByKind reports whether an implementation of o.Implementations
// takes a backendRef of the core group and kind as its own backend kind
// (BackendGroupReader).
func (o Options) picksBackendByKind(kind string) bool {
	return slices.ContainsFunc(o.Implementations, func(impl Implementation) bool {
		r, ok := impl.(BackendGroupReader)
		return ok && r.BackendGroupOfKind(kind) != ""
	})
}

// implementationSpecific reports whether a backendRef kind no profile
// judging the route accepts is left unjudged: the implementation of one of
// the route's Gateways is unknown (its GatewayClass is not among the
// inputs and nothing says which runs it; or the inputs hold none of the
// route's Gateways and none was inferred), and the kind is of an API group
// other than the core one, or one an implementation picks by kind alone
// (BackendGroupReader). A core kind other than Service is no
// implementation's backend; a GatewayClass among the inputs naming a
// controller gwlint has no profile for stands for a conformant one, which
// refuses kinds it does not know.
func (g *Graph) implementationSpecific(route *Route, group, kind string) bool {
	if group == GroupCore && !g.opts.picksBackendByKind(kind) {
		return false
	}
	gws := g.routeGateways(route, nil, nil)
	if len(gws) == 0 {
		return !g.defaultJudge.Known()
	}
	return slices.ContainsFunc(gws, func(gw *GatewayResult) bool { return gw.Class == nil && !gw.Judge.Known() })
}

// meshOnly reports whether every parentRef of the route is a Service. GEP-1426:
// "Routes of either type can send traffic to backendRefs in any namespace.
// Unlike Gateway bound routes, this is allowed without a ReferenceGrant."
func meshOnly(route *Route) bool {
	for _, p := range route.ParentRefs {
		if string(*p.Group) != GroupCore || string(*p.Kind) != KindService {
			return false
		}
	}
	return len(route.ParentRefs) > 0
}

func (g *Graph) resolveBackend(bld *Builder, b *BackendResult, route *Route, path string, ref *gwv1.BackendObjectReference, filter bool) {
	ns := string(*ref.Namespace)
	*b = BackendResult{
		Path:   path,
		Ref:    ref,
		Group:  string(*ref.Group),
		Target: ObjectRef{Kind: string(*ref.Kind), Namespace: ns, Name: string(ref.Name)},
		Filter: filter,
	}
	invalid := func(problem BackendProblem, reason Reason, format string, args ...any) {
		b.Problem, b.Reason, b.Message = problem, reason, fmt.Sprintf(format, args...)
	}
	if kindUnknown(b.Group, b.Target.Kind) {
		b.Presence, b.Message = Unresolved, unknownKindMessage(b.Group, b.Target.Kind)
		return
	}
	service := b.Group == GroupCore && b.Target.Kind == KindService
	if b.Group == GroupCore && !service {
		b.Group = g.backendGroupOfKind(route, b.Target.Kind)
	}
	if g.judgeBackend(bld, route, b) {
		return
	}
	if !service && !(b.Group == GroupMultiCluster && b.Target.Kind == KindServiceImport) && !g.judgedAllWith(route, func(j *Judge) bool { return j.AcceptsBackendKind(b.Group, b.Target.Kind) }) {
		if g.implementationSpecific(route, b.Group, b.Target.Kind) {
			// No implementation's profile judges the route: whether
			// the one that runs it takes the kind is unknown.
			b.Presence = External
			b.Message = fmt.Sprintf("kind %s is implementation-specific, and which implementation runs the route is unknown", groupKind(b.Group, b.Target.Kind))
			return
		}
		invalid(UnsupportedRef, ReasonInvalidKind,
			"kind %s is not supported; use a core Service", groupKind(b.Group, b.Target.Kind))
		return
	}
	if !g.permitBackend(b, route) {
		return
	}
	// sought is the object the ref stands for: its target, unless the
	// implementations judging the route all look up another.
	sought := g.lookUpBackend(route, b.Group, b.Target)
	obj := g.findBackend(b, sought)
	if b.Presence == Missing {
		return
	}
	if v, ok := route.UnknownAt(path, ".port"); ok {
		// `port: ${PORT}`: which port it selects is unknown.
		b.Message = fmt.Sprintf("port %s %s", v, placeholder.All.Why(v))
		return
	}
	// GEP-718: "Port is required when the referent is a Kubernetes Service."
	if ref.Port == nil {
		if service {
			invalid(NoPort, ReasonUnsupportedValue,
				"Service %s needs a port", b.Target.NamespacedName())
			return
		}
		return
	}
	var ports []ServicePort
	switch o := obj.(type) {
	case *Service:
		b.Service, ports = o, o.Spec.Ports
		if o.ExternalName() {
			// A DNS alias: its spec.ports do not bound the port requests go
			// to. "Implementations SHOULD NOT support ExternalName Services"
			// (a BackendJudge may refuse it).
			return
		}
	case *ServiceImport:
		ports = o.Spec.Ports
	case *XBackend:
		// The XBackend declares its port; a backendRef may leave it out,
		// and one that names another does not reach it.
		if *ref.Port != o.Spec.Port.Port {
			invalid(PortNotFound, ReasonBackendNotFound,
				"XBackend %s has port %d, not %d", b.Target.NamespacedName(), o.Spec.Port.Port, *ref.Port)
		}
		return
	default:
		return // External: the port cannot be checked
	}
	// A port of the number for another transport protocol is the port
	// the ref selects when none has the route's (a BackendJudge may refuse
	// it).
	var otherProtocol *ServicePort
	want := route.Transport()
	for i := range ports {
		switch {
		case ports[i].Port != *ref.Port:
		case ports[i].Transport() == want:
			b.Port = &ports[i]
			return
		case otherProtocol == nil:
			otherProtocol = &ports[i]
		}
	}
	if otherProtocol != nil {
		b.Port = otherProtocol
		return
	}
	if v, ok := unknownPort(ports); ok {
		b.Message = fmt.Sprintf("%s %s: port %s %s; whether it is %d is unknown",
			b.Target.Kind, b.Target.NamespacedName(), v, placeholder.All.Why(v), *ref.Port)
		return
	}
	invalid(PortNotFound, ReasonBackendNotFound,
		"%s %s has no port %d (ports: %s)", b.Target.Kind, b.Target.NamespacedName(), *ref.Port, PortList(ports))
	g.reportMissingPort(b, route)
}

// BackendJudge resolves the backendRefs of a route it judges that name a
// kind of its own, or that it reads otherwise than as the API's backendRefs
// (route delegation). The core asks it before it checks the ref's kind and
// ReferenceGrant (with the group an implementation reads for a kind alone:
// backendGroupOfKind), when every implementation judging the route takes
// the ref; the core then leaves the ref as JudgeBackend resolved it.
// Builder.PermitBackend and Builder.FindBackend do the core's checks for it.
type BackendJudge interface {
	Implementation
	// TakesBackend reports whether it gives the backendRef a meaning of its
	// own.
	TakesBackend(route *Route, r *BackendResult) bool
	// JudgeBackend resolves it: its Presence, and Problem, Reason and
	// Message when it is invalid.
	JudgeBackend(b *Builder, route *Route, r *BackendResult)
}

// judgeBackend hands a backendRef to the implementations judging its route
// when they all take it, and reports whether they did.
func (g *Graph) judgeBackend(b *Builder, route *Route, r *BackendResult) bool {
	judges := routeJudges[BackendJudge](g, route)
	if len(judges) == 0 || slices.ContainsFunc(judges, func(j BackendJudge) bool { return !j.TakesBackend(route, r) }) {
		return false
	}
	judges[0].JudgeBackend(b, route, r)
	return true
}

// PermitBackend checks a backendRef to another namespace than its route's
// against the ReferenceGrants, as the core checks every backendRef, and
// reports whether it may be followed; when not, r is NotPermitted.
func (b *Builder) PermitBackend(route *Route, r *BackendResult) bool {
	return b.g.permitBackend(r, route)
}

// FindBackend looks the target of a backendRef up, as the core looks every
// target up, and writes on r whether the inputs hold it (r.Presence): a
// Missing one makes r BackendNotFound. It returns the target, nil when the
// inputs do not hold it.
func (b *Builder) FindBackend(r *BackendResult) Object { return b.g.findBackend(r, r.Target) }

// ReachBackend records the target of an implementation's kind a
// backendRef reaches, and section, the sectionName by which a
// BackendTLSPolicy selects the port of it that the ref reaches ("" for
// none).
func (b *Builder) ReachBackend(r *BackendResult, target Object, section string) {
	x := r.reach()
	x.object, x.policySection = target, section
}

// RefuseBackend makes a backendRef invalid for problem, with the reason
// its route's ResolvedRefs gives and message; field is the field of its
// target (Object) at fault, "" when the target is not.
func (b *Builder) RefuseBackend(r *BackendResult, problem BackendProblem, reason Reason, field, message string) {
	r.Problem, r.Reason, r.Message = problem, reason, message
	r.setTargetPath(field)
}

// reachedBackend is what few backendRefs add to their result (see
// BackendResult.reached).
type reachedBackend struct {
	object        Object
	targetPath    string
	policySection string
	generation    *Generation
}

// reach returns b's reachedBackend, made on first use.
func (b *BackendResult) reach() *reachedBackend {
	if b.reached == nil {
		b.reached = &reachedBackend{}
	}
	return b.reached
}

// Object is the target of an implementation's own kind, when present and
// its BackendJudge resolved the ref (Builder.ReachBackend), else nil.
func (b *BackendResult) Object() Object {
	if b.reached == nil {
		return nil
	}
	return b.reached.object
}

// TargetPath is the field of Object that makes the ref invalid, "" when
// none does.
func (b *BackendResult) TargetPath() string {
	if b.reached == nil {
		return ""
	}
	return b.reached.targetPath
}

func (b *BackendResult) setTargetPath(path string) {
	if path != "" || b.reached != nil {
		b.reach().targetPath = path
	}
}

// policySection is the sectionName by which a BackendTLSPolicy selects
// the port of Object the ref reaches, "" for none.
func (b *BackendResult) policySection() string {
	if b.reached == nil {
		return ""
	}
	return b.reached.policySection
}

// Generation is, for a Generated target, which input will create it; nil
// for any other.
func (b *BackendResult) Generation() *Generation {
	if b.reached == nil {
		return nil
	}
	return b.reached.generation
}

// RouteBackend is a backendRef of a route's rule, or of a filter of it,
// with its result.
type RouteBackend struct {
	Route   *RouteResult
	Rule    *RuleResult
	Backend *BackendResult
}

// ProblemBackends returns the backendRefs whose result has a Problem, in
// the order of the routes, their rules and each rule's AllBackends: the
// few that rules report, without walking the many that resolve.
func (g *Graph) ProblemBackends() []RouteBackend {
	if g.problemBackends == nil { // a Graph not made by Resolve
		return g.findProblemBackends()
	}
	return g.problemBackends()
}

func (g *Graph) findProblemBackends() []RouteBackend {
	var out []RouteBackend
	for _, r := range g.Routes {
		for _, rule := range r.Rules {
			for _, b := range rule.AllBackends() {
				if b.Problem != NoProblem {
					out = append(out, RouteBackend{r, rule, b})
				}
			}
		}
	}
	return out
}

// ReportBackend writes the route's ResolvedRefs False for an invalid
// backendRef (as the core writes it for every one), unless it is False
// already: the route reports its first invalid ref.
func (b *Builder) ReportBackend(route *RouteResult, r *BackendResult) { reportBackend(route, r) }

func reportBackend(route *RouteResult, b *BackendResult) {
	if !b.Valid() && !b.Unreported && route.ResolvedRefs.True() {
		route.ResolvedRefs = condition(string(gwv1.RouteConditionResolvedRefs), false, b.Reason, b.Path+": "+b.Message)
	}
}

// permitBackend is PermitBackend. The grant is matched against the group
// as written.
func (g *Graph) permitBackend(b *BackendResult, route *Route) bool {
	ns := b.Target.Namespace
	if ns == route.Ref.Namespace || meshOnly(route) {
		return true
	}
	grant, ok := g.permitted(route.Ref.Kind, route.Ref.Namespace, string(*b.Ref.Group), b.Target.Kind, ns, b.Target.Name)
	if !ok {
		b.Problem, b.Reason = NotPermitted, ReasonRefNotPermitted
		b.Message = fmt.Sprintf("%s is in namespace %q and no ReferenceGrant there allows %s from namespace %q to refer to it",
			b.Target.NamespacedName(), ns, route.Ref.Kind, route.Ref.Namespace)
		return false
	}
	b.Grant = grant
	return true
}

// findBackend is FindBackend, for the object sought (of b's group) that
// the ref stands for.
func (g *Graph) findBackend(b *BackendResult, sought ObjectRef) Object {
	lookup := sought
	lookup.Kind = qualifiedKind(b.Group, lookup.Kind)
	obj, presence := g.Lookup(lookup)
	b.Presence = presence
	switch presence {
	case Missing:
		b.Problem, b.Reason, b.Message = NotFound, ReasonBackendNotFound, g.describeAbsence(sought, presence)
	case Unlisted, Unresolved:
		b.Message = g.describeAbsence(sought, presence)
	case Generated:
		b.reach().generation = g.GeneratedBy(lookup)
	}
	return obj
}

// ServiceBackendJudge judges a route's backendRefs to Services (and
// ServiceImports) once the core has found the object and selected the
// port: the API's reading takes an ExternalName Service, and a port of the
// number the ref names for another transport protocol than the route's
// when the object has none for the route's. The core asks every
// implementation that judges the route, as each Judge of the route, and
// writes their verdict when they all give the same problem and reason.
type ServiceBackendJudge interface {
	Implementation
	// JudgeServiceBackend returns why the implementation, judging as by
	// (with by's profile), refuses the backendRef: NoProblem to take it, else the problem
	// (ExternalNameRefused, PortNotFound for the port the core selected),
	// the reason and the message. A refused port is then reported as the
	// route's implementations report a port the object lacks.
	JudgeServiceBackend(b *Builder, by *Judge, route *Route, backend *BackendResult) (BackendProblem, Reason, string)
}

// judgeServiceBackend writes the verdict of the route's
// ServiceBackendJudges on a backendRef the core resolved to a Service or a
// port of one, when they agree on a refusal.
func (g *Graph) judgeServiceBackend(b *Builder, route *Route, backend *BackendResult) {
	if !backend.Valid() || backend.Service == nil && backend.Port == nil {
		return
	}
	var problem BackendProblem
	var reason Reason
	var message string
	for i, by := range g.routeJudgesOf(route) {
		judge, ok := by.steps.(ServiceBackendJudge)
		if !ok {
			return
		}
		p, r, m := judge.JudgeServiceBackend(b, by, route, backend)
		switch {
		case i == 0:
			problem, reason, message = p, r, m
		case p != problem || r != reason:
			return
		}
	}
	if problem == NoProblem {
		return
	}
	backend.Problem, backend.Reason, backend.Message = problem, reason, message
	if problem == PortNotFound {
		backend.Port = nil
		g.reportMissingPort(backend, route)
	}
}

// Transport is the port's transport protocol: TCP unless it names another.
func (p *ServicePort) Transport() string {
	if p.Protocol == "" {
		return "TCP"
	}
	return p.Protocol
}

// PortList names ports for a message: "80/http, 443", or "none".
func PortList(ports []ServicePort) string {
	if len(ports) == 0 {
		return "none"
	}
	s := ""
	for i, p := range ports {
		if i > 0 {
			s += ", "
		}
		if p.Unknown != "" {
			s += p.Unknown
		} else {
			s += fmt.Sprint(p.Port)
		}
		if p.Name != "" {
			s += "/" + p.Name
		}
	}
	return s
}

// BackendLookup reads which object a backendRef stands for otherwise than
// the API does (an object of another kind). The core asks it for each
// backendRef of a route it judges, before looking the object up; it only
// answers, and writes nothing.
type BackendLookup interface {
	Implementation
	// LookUpBackend returns the object a backendRef of group naming
	// target stands for.
	LookUpBackend(group string, target ObjectRef) ObjectRef
}

// lookUpBackend returns the object a backendRef of the route stands for:
// the one every implementation judging the route looks up, when they all
// take part and agree; else its target.
func (g *Graph) lookUpBackend(route *Route, group string, target ObjectRef) ObjectRef {
	judges := routeJudges[BackendLookup](g, route)
	if len(judges) == 0 {
		return target
	}
	sought := judges[0].LookUpBackend(group, target)
	for _, j := range judges[1:] {
		if j.LookUpBackend(group, target) != sought {
			return target
		}
	}
	return sought
}
