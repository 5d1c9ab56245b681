package statusdiff

import (
	"maps"
	"slices"
)

// ObjectPair is one object on both sides: Old or New is nil where that
// side wrote no status for it.
type ObjectPair struct {
	ID       string // "HTTPRoute ns/name"
	Old, New *Object
}

// PairObjects matches two sides' objects by ID, in order of ID. Of two
// objects of one ID on a side, the last counts.
func PairObjects(old, new []*Object) []ObjectPair {
	byID := func(objs []*Object) map[string]*Object {
		m := map[string]*Object{}
		for _, o := range objs {
			m[o.ID()] = o
		}
		return m
	}
	o, n := byID(old), byID(new)
	var out []ObjectPair
	for _, id := range unionKeys(o, n) {
		out = append(out, ObjectPair{ID: id, Old: o[id], New: n[id]})
	}
	return out
}

// Place is the part of an object's status an entry is.
type Place int

const (
	// Own: the object's own conditions (a GatewayClass's, a Gateway's, a
	// ListenerSet's).
	Own Place = iota
	// Listener: one listener of a Gateway or ListenerSet.
	Listener
	// Parent: a route's status for one parentRef.
	Parent
	// Ancestor: a policy's status for one ancestor.
	Ancestor
)

// Entry is one part of a status that holds conditions, as one side wrote
// it.
type Entry struct {
	Conditions []Cond
	// Listener is the listener's status, in a Listener entry.
	Listener *ListenerEntry
	// Ref is the reference as written, in a Parent or Ancestor entry.
	Ref *ParentRef
}

// cond returns e's condition of type typ, or nil when e is nil or holds
// none. A writer writes a type once per entry; the first counts.
func (e *Entry) cond(typ string) *Cond {
	if e == nil {
		return nil
	}
	for i := range e.Conditions {
		if e.Conditions[i].Type == typ {
			return &e.Conditions[i]
		}
	}
	return nil
}

// Pair is one entry of an object's status on both sides: Old or New is nil
// where that side wrote no such entry.
type Pair struct {
	Place Place
	// Name tells the entries of a place apart: a listener's name, or a
	// reference's Key; "" for Own.
	Name     string
	Old, New *Entry
}

// CondPair is one condition type of an entry on both sides: Old or New is
// nil where that side's entry does not hold it, or is not written at all.
type CondPair struct {
	Type     string
	Old, New *Cond
}

// Conds pairs the conditions of the entry by type, in order of type.
func (p Pair) Conds() []CondPair {
	types := map[string]bool{}
	for _, e := range []*Entry{p.Old, p.New} {
		if e != nil {
			for _, c := range e.Conditions {
				types[c.Type] = true
			}
		}
	}
	var out []CondPair
	for _, typ := range slices.Sorted(maps.Keys(types)) {
		out = append(out, CondPair{Type: typ, Old: p.Old.cond(typ), New: p.New.cond(typ)})
	}
	return out
}

// Pairs matches the entries of two statuses of one object, either of which
// may be nil: its own conditions (an entry wherever the object is), then
// its listeners by name, its route parents and its policy ancestors by
// reference with defaults applied in the object's namespace; within each
// place in order of name.
func Pairs(old, new *Object) []Pair {
	var out []Pair
	for _, place := range []Place{Own, Listener, Parent, Ancestor} {
		o, n := old.entries(place), new.entries(place)
		for _, name := range unionKeys(o, n) {
			out = append(out, Pair{Place: place, Name: name, Old: o[name], New: n[name]})
		}
	}
	return out
}

// entries lists o's entries of one place by name; none when o is nil. Of
// two entries of one name, the last counts.
func (o *Object) entries(place Place) map[string]*Entry {
	m := map[string]*Entry{}
	if o == nil {
		return m
	}
	switch place {
	case Own:
		m[""] = &Entry{Conditions: o.Status.Conditions}
	case Listener:
		for i := range o.Status.Listeners {
			l := &o.Status.Listeners[i]
			m[l.Name] = &Entry{Conditions: l.Conditions, Listener: l}
		}
	case Parent:
		for i := range o.Status.Parents {
			p := &o.Status.Parents[i]
			m[p.ParentRef.Key(o.Namespace)] = &Entry{Conditions: p.Conditions, Ref: &p.ParentRef}
		}
	case Ancestor:
		for i := range o.Status.Ancestors {
			a := &o.Status.Ancestors[i]
			m[a.AncestorRef.Key(o.Namespace)] = &Entry{Conditions: a.Conditions, Ref: &a.AncestorRef}
		}
	}
	return m
}

// unionKeys lists the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	keys := slices.AppendSeq(slices.Collect(maps.Keys(a)), maps.Keys(b))
	slices.Sort(keys)
	return slices.Compact(keys)
}
