package manifest

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

const (
	// maxDepth bounds nesting. Kubernetes objects are a few dozen levels
	// deep at most; the bound keeps the recursive walk's stack small.
	maxDepth = 1000
	// minAliasBudget is how many nodes aliases and merge keys may expand to
	// in any file; every input byte adds one more. Expansion is thereby
	// linear in the input, which defeats billion-laughs documents without
	// rejecting real reuse.
	minAliasBudget = 100_000
	// linearDupScan is the mapping size up to which duplicate keys are found
	// by scanning the keys already written; larger mappings use a map.
	linearDupScan = 16
)

const aliasBudgetExceeded = "aliases and merge keys expand to too many nodes (a billion-laughs document?)"

// convError is a problem at one node while converting a document.
type convError struct {
	pos Pos
	msg string
	// template is set when unrendered template syntax would explain the
	// problem, so the reader can say so if the file has any.
	template bool
}

func (e *convError) Error() string { return e.msg }

func errorAt(n *yaml.Node, format string, args ...any) *convError {
	return &convError{pos: nodePos(n), msg: fmt.Sprintf(format, args...)}
}

func nodePos(n *yaml.Node) Pos { return Pos{Line: n.Line, Col: n.Column} }

func nodePos32(n *yaml.Node) pos32 { return pos32{int32(n.Line), int32(n.Column)} }

// converter turns yaml.Node trees into JSON and records where every field
// was written, in one walk. One converter serves one worker: its buffers are
// reused from object to object and each object gets exact-size copies.
type converter struct {
	buffer  []byte           // the file being read (reused for the next)
	file    string           // its name, as shown
	text    []byte           // its text (see decodeText)
	piece   piece            // the piece of text being read (see splitDocuments)
	buf     []byte           // JSON of the object being converted
	entries []posEntry       // positions of the object being converted
	packed  []byte           // the entries, packed
	keyIDs  map[string]keyID // keyNames' ids of the keys met so far
	keys    []string         // keys of the mappings being written, for duplicate checks
	// active holds the anchored nodes being written; an alias or merge of
	// one of them would recurse forever.
	active []*yaml.Node
	// aliasDepth > 0 while writing content reached through an alias or a
	// merge key; every such node spends one unit of aliasBudget.
	aliasDepth  int
	aliasBudget int
	yaml11Bools []int32 // see Positions.yaml11Bools
	fast        fastParser
}

// yaml11Bool reports whether a plain scalar is a YAML 1.1 boolean that
// YAML 1.2 reads as a string (true and false are booleans in both).
func yaml11Bool(s string) bool {
	switch s {
	case "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO",
		"on", "On", "ON", "off", "Off", "OFF":
		return true
	}
	return false
}

// pair is one mapping entry as it ends up in the JSON object.
type pair struct {
	name   string
	k, v   *yaml.Node
	merged bool // came from a merge key
}

// convert writes root (a mapping) as a JSON object and returns the JSON and
// the positions of its fields, relative to root.
// With aliased, root was reached through an alias, and every node written
// spends alias budget.
func (c *converter) convert(root *yaml.Node, aliased bool) ([]byte, *Positions, error) {
	c.buf = c.buf[:0]
	c.entries = append(c.entries[:0], posEntry{parent: -1, index: -1, key: nodePos32(root), val: nodePos32(root)})
	c.keys = c.keys[:0]
	c.yaml11Bools = c.yaml11Bools[:0]
	c.active = c.active[:0]
	c.aliasDepth = 0
	if aliased {
		c.aliasDepth = 1
	}
	if err := c.node(root, 0, 0); err != nil {
		return nil, nil, err
	}
	json := make([]byte, len(c.buf))
	copy(json, c.buf)
	var p *Positions
	p, c.packed = pack(c.packed, c.entries)
	if len(c.yaml11Bools) > 0 {
		p.yaml11Bools = append([]int32(nil), c.yaml11Bools...)
	}
	return json, p, nil
}

// node writes n, whose position entry is self.
func (c *converter) node(n *yaml.Node, self int32, depth int) error {
	if depth > maxDepth {
		return errorAt(n, "nesting is deeper than %d levels", maxDepth)
	}
	if c.aliasDepth > 0 {
		if c.aliasBudget--; c.aliasBudget < 0 {
			return errorAt(n, "%s", aliasBudgetExceeded)
		}
	}
	if n.Anchor != "" && n.Kind != yaml.ScalarNode {
		c.active = append(c.active, n)
		defer func() { c.active = c.active[:len(c.active)-1] }()
	}
	switch n.Kind {
	case yaml.MappingNode:
		return c.mapping(n, self, depth)
	case yaml.SequenceNode:
		c.buf = append(c.buf, '[')
		for i, item := range n.Content {
			if i > 0 {
				c.buf = append(c.buf, ',')
			}
			p := nodePos32(item)
			c.entries = append(c.entries, posEntry{parent: self, index: int32(i), key: p, val: p})
			if err := c.node(item, int32(len(c.entries)-1), depth+1); err != nil {
				return err
			}
		}
		c.buf = append(c.buf, ']')
		return nil
	case yaml.ScalarNode:
		if n.Style == 0 && n.Tag == "!!str" && yaml11Bool(n.Value) {
			c.yaml11Bools = append(c.yaml11Bools, self)
		}
		return c.scalar(n)
	case yaml.AliasNode:
		target, err := c.alias(n)
		if err != nil {
			return err
		}
		c.aliasDepth++
		err = c.node(target, self, depth+1)
		c.aliasDepth--
		return err
	}
	return errorAt(n, "unexpected YAML node kind %d", n.Kind)
}

// alias returns the node an alias refers to, refusing self-references.
func (c *converter) alias(n *yaml.Node) (*yaml.Node, error) {
	target := n.Alias
	if target == nil {
		return nil, errorAt(n, "alias *%s refers to no anchor", n.Value)
	}
	for _, a := range c.active {
		if a == target {
			return nil, errorAt(n, "alias *%s refers to a node that contains it", n.Value)
		}
	}
	return target, nil
}

// mapping writes n as a JSON object. Mappings without merge keys, nearly all
// of them, are written straight from n.Content.
func (c *converter) mapping(n *yaml.Node, self int32, depth int) error {
	for i := 0; i < len(n.Content); i += 2 {
		if isMergeKey(n.Content[i]) {
			pairs, err := c.pairs(n, depth)
			if err != nil {
				return err
			}
			return c.writePairs(pairs, self, depth)
		}
	}
	if len(n.Content)%2 != 0 {
		return errorAt(n, "mapping has a key without a value")
	}
	c.buf = append(c.buf, '{')
	// This mapping's keys follow keysStart in c.keys; nested mappings append
	// theirs after them and cut them off again when done.
	keysStart := len(c.keys)
	var seen map[string]*yaml.Node
	if len(n.Content)/2 > linearDupScan {
		seen = make(map[string]*yaml.Node, len(n.Content)/2)
	}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		name, err := c.key(k)
		if err != nil {
			return err
		}
		if seen != nil {
			if first, dup := seen[name]; dup {
				return duplicateKey(k, name, first)
			}
			seen[name] = k
		} else {
			for j, prev := range c.keys[keysStart:] {
				if prev == name {
					return duplicateKey(k, name, n.Content[2*j])
				}
			}
			c.keys = append(c.keys, name)
		}
		if err := c.entry(i > 0, name, k, v, self, depth); err != nil {
			return err
		}
	}
	c.keys = c.keys[:keysStart]
	c.buf = append(c.buf, '}')
	return nil
}

// entry writes one "name":value member of an object under self.
func (c *converter) entry(comma bool, name string, k, v *yaml.Node, self int32, depth int) error {
	if comma {
		c.buf = append(c.buf, ',')
	}
	c.buf = appendJSONString(c.buf, name)
	c.buf = append(c.buf, ':')
	c.entries = append(c.entries, posEntry{parent: self, index: -1, name: c.keyID(name), key: nodePos32(k), val: nodePos32(v)})
	return c.node(v, int32(len(c.entries)-1), depth+1)
}

// keyID interns name, asking the shared table only for names this worker
// has not met yet.
func (c *converter) keyID(name string) keyID {
	id, ok := c.keyIDs[name]
	if !ok {
		if c.keyIDs == nil {
			c.keyIDs = map[string]keyID{}
		}
		id = keyNames.id(name)
		// By the table's copy: name may be a view of the file's text.
		c.keyIDs[keyNames.name(id)] = id
	}
	return id
}

func (c *converter) writePairs(pairs []pair, self int32, depth int) error {
	c.buf = append(c.buf, '{')
	for i, p := range pairs {
		if p.merged {
			c.aliasDepth++
		}
		err := c.entry(i > 0, p.name, p.k, p.v, self, depth)
		if p.merged {
			c.aliasDepth--
		}
		if err != nil {
			return err
		}
	}
	c.buf = append(c.buf, '}')
	return nil
}

func duplicateKey(k *yaml.Node, name string, first *yaml.Node) error {
	return errorAt(k, "duplicate key %q (first at line %d)", name, first.Line)
}

func isMergeKey(k *yaml.Node) bool {
	return k.Kind == yaml.ScalarNode && k.Tag == "!!merge"
}

// pairs returns the members of a mapping with merge keys ("<<: *base" or
// "<<: [*a, *b]") resolved the YAML way: merged keys come first, earlier
// merge sources win over later ones, and the mapping's own keys override
// merged ones. Every member taken from a merge source spends alias budget,
// so chains of merges stay linear too.
func (c *converter) pairs(n *yaml.Node, depth int) ([]pair, error) {
	if depth > maxDepth {
		return nil, errorAt(n, "nesting is deeper than %d levels", maxDepth)
	}
	if len(n.Content)%2 != 0 {
		return nil, errorAt(n, "mapping has a key without a value")
	}
	var merged, own []pair
	ownKeys := map[string]*yaml.Node{}
	mergedKeys := map[string]bool{}
	for i := 0; i < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if !isMergeKey(k) {
			name, err := c.key(k)
			if err != nil {
				return nil, err
			}
			if first, dup := ownKeys[name]; dup {
				return nil, duplicateKey(k, name, first)
			}
			ownKeys[name] = k
			own = append(own, pair{name: name, k: k, v: v})
			continue
		}
		sources := []*yaml.Node{v}
		if v.Kind == yaml.SequenceNode {
			sources = v.Content
		}
		for _, src := range sources {
			srcPairs, err := c.mergeSource(src, depth)
			if err != nil {
				return nil, err
			}
			if c.aliasBudget -= len(srcPairs); c.aliasBudget < 0 {
				return nil, errorAt(k, "%s", aliasBudgetExceeded)
			}
			for _, p := range srcPairs {
				if !mergedKeys[p.name] {
					mergedKeys[p.name] = true
					p.merged = true
					merged = append(merged, p)
				}
			}
		}
	}
	out := merged[:0]
	for _, p := range merged {
		if _, overridden := ownKeys[p.name]; !overridden {
			out = append(out, p)
		}
	}
	return append(out, own...), nil
}

// mergeSource returns the members of one mapping named by a merge key.
func (c *converter) mergeSource(src *yaml.Node, depth int) ([]pair, error) {
	if src.Kind == yaml.AliasNode {
		var err error
		if src, err = c.alias(src); err != nil {
			return nil, err
		}
	}
	if src.Kind != yaml.MappingNode {
		return nil, errorAt(src, "a merge key (<<) needs a mapping or a sequence of mappings, found a %s", kindName(src))
	}
	if src.Anchor != "" {
		// src may itself merge one of the mappings being written.
		c.active = append(c.active, src)
		defer func() { c.active = c.active[:len(c.active)-1] }()
	}
	return c.pairs(src, depth+1)
}

// key returns a mapping key as a JSON member name. Like the API server's
// YAML decoder, it writes integer and boolean keys in canonical form
// (0x1F: → "31") and refuses keys that are not scalars.
func (c *converter) key(k *yaml.Node) (string, error) {
	if k.Kind == yaml.AliasNode {
		target, err := c.alias(k)
		if err != nil {
			return "", err
		}
		k = target
	}
	if k.Kind != yaml.ScalarNode {
		// `name: {{ .Values.name }}` parses as a mapping used as a key.
		err := errorAt(k, "a mapping key must be a scalar, found a %s", kindName(k))
		err.template = true
		return "", err
	}
	switch k.Tag {
	case "!!int":
		b, err := appendInt(nil, k)
		if err != nil {
			return "", err
		}
		return string(b), nil
	case "!!bool":
		b, err := appendBool(nil, k)
		if err != nil {
			return "", err
		}
		return string(b), nil
	case "!!null":
		return "null", nil
	}
	return k.Value, nil
}

// scalar writes a scalar by its resolved tag.
func (c *converter) scalar(n *yaml.Node) error {
	var err error
	switch n.Tag {
	case "!!int":
		c.buf, err = appendInt(c.buf, n)
	case "!!float":
		c.buf, err = appendFloat(c.buf, n)
	case "!!bool":
		c.buf, err = appendBool(c.buf, n)
	case "!!null":
		c.buf = append(c.buf, "null"...)
	default:
		// !!str, !!timestamp, !!binary and unknown tags keep their text.
		c.buf = appendJSONString(c.buf, n.Value)
	}
	return err
}

// appendInt writes a YAML integer (42, +42, 0x2A, 0o52, 052, 0b101010,
// 1_000) as a decimal JSON number. Integers beyond 64 bits stay as written
// when they are valid JSON numbers.
func appendInt(buf []byte, n *yaml.Node) ([]byte, error) {
	s := n.Value
	if isPlainDecimal(s) {
		return append(buf, s...), nil
	}
	s = strings.ReplaceAll(s, "_", "")
	if v, err := strconv.ParseInt(s, 0, 64); err == nil {
		return strconv.AppendInt(buf, v, 10), nil
	}
	if v, err := strconv.ParseUint(s, 0, 64); err == nil {
		return strconv.AppendUint(buf, v, 10), nil
	}
	s = strings.TrimPrefix(s, "+")
	if IsJSONNumber(s) && !strings.ContainsAny(s, ".eE") {
		return append(buf, s...), nil
	}
	return buf, errorAt(n, "%q is not an integer", n.Value)
}

// appendFloat writes a YAML float as a JSON number, as written when that is
// valid JSON (which keeps the digits of integers too big for 64 bits) and
// else in Go's shortest form. JSON has no infinity or NaN.
func appendFloat(buf []byte, n *yaml.Node) ([]byte, error) {
	if IsJSONNumber(n.Value) {
		return append(buf, n.Value...), nil
	}
	switch strings.TrimLeft(n.Value, "+-") {
	case ".inf", ".Inf", ".INF", ".nan", ".NaN", ".NAN":
		return buf, errorAt(n, "%s cannot be represented in JSON: it has no infinity or NaN", n.Value)
	}
	f, err := strconv.ParseFloat(strings.ReplaceAll(n.Value, "_", ""), 64)
	if err != nil {
		return buf, errorAt(n, "%q is not a number", n.Value)
	}
	if math.IsInf(f, 0) || math.IsNaN(f) {
		return buf, errorAt(n, "%s cannot be represented in JSON: it has no infinity or NaN", n.Value)
	}
	return strconv.AppendFloat(buf, f, 'g', -1, 64), nil
}

func appendBool(buf []byte, n *yaml.Node) ([]byte, error) {
	switch n.Value {
	case "true", "True", "TRUE":
		return append(buf, "true"...), nil
	case "false", "False", "FALSE":
		return append(buf, "false"...), nil
	}
	return buf, errorAt(n, "%q is not a boolean", n.Value)
}

// isPlainDecimal reports whether s is a decimal integer already in JSON
// form: the common case, written without parsing.
func isPlainDecimal(s string) bool {
	i := 0
	if len(s) > 1 && s[0] == '-' {
		i = 1
	}
	if i == len(s) || (s[i] == '0' && len(s) > i+1) || len(s)-i > 18 {
		return false // empty, leading zero (octal in YAML) or maybe beyond int64
	}
	for ; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// IsJSONNumber reports whether s matches the JSON number grammar
// -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
func IsJSONNumber(s string) bool {
	i := 0
	if i < len(s) && s[i] == '-' {
		i++
	}
	digits := func() int {
		start := i
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		return i - start
	}
	if i < len(s) && s[i] == '0' {
		i++
	} else if digits() == 0 {
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

const hexDigits = "0123456789abcdef"

// appendJSONString writes s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// as encoding/json does.
func appendJSONString(buf []byte, s string) []byte {
	buf = append(buf, '"')
	start := 0 // s[start:i] is pending, needing no escapes
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < utf8.RuneSelf {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			buf = append(buf, s[start:i]...)
			buf = append(buf, `\ufffd`...)
			i++
			start = i
			continue
		}
		buf = append(buf, s[start:i]...)
		switch c {
		case '"', '\\':
			buf = append(buf, '\\', c)
		case '\n':
			buf = append(buf, '\\', 'n')
		case '\r':
			buf = append(buf, '\\', 'r')
		case '\t':
			buf = append(buf, '\\', 't')
		default:
			buf = append(buf, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xF])
		}
		i++
		start = i
	}
	buf = append(buf, s[start:]...)
	return append(buf, '"')
}

// kindName names a node kind for error messages.
func kindName(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "sequence"
	case yaml.AliasNode:
		return "alias"
	}
	return "scalar"
}
