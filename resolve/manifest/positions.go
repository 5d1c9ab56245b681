package manifest

import (
	"encoding/binary"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unique"
	"unsafe"
)

// Pos is a 1-based line:column in a source file.
type Pos struct{ Line, Col int }

// pos32 is a Pos as the converter records it; files are capped well below
// 2^31 bytes (MaxFileSize), so no line or column can overflow.
type pos32 struct{ line, col int32 }

func (p pos32) pos() Pos { return Pos{Line: int(p.line), Col: int(p.col)} }

// posEntry is one written node. Entries form a tree through parent indices
// instead of holding full path strings: a path costs no allocation while
// reading, and path strings are built only when Paths is asked for.
type posEntry struct {
	parent int32 // index of the parent entry; -1 for the root
	index  int32 // sequence index, or -1 for a mapping entry
	name   keyID // mapping key (when index < 0)
	key    pos32 // the key of a mapping entry; the item itself in a sequence
	val    pos32 // the value node
}

// keyName is the mapping key of e ("" for a sequence item or the root).
func (e *posEntry) keyName() string {
	if e.index >= 0 {
		return ""
	}
	return keyNames.name(e.name)
}

// Positions maps a field path to where it was written. Paths are the
// k8s.io/apimachinery field.Path String() form: "spec.rules[0].port", with
// map keys that are not plain identifiers in brackets:
// "metadata.labels[app.kubernetes.io/name]". The root path "" is the
// object's root node. For a mapping entry the position is the key's; for a
// sequence item it is the item's.
//
// Positions are kept for every field of every object of a repository but
// asked for only where a finding is reported, so they are stored packed
// (see appendEntry: about 6 bytes a field instead of 32) and unpacked per
// question.
//
// The zero value and nil hold no positions.
type Positions struct {
	// packed holds the entries in document order (pre-order), so every
	// subtree is a contiguous run starting at its root, and the first entry
	// is the root; then the object's distinct key names, sorted, and the
	// length of that list in 4 bytes (see packPositions). Objects of the
	// same shape and layout pack alike, and share one copy (see pack).
	packed string
	n      int32 // number of entries
	line   int32 // the root's line, from which the packed lines count
	// yaml11Bools are the entries of plain scalars that YAML 1.2 (yaml.v3,
	// and so gwlint) reads as strings but YAML 1.1 (kubectl, via
	// sigs.k8s.io/yaml) reads as booleans: on, off, yes, no, y, n.
	yaml11Bools []int32
}

// packPositions packs the entries of one object, counting lines from the
// root's, so that the same object packs alike wherever it is in its file.
//
// The key names follow, so that a rule looking for a few names in every
// object (KeyPaths) reads a few bytes, not every entry.
func packPositions(buf []byte, entries []posEntry) []byte {
	var prevLine int32
	if len(entries) > 0 {
		prevLine = entries[0].key.line
	}
	var scratch [64]keyID // most objects have fewer distinct keys
	keys := scratch[:0]
	for i := range entries {
		buf = appendEntry(buf, int32(i), &entries[i], prevLine)
		prevLine = entries[i].key.line
		if e := &entries[i]; e.index < 0 && e.parent >= 0 {
			keys = append(keys, e.name)
		}
	}
	slices.Sort(keys)
	start := len(buf)
	for _, k := range slices.Compact(keys) {
		buf = binary.AppendUvarint(buf, uint64(k))
	}
	return binary.LittleEndian.AppendUint32(buf, uint32(len(buf)-start))
}

// keyList returns the packed entries and the packed key names of p.
func (p *Positions) keyList() (entries, keys string) {
	if len(p.packed) < 4 {
		return "", ""
	}
	n := len(p.packed) - 4
	b := p.packed[n:]
	start := n - int(uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24)
	return p.packed[:start], p.packed[start:n]
}

// appendEntry appends entry self as varints, each usually one byte: the
// distance to its parent, its key name or sequence index, its key's line
// (from the previous entry's) and column, and its value's position (from
// its key's).
func appendEntry(buf []byte, self int32, e *posEntry, prevLine int32) []byte {
	buf = binary.AppendUvarint(buf, uint64(self-e.parent))
	if e.index >= 0 {
		buf = binary.AppendUvarint(buf, uint64(e.index)<<1|1)
	} else {
		buf = binary.AppendUvarint(buf, uint64(e.name)<<1)
	}
	buf = binary.AppendVarint(buf, int64(e.key.line-prevLine))
	buf = binary.AppendUvarint(buf, uint64(e.key.col))
	buf = binary.AppendVarint(buf, int64(e.val.line-e.key.line))
	return binary.AppendVarint(buf, int64(e.val.col-e.key.col))
}

// entries unpacks p.
func (p *Positions) entries() []posEntry {
	if p == nil || p.n == 0 {
		return nil
	}
	out := make([]posEntry, 0, p.n)
	for r := p.reader(); r.more(); {
		out = append(out, r.next())
	}
	return out
}

// entryReader unpacks a Positions' entries one at a time, in document
// order, allocating nothing.
type entryReader struct {
	b        string
	self     int32 // index of the next entry
	prevLine int32
}

func (p *Positions) reader() entryReader {
	entries, _ := p.keyList()
	return entryReader{b: entries, prevLine: p.line}
}

func (r *entryReader) more() bool { return len(r.b) > 0 }

// next unpacks the next entry; its index is r.self before the call.
func (r *entryReader) next() posEntry {
	var e posEntry
	dist := uvarint(&r.b)
	e.parent = r.self - int32(dist)
	if tag := uvarint(&r.b); tag&1 == 1 {
		e.index = int32(tag >> 1)
	} else {
		e.index, e.name = -1, keyID(tag>>1)
	}
	e.key.line = r.prevLine + int32(varint(&r.b))
	e.key.col = int32(uvarint(&r.b))
	e.val.line = e.key.line + int32(varint(&r.b))
	e.val.col = e.key.col + int32(varint(&r.b))
	r.prevLine = e.key.line
	r.self++
	return e
}

// uvarint reads what binary.AppendUvarint wrote from the front of *s.
func uvarint(s *string) uint64 {
	var v uint64
	for shift := 0; len(*s) > 0; shift += 7 {
		c := (*s)[0]
		*s = (*s)[1:]
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			break
		}
	}
	return v
}

// varint reads what binary.AppendVarint wrote from the front of *s.
func varint(s *string) int64 {
	u := uvarint(s)
	return int64(u>>1) ^ -int64(u&1)
}

// pack returns the Positions of entries. Many objects share a shape and
// a layout (every Service of a chart, say) and so a packed form: interning
// keeps one copy of each. buf is scratch space, returned for reuse.
func pack(buf []byte, entries []posEntry) (*Positions, []byte) {
	buf = packPositions(buf[:0], entries)
	// unique.Make copies what it keeps, so buf can be a view.
	p := &Positions{packed: unique.Make(unsafe.String(unsafe.SliceData(buf), len(buf))).Value(), n: int32(len(entries))}
	if len(entries) > 0 {
		p.line = entries[0].key.line
	}
	return p, buf
}

// keyID is an interned mapping key name: a repository has a few hundred
// distinct ones, kept once in keyNames instead of once per field.
type keyID uint32

// keyNames interns mapping key names for all Positions. Names are only
// added; readers use a snapshot of the table, which holds every name of
// the Positions they can see.
var keyNames = newKeyTable()

type keyTable struct {
	mu    sync.RWMutex // lookups, by every rule at once, only read
	ids   map[string]keyID
	names atomic.Pointer[[]string]
}

func newKeyTable() *keyTable {
	t := &keyTable{ids: map[string]keyID{"": 0}}
	t.names.Store(&[]string{""})
	return t
}

// id interns name.
func (t *keyTable) id(name string) keyID {
	t.mu.Lock()
	defer t.mu.Unlock()
	if id, ok := t.ids[name]; ok {
		return id
	}
	names := *t.names.Load()
	id := keyID(len(names))
	name = strings.Clone(name)
	t.ids[name] = id
	// Appending in place is safe: readers never look past their snapshot.
	names = append(names, name)
	t.names.Store(&names)
	return id
}

func (t *keyTable) name(id keyID) string { return (*t.names.Load())[id] }

// lookup returns the id of name if it was ever interned.
func (t *keyTable) lookup(name string) (keyID, bool) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	id, ok := t.ids[name]
	return id, ok
}

// Lookup returns where path was written.
func (p *Positions) Lookup(path string) (Pos, bool) {
	e, n, ok := p.find(path)
	if !ok || n != len(path) {
		return Pos{}, false
	}
	return e.key.pos(), true
}

// ValuePos returns where the value of path was written: for `port: 80` the
// position of `80`. For sequence items it is the same as Lookup.
func (p *Positions) ValuePos(path string) (Pos, bool) {
	e, n, ok := p.find(path)
	if !ok || n != len(path) {
		return Pos{}, false
	}
	return e.val.pos(), true
}

// Nearest returns the position of path or, when path was not written (it was
// defaulted, say), of its nearest written ancestor, and the path that was
// found. It returns the zero Pos and "" when nothing was recorded.
func (p *Positions) Nearest(path string) (Pos, string) {
	e, n, ok := p.find(path)
	if !ok {
		return Pos{}, ""
	}
	return e.key.pos(), path[:n]
}

// YAML11Booleans returns the paths of plain scalars such as `on` or `yes`
// that kubectl would send as booleans, not as the strings gwlint reads.
func (p *Positions) YAML11Booleans() []string {
	if p == nil || len(p.yaml11Bools) == 0 {
		return nil
	}
	entries := p.entries()
	out := make([]string, len(p.yaml11Bools))
	for i, e := range p.yaml11Bools {
		out[i] = pathOf(entries, int(e))
	}
	return out
}

// KeyPaths returns, in document order, the paths of the mapping entries
// whose key is one of names. It builds only those paths, and unpacks
// nothing when no key matches, so rules can look for a few field names
// in every object cheaply.
func (p *Positions) KeyPaths(names ...string) []string {
	ids := make([]keyID, 0, len(names))
	for _, n := range names {
		if id, ok := keyNames.lookup(n); ok {
			ids = append(ids, id)
		}
	}
	if p == nil || !p.hasKey(ids) {
		return nil
	}
	// The entries come in document order, each after its parent and its
	// parent's earlier children, so the ancestors of the one read are a
	// stack (with their indices): nothing else is kept.
	type ancestor struct {
		self int32
		e    posEntry
	}
	var room [16]ancestor
	chain := room[:0]
	var out []string
	for r := p.reader(); r.more(); {
		self := r.self
		e := r.next()
		for len(chain) > 0 && chain[len(chain)-1].self != e.parent {
			chain = chain[:len(chain)-1]
		}
		chain = append(chain, ancestor{self, e})
		if e.index < 0 && e.parent >= 0 && slices.Contains(ids, e.name) {
			var b strings.Builder
			for i := 1; i < len(chain); i++ { // the root has no segment
				b.WriteString(segment(&chain[i].e, i == 1))
			}
			out = append(out, b.String())
		}
	}
	return out
}

// hasKey reports whether any mapping key is one of ids, from the packed
// key names.
func (p *Positions) hasKey(ids []keyID) bool {
	if len(ids) == 0 {
		return false // no object has such a key
	}
	_, keys := p.keyList()
	for keys != "" {
		if slices.Contains(ids, keyID(uvarint(&keys))) {
			return true
		}
	}
	return false
}

// pathOf builds the path of entries[i] from its ancestors.
func pathOf(entries []posEntry, i int) string {
	var chain []int
	for ; i > 0; i = int(entries[i].parent) {
		chain = append(chain, i)
	}
	var b strings.Builder
	for k := len(chain) - 1; k >= 0; k-- {
		b.WriteString(segment(&entries[chain[k]], b.Len() == 0))
	}
	return b.String()
}

// segment is how e appears in a path: "[3]", "[app.kubernetes.io/name]",
// ".name", or "name" at the start.
func segment(e *posEntry, first bool) string {
	name := e.keyName()
	switch {
	case e.index >= 0:
		return "[" + strconv.Itoa(int(e.index)) + "]"
	case !isIdentifier(name):
		return "[" + name + "]"
	case first:
		return name
	}
	return "." + name
}

// Paths returns every recorded path in document order, the root "" first.
func (p *Positions) Paths() []string {
	entries := p.entries()
	if entries == nil {
		return nil
	}
	paths := make([]string, len(entries))
	for i := range entries {
		e := &entries[i]
		if e.parent < 0 {
			continue // the root
		}
		parent := paths[e.parent]
		paths[i] = parent + segment(e, parent == "")
	}
	return paths
}

// find walks path from the root as far as it was written. It returns the
// deepest entry reached (nil if there are no entries) and the length of the
// path prefix that names it. Walking from the root rather than trimming
// segments off the end keeps bracketed keys that contain dots intact.
func (p *Positions) find(path string) (entry posEntry, matched int, ok bool) {
	if p == nil || p.n == 0 {
		return posEntry{}, 0, false
	}
	// One pass in document order (pre-order): each segment's entry is a
	// child of the one before, later in the order and within its subtree.
	// Asked once for each finding, so it unpacks nothing it passes.
	r := p.reader()
	cur, at, rest := r.next(), int32(0), path
	for rest != "" {
		seg, bracketed, next, ok := nextSegment(rest)
		if !ok {
			break
		}
		child, self, found := nextChild(&r, at, seg, bracketed)
		if !found {
			break
		}
		cur, at, rest = child, self, next
	}
	return cur, len(path) - len(rest), true
}

// nextChild reads on to the entry under parent that seg names. A bracketed
// segment matches a sequence index or a map key: field.Path writes both as
// "[...]", and a node's children are never a mix of the two.
func nextChild(r *entryReader, parent int32, seg string, bracketed bool) (posEntry, int32, bool) {
	index := int32(-1)
	if bracketed {
		if n, err := strconv.Atoi(seg); err == nil && n >= 0 && n <= math.MaxInt32 {
			index = int32(n)
		}
	}
	// The parent's subtree ends at the first entry whose parent is before it.
	for r.more() {
		self := r.self
		e := r.next()
		if e.parent < parent {
			break
		}
		if e.parent != parent {
			continue
		}
		if e.index >= 0 && e.index == index || e.index < 0 && e.keyName() == seg {
			return e, self, true
		}
	}
	return posEntry{}, 0, false
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

// Same reports whether q places every field where p does.
func (p *Positions) Same(q *Positions) bool {
	if p == nil || q == nil {
		return p == q
	}
	return p.packed == q.packed && p.n == q.n && p.line == q.line && slices.Equal(p.yaml11Bools, q.yaml11Bools)
}
