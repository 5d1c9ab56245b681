package resolve

import (
	"cmp"
	"fmt"
	"iter"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/gwlint/gwlint/internal/parallel"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/internal/suggest"
	"github.com/gwlint/gwlint/resolve/placeholder"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Presence says whether a referenced object is among the inputs, and how
// sure that makes its absence. Inputs are usually part of a cluster, so an
// absent object is missing only on evidence: that the inputs hold all the
// objects of its kind in its namespace (see Graph.holdsAll), or that the
// reference misspells the name of one beside it (Graph.Misspelling);
// otherwise its absence is unknown, never an error.
type Presence int8

const (
	// NotLookedUp: the reference was refused before the target was looked
	// up (an unsupported kind, a cross-namespace ref without a grant).
	NotLookedUp Presence = iota
	// Present: the inputs hold the object.
	Present
	// Missing: the inputs hold all the objects of its kind in its namespace
	// (or StrictRefs is set) but not this one, or the reference is a slip
	// of the name of one they hold there: it does not exist.
	Missing
	// External: the inputs hold no object of that kind in the namespace; the
	// object is outside what gwlint was shown and is assumed to exist.
	External
	// Unlisted: the inputs hold other objects of that kind in the namespace
	// but not this one, and no evidence that they hold them all: it may be
	// defined elsewhere, or be a mistake. Assumed to exist, and worth a
	// warning.
	Unlisted
	// Unresolved: the reference's name, namespace, kind or group holds a
	// deploy-time placeholder (Flux's ${VAR}, an Argo CD plugin's
	// <path:...>; package placeholder), so which object it names is unknown
	// until substitution. Assumed to exist, silently.
	Unresolved
	// Generated: an object among the inputs will create it (a Certificate
	// its Secret, a Canary its Services; generated.go). It exists, and its
	// contents are unknown.
	Generated
)

func (p Presence) String() string {
	switch p {
	case Present:
		return "present"
	case Missing:
		return "missing"
	case External:
		return "external"
	case Unlisted:
		return "unlisted"
	case Unresolved:
		return "unknown"
	case Generated:
		return "generated"
	default:
		return "not looked up"
	}
}

// Known reports whether the inputs decide the object's existence.
func (p Presence) Known() bool { return p == Present || p == Missing }

// Condition is a status condition as a controller would write it.
type Condition struct {
	Type    string                 `json:"type"`
	Status  metav1.ConditionStatus `json:"status"`
	Reason  Reason                 `json:"reason"`
	Message string                 `json:"message"`
}

// True reports whether the condition's status is True.
func (c Condition) True() bool { return c.Status == metav1.ConditionTrue }

func condition(typ string, ok bool, reason Reason, message string) Condition {
	status := metav1.ConditionFalse
	if ok {
		status = metav1.ConditionTrue
	}
	return Condition{Type: typ, Status: status, Reason: reason, Message: message}
}

// Graph is the resolved object graph. It is read-only once Resolve returns.
type Graph struct {
	opts Options

	// Objects are all loaded objects in read order.
	Objects []Object
	// unreached: the objects are files no deployer reaches
	// (Inputs.Unreached).
	unreached bool
	// Duplicates lists objects whose kind/namespace/name an earlier object
	// already defined. The last definition is the one resolved: applied in
	// read order (kubectl apply -f DIR), it is the one the cluster keeps.
	Duplicates []Duplicate

	GatewayClasses []*GatewayClassResult
	Gateways       []*GatewayResult     // sorted by namespace/name
	ListenerSets   []*ListenerSetResult // sorted by namespace/name
	Routes         []*RouteResult       // sorted by kind, namespace/name
	Services       []*ServiceResult     // sorted by namespace/name
	Grants         []*ReferenceGrant
	TLSPolicies    []*BackendTLSPolicyResult // sorted by namespace/name
	// Policies are every policy (GEP-713) among the inputs, the
	// BackendTLSPolicies included, sorted by kind (qualified),
	// namespace/name (policies.go).
	Policies []*PolicyResult
	// Shadows are matches that an identical match of higher precedence on
	// the same listener and hostname keeps from ever receiving traffic.
	Shadows []Shadow
	// CRDBundles are the Gateway API releases the inputs install
	// (Inputs.InstallingCRDs), in read order.
	CRDBundles []CRDBundle
	// FeatureGaps are the feature uses (Features) that the judging
	// profile does not support (features.go).
	FeatureGaps []FeatureGap
	features    func() []FeatureUse
	// problemBackends are the backendRefs with a problem, found on the
	// first call of ProblemBackends.
	problemBackends func() []RouteBackend

	// choice chooses the profile of each Gateway; defaultJudge judges with
	// its Default what no Gateway of the inputs serves, once the world's
	// evidence is in (inferWorld). judges are the Judges by profile
	// (judgeFor).
	choice       *profile.Choice
	defaultJudge *Judge
	judges       map[*profile.Profile]*Judge
	// judgedAt is the instant certificates' validity is judged at, the
	// one verdict of the graph that time changes (HoldsNow).
	judgedAt time.Time
	// cache is what Cache.Resolve reuses, while resolving; nil otherwise.
	cache *Cache
	// inWorld is what the cache knows the graph is resolved from besides
	// its routes, while resolving; nil without a cache.
	inWorld *keptWorld
	// Inferred is the implementation the world's evidence names
	// (profile.Choice), which judges what no Gateway of the inputs serves
	// and each Gateway whose GatewayClass is unknown and unnamed; nil
	// without evidence or with --implementation.
	Inferred *profile.Inference

	// objects index the inputs by kind and namespace, then by name (the
	// last definition of each): which pairs the inputs hold any object of
	// tells Unlisted and External apart, and the names a misspelt
	// reference. Two levels, because one map keyed by the whole ObjectRef
	// costs twice the memory, and a repository's objects number hundreds
	// of thousands.
	objects map[kindNS]map[string]Object
	// createdNames are the names creators among the inputs will give
	// objects of each kind and namespace, for telling a misspelt reference.
	createdNames map[kindNS][]string
	// creations are the objects that objects among the inputs will create
	// (generated.go), by identity, with an empty namespace for those made
	// in any namespace; prefixes those made under a name prefix.
	creations map[ObjectRef]*Generation
	prefixes  map[kindNS][]prefixCreation
	gateways  map[ObjectRef]*GatewayResult
	lsets     map[ObjectRef]*ListenerSetResult
	grantsIn  map[string][]*ReferenceGrant // by namespace
	routesIn  map[kindNS][]*RouteResult    // by kind and namespace, in the graph's order
	// judgesOf are the Judges of each route (routeJudgesOf), kept while
	// Resolve runs from resolveRoutes on, when every Gateway has its Judge.
	judgesOf map[*Route][]*Judge
	// handedBy are, for each route, the routes that hand it traffic
	// (Builder.HandTo).
	handedBy map[*Route][]*Route
	// reachesOf are the policies reaching each object
	// (PoliciesReaching).
	reachesOf map[ObjectRef][]*PolicyReach
	// selectors are the listeners' namespace selectors, parsed
	// (labelSelector).
	selectors sync.Map
	// decisions are what implementations decided beyond the core's
	// results (Builder.Decide).
	decisions map[decided]any
	// shared guards handedBy and decisions, which the steps of routes
	// resolved in parallel write (resolveRoutes).
	shared sync.Mutex
}

// Duplicate is an object defined again after First; Resolved is the
// definition the graph holds, the last of them all.
type Duplicate struct {
	First, Again, Resolved Object
	// Same is set when Again is written as First is (field for field,
	// whatever the order or layout): applying both changes nothing, as
	// when two example files each carry the same Gateway.
	Same bool
	// Previous is the definition that Again is known to repeat: First;
	// of files no deployer reaches (Inputs.Unreached), the last one in
	// Again's directory, nil when none is (one cluster's bootstrap Secret
	// and another's are not applied together).
	Previous Object
}

// sameDocument reports whether two objects were written with the same
// fields and values.
func sameDocument(a, b *Meta) bool {
	return a.digest != (documentDigest{}) && a.digest == b.digest
}

type kindNS struct{ kind, ns string }

// Resolve builds the graph from loaded inputs and decides every attachment,
// reference and traffic split.
func Resolve(in *Inputs, opts Options) *Graph { return resolveWith(in, opts, nil) }

// resolveWith is Resolve with a Cache (nil for none).
func resolveWith(in *Inputs, opts Options, cache *Cache) *Graph {
	g := &Graph{
		cache:        cache,
		opts:         opts,
		choice:       profile.NewChoice(opts.Implementation, opts.WithoutFeatures),
		judges:       map[*profile.Profile]*Judge{},
		judgedAt:     opts.now(),
		Objects:      in.Objects,
		unreached:    in.Unreached,
		CRDBundles:   in.InstallingCRDs(),
		objects:      map[kindNS]map[string]Object{},
		createdNames: map[kindNS][]string{},
		creations:    map[ObjectRef]*Generation{},
		prefixes:     map[kindNS][]prefixCreation{},
		gateways:     map[ObjectRef]*GatewayResult{},
		lsets:        map[ObjectRef]*ListenerSetResult{},
		grantsIn:     map[string][]*ReferenceGrant{},
		handedBy:     map[*Route][]*Route{},
		decisions:    map[decided]any{},
	}
	g.inWorld = cache.world(in, opts)
	g.index()
	g.inferWorld(in.Skipped, in.HelmCharts)
	g.indexCreations(in.Creators)
	b := &Builder{g: g}
	g.resolveGatewayClasses(b)
	g.resolveGateways(b)
	g.resolveRoutes(b)
	g.resolveMesh()
	g.countAttachments()
	g.resolveBackendTLSPolicies(b)
	g.resolvePolicies()
	g.findShadows()
	g.judgeOverlaps(b)
	g.finishGateways(b)
	g.findFeatures()
	g.problemBackends = sync.OnceValue(g.findProblemBackends)
	// The graph is read-only from here: a Builder kept past Resolve has no
	// graph to write to, and routeJudgesOf keeps no more.
	b.g, g.judgesOf, g.cache, g.inWorld = nil, nil, nil, nil
	return g
}

func (g *Graph) index() {
	// Few objects are defined twice: only theirs are remembered by first
	// definition, not every object's.
	defined := map[ObjectRef]bool{}
	// Counted first, the maps and the results of the many routes and
	// Services are allocated once, at their size, rather than grown.
	counts := map[kindNS]int{}
	routes, services := 0, 0
	for _, obj := range g.Objects {
		ref := obj.Metadata().Ref
		counts[kindNS{ref.Kind, ref.Namespace}]++
		switch obj.(type) {
		case *Route:
			routes++
		case *Service:
			services++
		}
	}
	routeResults, serviceResults := make([]RouteResult, 0, routes), make([]ServiceResult, 0, services)
	g.Routes, g.Services = make([]*RouteResult, 0, routes), make([]*ServiceResult, 0, services)
	for _, obj := range g.Objects {
		ref := obj.Metadata().Ref
		key := kindNS{ref.Kind, ref.Namespace}
		byName := g.objects[key]
		if byName == nil {
			byName = make(map[string]Object, counts[key])
			g.objects[key] = byName
		}
		if _, again := byName[ref.Name]; again {
			defined[ref] = true
		}
		byName[ref.Name] = obj // the last definition wins
	}
	// Of the files no deployer reaches, only those of one directory are
	// known to be applied together (Inputs.Unreached).
	type inDir struct {
		ref ObjectRef
		dir string
	}
	first := make(map[ObjectRef]Object, len(defined))
	var last map[inDir]Object
	if g.unreached {
		last = map[inDir]Object{}
	}
	for _, obj := range g.Objects {
		m := obj.Metadata()
		if defined[m.Ref] { // else obj is the one definition, and resolved
			resolved, _ := g.object(m.Ref)
			if f, dup := first[m.Ref]; dup {
				d := Duplicate{First: f, Again: obj, Resolved: resolved, Previous: f}
				if last != nil {
					d.Previous = last[inDir{m.Ref, filepath.Dir(m.Source.File)}]
				}
				d.Same = d.Previous != nil && sameDocument(d.Previous.Metadata(), m)
				g.Duplicates = append(g.Duplicates, d)
			} else {
				first[m.Ref] = obj
			}
			if last != nil {
				last[inDir{m.Ref, filepath.Dir(m.Source.File)}] = obj
			}
			if resolved != obj {
				continue
			}
		}
		switch o := obj.(type) {
		case *GatewayClass:
			g.GatewayClasses = append(g.GatewayClasses, &GatewayClassResult{GatewayClass: o})
		case *Gateway:
			gr := &GatewayResult{Gateway: o}
			g.Gateways = append(g.Gateways, gr)
			g.gateways[m.Ref] = gr
		case *ListenerSet:
			ls := &ListenerSetResult{ListenerSet: o}
			g.ListenerSets = append(g.ListenerSets, ls)
			g.lsets[m.Ref] = ls
		case *Route:
			routeResults = append(routeResults, RouteResult{Route: o})
			g.Routes = append(g.Routes, &routeResults[len(routeResults)-1])
		case *Service:
			serviceResults = append(serviceResults, ServiceResult{Service: o})
			g.Services = append(g.Services, &serviceResults[len(serviceResults)-1])
		case *ReferenceGrant:
			g.Grants = append(g.Grants, o)
			g.grantsIn[m.Ref.Namespace] = append(g.grantsIn[m.Ref.Namespace], o)
		case *BackendTLSPolicy:
			g.TLSPolicies = append(g.TLSPolicies, &BackendTLSPolicyResult{BackendTLSPolicy: o})
		case PolicyObject:
			// An implementation's kind read whole or in part is a policy
			// only with target references (Istio's selector form has none).
			if sel, ok := o.(TargetSelectingPolicy); len(o.PolicyTargetRefs()) > 0 || ok && sel.SelectsTargets() {
				group, _ := splitAPIVersion(m.APIVersion)
				g.Policies = append(g.Policies, &PolicyResult{Object: o, Ref: m.Ref, Group: group, Kind: unqualifiedKind(m.Ref.Kind)})
			}
		}
	}
	// The lists are sorted side by side: routes and Services are
	// thousands each.
	sorts := []func(){
		func() {
			sort.Slice(g.GatewayClasses, func(i, j int) bool { return g.GatewayClasses[i].Ref.Name < g.GatewayClasses[j].Ref.Name })
			sort.Slice(g.Gateways, func(i, j int) bool { return refLess(g.Gateways[i].Ref, g.Gateways[j].Ref) })
			sort.Slice(g.ListenerSets, func(i, j int) bool { return refLess(g.ListenerSets[i].Ref, g.ListenerSets[j].Ref) })
			sort.Slice(g.Grants, func(i, j int) bool { return refLess(g.Grants[i].Ref, g.Grants[j].Ref) })
			sort.Slice(g.TLSPolicies, func(i, j int) bool { return refLess(g.TLSPolicies[i].Ref, g.TLSPolicies[j].Ref) })
			sort.Slice(g.Policies, func(i, j int) bool { return refLess(g.Policies[i].Ref, g.Policies[j].Ref) })
		},
		func() {
			sort.Slice(g.Routes, func(i, j int) bool { return refLess(g.Routes[i].Ref, g.Routes[j].Ref) })
			g.routesIn = map[kindNS][]*RouteResult{}
			for _, r := range g.Routes {
				key := kindNS{r.Ref.Kind, r.Ref.Namespace}
				g.routesIn[key] = append(g.routesIn[key], r)
			}
		},
		func() {
			sort.Slice(g.Services, func(i, j int) bool { return refLess(g.Services[i].Ref, g.Services[j].Ref) })
		},
	}
	parallel.For(len(sorts), func(i int) { sorts[i]() })
}

// HoldsNow reports whether the graph's verdicts hold now (Options.Now,
// else the clock) as when it was made: time changes only whether a
// certificate is valid yet, or still. A server that serves a graph again
// for unchanged inputs asks it first.
func (g *Graph) HoldsNow() bool {
	now := g.opts.now()
	for _, obj := range g.Objects {
		if s, ok := obj.(*Secret); ok && s.Certificate != nil && s.Certificate.ValidityProblem(now) != s.Certificate.ValidityProblem(g.judgedAt) {
			return false
		}
	}
	return true
}

func refLess(a, b ObjectRef) bool {
	if a.Kind != b.Kind {
		return a.Kind < b.Kind
	}
	if a.Namespace != b.Namespace {
		return a.Namespace < b.Namespace
	}
	return a.Name < b.Name
}

// Lookup returns the object with the given identity and whether the inputs
// hold it, or how sure its absence is.
func (g *Graph) Lookup(ref ObjectRef) (Object, Presence) {
	if obj, ok := g.object(ref); ok {
		return obj, Present
	}
	if holdsPlaceholder(ref.Namespace) || holdsPlaceholder(ref.Name) || holdsPlaceholder(ref.Kind) {
		return nil, Unresolved
	}
	// What an object will create; what it may create (a Helm release's
	// Services) yields to a misspelling of an object beside it.
	if gen := g.createdBy(ref); gen != nil && (!gen.Maybe || g.Misspelling(ref) == "") {
		return nil, Generated
	}
	seen := g.holdsAny(ref.Kind, ref.Namespace)
	switch {
	case !g.opts.reads(ref.Kind):
		return nil, External // gwlint does not read that kind: even --strict-refs cannot tell
	case g.opts.StrictRefs || g.holdsAll(ref.Namespace) || g.Misspelling(ref) != "":
		return nil, Missing
	case g.releaseIn(ref) != nil:
		// Not owned: a release gwlint does not render may create it.
		return nil, Generated
	case seen:
		return nil, Unlisted
	}
	// A cluster-scoped or namespaced kind the inputs hold nowhere at all is
	// just as external as one they hold in other namespaces.
	return nil, External
}

// object returns the object with the given identity, if the inputs hold
// it.
func (g *Graph) object(ref ObjectRef) (Object, bool) {
	obj, ok := g.objects[kindNS{ref.Kind, ref.Namespace}][ref.Name]
	return obj, ok
}

// holdsAny reports whether the inputs hold any object of kind in namespace
// ns.
func (g *Graph) holdsAny(kind, ns string) bool {
	_, ok := g.objects[kindNS{kind, ns}]
	return ok
}

// holdsPlaceholder reports whether a name, namespace, hostname or section
// name holds a deploy-time placeholder. '<' and '>' never belong in those,
// so argocd-vault-plugin's generic <key> counts everywhere here: on an
// object without its annotation, CRD validation reports the value anyway.
func holdsPlaceholder(s string) bool { return placeholder.All.Contains(s) }

// kindUnknown reports whether a reference's group or kind holds a
// deploy-time placeholder (`kind: ${KIND:-HTTPRoute}`): which kind it names,
// and so whether the field may name it, is unknown until substitution.
func kindUnknown(group, kind string) bool { return holdsPlaceholder(group) || holdsPlaceholder(kind) }

// placeholderKind says so, for messages.
func placeholderKind(group, kind string) string {
	gk := groupKind(group, kind)
	return "kind " + gk + " " + placeholder.All.Why(gk)
}

// unknownKindMessage is the message of a reference to an object of such a
// kind.
func unknownKindMessage(group, kind string) string {
	return placeholderKind(group, kind) + ": which object it names is unknown"
}

// holdsAll reports whether the inputs hold every object of namespace ns,
// so that one they lack there does not exist: Options.OwnedNamespaces says
// so. The Namespace object among the inputs is no evidence, even beside
// objects of the kind: a GitOps repository declares the namespace and its
// Services while cert-manager, external-secrets or a Helm chart it does not
// render makes the rest, and examples declare namespaces whose Services
// their tests create.
func (g *Graph) holdsAll(ns string) bool {
	if ns == "" {
		return false // cluster-scoped: only StrictRefs decides
	}
	for _, pattern := range g.opts.OwnedNamespaces {
		if ok, _ := path.Match(pattern, ns); ok {
			return true
		}
	}
	return false
}

// Misspelling returns the name ref was meant to give when the inputs hold
// no object of that name but hold, or will create, one of its kind and
// namespace a slip of the keyboard away (suggest.Misspelt: "sharde" for
// "shared", never store-3 for store-1). A controller refuses the reference
// as it refuses any to an object that does not exist, so the name is as
// good evidence as an owned namespace: the reference is Missing.
func (g *Graph) Misspelling(ref ObjectRef) string {
	key := kindNS{ref.Kind, ref.Namespace}
	held := g.objects[key]
	if _, ok := held[ref.Name]; ok {
		return ""
	}
	return suggest.Misspelt(ref.Name, func(yield func(string) bool) {
		for name := range held {
			if !yield(name) {
				return
			}
		}
		for _, name := range g.createdNames[key] {
			if !yield(name) {
				return
			}
		}
	})
}

// describeAbsence is DescribeAbsence, with the name a misspelt reference
// was meant to give and the object that will create a generated one.
func (g *Graph) describeAbsence(ref ObjectRef, presence Presence) string {
	if presence == Generated {
		if gen := g.GeneratedBy(ref); gen != nil {
			return gen.Describe(ref)
		}
	}
	return DescribeAbsence(ref, presence) + g.didYouMean(ref, presence)
}

// didYouMean is "; did you mean "name"?" for a Missing reference that
// misspells name, else "".
func (g *Graph) didYouMean(ref ObjectRef, presence Presence) string {
	if presence != Missing {
		return ""
	}
	if meant := g.Misspelling(ref); meant != "" {
		return fmt.Sprintf("; did you mean %q?", meant)
	}
	return ""
}

// DescribeAbsence says in words that an object is not among the inputs and
// how sure that is, for a reference whose Lookup gave presence. A Missing
// object is "not found", as a controller would say.
func DescribeAbsence(ref ObjectRef, presence Presence) string {
	what := ref.Kind + " " + ref.NamespacedName()
	switch presence {
	case Missing:
		return what + " not found"
	case Unresolved:
		return fmt.Sprintf("%s %s: which object it names is unknown", what, placeholder.All.Why(ref.Kind+" "+ref.Namespace+"/"+ref.Name))
	case Unlisted:
		others := "other " + plural(ref.Kind)
		if ref.Namespace != "" {
			others += " in namespace " + ref.Namespace
		}
		return fmt.Sprintf("%s is not among the inputs, which hold %s: it may be defined elsewhere", what, others)
	}
	return what + " is outside the inputs"
}

// nouns is noun for one, its plural for any other number n.
func nouns(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// plural is the plural of a kind: "Services", "GatewayClasses".
func plural(kind string) string {
	if strings.HasSuffix(kind, "s") {
		return kind + "es"
	}
	return kind + "s"
}

// undecidedCondition is a condition whose status depends on objects the
// inputs do not hold: Unknown, with the API's reason for a condition not yet
// decided.
func undecidedCondition(typ, message string) Condition {
	return Condition{Type: typ, Status: metav1.ConditionUnknown, Reason: ReasonPending, Message: message}
}

// Gateway returns the resolved Gateway ns/name, if the inputs hold it.
func (g *Graph) Gateway(ns, name string) *GatewayResult {
	return g.gateways[ObjectRef{Kind: KindGateway, Namespace: ns, Name: name}]
}

// Profile is the profile that judges what no Gateway of the inputs serves
// (profile.Choice's Default).
func (g *Graph) Profile() *profile.Profile { return g.defaultJudge.Profile }

// Listeners yields every listener of every Gateway, then of every
// ListenerSet, in the graph's order: by owner, then as written.
func (g *Graph) Listeners() iter.Seq[*Listener] {
	return func(yield func(*Listener) bool) {
		for _, gw := range g.Gateways {
			for _, l := range gw.Listeners {
				if !yield(l) {
					return
				}
			}
		}
		for _, ls := range g.ListenerSets {
			for _, l := range ls.Listeners {
				if !yield(l) {
					return
				}
			}
		}
	}
}

// ListenerSet returns the resolved ListenerSet ns/name, if the inputs hold it.
func (g *Graph) ListenerSet(ns, name string) *ListenerSetResult {
	return g.lsets[ObjectRef{Kind: KindListenerSet, Namespace: ns, Name: name}]
}

// Service returns the resolved Service ns/name, if the inputs hold it.
func (g *Graph) Service(ns, name string) *ServiceResult {
	// g.Services is sorted by namespace and name: a search costs less than
	// a map of every Service would in memory.
	i, found := slices.BinarySearchFunc(g.Services, ObjectRef{Namespace: ns, Name: name}, func(s *ServiceResult, ref ObjectRef) int {
		return cmp.Or(strings.Compare(s.Ref.Namespace, ref.Namespace), strings.Compare(s.Ref.Name, ref.Name))
	})
	if !found {
		return nil
	}
	return g.Services[i]
}

// RoutesHandingTo returns the routes that hand route traffic by their
// backendRefs, in the graph's order: route delegation, where an
// implementation reads a backendRef as naming routes. A route handed
// traffic needs no parentRef of its own.
func (g *Graph) RoutesHandingTo(route *Route) []*Route { return g.handedBy[route] }

// RoutesIn returns the routes of a kind (KindHTTPRoute, ...) in a
// namespace, in the graph's order.
func (g *Graph) RoutesIn(kind, namespace string) []*RouteResult {
	return g.routesIn[kindNS{kind, namespace}]
}

// FindRoutes returns the routes named name in namespace ns (all namespaces
// when ns is empty), of the given kind (any route kind when empty).
func (g *Graph) FindRoutes(kind, ns, name string) []*RouteResult {
	var out []*RouteResult
	for _, r := range g.Routes {
		if r.Ref.Name == name && (ns == "" || r.Ref.Namespace == ns) && (kind == "" || r.Kind() == kind) {
			out = append(out, r)
		}
	}
	return out
}

// namespaceLabels returns the labels of namespace ns: its Namespace object's
// when the inputs hold it, else only the label the API server always sets.
func (g *Graph) namespaceLabels(ns string) (KeyValues, Presence) {
	obj, presence := g.Lookup(ObjectRef{Kind: KindNamespace, Name: ns})
	if obj != nil {
		return obj.Metadata().Labels, Present
	}
	return KeyValues{{NamespaceNameLabel, ns}}, presence
}
