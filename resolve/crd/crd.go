package crd

//go:generate go run -tags gwlintdev ./internal/gen/cmd/gen -o zz_generated_schemas.go

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/gwlint/gwlint/resolve/internal/jsontree"
	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Channel is a Gateway API release channel: the set of CRDs installed.
type Channel int

// The release channels.
const (
	Standard Channel = iota
	Experimental
)

// ParseChannel reads a release channel's name: "standard" or
// "experimental".
func ParseChannel(name string) (Channel, error) {
	switch name {
	case "standard":
		return Standard, nil
	case "experimental":
		return Experimental, nil
	}
	return Standard, fmt.Errorf("unknown channel %q (want standard or experimental)", name)
}

// String is the channel's name, as ParseChannel reads it.
func (ch Channel) String() string {
	if ch == Experimental {
		return "experimental"
	}
	return "standard"
}

// Violation is one thing the API server would reject. Path uses the
// k8s.io/apimachinery field.Path String() form: "spec.rules[0].backendRefs[1].port",
// map keys in brackets. For list-map uniqueness it points at the duplicate item.
type Violation struct {
	Path    string
	Type    string // field.ErrorType String(): "Required value", "Unsupported value", "Invalid value", "Too long", "Too many", "Duplicate value", "Forbidden", "Unknown field"...
	Message string // as close to the API server's text as practical, e.g. `Unsupported value: "Foo": supported values: "Exact", "PathPrefix", "RegularExpression"` or the CEL rule's message
	// StandardOnly: the standard channel was assumed, not named, and the
	// experimental channel's CRDs accept what its CRDs refuse here.
	StandardOnly bool
	// AddedIn names, for an unknown field, the newer release that added
	// it: "v1.4.0", or "v1.4.0 (experimental)" when only the experimental
	// channel of a newer release has it. Empty when no newer release has
	// the field, or the release's own experimental channel does (the
	// channel is what lacks it then, not the release), and always under
	// the pinned release (the default's messages do not change when a
	// newer release is added). The Message ends with "; added in " and
	// AddedIn.
	AddedIn string
}

// TypeUnknownField is the Violation.Type of a field the schema does not
// declare: the API server prunes it, or rejects it with strict field
// validation (kubectl's default for server-side apply and create).
const TypeUnknownField = "Unknown field"

// Known reports whether group/version/kind is a CRD version c serves.
func Known(apiVersion, kind string, c CRDs) bool {
	return lookup(apiVersion, kind, c) != nil
}

// Deprecation returns the warning the API server sends with every request
// in apiVersion, when c serves it and its CRD marks it deprecated (the
// CRD's deprecationWarning), and "" otherwise.
func Deprecation(apiVersion, kind string, c CRDs) string {
	if v := lookup(apiVersion, kind, c); v != nil {
		return v.deprecation
	}
	return ""
}

// Served returns the versions of group's kind that release r's CRDs serve
// in either channel, in the CRDs' order (the storage version first); nil
// if they define no such kind. The slice is shared: do not modify it.
func Served(group, kind string, r Release) []string {
	return served()[r.seq()][groupKind{group, kind}]
}

type groupKind struct{ group, kind string }

// served is Served's answers for each release (by seq), computed once, on
// first use: Served is asked for every object read.
var served = sync.OnceValue(func() (out *[len(releaseNames)]map[groupKind][]string) {
	out = new([len(releaseNames)]map[groupKind][]string)
	for seq := range crdVersions {
		m := map[groupKind][]string{}
		for _, vs := range crdVersions[seq] {
			for i := range vs {
				v := &vs[i]
				key := groupKind{v.group, v.kind}
				if !slices.Contains(m[key], v.version) {
					m[key] = append(m[key], v.version)
				}
			}
		}
		out[seq] = m
	}
	return out
})

// APIVersions lists what release r's CRDs serve in either channel, as
// Helm's .Capabilities.APIVersions names it: each "group/version", and
// each "group/version/Kind"; sorted.
func APIVersions(r Release) []string {
	var out []string
	for _, vs := range crdVersions[r.seq()] {
		for i := range vs {
			v := &vs[i]
			out = append(out, v.group+"/"+v.version, v.group+"/"+v.version+"/"+v.kind)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Kinds returns the kinds release r's CRDs define in group, sorted.
func Kinds(group string, r Release) []string {
	var out []string
	for _, vs := range crdVersions[r.seq()] {
		for i := range vs {
			if v := &vs[i]; v.group == group && !slices.Contains(out, v.kind) {
				out = append(out, v.kind)
			}
		}
	}
	slices.Sort(out)
	return out
}

// Schema identifies the schema c validates apiVersion and kind with; nil
// when c does not serve them. Releases that share a schema validate
// alike, but for AddedIn, which names no release under Pinned: a caller
// validating against many releases validates once per schema.
func Schema(apiVersion, kind string, c CRDs) any {
	if v := lookup(apiVersion, kind, c); v != nil {
		return v.root
	}
	return nil
}

func lookup(apiVersion, kind string, c CRDs) *crdVersion {
	group, version, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return nil
	}
	vs := c.versions()
	for i := range vs {
		v := &vs[i]
		if v.kind == kind && v.version == version && v.group == group {
			return v
		}
	}
	return nil
}

// Validate applies CRD structural defaulting (the schema's `default`s, as the API
// server does on create — defaulting runs BEFORE validation: a portless backendRef
// only fails "Must have port for Service reference" once kind=Service is defaulted)
// and then schema + CEL validation to obj, a document decoded by encoding/json with
// UseNumber (numbers are json.Number; int64 semantics). It does not modify obj
// (copy what you default). Deterministic order of violations (sorted by path, then message).
//
// It follows the API server's create path (see doc.go for the details and
// the two deliberate differences): unknown fields anywhere, including status,
// are reported; status itself is not validated, because create drops it;
// metadata gets the API server's ObjectMeta validation, with the namespace
// taken as given by the request when the manifest has none.
func Validate(apiVersion, kind string, obj map[string]any, c CRDs) []Violation {
	return validate(apiVersion, kind, obj, c, false)
}

// ValidateOwned is Validate for a document the caller no longer needs:
// defaults are applied and nulls dropped in place, which saves copying the
// maps and lists on the way to every default.
func ValidateOwned(apiVersion, kind string, obj map[string]any, c CRDs) []Violation {
	return validate(apiVersion, kind, obj, c, true)
}

// ValidateJSON is ValidateOwned on an object given as JSON, decoded the way
// the API server decodes it (numbers as int64 or float64, by json.Number),
// into a tree that is recycled as soon as the violations are known.
func ValidateJSON(apiVersion, kind string, data []byte, c CRDs) []Violation {
	tree, ok := jsontree.Parse(data)
	if !ok {
		return nil // the typed decode reports malformed documents
	}
	// Violations are strings: nothing refers to the tree afterwards.
	defer tree.Release()
	return ValidateOwned(apiVersion, kind, tree.Root, c)
}

func validate(apiVersion, kind string, obj map[string]any, c CRDs, inPlace bool) []Violation {
	cv := lookup(apiVersion, kind, c)
	if cv == nil || obj == nil {
		return nil
	}
	w := &walker{inPlace: inPlace, ph: syntaxOf(obj), crds: c, apiVersion: apiVersion, kind: kind}
	doc := w.prepareRoot(obj, cv.root)
	w.validateMetadata(obj["metadata"], cv.namespaced)
	w.validateRoot(doc, cv.root)
	return w.result()
}

// walker accumulates the violations of one document while walking it with
// its schema. path is the current field path, reused as a byte buffer.
type walker struct {
	path []byte
	// inPlace: the document may be changed rather than copied (ValidateOwned).
	inPlace bool

	out []Violation
	// CEL results are kept apart: whether they are reported depends on
	// the schema errors of the whole document (see result).
	celFailed []Violation // rules that evaluated to false
	celErrors []Violation // rules whose evaluation failed (no such key...)

	blocking bool // a schema error that stops the API server before CEL
	typeErr  bool // a value of the wrong JSON type: CEL cannot run on it

	metaField string // the top-level metadata field being decoded

	// ph is the placeholder syntax of the document: values holding one
	// are unknown (unknown.go).
	ph placeholder.Syntax

	noCEL  bool // a oneOf/anyOf branch: schema checks only
	checks int  // nodes checked, to pick a failing branch like kube-openapi

	// What is validated, for the release an unknown field was added in.
	crds             CRDs
	apiVersion, kind string
}

// result applies the API server's "blocking error" logic in the linter's
// way and sorts. The API server skips all CEL rules once the schema check
// found an Unsupported/Required/Too long/Too many/type error. A linter wants
// to show everything at once, so gwlint still reports failed rules then,
// but drops rule evaluation errors (a required field the schema already
// reported as missing) and, when a value has the wrong type, all CEL output
// (the rules could not even be typed against such a value).
func (w *walker) result() []Violation {
	out := w.out
	if !w.typeErr {
		out = append(out, w.celFailed...)
		if !w.blocking {
			out = append(out, w.celErrors...)
		}
	}
	slices.SortFunc(out, func(a, b Violation) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Message, b.Message), cmp.Compare(a.Type, b.Type))
	})
	return slices.Compact(out)
}

// Path building. The helpers return the previous length for pop.

func (w *walker) pushField(name string) int {
	n := len(w.path)
	if n > 0 {
		w.path = append(w.path, '.')
	}
	w.path = append(w.path, name...)
	return n
}

func (w *walker) pushIndex(i int) int {
	n := len(w.path)
	w.path = append(w.path, '[')
	w.path = appendInt(w.path, int64(i))
	w.path = append(w.path, ']')
	return n
}

func (w *walker) pushKey(k string) int {
	n := len(w.path)
	w.path = append(w.path, '[')
	w.path = append(w.path, k...)
	w.path = append(w.path, ']')
	return n
}

func (w *walker) pop(n int) { w.path = w.path[:n] }

func (w *walker) add(typ, msg string) {
	w.out = append(w.out, Violation{Path: string(w.path), Type: typ, Message: msg})
}

func appendInt(b []byte, i int64) []byte {
	if i < 0 {
		b = append(b, '-')
		i = -i
	}
	var tmp [20]byte
	n := len(tmp)
	for {
		n--
		tmp[n] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	return append(b, tmp[n:]...)
}
