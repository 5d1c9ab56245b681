package resolve

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gwlint/gwlint/resolve/profile"
)

// Implementation inference: which implementation runs a Gateway when no
// GatewayClass is among the inputs (a GitOps repository installs its
// controller, and often the class, from a remote Helm chart) and neither
// --implementation nor the implementation's own classes (profile.Installs)
// say. With GatewayClasses among the inputs, a Gateway naming another is of
// a class the inputs do not show, and nothing is inferred. Evidence,
// strongest first:
//
//  1. the Gateway's gatewayClassName is a name an implementation's
//     documentation gives its class (profile.NamingClass);
//  2. the world, the same for every Gateway: the objects of an API group
//     only one implementation serves (profile.OwningGroup), the Helm
//     charts only one publishes that the inputs install
//     (Options.HelmChart, profile.OwningChart), and the references of
//     Gateway API objects to kinds of an implementation's group
//     (backendRefs, extensionRef filters, parametersRefs, policy
//     targets).
//
// The first that names one implementation decides; one that names several
// decides nothing, and the Gateway is judged by no implementation's profile
// (profile.Everything). The world's evidence also chooses the profile of
// what no Gateway of the inputs serves. Each inference keeps its evidence,
// which gwlint (implementation-inferred) and gwctl explain print.

// Inference is the implementation inferred for a Gateway, or for what no
// Gateway of the inputs serves (Graph.Inferred).
type Inference struct {
	// Profile is the inferred implementation's, nil when the evidence
	// names several (Candidates).
	Profile *profile.Profile
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

// evidence is what the world says of one implementation.
type evidence struct {
	profile *profile.Profile
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

// inferWorld gathers the world's evidence and sets Graph.Inferred and the
// profile of what no Gateway serves. skipped are the documents of kinds
// gwlint does not model, by "apiVersion Kind" (Inputs.Skipped); charts the
// Helm charts the inputs install (Inputs.HelmCharts).
func (g *Graph) inferWorld(skipped map[string]int, charts []string) {
	if g.opts.Implementation != nil || len(g.GatewayClasses) > 0 {
		return
	}
	g.inferring = true
	world := map[string]*evidence{}
	of := func(p *profile.Profile) *evidence {
		e := world[p.Name]
		if e == nil {
			e = &evidence{profile: p, objects: map[string]int{}, charts: map[string]bool{}, refs: map[evidenceRef]int{}}
			world[p.Name] = e
		}
		return e
	}
	object := func(apiVersion string, n int) {
		group, _, ok := strings.Cut(apiVersion, "/")
		if p := profile.OwningGroup(group, false); ok && p != nil {
			of(p).objects[group] += n
		}
	}
	ref := func(field, group, kind string) {
		if p := profile.OwningGroup(group, true); p != nil {
			of(p).refs[evidenceRef{field, group, kind}]++
		}
	}
	for key, n := range skipped {
		apiVersion, _, _ := strings.Cut(key, " ")
		object(apiVersion, n)
	}
	for _, chart := range charts {
		if p := profile.OwningChart(chart); p != nil {
			of(p).charts[chart] = true
		}
	}
	for _, obj := range g.Objects {
		m := obj.Metadata()
		object(m.APIVersion, 1)
		switch o := obj.(type) {
		case *Gateway:
			if infra := o.Spec.Infrastructure; infra != nil && infra.ParametersRef != nil {
				ref("parametersRef", string(infra.ParametersRef.Group), string(infra.ParametersRef.Kind))
			}
		case *Route:
			for _, rule := range o.Rules {
				for _, b := range rule.BackendRefs {
					ref("backendRef", string(*b.Group), string(*b.Kind))
				}
			}
			if o.HTTP != nil {
				for _, rule := range o.HTTP.Rules {
					for _, f := range rule.Filters {
						if f.ExtensionRef != nil {
							ref("extensionRef", string(f.ExtensionRef.Group), string(f.ExtensionRef.Kind))
						}
					}
				}
			}
		case *BackendTLSPolicy:
			for _, t := range o.Spec.TargetRefs {
				ref("targetRef", string(t.Group), string(t.Kind))
			}
		}
	}
	names := make([]string, 0, len(world))
	for name := range world {
		names = append(names, name)
	}
	sort.Strings(names)
	switch len(names) {
	case 0:
		return
	case 1:
		e := world[names[0]]
		g.Inferred = &Inference{Profile: e.profile, Evidence: e.describe()}
		g.profile = e.profile.Without(g.opts.WithoutFeatures)
	default:
		in := &Inference{}
		for _, name := range names {
			in.Candidates = append(in.Candidates, name+" ("+strings.Join(world[name].describe(), ", ")+")")
		}
		g.Inferred = in
	}
	g.world = world
}

// inferGateway infers the implementation of a Gateway whose GatewayClass,
// named class, is installed by no known implementation, when no
// GatewayClass is among the inputs: by the class's name, else by the
// world's evidence. Nil when there is none.
func (g *Graph) inferGateway(class string) *Inference {
	if !g.inferring {
		return nil
	}
	by := fmt.Sprintf("gatewayClassName %s (no GatewayClass among the inputs)", class)
	switch named := profile.NamingClass(class); len(named) {
	case 0:
		return g.Inferred
	case 1:
		in := &Inference{Profile: named[0], Evidence: []string{by}}
		if e := g.world[named[0].Name]; e != nil {
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
