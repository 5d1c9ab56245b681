package resolve

import (
	"strconv"
	"unique"
)

// Pos is a 1-based line:column in a source file.
type Pos struct{ Line, Col int }

// pos32 is the stored form of a Pos. Positions are kept for every object of
// a repository, so halving their size matters; files are capped well below
// 2^31 bytes (maxFileSize), so no line or column can overflow.
type pos32 struct{ line, col int32 }

func (p pos32) pos() Pos { return Pos{Line: int(p.line), Col: int(p.col)} }

// posEntry is one written node. Entries form a tree through parent indices
// instead of holding full path strings: a path costs no allocation while
// reading and each entry stays a fixed 32 bytes; path strings are built
// only when Paths is asked for. Mapping keys are interned (unique.Make):
// the few hundred distinct names of a repository are kept once, instead of
// one string per written field.
type posEntry struct {
	parent int32                 // index of the parent entry; -1 for the root
	index  int32                 // sequence index, or -1 for a mapping entry
	name   unique.Handle[string] // mapping key (when index < 0)
	key    pos32                 // the key of a mapping entry; the item itself in a sequence
	val    pos32                 // the value node
}

// keyName is the mapping key of e ("" for a sequence item).
func (e *posEntry) keyName() string {
	if e.index >= 0 || e.name == (unique.Handle[string]{}) {
		return "" // a sequence item, or the root
	}
	return e.name.Value()
}

// Positions maps a field path to where it was written. Paths are the
// k8s.io/apimachinery field.Path String() form: "spec.rules[0].port", with
// map keys that are not plain identifiers in brackets:
// "metadata.labels[app.kubernetes.io/name]". The root path "" is the
// object's root node. For a mapping entry the position is the key's; for a
// sequence item it is the item's.
//
// The zero value and nil hold no positions.
type Positions struct {
	// entries are in document order (pre-order), so every subtree is a
	// contiguous run starting at its root, and entries[0] is the root.
	entries []posEntry
	// yaml11Bools are the entries of plain scalars that YAML 1.2 (yaml.v3,
	// and so gwlint) reads as strings but YAML 1.1 (kubectl, via
	// sigs.k8s.io/yaml) reads as booleans: on, off, yes, no, y, n.
	yaml11Bools []int32
}

// Lookup returns where path was written.
func (p *Positions) Lookup(path string) (Pos, bool) {
	i, n := p.find(path)
	if i < 0 || n != len(path) {
		return Pos{}, false
	}
	return p.entries[i].key.pos(), true
}

// ValuePos returns where the value of path was written: for `port: 80` the
// position of `80`. For sequence items it is the same as Lookup.
func (p *Positions) ValuePos(path string) (Pos, bool) {
	i, n := p.find(path)
	if i < 0 || n != len(path) {
		return Pos{}, false
	}
	return p.entries[i].val.pos(), true
}

// Nearest returns the position of path or, when path was not written (it was
// defaulted, say), of its nearest written ancestor, and the path that was
// found. It returns the zero Pos and "" when nothing was recorded.
func (p *Positions) Nearest(path string) (Pos, string) {
	i, n := p.find(path)
	if i < 0 {
		return Pos{}, ""
	}
	return p.entries[i].key.pos(), path[:n]
}

// YAML11Booleans returns the paths of plain scalars such as `on` or `yes`
// that kubectl would send as booleans, not as the strings gwlint reads.
func (p *Positions) YAML11Booleans() []string {
	if p == nil || len(p.yaml11Bools) == 0 {
		return nil
	}
	all := p.Paths()
	out := make([]string, len(p.yaml11Bools))
	for i, e := range p.yaml11Bools {
		out[i] = all[e]
	}
	return out
}

// HasKey reports whether any mapping key of the object is one of names. It
// builds no paths, so rules can use it to skip objects cheaply before
// walking Paths.
func (p *Positions) HasKey(names ...string) bool {
	if p == nil {
		return false
	}
	for i := range p.entries {
		if e := &p.entries[i]; e.index < 0 {
			for _, n := range names {
				if e.keyName() == n {
					return true
				}
			}
		}
	}
	return false
}

// Paths returns every recorded path in document order, the root "" first.
func (p *Positions) Paths() []string {
	if p == nil {
		return nil
	}
	paths := make([]string, len(p.entries))
	for i := range p.entries {
		e := &p.entries[i]
		if e.parent < 0 {
			continue // the root
		}
		parent := paths[e.parent]
		name := e.keyName()
		switch {
		case e.index >= 0:
			paths[i] = parent + "[" + strconv.Itoa(int(e.index)) + "]"
		case !isIdentifier(name):
			paths[i] = parent + "[" + name + "]"
		case parent == "":
			paths[i] = name
		default:
			paths[i] = parent + "." + name
		}
	}
	return paths
}

// find walks path from the root as far as it was written. It returns the
// deepest entry reached (-1 if there are no entries) and the length of the
// path prefix that names it. Walking from the root rather than trimming
// segments off the end keeps bracketed keys that contain dots intact.
func (p *Positions) find(path string) (entry, matched int) {
	if p == nil || len(p.entries) == 0 {
		return -1, 0
	}
	cur, rest := 0, path
	for rest != "" {
		seg, bracketed, next, ok := nextSegment(rest)
		if !ok {
			break
		}
		child := p.child(cur, seg, bracketed)
		if child < 0 {
			break
		}
		cur, rest = child, next
	}
	return cur, len(path) - len(rest)
}

// child returns the entry under parent that seg names, or -1. A bracketed
// segment matches a sequence index or a map key: field.Path writes both as
// "[...]", and a node's children are never a mix of the two.
func (p *Positions) child(parent int, seg string, bracketed bool) int {
	index := -1
	if bracketed {
		if n, err := strconv.Atoi(seg); err == nil && n >= 0 {
			index = n
		}
	}
	// Pre-order: parent's subtree ends at the first entry whose parent
	// index is before it.
	for i := parent + 1; i < len(p.entries) && int(p.entries[i].parent) >= parent; i++ {
		e := &p.entries[i]
		if int(e.parent) != parent {
			continue
		}
		if e.index >= 0 {
			if int(e.index) == index {
				return i
			}
		} else if e.keyName() == seg {
			return i
		}
	}
	return -1
}

// nextSegment splits the first segment off a field path: "name", ".name" or
// "[key]". A bracketed key may itself contain dots or brackets, so it ends
// at the first ']' that is followed by the end of the path, '.' or '['.
func nextSegment(path string) (seg string, bracketed bool, rest string, ok bool) {
	if path[0] == '[' {
		for i := 1; i < len(path); i++ {
			if path[i] == ']' && (i+1 == len(path) || path[i+1] == '.' || path[i+1] == '[') {
				return path[1:i], true, path[i+1:], true
			}
		}
		return "", false, path, false
	}
	start := 0
	if path[0] == '.' {
		start = 1
	}
	end := start
	for end < len(path) && path[end] != '.' && path[end] != '[' {
		end++
	}
	if end == start {
		return "", false, path, false
	}
	return path[start:end], false, path[end:], true
}

// isIdentifier reports whether a map key can be written as ".key" in a
// field path rather than "[key]".
func isIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_', 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
