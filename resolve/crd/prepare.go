package crd

import (
	"strconv"
	"strings"
)

// This file mirrors what the API server does to a custom resource while
// decoding it, before any validation (apiextensions-apiserver
// unstructuredSchemaCoercer and unstructuredDefaulter):
//
//  1. prune fields the structural schema does not declare (with strict field
//     validation: report them),
//  2. drop nulls of non-nullable fields that have no default,
//  3. apply the schema defaults, recursing into what was defaulted.
//
// gwlint must not modify the caller's document, so the result shares every
// untouched subtree with it and copies only the maps and lists on the way to
// a change. Pruned fields are reported but left in place: validation only
// ever looks at declared fields.

// prepareRoot is prepare for the resource root, whose metadata is not
// pruned by the schema but decoded as ObjectMeta (see validateMetadata).
func (w *walker) prepareRoot(obj map[string]any, root *node) map[string]any {
	var out map[string]any
	set := func(k string, v any, del bool) {
		if out == nil {
			out = w.writable(obj)
		}
		if del {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	for k, v := range obj {
		if k == "metadata" && v != nil {
			continue // a null one is dropped like any other
		}
		c := root.prop(k)
		if c == nil {
			n := w.pushField(k)
			w.unknown(k)
			w.pop(n)
			continue
		}
		if v == nil && !c.nullable {
			if c.def == nil {
				set(k, nil, true)
			}
			continue // defaulted below
		}
		n := w.pushField(k)
		if nv, changed := w.prepare(v, c); changed {
			set(k, nv, false)
		}
		w.pop(n)
	}
	for _, p := range root.props {
		if p.n.def == nil {
			continue
		}
		if v, ok := obj[p.name]; !ok || (v == nil && !p.n.nullable) {
			n := w.pushField(p.name)
			nv, _ := w.prepare(p.n.def(), p.n)
			w.pop(n)
			set(p.name, nv, false)
		}
	}
	if out == nil {
		return obj
	}
	return out
}

// prepare prunes (reports), drops nulls and defaults v, the value at the
// walker's path with schema s (nil when undeclared). It returns the
// resulting value and whether it differs from v.
func (w *walker) prepare(v any, s *node) (any, bool) {
	switch x := v.(type) {
	case map[string]any:
		return w.prepareMap(x, s)
	case []any:
		var items *node
		if s != nil {
			items = s.items
		}
		var out []any
		for i, it := range x {
			var nv any
			changed := false
			if it == nil {
				if items != nil && !items.nullable && items.def != nil {
					nv, changed = items.def(), true
				}
			} else {
				n := w.pushIndex(i)
				nv, changed = w.prepare(it, items)
				w.pop(n)
			}
			if changed {
				if out == nil {
					out = x
					if !w.inPlace {
						out = append([]any(nil), x...)
					}
				}
				out[i] = nv
			}
		}
		if out == nil {
			return v, false
		}
		return out, true
	}
	return v, false
}

func (w *walker) prepareMap(x map[string]any, s *node) (any, bool) {
	if s == nil || (len(s.props) == 0 && s.additional == nil) {
		// Nothing is declared: the API server prunes every key (without
		// descending into them).
		for k := range x {
			n := w.pushField(k)
			w.unknown(k)
			w.pop(n)
		}
		return x, false
	}
	var out map[string]any
	set := func(k string, v any, del bool) {
		if out == nil {
			out = w.writable(x)
		}
		if del {
			delete(out, k)
		} else {
			out[k] = v
		}
	}
	for k, v := range x {
		c := s.prop(k)
		var n int
		if c != nil {
			n = w.pushField(k)
		} else if c = s.additional; c != nil {
			n = w.pushKey(k)
		} else {
			n = w.pushField(k)
			w.unknown(k)
			w.pop(n)
			continue
		}
		if v == nil && !c.nullable {
			switch {
			case c.def == nil:
				set(k, nil, true)
			case c == s.additional:
				nv, _ := w.prepare(c.def(), c)
				set(k, nv, false)
			}
			// a declared property with a default is defaulted below
		} else if nv, changed := w.prepare(v, c); changed {
			set(k, nv, false)
		}
		w.pop(n)
	}
	for _, p := range s.props {
		if p.n.def == nil {
			continue
		}
		if v, ok := x[p.name]; !ok || (v == nil && !p.n.nullable) {
			n := w.pushField(p.name)
			nv, _ := w.prepare(p.n.def(), p.n)
			w.pop(n)
			set(p.name, nv, false)
		}
	}
	if out == nil {
		return x, false
	}
	return out, true
}

// unknown reports the field at the walker's path; name is its last segment.
func (w *walker) unknown(name string) {
	v := Violation{Path: string(w.path), Type: TypeUnknownField, Message: "Unknown field " + strconv.Quote(name)}
	if v.AddedIn = w.addedIn(name); v.AddedIn != "" {
		v.Message += "; added in " + v.AddedIn
	}
	w.out = append(w.out, v)
}

// addedIn is Violation.AddedIn for the unknown field at the walker's path,
// name being its last segment: the oldest newer release whose CRDs of the
// same channel declare it, else (on the standard channel, and unless this
// release's experimental channel has it) the oldest newer release whose
// experimental CRDs do. Under the pinned release no newer one is named:
// the default's messages stay those it gave before gwlint knew newer
// releases.
func (w *walker) addedIn(name string) string {
	if w.crds.Release == Pinned {
		return ""
	}
	parent := strings.TrimSuffix(string(w.path[:len(w.path)-len(name)]), ".")
	next := w.crds.Release.seq() + 1
	has := func(seq int, ch Channel) bool {
		cv := lookup(w.apiVersion, w.kind, CRDs{releaseAt(seq), ch})
		if cv == nil {
			return false
		}
		n := cv.root.at(parent)
		return n != nil && n.prop(name) != nil
	}
	for seq := next; seq < len(releaseNames); seq++ {
		if has(seq, w.crds.Channel) {
			return releaseNames[seq]
		}
	}
	if w.crds.Channel == Experimental || has(next-1, Experimental) {
		return ""
	}
	for seq := next; seq < len(releaseNames); seq++ {
		if has(seq, Experimental) {
			return releaseNames[seq] + " (experimental)"
		}
	}
	return ""
}

// writable returns m, or a copy of it unless the walker may change the
// document.
func (w *walker) writable(m map[string]any) map[string]any {
	if w.inPlace {
		return m
	}
	return cloneMap(m)
}

func cloneMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+4)
	for k, v := range m {
		out[k] = v
	}
	return out
}
