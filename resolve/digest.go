package resolve

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// documentDigest identifies a document as written by the value it decodes
// to, so that a duplicate that repeats its first definition (in any key
// order or layout) can be told from one that changes it without keeping
// either document (Meta.digest; sameDocument), and a file read again can
// be told to hold the same objects (Inputs.KeepSame). Two documents have the
// same digest exactly when a json.Decoder with UseNumber decodes them into
// equal values (any, compared by reflect.DeepEqual): object members in key
// order, the last of a repeated key, strings as the text they decode to,
// numbers as written (80 and 80.0 are not the same port: the second is no
// int32). It is the first 64 bits of SHA-256 of that canonical form: in
// the standard library and hardware-accelerated here. Digests are only
// compared between definitions of one object, or readings of one file, so
// what a digest must resist is a second document made to match a given
// first one (about 2^64 tries). Eight bytes keep a small object's Meta a
// size class down (a file of 400,000 one-port Services holds 400,000 of
// them). The zero digest stands for a document that is not JSON, which is
// the same as no other.
type documentDigest [8]byte

// digestOf returns the digest of the JSON document doc.
func digestOf(doc []byte) documentDigest {
	c := canonicalizers.Get().(*canonicalizer)
	defer canonicalizers.Put(c)
	c.out, c.members = c.out[:0], c.members[:0]
	c.in, c.ok = doc, true
	end := c.value(c.skipSpace(0))
	if !c.ok || c.skipSpace(end) != len(doc) {
		return documentDigest{}
	}
	sum := sha256.Sum256(c.out)
	return documentDigest(sum[:len(documentDigest{})])
}

// canonicalizers recycle the buffers of digestOf: Load digests every
// document on every core.
var canonicalizers = sync.Pool{New: func() any { return new(canonicalizer) }}

// canonicalizer writes a JSON document's canonical form: a tag byte per
// value ('z' null, 't' true, 'f' false, 'n' and a length-prefixed number as written,
// 's' and a length-prefixed text, '[' values ']', '{' key-value pairs '}'),
// which no two different values share.
type canonicalizer struct {
	in      []byte
	out     []byte
	ok      bool
	members []member // of the objects being written, innermost last
	textAt  int      // where the text of the last string written starts in out
	reorder []byte   // where an object's members are put in key order
}

// member is one key-value pair of an object in canonicalizer.out: the
// pair's bytes from start to end, its key's text from key to value.
type member struct{ start, key, value, end int }

func (c *canonicalizer) skipSpace(i int) int {
	for i < len(c.in) && (c.in[i] == ' ' || c.in[i] == '\t' || c.in[i] == '\n' || c.in[i] == '\r') {
		i++
	}
	return i
}

// value writes the value at i and returns where it ends; on malformed
// input it clears c.ok.
func (c *canonicalizer) value(i int) int {
	if i >= len(c.in) {
		c.ok = false
		return i
	}
	switch b := c.in[i]; {
	case b == '{':
		return c.object(i + 1)
	case b == '[':
		return c.array(i + 1)
	case b == '"':
		return c.text(i)
	case bytes.HasPrefix(c.in[i:], []byte("null")):
		c.out = append(c.out, 'z')
		return i + 4
	case bytes.HasPrefix(c.in[i:], []byte("true")):
		c.out = append(c.out, 't')
		return i + 4
	case bytes.HasPrefix(c.in[i:], []byte("false")):
		c.out = append(c.out, 'f')
		return i + 5
	default:
		return c.number(i)
	}
}

func (c *canonicalizer) number(i int) int {
	end := i
	for end < len(c.in) && isNumberByte(c.in[end]) {
		end++
	}
	text := c.in[i:end]
	if !manifest.IsJSONNumber(string(text)) {
		c.ok = false
		return end
	}
	c.out = append(binary.AppendUvarint(append(c.out, 'n'), uint64(len(text))), text...)
	return end
}

// text writes the string whose opening quote is at i.
func (c *canonicalizer) text(i int) int {
	end := i + 1 + bytes.IndexByte(c.in[i+1:], '"')
	escaped := bytes.IndexByte(c.in[i+1:max(end, i+1)], '\\') >= 0
	if escaped { // the quote found may be escaped: find the closing one
		for end = i + 1; end < len(c.in) && c.in[end] != '"'; end++ {
			if c.in[end] == '\\' {
				end++
			}
		}
	}
	if end <= i || end >= len(c.in) {
		c.ok = false
		return len(c.in)
	}
	s := c.in[i+1 : end]
	if escaped || !utf8.Valid(s) {
		// Rare: let encoding/json resolve escapes and replace invalid
		// UTF-8 as it does when decoding.
		var decoded string
		if json.Unmarshal(c.in[i:end+1], &decoded) != nil {
			c.ok = false
			return end + 1
		}
		s = []byte(decoded)
	}
	c.out = append(binary.AppendUvarint(append(c.out, 's'), uint64(len(s))), s...)
	c.textAt = len(c.out) - len(s)
	return end + 1
}

func (c *canonicalizer) array(i int) int {
	c.out = append(c.out, '[')
	i = c.skipSpace(i)
	for first := true; c.ok && i < len(c.in) && c.in[i] != ']'; first = false {
		if !first {
			i = c.skipSpace(c.expect(i, ','))
		}
		i = c.skipSpace(c.value(i))
	}
	c.out = append(c.out, ']')
	return c.expect(i, ']')
}

func (c *canonicalizer) object(i int) int {
	c.out = append(c.out, '{')
	base := len(c.members)
	i = c.skipSpace(i)
	for first := true; c.ok && i < len(c.in) && c.in[i] != '}'; first = false {
		if !first {
			i = c.skipSpace(c.expect(i, ','))
		}
		if i >= len(c.in) || c.in[i] != '"' {
			c.ok = false
			break
		}
		m := member{start: len(c.out)}
		i = c.text(i)
		m.key, m.value = c.textAt, len(c.out)
		i = c.skipSpace(c.expect(c.skipSpace(i), ':'))
		i = c.skipSpace(c.value(i))
		m.end = len(c.out)
		c.members = append(c.members, m)
	}
	c.sortMembers(c.members[base:])
	c.members = c.members[:base]
	c.out = append(c.out, '}')
	return c.expect(i, '}')
}

// sortMembers rewrites an object's members in key order, keeping the last
// of a repeated key, as decoding into a map does. Members already in order
// (most of Kubernetes' metadata and spec are not) are left in place.
func (c *canonicalizer) sortMembers(ms []member) {
	key := func(m member) []byte { return c.out[m.key:m.value] }
	inOrder := true
	for j := 1; j < len(ms) && inOrder; j++ {
		inOrder = bytes.Compare(key(ms[j-1]), key(ms[j])) < 0 // a repeated key is out of order: one goes
	}
	if inOrder {
		return
	}
	start := ms[0].start
	slices.SortStableFunc(ms, func(a, b member) int { return bytes.Compare(key(a), key(b)) })
	c.reorder = c.reorder[:0]
	for j, m := range ms {
		if j+1 < len(ms) && bytes.Equal(key(m), key(ms[j+1])) {
			continue
		}
		c.reorder = append(c.reorder, c.out[m.start:m.end]...)
	}
	c.out = append(c.out[:start], c.reorder...)
}

func (c *canonicalizer) expect(i int, b byte) int {
	if i >= len(c.in) || c.in[i] != b {
		c.ok = false
		return i
	}
	return i + 1
}

func isNumberByte(b byte) bool {
	return '0' <= b && b <= '9' || b == '-' || b == '+' || b == '.' || b == 'e' || b == 'E'
}
