package profile

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// Choice chooses the profile that judges each Gateway of one set of inputs,
// and the profile of what no Gateway of the inputs serves (mesh routes,
// BackendTLSPolicies): the Default.
//
// With an implementation selected (--implementation), its profile judges
// everything. Without one, a Gateway whose GatewayClass is among the inputs
// is judged by the implementation whose controllerName the class names; one
// whose class is not, by the implementation that installs a class of that
// name itself (Istio's istio-waypoint, GKE's gke-l7-*); anything else by the
// Default, which is Everything unless the inputs' evidence names an
// implementation. The features removed with --without-features are removed
// from every profile the Choice gives.
//
// Inference: which implementation runs a Gateway when no GatewayClass is
// among the inputs (a GitOps repository installs its controller, and often
// the class, from a remote Helm chart) and neither the selection nor the
// implementation's own classes (Implementation.Classes) say. With
// GatewayClasses among the inputs, a Gateway naming another is of a class
// the inputs do not show, and nothing is inferred. Evidence, strongest
// first:
//
//  1. the Gateway's gatewayClassName is a name an implementation's
//     documentation gives its class (Implementation.ClassNames);
//  2. the world, the same for every Gateway: the objects of an API group
//     only one implementation serves (Implementation.Groups), the Helm
//     charts only one publishes that the inputs install
//     (Implementation.Charts), and the references of Gateway API objects to
//     kinds of an implementation's group (backendRefs, extensionRef filters,
//     parametersRefs, policy targets), which the caller hands to Evidence.
//
// The first that names one implementation decides; one that names several
// decides nothing, and the Gateway is judged by Everything. The world's
// evidence also chooses the Default. Each inference keeps its evidence,
// which gwlint (implementation-inferred) and gwctl explain print.
type Choice struct {
	selected *Profile
	without  []features.FeatureName
	def      *Profile
	// evidence is the world's, nil unless the Choice infers (Gather).
	evidence *Evidence
	inferred *Inference
}

// NewChoice chooses with selected (nil for no selection), less the
// features without.
func NewChoice(selected *Profile, without []features.FeatureName) *Choice {
	c := &Choice{selected: selected, without: without, def: selected}
	if c.def == nil {
		c.def = Everything
	}
	c.def = c.def.Without(without)
	return c
}

// Default is the profile of what no Gateway of the inputs serves, and of a
// Gateway no other evidence chooses for: the selected one, else the one the
// world's evidence names (Infer), else Everything.
func (c *Choice) Default() *Profile { return c.def }

// Gather starts inferring, when the Choice does (no implementation
// selected, and hasClasses false: no GatewayClass among the inputs), and
// returns the Evidence to hand what the inputs hold; nil when it does not
// infer.
func (c *Choice) Gather(hasClasses bool) *Evidence {
	if c.selected != nil || hasClasses {
		return nil
	}
	c.evidence = &Evidence{world: map[string]*evidence{}}
	return c.evidence
}

// Infer concludes what the world's Evidence says: the inference for what no
// Gateway of the inputs serves, which becomes the Default when it names one
// implementation; nil when the Choice does not infer or the world holds no
// evidence.
func (c *Choice) Infer() *Inference {
	if c.evidence == nil || len(c.evidence.world) == 0 {
		return nil
	}
	world := c.evidence.world
	names := slices.Sorted(maps.Keys(world))
	if len(names) == 1 {
		e := world[names[0]]
		c.inferred = &Inference{Profile: e.profile, Evidence: e.describe()}
		c.def = e.profile.Without(c.without)
		return c.inferred
	}
	c.inferred = &Inference{}
	for _, name := range names {
		c.inferred.Candidates = append(c.inferred.Candidates, name+" ("+strings.Join(world[name].describe(), ", ")+")")
	}
	return c.inferred
}

// Installed reports whether the GatewayClass named class is installed by
// its implementation itself, and so never missing: by the selected
// implementation, or by any when none is selected.
func (c *Choice) Installed(class string) bool { return c.installer(class) != nil }

// installer is the implementation that installs the GatewayClass named
// class itself (Installed), if any.
func (c *Choice) installer(class string) *Profile {
	if c.selected != nil {
		if c.selected.Installs(class) {
			return c.selected
		}
		return nil
	}
	return forClass(class)
}

// ForGateway chooses the profile of a Gateway (or of a GatewayClass's
// parameters) whose class is className; hasClass says the class is among
// the inputs, with controllerName. It returns the inference that chose the
// profile, nil when none did.
func (c *Choice) ForGateway(hasClass bool, controllerName, className string) (*Profile, *Inference) {
	var p *Profile
	switch {
	case c.selected != nil:
		return c.def, nil
	case hasClass:
		p = forController(controllerName)
	default:
		p = c.installer(className)
	}
	if p != nil {
		return p.Without(c.without), nil
	}
	if hasClass {
		return c.def, nil
	}
	in := c.inferClass(className)
	switch {
	case in == nil:
		return c.def, nil
	case in.Profile != nil:
		return in.Profile.Without(c.without), in
	default:
		return Everything.Without(c.without), in
	}
}

// inferClass infers the implementation of a Gateway whose GatewayClass,
// named class, is installed by no known implementation, when the Choice
// infers: by the class's name, else by the world's evidence. Nil when
// there is none.
func (c *Choice) inferClass(class string) *Inference {
	if c.evidence == nil {
		return nil
	}
	by := fmt.Sprintf("gatewayClassName %s (no GatewayClass among the inputs)", class)
	switch named := namingClass(class); len(named) {
	case 0:
		return c.inferred
	case 1:
		in := &Inference{Profile: named[0], Evidence: []string{by}}
		if e := c.evidence.world[named[0].Name]; e != nil {
			in.Evidence = append(in.Evidence, e.describe()...)
		}
		return in
	default:
		in := &Inference{}
		for _, p := range named {
			in.Candidates = append(in.Candidates, p.Name+" ("+by+")")
		}
		slices.Sort(in.Candidates)
		return in
	}
}

// Inference is the implementation inferred for a Gateway, or for what no
// Gateway of the inputs serves.
type Inference struct {
	// Profile is the inferred implementation's, nil when the evidence
	// names several (Candidates).
	Profile *Profile
	// Evidence says what the inference rests on, strongest first: the
	// GatewayClass names its documentation gives ("gatewayClassName NAME
	// (no GatewayClass among the inputs)"), objects of API groups only it
	// serves ("3 objects of GROUP").
	Evidence []string
	// Candidates are the implementations the evidence names when it names
	// several, sorted, each with its evidence ("NAME (2 objects of
	// GROUP)").
	Candidates []string
}

// String says what judges and why: "NAME@VERSION, inferred from ...", or
// "none inferred: the evidence names ..." and the candidates.
func (in *Inference) String() string {
	if in.Profile == nil {
		return "none inferred: the evidence names " + strings.Join(in.Candidates, " and ")
	}
	return in.Profile.String() + ", inferred from " + strings.Join(in.Evidence, " and ")
}

// Evidence gathers what the world says of the implementations that run the
// cluster (Choice.Gather).
type Evidence struct {
	world map[string]*evidence
}

// Objects records n objects of apiVersion: evidence of the implementation
// that alone serves its group.
func (e *Evidence) Objects(apiVersion string, n int) {
	group, _, ok := strings.Cut(apiVersion, "/")
	if p := owningGroup(group, false); ok && p != nil {
		e.of(p).objects[group] += n
	}
}

// Chart records a Helm chart the inputs install: evidence of the
// implementation that alone publishes it.
func (e *Evidence) Chart(chart string) {
	if p := owningChart(chart); p != nil {
		e.of(p).charts[chart] = true
	}
}

// Ref records a field of a Gateway API object (backendRef, extensionRef,
// parametersRef, targetRef) that refers to a kind of group: evidence of the
// implementation whose group it alone is.
func (e *Evidence) Ref(field, group, kind string) {
	if p := owningGroup(group, true); p != nil {
		e.of(p).refs[evidenceRef{field, group, kind}]++
	}
}

func (e *Evidence) of(p *Profile) *evidence {
	ev := e.world[p.Name]
	if ev == nil {
		ev = &evidence{profile: p, objects: map[string]int{}, charts: map[string]bool{}, refs: map[evidenceRef]int{}}
		e.world[p.Name] = ev
	}
	return ev
}

// evidence is what the world says of one implementation.
type evidence struct {
	profile *Profile
	// objects counts its objects by group; charts are its Helm charts the
	// inputs install; refs counts the references to its kinds.
	objects map[string]int
	charts  map[string]bool
	refs    map[evidenceRef]int
}

func (e *evidence) describe() []string {
	var out []string
	for _, group := range slices.Sorted(maps.Keys(e.objects)) {
		n := e.objects[group]
		out = append(out, fmt.Sprintf("%d %s of %s", n, nouns(n, "object"), group))
	}
	for _, chart := range slices.Sorted(maps.Keys(e.charts)) {
		out = append(out, "the Helm chart "+chart)
	}
	refs := slices.SortedFunc(maps.Keys(e.refs), func(a, b evidenceRef) int {
		return cmp.Or(cmp.Compare(a.field, b.field), cmp.Compare(a.group, b.group), cmp.Compare(a.kind, b.kind))
	})
	for _, r := range refs {
		n := e.refs[r]
		out = append(out, fmt.Sprintf("%d %s to kind %s of %s", n, nouns(n, r.field), r.kind, r.group))
	}
	return out
}

// evidenceRef is a field that refers to a kind of an implementation's
// group.
type evidenceRef struct{ field, group, kind string }

// nouns is noun for one, its plural for any other number n.
func nouns(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}
