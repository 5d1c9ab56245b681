package resolve

import (
	"bytes"
	"encoding/binary"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"unique"
	"unsafe"
)

// DefaultedPaths is a set of field paths, kept compactly. Paths are
// recorded into a newline-separated buffer, then sealed into one string per
// object, each path stored as the length of the prefix it shares with the
// one before and the rest ("spec.rules[0].backendRefs[1].weight" after
// "spec.rules[0].backendRefs[1].kind" costs 8 bytes). Objects carry a few
// dozen defaulted paths and are asked about a handful, so a scan costs less
// than a map of path strings would in memory. The zero value is empty.
type DefaultedPaths struct {
	sealed string // front-coded paths (see seal)
	// buf holds the paths being recorded, each followed by '\n'; a pointer
	// (nil once sealed) keeps every object's Meta 16 bytes smaller.
	buf *[]byte
}

func (d *DefaultedPaths) add(path, suffix string) {
	if d.buf == nil {
		buf := scratch()
		d.each(func(p []byte) bool {
			*buf = append(append(*buf, p...), '\n')
			return true
		})
		d.buf, d.sealed = buf, ""
	}
	b := append(*d.buf, path...)
	b = append(b, suffix...)
	*d.buf = append(b, '\n')
}

// scratchBufs recycles the buffers objects are defaulted and sealed in:
// every object needs two, briefly.
var scratchBufs = sync.Pool{New: func() any { return new([]byte) }}

func scratch() *[]byte {
	b := scratchBufs.Get().(*[]byte)
	*b = (*b)[:0]
	return b
}

func recycle(b *[]byte) { scratchBufs.Put(b) }

// seal moves the recorded paths into their front-coded string. Objects of
// the same shape get the same defaults (every backendRef of every route
// gets a weight): interning keeps one copy of each set.
func (d *DefaultedPaths) seal() {
	if d.buf == nil {
		return
	}
	buf, out := *d.buf, *scratch()
	prev := ""
	for p := range lines(unsafe.String(unsafe.SliceData(buf), len(buf))) {
		shared := 0
		for shared < len(p) && shared < len(prev) && p[shared] == prev[shared] {
			shared++
		}
		out = binary.AppendUvarint(out, uint64(shared))
		out = binary.AppendUvarint(out, uint64(len(p)-shared))
		out = append(out, p[shared:]...)
		prev = p
	}
	// unique.Make copies what it keeps, so out can be a view.
	d.sealed = unique.Make(unsafe.String(unsafe.SliceData(out), len(out))).Value()
	recycle(d.buf)
	recycle(&out)
	d.buf = nil
}

// all yields the recorded paths in recording order.
func (d *DefaultedPaths) all() iter.Seq[string] {
	if d.buf != nil {
		return lines(string(*d.buf))
	}
	return func(yield func(string) bool) {
		d.each(func(p []byte) bool { return yield(string(p)) })
	}
}

// each calls f with every sealed path, in a buffer valid only during the
// call, until f returns false.
func (d *DefaultedPaths) each(f func([]byte) bool) {
	s := d.sealed
	var path []byte
	for s != "" {
		if path = nextPath(&s, path); !f(path) {
			return
		}
	}
}

// nextPath decodes from the front of the sealed paths s the path that
// follows prev, in prev's buffer, and moves s past it.
func nextPath(s *string, prev []byte) []byte {
	shared, rest := uvarint(s), uvarint(s)
	path := append(prev[:shared], (*s)[:rest]...)
	*s = (*s)[rest:]
	return path
}

// lines yields the newline-terminated lines of s.
func lines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for s != "" {
			i := strings.IndexByte(s, '\n')
			if !yield(s[:i]) {
				return
			}
			s = s[i+1:]
		}
	}
}

// Has reports whether path was recorded.
func (d *DefaultedPaths) Has(path string) bool { return d.hasJoined(path, "") }

// hasJoined is Has(path + suffix). It is asked for every backendRef of
// every route, so it compares in place, allocating nothing (for paths of
// up to 256 bytes).
func (d *DefaultedPaths) hasJoined(path, suffix string) bool {
	is := func(p []byte) bool {
		return len(p) == len(path)+len(suffix) && string(p[:len(path)]) == path && string(p[len(path):]) == suffix
	}
	if d.buf != nil {
		for b := *d.buf; len(b) > 0; {
			i := bytes.IndexByte(b, '\n')
			if is(b[:i]) {
				return true
			}
			b = b[i+1:]
		}
		return false
	}
	// The paths are decoded into a buffer on the stack, which each's
	// callback would make escape.
	var buf [256]byte
	p := buf[:0]
	for s := d.sealed; s != ""; {
		if p = nextPath(&s, p); is(p) {
			return true
		}
	}
	return false
}

// Len is the number of paths recorded.
func (d *DefaultedPaths) Len() int { return len(d.Paths()) }

// Paths returns the recorded paths, sorted, each once.
func (d *DefaultedPaths) Paths() []string {
	out := slices.Collect(d.all())
	if out == nil {
		return nil
	}
	sort.Strings(out)
	return slices.Compact(out)
}

// uvarint reads what binary.AppendUvarint wrote from the front of *s.
func uvarint(s *string) uint64 {
	v, n := binary.Uvarint(unsafe.Slice(unsafe.StringData(*s), len(*s)))
	*s = (*s)[n:]
	return v
}
