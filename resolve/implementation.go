package resolve

import (
	"fmt"
	"slices"
	"sort"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve/profile"
)

// Implementations: where an implementation reads the world otherwise than
// the API does. Which implementation's profile judges each Gateway is
// profile.Choice's to say.

// Implementation is one implementation of the API, as far as it reads the
// world otherwise than the API does: a choice the spec leaves open, a limit
// its conformance report does not show, kinds of its own. The core resolves
// the API's reading; at fixed steps it hands the Implementation of the
// profile judging an object a Builder to adjust that reading. An
// Implementation takes part in the steps whose interfaces it implements, and
// in no other:
//
//   - KindReader: a document of a kind of its own, as the inputs are
//     loaded (object.go);
//   - ReferenceSecretReader: a Secret of a type of its own that points at
//     certificates served elsewhere, as the inputs are loaded (cert.go);
//   - ParametersJudge: the parameters a GatewayClass or Gateway it judges
//     names, once the core has resolved the reference (parameters.go);
//   - GatewayJudge: a Gateway it judges, once its class is resolved and
//     before its listeners are built (gateway.go);
//   - CertificatesJudge: the certificateRefs of a listener of a Gateway it
//     judges, once they are resolved and before conflicts are detected
//     (gateway.go);
//   - ListenersJudge: the listeners of a Gateway it judges, as the core
//     detects their conflicts and attaches routes to them, and once it has
//     written their conditions (gateway.go);
//   - GatewayMerger: the Gateways it judges, once their own listener
//     conflicts are detected, to group those that share one proxy
//     (merge.go);
//   - ListenerJudge: a listener of a Gateway it judges, once the core has
//     written its conditions;
//   - GatewayConditionsJudge: the conditions of a Gateway it judges and of
//     its ListenerSets, once the core has written them, and whether their
//     status lists their listeners (gateway.go);
//   - MeshJudge: every route's parentRef, before the core reads its kind,
//     and the Service ports mesh routes bind, when it judges mesh routes
//     (mesh.go);
//   - ParentJudge: a route's parentRef of a kind it gives a meaning of its
//     own (attach.go);
//   - BackendGroupReader: a route's backendRef of the core group and a
//     kind other than Service, which it may read as naming a kind of its
//     own, before the core checks its kind (backend.go);
//   - BackendJudge: a route's backendRef of a kind it gives a meaning of
//     its own, before the core checks its kind (backend.go);
//   - BackendLookup: a backendRef of a route it judges, before the core
//     looks its object up (backend.go);
//   - ServiceBackendJudge: a route's backendRef to a Service (or
//     ServiceImport) and the port the core selected (backend.go);
//   - MissingPortReporter: a backendRef's port that the Service (or
//     ServiceImport) lacks, on a route it judges (implementation.go);
//   - FilterJudge: the filters of a route's rules that name objects of
//     its own kinds, once the core has resolved their backendRefs
//     (backend.go);
//   - RuleJudge: the rules of a route it judges, once the core has
//     resolved their backendRefs (backend.go);
//   - BackendFilterJudge: the filters of a route's backendRef, once the
//     core resolved it (filters.go);
//   - RuleDropper: a rule of a route at a parent of its own that accepted
//     it, which it may drop (regex.go);
//   - CertificateSecretReader: the type of a certificate Secret a Gateway
//     it judges refers to, as the core resolves the reference (tls.go);
//   - CAReader: the CA certificate references of a Gateway's frontend
//     validations and of a BackendTLSPolicy it judges, before the core
//     resolves them (tls.go);
//   - BackendTLSPolicyJudge: a BackendTLSPolicy it judges, before the core
//     decides its targets, and a target of a kind of its own (btls.go);
//   - BackendCallerJudge: the objects of its own kinds that send traffic
//     to backends, written as ancestors of their BackendTLSPolicies, once
//     the core has collected the routes reaching each policy's targets
//     (policy.go);
//   - PolicyAncestorsJudge: the status.ancestors entries of a
//     BackendTLSPolicy a route reaching a Gateway it judges sends traffic
//     to (btls.go);
//   - BackendTLSReporter: a route it judges with a backendRef whose
//     BackendTLSPolicy is not accepted, once the core has matched policies
//     to backendRefs (btls.go);
//   - OverlapJudge: a parent, on a Gateway it judges, of a route competing
//     with others for the same requests, once the core has found every
//     shadowed match (overlap.go).
//
// A step writes the fields of the result the core hands it (a Listener, a
// ParentResult, a BackendResult), and through the Builder what needs the
// graph's own state. The steps about a route's parentRefs, backendRefs and
// rules (MeshJudge.LeavesMeshParent to RuleDropper) run for many routes at
// once (resolveRoutes): such a step writes only the results of the route it
// is handed, reads no other route's results, and keeps no state of its
// own.
//
// Each implementation is a package of its own under
// resolve/implementations, listed in that package's registry;
// Options.Implementations hands the list to the core, which imports none of
// them. Without it, every Gateway is judged by the API's reading and the
// facts of its profile alone.
type Implementation interface {
	// Name is the implementation's name in its conformance reports: the
	// profiles of that Name judge with it (Judge).
	Name() string
}

// Judge is an implementation as it judges objects of the graph: the profile
// chosen for them (profile.Choice: the features its conformance report
// claims and the facts gwlint keeps of it, less --without-features), and its
// steps, the Implementation of that profile's Name (nil for one that reads
// the world as the API does). Objects judged by one profile share a Judge.
type Judge struct {
	*profile.Profile
	steps Implementation
}

// judgeFor returns the Judge of profile p, made once per profile while the
// Gateways are resolved, before anything runs in parallel.
func (g *Graph) judgeFor(p *profile.Profile) *Judge {
	if j := g.judges[p]; j != nil {
		return j
	}
	j := &Judge{Profile: p}
	for _, impl := range g.opts.Implementations {
		if impl.Name() == p.Name {
			j.steps = impl
		}
	}
	g.judges[p] = j
	return j
}

// ListenerJudge adjusts the listeners of the Gateways (and their
// ListenerSets) it judges, after the core has decided each listener's
// conflicts, validity and Programmed condition.
type ListenerJudge interface {
	Implementation
	JudgeListener(b *Builder, l *Listener)
}

// Builder is how an Implementation writes to the graph: it exists only while
// Resolve runs, and the graph is read-only once Resolve returns.
type Builder struct {
	g *Graph
}

// Graph is the graph being resolved, to read.
func (b *Builder) Graph() *Graph { return b.g }

// RefuseListener writes a listener Accepted=False with reason and message.
// It changes nothing else: whether the listener is valid, and so carries
// traffic, is the core's verdict and stays as it was.
func (b *Builder) RefuseListener(l *Listener, reason Reason, message string) {
	l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, reason, message)
}

// RouteJudges are the implementations that judge the route (those of its
// Gateways; without one, the graph's default).
func (b *Builder) RouteJudges(route *Route) []*Judge { return b.g.routeJudgesOf(route) }

// routeJudges returns step T of every implementation that judges the route
// (routeJudgesOf), once each, when each of them takes part in that step;
// nil when one does not, which keeps the API's reading: an
// implementation-specific verdict is written only when all who judge the
// route agree on it.
func routeJudges[T Implementation](g *Graph, route *Route) []T {
	var judges []T
	for _, j := range g.routeJudgesOf(route) {
		judge, ok := j.steps.(T)
		if !ok {
			return nil
		}
		if !slices.ContainsFunc(judges, func(j T) bool { return j.Name() == judge.Name() }) {
			judges = append(judges, judge)
		}
	}
	return judges
}

// firstRouteJudge returns step T of the first implementation judging the
// route (routeJudgesOf) that takes part in that step, nil when none does,
// and whether all of them take part: for what one implementation reads
// that the others leave alone (an ExtensionRef filter of its kind).
func firstRouteJudge[T Implementation](g *Graph, route *Route) (first T, all bool) {
	all = true
	for _, j := range g.routeJudgesOf(route) {
		judge, ok := j.steps.(T)
		switch {
		case !ok:
			all = false
		case any(first) == nil:
			first = judge
		}
	}
	return first, all
}

// Decide records what impl decided about a result of the graph (about: a
// pointer to a rule's or a Gateway's result, which keys it) beyond the
// fields the core gives it, such as its verdict on its own kinds, for its
// package to expose (Graph.Decision). While a route's backendRefs
// resolve, a decision is about one of its rules: the Cache keeps those
// with the rules (keptBackends), and no other.
func (b *Builder) Decide(impl Implementation, about, decision any) {
	b.g.decide(impl.Name(), about, decision)
}

// decide records what the implementation named impl decided (Decide).
func (g *Graph) decide(impl string, about, decision any) {
	g.shared.Lock()
	defer g.shared.Unlock()
	g.decisions[decided{impl, about}] = decision
}

// Decision is what impl decided about a result of the graph
// (Builder.Decide), nil when nothing.
func (g *Graph) Decision(impl Implementation, about any) any {
	g.shared.Lock()
	defer g.shared.Unlock()
	return g.decisions[decided{impl.Name(), about}]
}

// decided keys an implementation's decisions: its name and what they are
// about.
type decided struct {
	impl  string
	about any
}

// HoldsAny reports whether the inputs hold any object of kind in namespace
// ns.
func (b *Builder) HoldsAny(kind, ns string) bool { return b.g.holdsAny(kind, ns) }

// DescribeAbsence says in words that an object a reference names is not
// among the inputs and how sure that is (the package's DescribeAbsence),
// with the name a misspelt reference was meant to give and the object that
// will create a generated one.
func (b *Builder) DescribeAbsence(ref ObjectRef, presence Presence) string {
	return b.g.describeAbsence(ref, presence)
}

// HandTo records that route from hands traffic to route to (route
// delegation: a backendRef an implementation reads as naming routes).
func (b *Builder) HandTo(from, to *Route) {
	b.g.shared.Lock()
	defer b.g.shared.Unlock()
	if !slices.Contains(b.g.handedBy[to], from) {
		b.g.handedBy[to] = append(b.g.handedBy[to], from)
	}
}

// orderHandOffs puts the routes handing each route traffic in the graph's
// order, whatever the order in which routes resolved in parallel called
// HandTo: a route hands traffic only while it is resolved, so this is the
// order resolving them one by one would give.
func (g *Graph) orderHandOffs() {
	for _, from := range g.handedBy {
		sort.Slice(from, func(i, j int) bool { return refLess(from[i].Ref, from[j].Ref) })
	}
}

// eachListenerJudge hands each listener to step T of its Gateway's
// implementation, when that takes part in the step.
func eachListenerJudge[T Implementation](g *Graph, judge func(T, *Listener)) {
	for l := range g.Listeners() {
		if l.Gateway == nil {
			continue
		}
		if j, ok := l.Gateway.Judge.steps.(T); ok {
			judge(j, l)
		}
	}
}

// judgedAllWith reports whether every implementation that judges the route
// has a fact: what an implementation-specific verdict needs before gwlint
// writes it (one that disagrees keeps the API's reading).
func (g *Graph) judgedAllWith(route *Route, fact func(*Judge) bool) bool {
	return !slices.ContainsFunc(g.routeJudgesOf(route), func(j *Judge) bool { return !fact(j) })
}

// MissingPortReporter reports a backendRef's port that the Service (or
// ServiceImport) it names lacks otherwise than the API's reading does. The
// API names no reason for it (BackendNotFound is for "a backendRef referring
// to a resource that does not exist"), and the core writes BackendNotFound;
// requests to such a backend fail however it is reported. The core asks every
// implementation that judges the route, and writes their report when they all
// take part and agree.
type MissingPortReporter interface {
	Implementation
	// ReportsMissingPort returns the route ResolvedRefs reason it writes
	// for the port, "" to keep BackendNotFound; and whether it does not
	// check ports at all, so that the route's ResolvedRefs says nothing of
	// it (BackendResult.Unreported).
	ReportsMissingPort() (reason Reason, unchecked bool)
}

// reportMissingPort writes a backendRef port its Service lacks as the
// implementations that judge the route report it, when they all agree
// (MissingPortReporter); else as the API's BackendNotFound (resolveBackend's
// verdict).
func (g *Graph) reportMissingPort(b *BackendResult, route *Route) {
	judges := routeJudges[MissingPortReporter](g, route)
	if len(judges) == 0 {
		return
	}
	reason, unchecked := judges[0].ReportsMissingPort()
	for _, j := range judges[1:] {
		if r, u := j.ReportsMissingPort(); r != reason || u != unchecked {
			return
		}
	}
	if reason != "" {
		b.Reason = reason
	}
	if unchecked {
		b.Unreported = true
		b.Message += fmt.Sprintf("; %s does not check ports, so the route's ResolvedRefs does not report it", g.routeJudgesOf(route)[0])
	}
}
