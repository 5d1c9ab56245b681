package crd

import (
	"regexp"
	"strings"
	"sync"
)

// typ is a structural schema's `type`. tAny is a schema without one (the
// branches of the address oneOf, for instance).
type typ uint8

const (
	tAny typ = iota
	tObject
	tArray
	tString
	tInteger
	tNumber
	tBoolean
)

var typNames = [...]string{tAny: "", tObject: "object", tArray: "array", tString: "string", tInteger: "integer", tNumber: "number", tBoolean: "boolean"}

func (t typ) String() string { return typNames[t] }

// format is a schema `format` the API server enforces. The generator drops
// the ones it would strip (StripUnsupportedFormatsPostProcessor) and fails on
// any it does not know, so a new CRD format cannot slip by unchecked.
type format uint8

const (
	fmtNone format = iota
	fmtInt32
	fmtInt64
	fmtIPv4
	fmtIPv6
	fmtDateTime
)

var formatNames = [...]string{fmtNone: "", fmtInt32: "int32", fmtInt64: "int64", fmtIPv4: "ipv4", fmtIPv6: "ipv6", fmtDateTime: "date-time"}

func (f format) String() string { return formatNames[f] }

// listType is x-kubernetes-list-type; only set and map carry a uniqueness
// invariant.
type listType uint8

const (
	listAtomic listType = iota
	listSet
	listMap
)

// bound is an optional integer limit; the zero value is "no limit".
type bound struct {
	set bool
	v   int64
}

// node is one structural schema node of a CRD version, generated from the
// pinned YAML (zz_generated_schemas.go). Everything is a plain composite
// literal so the linker initialises it statically: no parsing at init.
type node struct {
	typ      typ
	format   format
	nullable bool

	enum    []any // string or int64 values
	pattern *pattern

	minLength, maxLength         bound
	minItems, maxItems           bound
	minProperties, maxProperties bound

	// Every minimum/maximum in the Gateway API CRDs is integral (the
	// generator refuses anything else), so they are kept as int64 like the
	// integers they bound.
	minimum, maximum           bound
	exclusiveMin, exclusiveMax bool

	required   []string
	props      []prop // sorted by name
	additional *node  // additionalProperties schema
	items      *node

	listType listType
	mapKeys  []string

	// def returns a fresh copy of the schema default, or is nil. Numbers are
	// json.Number like in documents decoded with UseNumber.
	def func() any

	oneOf, anyOf []*node
	not          *node

	rules []uint16 // indexes into celRules
}

type prop struct {
	name string
	n    *node
}

// prop returns the schema of property name, or nil.
func (n *node) prop(name string) *node {
	lo, hi := 0, len(n.props)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		switch p := n.props[m].name; {
		case p == name:
			return n.props[m].n
		case p < name:
			lo = m + 1
		default:
			hi = m
		}
	}
	return nil
}

// at returns the schema of the value at path, in the field.Path form
// Violation.Path uses ("spec.rules[0].filters", "labels[app]"), or nil when
// n declares no such value. A bracket is a list index or a map key,
// whichever n has there.
func (n *node) at(path string) *node {
	for path != "" && n != nil {
		switch path[0] {
		case '.':
			path = path[1:]
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil
			}
			if n.items != nil {
				n = n.items
			} else {
				n = n.additional
			}
			path = path[end+1:]
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			n, path = n.prop(path[:end]), path[end:]
		}
	}
	return n
}

// pattern is a schema `pattern`. The API server matches it with Go's regexp
// (unanchored MatchString); gwlint checks the patterns the CRDs actually use
// with hand-written matchers (patterns.go, proven equal to the regexp by
// TestNativePatterns) and compiles any other one on first use.
type pattern struct {
	src   string
	once  sync.Once
	match func(string) bool
	// alpha is what alphabet returns, computed once.
	alphaOnce sync.Once
	alpha     func(rune) bool
}

func (p *pattern) matches(s string) bool {
	p.once.Do(func() {
		if f, ok := nativePatterns[p.src]; ok {
			p.match = f
			return
		}
		p.match = regexp.MustCompile(p.src).MatchString
	})
	return p.match(s)
}

// celRule is one x-kubernetes-validations entry (rule text and message; the
// same rule text can carry different messages at different places).
type celRule struct {
	src string
	msg string
}

// crdVersion is one served version of a CRD in one release and channel.
type crdVersion struct {
	group      string
	version    string
	kind       string
	namespaced bool
	root       *node
	// deprecation is the warning the API server sends for a version its
	// CRD marks deprecated; empty when it is not.
	deprecation string
}
