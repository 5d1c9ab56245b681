package resolve

import (
	"maps"
	"reflect"
	"slices"
)

// SameObjects reports whether b's objects were read from documents
// written as a's were, at the same places of the same files, one for one:
// the same kinds, names, fields and values (their digests), the same
// positions and the same ignore comments. What resolving made of a's
// objects then holds for b's. An object that has no digest (not read from
// a document, or with a number encoding/json cannot decode) is never the
// same.
func SameObjects(a, b *Inputs) bool {
	return slices.EqualFunc(a.Objects, b.Objects, sameObject) &&
		slices.EqualFunc(a.Creators, b.Creators, func(x, y *Creator) bool { return sameObject(x, y) })
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
	return slices.Equal(a.Objects, b.Objects) && slices.Equal(a.Creators, b.Creators) &&
		maps.Equal(a.Skipped, b.Skipped) && slices.Equal(a.HelmCharts, b.HelmCharts) &&
		a.Cluster == b.Cluster && reflect.DeepEqual(a.InstallingCRDs(), b.InstallingCRDs())
}
