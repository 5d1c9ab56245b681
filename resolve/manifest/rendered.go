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
// and given where the parent was placed (the zero Pos for the root); it
// returns the positions of the key and of the value.
func (p *Positions) Relocate(at func(path string, parent Pos) (key, val Pos)) *Positions {
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
		key, val := at(paths[i], parent)
		e.key, e.val = pos32{int32(key.Line), int32(key.Col)}, pos32{int32(val.Line), int32(val.Col)}
	}
	out, _ := pack(nil, entries)
	out.yaml11Bools = p.yaml11Bools
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
