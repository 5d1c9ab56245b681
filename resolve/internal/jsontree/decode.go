package jsontree

import (
	"cmp"
	"encoding"
	"encoding/json"
	"hash/maphash"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// Decode stores node, a value of the tree, in the value v points to, as
// json.Unmarshal of node's JSON would, and reports whether it did. It
// reports false, leaving v partly written, wherever it cannot be sure to
// do exactly what encoding/json does: a value of the wrong type, a number
// out of range, a key matching a field only case-insensitively, a
// duplicate key, a ",string" field, a json.Unmarshaler given an object or
// a list... The caller then decodes with encoding/json, whose errors are
// the ones reported: Decode only has to be right for documents that decode
// without error.
//
// v must point to a zero value, but for interfaces holding a pointer,
// which are decoded through as encoding/json does (a document's spec
// decoded into its typed struct). The result shares no memory with the
// tree, which can be released after.
func (t Tree) Decode(node any, v any) bool {
	if !t.exact {
		return false
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.IsNil() {
		return false
	}
	t.shared = stringTables.Get().(*stringTable)
	defer stringTables.Put(t.shared)
	return t.through(rv, node, planFor(rv.Type().Elem()))
}

// stringTable shares the strings decoded objects hold: kinds, groups,
// namespaces, Gateway and Service names, label keys repeat across a
// repository's objects, and one copy of each (per table) costs less than
// one per field. It is a direct-mapped cache: a string's hash picks its
// one slot, a string found there is shared, any other takes the slot
// over. Strings that repeat often keep their slots; it never grows, never
// rehashes and needs no clearing, where a map did all three for each
// table the pool handed out afresh. Strings longer than maxSharedLen are
// copied, as few of those repeat.
type stringTable struct {
	seed  maphash.Seed
	slots [sharedSlots]string
}

const (
	sharedSlots  = 1 << 14
	maxSharedLen = 64
)

// stringTables are taken by Decode for a document's strings: one per
// core at a time, so the table a worker fills serves its next document.
var stringTables = sync.Pool{New: func() any { return &stringTable{seed: maphash.MakeSeed()} }}

// share returns s's copy in the table, making one when there is none.
func (st *stringTable) share(s string) string {
	if len(s) > maxSharedLen {
		return strings.Clone(s)
	}
	slot := &st.slots[maphash.String(st.seed, s)&(sharedSlots-1)]
	if *slot == s {
		return *slot
	}
	c := strings.Clone(s)
	*slot = c
	return c
}

// how is the way a Go type is decoded.
type how uint8

const (
	unsupported    how = iota // Decode leaves it to encoding/json
	viaUnmarshaler            // its pointer is a json.Unmarshaler
	viaJSON                   // by json.Unmarshal of a scalar: an encoding.TextUnmarshaler, []byte from base64
	asString
	asNumber // json.Number
	asBool
	asInt
	asUint
	asFloat
	asPointer
	asSlice
	asMap
	asStruct
	asInterface // an empty interface: what json.Unmarshal gives an `any`
)

// plan is how one Go type is decoded; plans are built once per type and
// shared by every decoding.
type plan struct {
	how how
	// ptrHow is how a freshly allocated pointer to the type is decoded:
	// through its methods (viaUnmarshaler, viaJSON) or not (asPointer).
	ptrHow how
	typ    reflect.Type
	elem   planRef // of a pointer's, slice's or map's elements
	bytes  bool    // a slice of bytes: base64 from a string
	fields map[string]*field
	// folded are the fields' names folded as encoding/json folds them: a
	// key matching one of them only this way is left to encoding/json.
	folded map[string]bool
}

// field is a struct field encoding/json decodes, reached through index as
// reflect.Value.FieldByIndex does (through embedded structs).
type field struct {
	index  []int
	plan   planRef
	quoted bool // the ",string" option
}

// planRef is the plan of a type that a plan holds (its elements', a
// field's), found on first use: building up front the plans of every type
// reachable from a decoded one cost a one-file check more than its decoding.
type planRef struct {
	typ reflect.Type
	p   atomic.Pointer[plan]
}

func (r *planRef) get() *plan {
	if p := r.p.Load(); p != nil {
		return p
	}
	p := planFor(r.typ)
	r.p.Store(p)
	return p
}

var (
	plans     sync.Map // reflect.Type → *plan
	jsonUnm   = reflect.TypeFor[json.Unmarshaler]()
	textUnm   = reflect.TypeFor[encoding.TextUnmarshaler]()
	numberTyp = reflect.TypeFor[json.Number]()
	stringMap = reflect.TypeFor[map[string]string]()
)

func planFor(t reflect.Type) *plan {
	if p, ok := plans.Load(t); ok {
		return p.(*plan)
	}
	// Building is cheap and has no effect: when two decodings build the
	// same plan at once, one is kept.
	p, _ := plans.LoadOrStore(t, buildPlan(t))
	return p.(*plan)
}

// buildPlan builds t's plan; those of the types it holds are built when
// first used (planRef).
func buildPlan(t reflect.Type) *plan {
	p := &plan{typ: t}
	// encoding/json's indirect: a named value is decoded through its
	// address's methods, a pointer through its own once allocated.
	switch pt := reflect.PointerTo(t); {
	case pt.Implements(jsonUnm):
		p.ptrHow = viaUnmarshaler
	case pt.Implements(textUnm):
		p.ptrHow = viaJSON
	default:
		p.ptrHow = asPointer
	}
	if t.Kind() != reflect.Pointer && t.Name() != "" && p.ptrHow != asPointer {
		p.how = p.ptrHow
		return p
	}
	switch t.Kind() {
	case reflect.String:
		p.how = asString
		if t == numberTyp {
			p.how = asNumber
		}
	case reflect.Bool:
		p.how = asBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.how = asInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.how = asUint
	case reflect.Float32, reflect.Float64:
		p.how = asFloat
	case reflect.Pointer:
		p.how, p.elem.typ = asPointer, t.Elem()
	case reflect.Slice:
		p.how, p.elem.typ, p.bytes = asSlice, t.Elem(), t.Elem().Kind() == reflect.Uint8
	case reflect.Map:
		if k := t.Key(); k.Kind() == reflect.String && !reflect.PointerTo(k).Implements(textUnm) {
			p.how, p.elem.typ = asMap, t.Elem()
		}
	case reflect.Struct:
		p.how = asStruct
		p.fields, p.folded = map[string]*field{}, map[string]bool{}
		for _, f := range typeFields(t) {
			p.fields[f.name] = &field{index: f.index, plan: planRef{typ: f.typ}, quoted: f.quoted}
			p.folded[string(appendFolded(nil, f.name))] = true
		}
	case reflect.Interface:
		if t.NumMethod() == 0 {
			p.how = asInterface
		}
	}
	return p
}

// through decodes node into what ptr, a non-nil pointer to a value of
// elem's type, points to, as encoding/json does past a pointer: through the
// pointer's methods when it has them.
func (t Tree) through(ptr reflect.Value, node any, elem *plan) bool {
	switch elem.ptrHow {
	case viaUnmarshaler:
		raw, ok := t.raw(node)
		return ok && ptr.Interface().(json.Unmarshaler).UnmarshalJSON(raw) == nil
	case viaJSON:
		raw, ok := t.raw(node)
		return ok && json.Unmarshal(raw, ptr.Interface()) == nil
	}
	return t.value(ptr.Elem(), node, elem)
}

// value decodes node into v, a settable zero value of p's type.
func (t Tree) value(v reflect.Value, node any, p *plan) bool {
	switch p.how {
	case viaUnmarshaler, viaJSON:
		return t.through(v.Addr(), node, p)
	case asPointer:
		if node == nil {
			v.SetZero()
			return true
		}
		ptr := reflect.New(p.elem.typ)
		v.Set(ptr)
		return t.through(ptr, node, p.elem.get())
	case asInterface:
		// encoding/json decodes through a non-nil pointer an interface
		// holds (but a null into a pointer to a non-pointer), and
		// replaces anything else.
		if !v.IsNil() {
			if e := v.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() && (node != nil || e.Elem().Kind() == reflect.Pointer) {
				return t.through(e, node, planFor(e.Type().Elem()))
			}
		}
		x, ok := fresh(node)
		if ok {
			if x == nil {
				v.SetZero()
			} else {
				v.Set(reflect.ValueOf(x))
			}
		}
		return ok
	}
	switch x := node.(type) {
	case nil:
		if k := v.Kind(); k == reflect.Map || k == reflect.Slice {
			v.SetZero()
		}
		return p.how != unsupported // other kinds ignore a null
	case string:
		switch p.how {
		case asString:
			v.SetString(t.clone(x))
			return true
		case asSlice:
			if p.bytes {
				raw, ok := t.raw(node)
				return ok && json.Unmarshal(raw, v.Addr().Interface()) == nil
			}
		}
	case bool:
		if p.how == asBool {
			v.SetBool(x)
			return true
		}
	case json.Number:
		return t.number(v, x, p)
	case []any:
		if p.how != asSlice {
			return false
		}
		s := reflect.MakeSlice(p.typ, len(x), len(x))
		for i, it := range x {
			if !t.value(s.Index(i), it, p.elem.get()) {
				return false
			}
		}
		v.Set(s)
		return true
	case map[string]any:
		switch p.how {
		case asStruct:
			return t.object(v, x, p)
		case asMap:
			if p.typ == stringMap {
				// Labels and annotations, without reflection.
				return t.strings(v.Addr().Interface().(*map[string]string), x)
			}
			m := reflect.MakeMapWithSize(p.typ, len(x))
			key, e := reflect.New(p.typ.Key()).Elem(), reflect.New(p.elem.typ).Elem()
			for k, it := range x {
				e.SetZero()
				if !t.value(e, it, p.elem.get()) {
					return false
				}
				key.SetString(t.clone(k))
				m.SetMapIndex(key, e)
			}
			v.Set(m)
			return true
		}
	}
	return false
}

// strings decodes an object into a map[string]string.
func (t Tree) strings(m *map[string]string, obj map[string]any) bool {
	*m = make(map[string]string, len(obj))
	for k, it := range obj {
		switch x := it.(type) {
		case string:
			(*m)[t.clone(k)] = t.clone(x)
		case nil:
			(*m)[t.clone(k)] = "" // encoding/json ignores a null into a string
		default:
			return false
		}
	}
	return true
}

// number stores a number as encoding/json's literalStore does.
func (t Tree) number(v reflect.Value, x json.Number, p *plan) bool {
	s := string(x)
	switch p.how {
	case asNumber:
		v.SetString(t.clone(s))
		return true
	case asInt:
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || v.OverflowInt(n) {
			return false
		}
		v.SetInt(n)
		return true
	case asUint:
		n, err := strconv.ParseUint(s, 10, 64)
		if err != nil || v.OverflowUint(n) {
			return false
		}
		v.SetUint(n)
		return true
	case asFloat:
		n, err := strconv.ParseFloat(s, p.typ.Bits())
		if err != nil || v.OverflowFloat(n) {
			return false
		}
		v.SetFloat(n)
		return true
	}
	return false
}

// object decodes an object into a struct.
func (t Tree) object(v reflect.Value, obj map[string]any, p *plan) bool {
	for k, node := range obj {
		f := p.fields[k]
		if f == nil {
			var buf [32]byte
			if p.folded[string(appendFolded(buf[:0], k))] {
				return false // the case-insensitive match: order matters there
			}
			continue // encoding/json ignores unknown keys
		}
		if f.quoted {
			return false
		}
		fv := v
		for _, ix := range f.index {
			if fv.Kind() == reflect.Pointer {
				// An embedded pointer to a struct, allocated on the
				// way to its field.
				if fv.IsNil() {
					if !fv.CanSet() {
						return false
					}
					fv.Set(reflect.New(fv.Type().Elem()))
				}
				fv = fv.Elem()
			}
			fv = fv.Field(ix)
		}
		if !t.value(fv, node, f.plan.get()) {
			return false
		}
	}
	return true
}

// fresh is node as json.Unmarshal decodes into an empty interface (numbers
// as float64), sharing no memory with the tree.
func fresh(node any) (any, bool) {
	switch x := node.(type) {
	case string:
		return strings.Clone(x), true
	case json.Number:
		f, err := strconv.ParseFloat(string(x), 64)
		return f, err == nil
	case []any:
		l := make([]any, len(x))
		for i, it := range x {
			var ok bool
			if l[i], ok = fresh(it); !ok {
				return nil, false
			}
		}
		return l, true
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, it := range x {
			v, ok := fresh(it)
			if !ok {
				return nil, false
			}
			m[strings.Clone(k)] = v
		}
		return m, true
	}
	return node, true // nil, bool
}

// raw returns a scalar's JSON exactly as the document wrote it, which is
// what encoding/json gives a json.Unmarshaler; false for objects, lists and
// strings whose text the tree does not hold (escaped ones).
func (t Tree) raw(node any) ([]byte, bool) {
	switch x := node.(type) {
	case nil:
		return []byte("null"), true
	case bool:
		if x {
			return []byte("true"), true
		}
		return []byte("false"), true
	case json.Number:
		if off, ok := t.offset(string(x)); ok {
			return t.data[off : off+len(x) : off+len(x)], true
		}
		return []byte(x), true
	case string:
		if x == "" {
			return []byte(`""`), true
		}
		if off, ok := t.offset(x); ok && off > 0 && off+len(x) < len(t.data) && t.data[off-1] == '"' && t.data[off+len(x)] == '"' {
			return t.data[off-1 : off+len(x)+1 : off+len(x)+1], true
		}
	}
	return nil, false
}

// offset returns where s lies in the parsed data when it shares its
// memory.
func (t Tree) offset(s string) (int, bool) {
	if s == "" || len(t.data) == 0 {
		return 0, false
	}
	base := uintptr(unsafe.Pointer(unsafe.SliceData(t.data)))
	p := uintptr(unsafe.Pointer(unsafe.StringData(s)))
	if p < base || p+uintptr(len(s)) > base+uintptr(len(t.data)) {
		return 0, false
	}
	return int(p - base), true
}

// clone copies a string that shares the parsed data's memory, so that the
// decoded value does not keep the data alive, or finds its copy in the
// table of Decode.
func (t Tree) clone(s string) string {
	if _, inData := t.offset(s); inData {
		return t.shared.share(s)
	}
	return s
}

// typeField is a struct field as encoding/json's typeFields finds it.
type typeField struct {
	name   string
	tagged bool
	index  []int
	typ    reflect.Type
	quoted bool
}

// typeFields returns the fields encoding/json decodes for t: its exported
// fields and those of its embedded structs, by their JSON names, with Go's
// rules for hiding embedded fields modified by JSON tags (a copy of
// encoding/json's typeFields, without what only encoding needs).
func typeFields(t reflect.Type) []typeField {
	current := []typeField{}
	next := []typeField{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var fields []typeField
	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := 0; i < f.typ.NumField(); i++ {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					t := sf.Type
					if t.Kind() == reflect.Pointer {
						t = t.Elem()
					}
					if !sf.IsExported() && t.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag := sf.Tag.Get("json")
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				if !isValidTag(name) {
					name = ""
				}
				index := make([]int, len(f.index)+1)
				copy(index, f.index)
				index[len(f.index)] = i
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				quoted := false
				if hasOption(opts, "string") {
					switch ft.Kind() {
					case reflect.Bool,
						reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
						reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
						reflect.Float32, reflect.Float64,
						reflect.String:
						quoted = true
					}
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					tagged := name != ""
					if name == "" {
						name = sf.Name
					}
					// The field's own type, not ft: a pointer field
					// is decoded as one.
					fields = append(fields, typeField{name: name, tagged: tagged, index: index, typ: sf.Type, quoted: quoted})
					if count[f.typ] > 1 {
						// A second copy, so that the annihilation
						// below sees a duplicate.
						fields = append(fields, fields[len(fields)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, typeField{name: ft.Name(), index: index, typ: ft})
				}
			}
		}
	}
	// By name, then depth, then tagged first, then index sequence.
	slices.SortFunc(fields, func(a, b typeField) int {
		if c := cmp.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return +1
		}
		return slices.Compare(a.index, b.index)
	})
	out := fields[:0]
	for advance, i := 0, 0; i < len(fields); i += advance {
		fi := fields[i]
		for advance = 1; i+advance < len(fields); advance++ {
			if fields[i+advance].name != fi.name {
				break
			}
		}
		if advance == 1 {
			out = append(out, fi)
			continue
		}
		// The first is dominant unless the next is as shallow and as
		// tagged: then Go's rules hide both.
		if next := fields[i+1]; len(fi.index) != len(next.index) || fi.tagged != next.tagged {
			out = append(out, fi)
		}
	}
	return out
}

func hasOption(opts, name string) bool {
	for opts != "" {
		var o string
		o, opts, _ = strings.Cut(opts, ",")
		if o == name {
			return true
		}
	}
	return false
}

func isValidTag(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case strings.ContainsRune("!#$%&()*+-./:;<=>?@[]^_{|}~ ", c):
		case !unicode.IsLetter(c) && !unicode.IsDigit(c):
			return false
		}
	}
	return true
}

// appendFolded appends s folded as encoding/json's foldName folds it: ASCII
// letters upper-cased, other runes replaced by the smallest rune of their
// fold set.
func appendFolded(out []byte, s string) []byte {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			if 'a' <= c && c <= 'z' {
				c -= 'a' - 'A'
			}
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		for {
			r2 := unicode.SimpleFold(r)
			if r2 <= r {
				r = r2
				break
			}
			r = r2
		}
		out = utf8.AppendRune(out, r)
		i += n
	}
	return out
}
