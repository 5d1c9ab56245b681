package jsontree

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
	"unicode/utf8"
	"unsafe"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Tree is one JSON object parsed once, for every reader of it: the typed
// decoding (Decode), the CRD validation and the placeholder scan.
type Tree struct {
	// Root is the object the way a json.Decoder with UseNumber decodes it
	// (numbers as json.Number, a later duplicate key winning). Its strings
	// may share the parsed data's memory, and its maps are recycled by
	// Release.
	Root map[string]any
	data []byte
	// exact: built by the parser below from data, with no duplicate key,
	// so Decode can tell what encoding/json would do with it.
	exact bool
	// shared is the table Decode copies the strings it decodes through.
	shared *stringTable
}

// Parse parses data, a JSON object, into a Tree: in one pass and from
// recycled maps for package manifest's own output, by encoding/json (with
// UseNumber) for anything else. It reports false when data is not a JSON
// object.
//
// data must not be modified while the tree is in use.
func Parse(data []byte) (Tree, bool) {
	items := listItems.Get().(*[]any)
	p := genericParser{data: data, items: (*items)[:0]}
	obj, ok := p.object()
	*items = p.items[:0]
	listItems.Put(items)
	if ok {
		return Tree{Root: obj, data: data, exact: !p.dupKeys}, true
	}
	var root map[string]any
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	if dec.Decode(&root) != nil || root == nil {
		return Tree{}, false
	}
	return Tree{Root: root, data: data}, true
}

// Release hands the maps of the tree back for the next tree to reuse. The
// tree, and anything still referring to its maps, must not be used after.
func (t Tree) Release() {
	if t.Root != nil {
		releaseGeneric(t.Root)
	}
}

// object decodes a JSON object into map[string]any the way a json.Decoder
// with UseNumber does (numbers as json.Number, later duplicate keys
// winning), in one pass. It is written for the reader's own output:
// compact, well-formed JSON. It reports false for anything it does not
// expect (Parse then uses encoding/json), so it never has to be right
// about malformed input.
//
// Keys, strings and numbers without escapes share data's memory instead of
// being copied.
func (p *genericParser) object() (map[string]any, bool) {
	p.space()
	if p.i >= len(p.data) || p.data[p.i] != '{' {
		return nil, false
	}
	v, ok := p.value(0)
	if !ok {
		return nil, false
	}
	p.space()
	if p.i != len(p.data) {
		return nil, false
	}
	m, _ := v.(map[string]any)
	return m, m != nil
}

// genericMaps recycles the maps of validation trees, most of what loading
// allocates: a tree is dropped as soon as its object is validated (see
// releaseGeneric), and the next object's tree reuses its maps.
var genericMaps = sync.Pool{New: func() any { return map[string]any{} }}

// releaseGeneric hands the maps of a tree that nothing refers to any more
// back to genericMaps. Maps grown beyond one group of entries are left to
// the collector, so that a rare large map does not stay pooled.
func releaseGeneric(v any) {
	switch x := v.(type) {
	case map[string]any:
		for _, c := range x {
			releaseGeneric(c)
		}
		if len(x) <= 8 {
			clear(x)
			genericMaps.Put(x)
		}
	case []any:
		for _, c := range x {
			releaseGeneric(c)
		}
	}
}

type genericParser struct {
	data    []byte
	i       int
	dupKeys bool // an object had a key twice
	// items holds the items of the lists being read, innermost last: a
	// list is allocated once, at its length, when its last item is read.
	items []any
}

// listItems recycles genericParser.items.
var listItems = sync.Pool{New: func() any { return new([]any) }}

// maxGenericDepth bounds recursion; deeper documents go to encoding/json.
const maxGenericDepth = 1000

func (p *genericParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *genericParser) value(depth int) (any, bool) {
	if depth > maxGenericDepth {
		return nil, false
	}
	p.space()
	if p.i >= len(p.data) {
		return nil, false
	}
	switch c := p.data[p.i]; {
	case c == '{':
		p.i++
		m := genericMaps.Get().(map[string]any)
		p.space()
		if p.i < len(p.data) && p.data[p.i] == '}' {
			p.i++
			return m, true
		}
		for {
			p.space()
			k, ok := p.str()
			if !ok {
				return nil, false
			}
			p.space()
			if p.i >= len(p.data) || p.data[p.i] != ':' {
				return nil, false
			}
			p.i++
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			n := len(m)
			if m[k] = v; len(m) == n {
				p.dupKeys = true
			}
			if done, ok := p.after('}'); !ok || done {
				return m, ok
			}
		}
	case c == '[':
		p.i++
		p.space()
		if p.i < len(p.data) && p.data[p.i] == ']' {
			p.i++
			return []any{}, true
		}
		base := len(p.items)
		defer func() {
			clear(p.items[base:]) // what the pool keeps holds no value
			p.items = p.items[:base]
		}()
		for {
			v, ok := p.value(depth + 1)
			if !ok {
				return nil, false
			}
			p.items = append(p.items, v)
			if done, ok := p.after(']'); !ok || done {
				return slices.Clone(p.items[base:]), ok
			}
		}
	case c == '"':
		return p.str()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		start := p.i
		for p.i < len(p.data) {
			c := p.data[p.i]
			if c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' || ('0' <= c && c <= '9') {
				p.i++
				continue
			}
			break
		}
		s := p.shared(start, p.i)
		if !manifest.IsJSONNumber(s) {
			return nil, false
		}
		return json.Number(s), true
	}
	return nil, false
}

func (p *genericParser) literal(lit string) bool {
	if len(p.data)-p.i < len(lit) || string(p.data[p.i:p.i+len(lit)]) != lit {
		return false
	}
	p.i += len(lit)
	return true
}

// str reads a string; escaped or non-UTF-8 strings are left to
// encoding/json.
func (p *genericParser) str() (string, bool) {
	if p.i >= len(p.data) || p.data[p.i] != '"' {
		return "", false
	}
	start := p.i + 1
	ascii := true
	for j := start; j < len(p.data); j++ {
		switch c := p.data[j]; {
		case c == '"':
			p.i = j + 1
			b := p.data[start:j]
			if !ascii && !utf8.Valid(b) {
				var s string
				if json.Unmarshal(p.data[start-1:j+1], &s) != nil {
					return "", false
				}
				return s, true
			}
			return p.shared(start, j), true
		case c == '\\':
			// Find the closing quote, skipping escapes, and let
			// encoding/json unescape.
			for j < len(p.data) {
				if p.data[j] == '\\' {
					j += 2
					continue
				}
				if p.data[j] == '"' {
					var s string
					if json.Unmarshal(p.data[start-1:j+1], &s) != nil {
						return "", false
					}
					p.i = j + 1
					return s, true
				}
				j++
			}
			return "", false
		case c < 0x20:
			return "", false
		case c >= utf8.RuneSelf:
			ascii = false
		}
	}
	return "", false
}

// shared returns data[start:end] as a string sharing data's memory.
func (p *genericParser) shared(start, end int) string {
	if start == end {
		return ""
	}
	return unsafe.String(&p.data[start], end-start)
}

// after reads what follows a member of an object or array: a comma (more
// to come) or closer (done); anything else is malformed.
func (p *genericParser) after(closer byte) (done, ok bool) {
	p.space()
	switch {
	case p.i >= len(p.data):
		return false, false
	case p.data[p.i] == ',':
		p.i++
		return false, true
	case p.data[p.i] == closer:
		p.i++
		return true, true
	}
	return false, false
}
