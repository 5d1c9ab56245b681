package fidelity

import (
	"cmp"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/gwlint/gwlint/internal/statusdiff"
)

// Scope says which part of an object an outcome belongs to.
type Scope string

const (
	ScopeGateway             Scope = "Gateway"
	ScopeListener            Scope = "Gateway listener"
	ScopeListenerSet         Scope = "ListenerSet"
	ScopeListenerSetListener Scope = "ListenerSet listener"
	ScopeRouteParent         Scope = "route parent"
	ScopePolicyAncestor      Scope = "BackendTLSPolicy ancestor"
	// ScopeImplementationPolicyAncestor is an ancestor of one of the
	// implementation's own policies (Envoy Gateway's
	// BackendTrafficPolicy, ...), tallied apart (Result.SplitPolicies).
	ScopeImplementationPolicyAncestor Scope = "policy ancestor"
)

// Values an outcome takes besides "Status/Reason".
const (
	// Absent: the entry (object, listener, parent) is there but does not
	// carry this condition type.
	Absent = "absent"
	// NoStatus: the side wrote no entry at all for this object, listener
	// or parent.
	NoStatus = "no status"
)

// Outcome is one decision a controller writes: one condition type of an
// object, of one of its listeners or of one route parent; or, with Detail,
// a listener's attachedRoutes or supportedKinds.
type Outcome struct {
	Case   string
	Object string // "HTTPRoute ns/name"
	Scope  Scope
	Where  string // listener name or parentRef key; "" for the object itself
	Type   string // condition type, or "attachedRoutes", "supportedKinds"
	Want   string // "False/NotAllowedByListeners", Absent, NoStatus, "2", ...
	Got    string
	// NonTrivial: Want differs from "everything accepted" (Accepted,
	// ResolvedRefs, Programmed True; Conflicted and other negative types
	// False or absent).
	NonTrivial bool
	// Detail marks attachedRoutes and supportedKinds, tallied apart from
	// conditions.
	Detail bool
	// Refused is the first CRD violation of the object, when the API
	// server would refuse it: no controller could ever write its status,
	// so the outcome is left out of the agreement.
	Refused string
	// Environment says why the project's value depends on its test's
	// environment rather than on its inputs (an object the test harness
	// lacks where a cluster has it): left out of the agreement too.
	Environment string
}

// Agree reports whether gwctl predicted what the project expects.
func (o *Outcome) Agree() bool { return o.Want == o.Got }

// Category is what groups a disagreement with others of its kind.
func (o *Outcome) Category() string {
	return fmt.Sprintf("%s %s: want %s, got %s", o.Scope, o.Type, o.Want, o.Got)
}

func (o *Outcome) String() string {
	where := o.Object
	if o.Where != "" {
		where += " [" + o.Where + "]"
	}
	return o.Case + ": " + where
}

// positive condition types are "all fine" when True; every other type
// (Conflicted, PartiallyInvalid, OverlappingTLSConfig, ...) when False.
var positive = map[string]bool{"Accepted": true, "ResolvedRefs": true, "Programmed": true, "Ready": true}

// fine reports whether a condition value means "everything accepted". A
// condition that is absent from an entry says nothing is wrong; an entry
// that is not written at all is an outcome of its own (the controller
// ignored the object or parent).
func fine(typ, value string) bool {
	switch value {
	case Absent:
		return true
	case NoStatus:
		return false
	}
	status, _, _ := strings.Cut(value, "/")
	if positive[typ] {
		return status == "True"
	}
	return status == "False"
}

// Compare returns the outcomes of one case: every condition type the
// implementation writes for an object, listener or parent, except one it
// writes as "all fine" that gwctl does not write at all; an entry either
// side does not write at all is compared as NoStatus. Route parents are compared only where
// controllers write them; objects must already be restricted to the
// implementation's own.
func Compare(caseName string, want, got []*statusdiff.Object, controllers []string) []Outcome {
	c := comparer{caseName: caseName}
	// The project's expected status is the old side of each pair, gwctl's
	// the new.
	for _, op := range statusdiff.PairObjects(relevant(want, controllers), relevant(got, controllers)) {
		kind := cmp.Or(op.Old, op.New).Kind
		for _, p := range statusdiff.Pairs(op.Old, op.New) {
			scope := scopeOf(kind, p.Place)
			c.conds(op.ID, scope, p)
			if p.Place == statusdiff.Listener && p.Old != nil && p.New != nil {
				c.listenerDetails(op.ID, scope, p.Name, p.Old.Listener, p.New.Listener)
			}
		}
	}
	return c.out
}

type comparer struct {
	caseName string
	out      []Outcome
}

// relevant keeps the objects that say anything: a route with no parent
// written by the implementation's controllers, or an object with an empty
// status, has no outcomes.
func relevant(objs []*statusdiff.Object, controllers []string) []*statusdiff.Object {
	var out []*statusdiff.Object
	for _, o := range objs {
		if len(o.Status.Parents)+len(o.Status.Ancestors) > 0 {
			kept := *o
			kept.Status.Parents, kept.Status.Ancestors = nil, nil
			for _, p := range o.Status.Parents {
				if slices.Contains(controllers, p.ControllerName) {
					kept.Status.Parents = append(kept.Status.Parents, p)
				}
			}
			for _, a := range o.Status.Ancestors {
				if slices.Contains(controllers, a.ControllerName) {
					kept.Status.Ancestors = append(kept.Status.Ancestors, a)
				}
			}
			o = &kept
		}
		if len(o.Status.Conditions)+len(o.Status.Listeners)+len(o.Status.Parents)+len(o.Status.Ancestors) == 0 {
			continue
		}
		out = append(out, o)
	}
	return out
}

// scopeOf names the place of an entry in a status of kind.
func scopeOf(kind string, place statusdiff.Place) Scope {
	switch {
	case place == statusdiff.Parent:
		return ScopeRouteParent
	case place == statusdiff.Ancestor && kind == "BackendTLSPolicy":
		return ScopePolicyAncestor
	case place == statusdiff.Ancestor:
		return ScopeImplementationPolicyAncestor
	case kind == "ListenerSet" && place == statusdiff.Listener:
		return ScopeListenerSetListener
	case kind == "ListenerSet":
		return ScopeListenerSet
	case place == statusdiff.Listener:
		return ScopeListener
	}
	return ScopeGateway
}

// listenerDetails compares what a listener says besides its conditions,
// where both sides wrote the listener.
func (c *comparer) listenerDetails(id string, scope Scope, name string, want, got *statusdiff.ListenerEntry) {
	if want.AttachedRoutes != nil && got.AttachedRoutes != nil {
		c.detail(id, scope, name, "attachedRoutes", fmt.Sprint(*want.AttachedRoutes), fmt.Sprint(*got.AttachedRoutes))
	}
	if want.SupportedKinds != nil {
		c.detail(id, scope, name, "supportedKinds", kindsString(want.SupportedKinds), kindsString(got.SupportedKinds))
	}
}

// conds compares the conditions of one entry; an entry a side did not
// write at all has NoStatus for every type.
func (c *comparer) conds(id string, scope Scope, p statusdiff.Pair) {
	value := func(entry *statusdiff.Entry, cond *statusdiff.Cond) string {
		switch {
		case entry == nil:
			return NoStatus
		case cond == nil:
			return Absent
		}
		return cond.Status + "/" + cond.Reason
	}
	for _, cp := range p.Conds() {
		w, g := value(p.Old, cp.Old), value(p.New, cp.New)
		// A condition type the implementation does not write for this entry
		// is no prediction of its; one gwctl does not write counts only
		// when the implementation reports a problem with it.
		if w == Absent || (g == Absent && fine(cp.Type, w)) {
			continue
		}
		c.out = append(c.out, Outcome{
			Case: c.caseName, Object: id, Scope: scope, Where: p.Name, Type: cp.Type,
			Want: w, Got: g, NonTrivial: !fine(cp.Type, w),
		})
	}
}

func (c *comparer) detail(id string, scope Scope, where, typ, want, got string) {
	c.out = append(c.out, Outcome{
		Case: c.caseName, Object: id, Scope: scope, Where: where, Type: typ,
		Want: want, Got: got, Detail: true,
	})
}

// kindsString renders supportedKinds as a sorted set, the order being the
// implementation's choice: "GRPCRoute,HTTPRoute".
func kindsString(kinds []statusdiff.GroupKind) string {
	names := make([]string, 0, len(kinds))
	for _, k := range kinds {
		name := k.Kind
		if k.Group != nil && *k.Group != "gateway.networking.k8s.io" {
			name = *k.Group + "/" + name
		}
		names = append(names, name)
	}
	slices.Sort(names)
	return strings.Join(names, ",")
}

// Tally sums a project's outcomes.
type Tally struct {
	Project            string
	Cases, CasesLoaded int // CasesLoaded: read without errors
	Outcomes, Agree    int
	NonTrivial         int
	NonTrivialAgree    int
	// NonTrivialVerdict counts non-trivial outcomes whose condition status
	// (True, False, Unknown, or no entry) agrees, whatever the reasons.
	NonTrivialVerdict int
	// NonTrivialClean and NonTrivialCleanAgree count the non-trivial
	// outcomes of the cases resolve read without errors.
	NonTrivialClean, NonTrivialCleanAgree int
	Details, DetailsAgree                 int
	Disagreements                         map[string][]Outcome // by Category
	// ReadErrors counts, by message, the cases whose inputs resolve could
	// not read in full.
	ReadErrors map[string]int
	// Refused counts the outcomes left out because their object would be
	// refused by the API server; RefusedObjects says which and why.
	Refused, RefusedNonTrivial int
	RefusedObjects             []string
	// Environment counts the outcomes left out because they depend on the
	// test's environment; EnvironmentOutcomes says which and why.
	Environment, EnvironmentNonTrivial int
	EnvironmentOutcomes                []string
}

// Add counts one case.
func (t *Tally) Add(res *Result) {
	t.Cases++
	if len(res.ReadErrors) == 0 {
		t.CasesLoaded++
	}
	if t.Disagreements == nil {
		t.Disagreements = map[string][]Outcome{}
		t.ReadErrors = map[string]int{}
	}
	seen := map[string]bool{}
	for _, e := range res.ReadErrors {
		if _, msg, ok := strings.Cut(e, ": "); ok && !seen[msg] {
			seen[msg] = true
			t.ReadErrors[msg]++
		}
	}
	for _, o := range res.Outcomes {
		if o.Refused != "" {
			t.Refused++
			if o.NonTrivial {
				t.RefusedNonTrivial++
			}
			if !seen[o.Case+" "+o.Object] {
				seen[o.Case+" "+o.Object] = true
				t.RefusedObjects = append(t.RefusedObjects, o.Case+": "+o.Object+": "+o.Refused)
			}
			continue
		}
		if o.Environment != "" {
			t.Environment++
			if o.NonTrivial {
				t.EnvironmentNonTrivial++
			}
			t.EnvironmentOutcomes = append(t.EnvironmentOutcomes, fmt.Sprintf("%s %s: %s (%s)", o.String(), o.Type, o.Want, o.Environment))
			continue
		}
		if o.Detail {
			t.Details++
			if o.Agree() {
				t.DetailsAgree++
			}
			continue
		}
		t.Outcomes++
		if o.NonTrivial {
			t.NonTrivial++
			if verdict(o.Want) == verdict(o.Got) {
				t.NonTrivialVerdict++
			}
			if len(res.ReadErrors) == 0 {
				t.NonTrivialClean++
				if o.Agree() {
					t.NonTrivialCleanAgree++
				}
			}
		}
		if o.Agree() {
			t.Agree++
			if o.NonTrivial {
				t.NonTrivialAgree++
			}
			continue
		}
		t.Disagreements[o.Category()] = append(t.Disagreements[o.Category()], o)
	}
}

// verdict is a condition value without its reason.
func verdict(value string) string {
	status, _, _ := strings.Cut(value, "/")
	return status
}

func percent(n, of int) string {
	if of == 0 {
		return "-"
	}
	return fmt.Sprintf("%.1f%%", 100*float64(n)/float64(of))
}

// WriteSummary prints one line per project: cases, outcomes and agreement.
func WriteSummary(w io.Writer, tallies []*Tally) {
	fmt.Fprintf(w, "%-14s %6s %7s %9s %7s %12s %9s %11s %9s %9s\n",
		"project", "cases", "loaded", "outcomes", "agree", "non-trivial", "nt agree", "nt verdict", "nt clean", "details")
	for _, t := range tallies {
		fmt.Fprintf(w, "%-14s %6d %7d %9d %7s %12d %9s %11s %9s %9s\n", t.Project, t.Cases, t.CasesLoaded,
			t.Outcomes, percent(t.Agree, t.Outcomes), t.NonTrivial, percent(t.NonTrivialAgree, t.NonTrivial),
			percent(t.NonTrivialVerdict, t.NonTrivial), percent(t.NonTrivialCleanAgree, t.NonTrivialClean),
			percent(t.DetailsAgree, t.Details))
	}
	fmt.Fprintln(w, "loaded: cases read without errors; outcomes: condition types per object, listener and route")
	fmt.Fprintln(w, "parent; non-trivial: the project's value is not \"everything accepted\"; nt verdict: same")
	fmt.Fprintln(w, "condition status, reason aside; nt clean: non-trivial agreement in the loaded cases;")
	fmt.Fprintln(w, "details: listener attachedRoutes and supportedKinds.")
}

// WriteReadErrors prints what resolve could not read, by message, with the
// number of cases it affected.
func WriteReadErrors(w io.Writer, t *Tally) {
	if len(t.ReadErrors) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: read errors (cases affected)\n", t.Project)
	msgs := slices.Sorted(maps.Keys(t.ReadErrors))
	sort.SliceStable(msgs, func(i, j int) bool { return t.ReadErrors[msgs[i]] > t.ReadErrors[msgs[j]] })
	for _, m := range msgs {
		fmt.Fprintf(w, "  %4d  %s\n", t.ReadErrors[m], m)
	}
}

// WriteRefused lists the objects whose outcomes were left out because the
// API server would refuse them.
func WriteRefused(w io.Writer, t *Tally) {
	writeLeftOut(w, t.Project, t.Refused, t.RefusedNonTrivial,
		"the API server refuses their objects (CRD validation, unserved versions) or holds one of a name defined twice", t.RefusedObjects)
}

// WriteEnvironment lists the outcomes left out because they depend on the
// project's test environment.
func WriteEnvironment(w io.Writer, t *Tally) {
	writeLeftOut(w, t.Project, t.Environment, t.EnvironmentNonTrivial,
		"they depend on the project's test environment, not on its inputs", t.EnvironmentOutcomes)
}

// writeLeftOut says how many outcomes were left out and why, then lists
// which.
func writeLeftOut(w io.Writer, project string, n, nonTrivial int, why string, which []string) {
	if len(which) == 0 {
		return
	}
	fmt.Fprintf(w, "%s: %d outcomes (%d non-trivial) left out: %s\n", project, n, nonTrivial, why)
	for _, o := range which {
		fmt.Fprintf(w, "        %s\n", o)
	}
}

// WriteDisagreements prints the disagreements of a project by category,
// largest first, with up to examples cases each: first those on
// non-trivial outcomes (the project reports a problem, gwctl another or
// none), then those where the project sees none and gwctl reports one.
func WriteDisagreements(w io.Writer, t *Tally, examples int) {
	type cat struct {
		name string
		os   []Outcome
	}
	var nonTrivial, falseAlarms []cat
	for name, os := range t.Disagreements {
		if os[0].NonTrivial { // Want decides, and Want is in the category
			nonTrivial = append(nonTrivial, cat{name, os})
		} else {
			falseAlarms = append(falseAlarms, cat{name, os})
		}
	}
	for _, part := range []struct {
		title string
		cats  []cat
	}{
		{"the project reports a problem, gwctl another or none", nonTrivial},
		{"the project reports none, gwctl one", falseAlarms},
	} {
		cats := part.cats
		sort.Slice(cats, func(i, j int) bool {
			if len(cats[i].os) != len(cats[j].os) {
				return len(cats[i].os) > len(cats[j].os)
			}
			return cats[i].name < cats[j].name
		})
		n := 0
		for _, c := range cats {
			n += len(c.os)
		}
		fmt.Fprintf(w, "%s: %d disagreements in %d categories where %s\n", t.Project, n, len(cats), part.title)
		for _, c := range cats {
			fmt.Fprintf(w, "  %4d  %s\n", len(c.os), c.name)
			seen := map[string]bool{}
			shown := 0
			for _, o := range c.os {
				if shown == examples {
					break
				}
				if seen[o.Case] {
					continue
				}
				seen[o.Case] = true
				shown++
				fmt.Fprintf(w, "          e.g. %s\n", o.String())
			}
		}
	}
}
