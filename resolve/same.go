package resolve

import (
	"maps"
	"reflect"
	"slices"

	"github.com/gwlint/gwlint/resolve/crd"
)

// KeepSame puts, in place of each object of in (and each creator), the
// object of before that is the same, if any: read from a document written
// as its was, at the same place of the same file (the same kind, name,
// fields and values, which its digest tells, the same positions and the
// same ignore comments). What resolving made of before's object then
// holds for in's, and a graph of before, or a cache of what resolving
// derived, points at it still. A file read again after an edit keeps the
// objects the edit left where they were. An object that has no digest
// (not read from a document, or with a number encoding/json cannot
// decode) is never the same.
func (in *Inputs) KeepSame(before *Inputs) {
	keepSame(in.Objects, before.Objects, in.Compared)
	keepSame(in.Creators, before.Creators, nil)
}

// keepSame puts in place of each of objs the same object of before, by
// identity in order, moving what compared holds of it.
func keepSame[T Object](objs, before []T, compared map[Object][][]crd.Violation) {
	byRef := map[ObjectRef][]T{}
	for _, old := range before {
		ref := old.Metadata().Ref
		byRef[ref] = append(byRef[ref], old)
	}
	for i, obj := range objs {
		ref := obj.Metadata().Ref
		candidates := byRef[ref]
		j := slices.IndexFunc(candidates, func(old T) bool { return sameObject(old, obj) })
		if j < 0 {
			continue
		}
		old := candidates[j]
		byRef[ref] = slices.Delete(candidates, j, j+1)
		objs[i] = old
		if v, ok := compared[obj]; ok {
			delete(compared, obj)
			compared[old] = v
		}
	}
}

func sameObject(a, b Object) bool {
	m, n := a.Metadata(), b.Metadata()
	return reflect.TypeOf(a) == reflect.TypeOf(b) && m.digest != (documentDigest{}) && m.digest == n.digest &&
		m.Source == n.Source && m.Ref == n.Ref && m.Positions.Same(n.Positions) && reflect.DeepEqual(m.Ignores, n.Ignores)
}

// SameWorld reports whether Resolve, with the same options, makes the
// same graph of b as of a: they hold the very same objects (not merely
// equal ones: the graph points at them) and what else it reads of its
// inputs is equal. Their errors may differ: a document still or newly
// broken is no object.
func SameWorld(a, b *Inputs) bool {
	return slices.Equal(a.Objects, b.Objects) && beyondObjects(a).equal(beyondObjects(b))
}

// inputsBeyond is what Resolve reads of its inputs besides the objects.
type inputsBeyond struct {
	creators []*Creator
	skipped  map[string]int
	charts   []string
	cluster  string
	crds     []CRDBundle
}

func beyondObjects(in *Inputs) inputsBeyond {
	return inputsBeyond{in.Creators, in.Skipped, in.HelmCharts, in.Cluster, in.InstallingCRDs()}
}

func (b inputsBeyond) equal(other inputsBeyond) bool {
	return slices.Equal(b.creators, other.creators) && maps.Equal(b.skipped, other.skipped) &&
		slices.Equal(b.charts, other.charts) && b.cluster == other.cluster && reflect.DeepEqual(b.crds, other.crds)
}
