package manifest

import (
	"strconv"
)

// Parse reads data, the text of a manifest stream, as Read reads a file
// named file: for the output of a renderer (kustomize, Helm), which is
// never on disk. The objects' positions are in data.
func Parse(file string, data []byte) ([]*Object, []*ReadError) {
	var c converter
	var objs []*Object
	r := fileResult{emit: func(o *Object) { objs = append(objs, o) }}
	c.parseFile(file, data, &r)
	return objs, r.errs
}

// Relocate returns positions for the same paths placed where at says:
// for a rendered object, where each field was written in its source. at is
// asked for every path in document order, parents before their children,
// and given where its key and value are now and where the parent was
// placed (the zero Pos for the root); it returns the positions of the key
// and of the value.
func (p *Positions) Relocate(at func(path string, now KeyValue, parent Pos) KeyValue) *Positions {
	entries := p.entries()
	if entries == nil {
		return p
	}
	paths := p.Paths()
	for i := range entries {
		e := &entries[i]
		var parent Pos
		if e.parent >= 0 {
			parent = entries[e.parent].key.pos()
		}
		to := at(paths[i], KeyValue{Key: e.key.pos(), Value: e.val.pos()}, parent)
		e.key, e.val = pos32{int32(to.Key.Line), int32(to.Key.Col)}, pos32{int32(to.Value.Line), int32(to.Value.Col)}
	}
	out, _ := pack(nil, entries)
	out.yaml11Bools = p.yaml11Bools
	return out
}

// KeyValue is where a field was written: its key and its value.
type KeyValue struct{ Key, Value Pos }

// Written returns where each path was written, for many look-ups in one
// object: each Lookup unpacks the whole object.
func (p *Positions) Written() map[string]KeyValue {
	entries := p.entries()
	out := make(map[string]KeyValue, len(entries))
	for i, path := range p.Paths() {
		out[path] = KeyValue{Key: entries[i].key.pos(), Value: entries[i].val.pos()}
	}
	return out
}

// ValueAt returns the value at path (a field path as Positions takes it)
// in doc, a JSON document decoded into any.
func ValueAt(doc any, path string) (any, bool) {
	for rest := path; rest != ""; {
		seg, _, next, ok := nextSegment(rest)
		if !ok {
			return nil, false
		}
		switch v := doc.(type) {
		case map[string]any:
			if doc, ok = v[seg]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(seg)
			if err != nil || i < 0 || i >= len(v) {
				return nil, false
			}
			doc = v[i]
		default:
			return nil, false
		}
		rest = next
	}
	return doc, true
}
