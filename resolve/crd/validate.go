package crd

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// This file is the OpenAPI schema validation of the API server
// (apiextensions-apiserver validation.NewSchemaValidator, i.e. kube-openapi's
// validate package, plus listtype.ValidateListSetsAndMaps), followed on each
// node by its CEL rules (cel.go). It keeps kube-openapi's quirks that change
// what is reported: which checks apply to a value of the wrong type, a
// string's checks stopping at the first failure, lengths in runes, enum
// comparison by Go conversion, int32 ranges...

// validateRoot validates the prepared document. Create drops status before
// validation (the CRDs have a status subresource), so it is skipped.
func (w *walker) validateRoot(doc map[string]any, root *node) {
	if _, ok := doc["status"]; ok {
		doc = w.writable(doc)
		delete(doc, "status")
	}
	w.validate(doc, root)
}

// validate checks v, the prepared value at the walker's path, against s.
func (w *walker) validate(v any, s *node) {
	w.checks++
	if v == nil {
		// Only list items can still be null here.
		if s.typ != tAny && !s.nullable {
			w.typeError(s.typ.String(), "null", "null")
		}
		w.checkEnum(v, s)
		return
	}
	if x, ok := v.(string); ok && w.ph.Contains(x) {
		w.checkUnknownString(x, s)
		return
	}
	w.checkType(v, s)
	if len(s.oneOf) > 0 || len(s.anyOf) > 0 || s.not != nil {
		w.checkComposition(v, s)
	}
	switch x := v.(type) {
	case string:
		w.checkString(x, s)
	case []any:
		w.checkList(x, s)
	case map[string]any:
		w.checkObject(x, s)
	case bool:
	default:
		if n, ok := toNumber(v); ok {
			w.checkNumber(n, s)
		}
	}
	w.checkEnum(v, s)
	if len(s.rules) > 0 && !w.noCEL {
		w.evalRules(v, s)
	}
}

// number is a JSON number as the API server holds it after apimachinery's
// json decoding: int64 when it parses as one, float64 otherwise.
type number struct {
	isInt bool
	i     int64
	f     float64
}

func toNumber(v any) (number, bool) {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return number{isInt: true, i: i}, true
		}
		f, err := x.Float64()
		return number{f: f}, err == nil
	case int64:
		return number{isInt: true, i: x}, true
	case int:
		return number{isInt: true, i: int64(x)}, true
	case int32:
		return number{isInt: true, i: int64(x)}, true
	case float64:
		return number{f: x}, true
	}
	return number{}, false
}

// value returns n as the Go value the API server would print.
func (n number) value() any {
	if n.isInt {
		return n.i
	}
	return n.f
}

// scalar returns v with numbers converted like the API server decodes them.
func scalar(v any) any {
	if n, ok := toNumber(v); ok {
		return n.value()
	}
	return v
}

// jsonType returns the OpenAPI type (and go-openapi format) of a value, as
// kube-openapi's typeValidator.schemaInfoForType does.
func jsonType(v any) (string, string) {
	switch v.(type) {
	case string:
		return "string", ""
	case bool:
		return "boolean", ""
	case []any:
		return "array", ""
	case map[string]any:
		return "object", ""
	}
	if n, ok := toNumber(v); ok {
		if n.isInt {
			return "integer", "int64"
		}
		return "number", "float64"
	}
	return "", ""
}

// isJSONInteger is go-openapi swag.IsFloat64AJSONInteger, which the type
// check uses to accept a float as an integer (with a relative tolerance).
func isJSONInteger(f float64) bool {
	const maxJSONFloat, epsilon = float64(1<<53 - 1), 1e-9
	if math.IsNaN(f) || math.IsInf(f, 0) || f < -maxJSONFloat || f > maxJSONFloat {
		return false
	}
	g := float64(uint64(f))
	diff := math.Abs(f - g)
	switch {
	case f == g, f == float64(int64(f)):
		return true
	case f == 0 || g == 0 || diff < math.SmallestNonzeroFloat64:
		return diff < epsilon*math.SmallestNonzeroFloat64
	}
	return diff/math.Min(math.Abs(f)+math.Abs(g), math.MaxFloat64) < epsilon
}

// checkType is kube-openapi's typeValidator.
func (w *walker) checkType(v any, s *node) {
	if s.typ == tAny && s.format == fmtNone {
		return
	}
	got, gotFormat := jsonType(v)
	want := s.typ.String()
	contains := want == got
	var isFloatInt bool
	if got == "number" && s.typ == tInteger {
		n, _ := toNumber(v)
		isFloatInt = isJSONInteger(n.f)
	}
	isIntFloat := got == "integer" && s.typ == tNumber
	stringOrSlice := got == "string" || got == "array"
	if !stringOrSlice && s.format != fmtNone && !(contains || gotFormat == s.format.String() || isFloatInt || isIntFloat) {
		w.typeError(s.format.String(), gotFormat, gotFormat)
		return
	}
	if s.typ != tInteger && s.typ != tNumber && s.format != fmtNone && stringOrSlice {
		return
	}
	if !(contains || isFloatInt || isIntFloat) {
		w.typeError(want, got, got)
	}
}

// typeError reports a kube-openapi InvalidType error: a wrong JSON type
// blocks CEL evaluation (see walker.result).
func (w *walker) typeError(want, got string, bad any) {
	w.blocking, w.typeErr = true, true
	msg := fmt.Sprintf("%s in body must be of type %s: %q", w.path, want, got)
	w.add("Invalid value", (&field.Error{Type: field.ErrorTypeTypeInvalid, BadValue: bad, Detail: msg}).ErrorBody())
}

// checkString is kube-openapi's stringValidator (which stops at the first
// failure) and formatValidator.
func (w *walker) checkString(x string, s *node) {
	switch n := int64(utf8.RuneCountInString(x)); {
	case s.maxLength.set && n > s.maxLength.v:
		w.blocking = true
		w.add("Too long", field.TooLong(nil, "", int(s.maxLength.v)).ErrorBody())
	case s.minLength.set && n < s.minLength.v:
		w.invalid(x, fmt.Sprintf("%s in body should be at least %d chars long", w.path, s.minLength.v))
	case s.pattern != nil && !s.pattern.matches(x):
		w.invalid(x, w.patternMessage(s.pattern))
	}
	var ok bool
	switch s.format {
	case fmtIPv4:
		ok = isIPv4Sloppy(x)
	case fmtIPv6:
		ok = isIPv6(x)
	case fmtDateTime:
		ok = isDateTime(x)
	default:
		return
	}
	if !ok {
		// A format failure is an InvalidType error for kube-openapi:
		// blocking, but CEL can still run on the string.
		w.blocking = true
		msg := fmt.Sprintf("%s in body must be of type %s: %q", w.path, s.format, x)
		w.add("Invalid value", (&field.Error{Type: field.ErrorTypeTypeInvalid, BadValue: x, Detail: msg}).ErrorBody())
	}
}

// patternMessage is kube-openapi's message for a string that does not
// match p.
func (w *walker) patternMessage(p *pattern) string {
	return fmt.Sprintf("%s in body should match '%s'", w.path, p.src)
}

// invalid reports an "Invalid value" of the generic kind.
func (w *walker) invalid(bad any, msg string) {
	w.add("Invalid value", field.Invalid(nil, bad, msg).ErrorBody())
}

// checkNumber is kube-openapi's numberValidator, which applies to any
// numeric value whatever the schema type.
func (w *walker) checkNumber(n number, s *node) {
	if s.typ == tInteger {
		// IsValueValidAgainstRange: the value must fit the integer format.
		bits, fmtName := 64, ""
		if s.format == fmtInt32 || s.format == fmtInt64 {
			fmtName = s.format.String()
			if s.format == fmtInt32 {
				bits = 32
			}
		}
		rep := strconv.FormatInt(n.i, 10)
		if !n.isInt {
			rep = strconv.FormatFloat(n.f, 'f', -1, 64)
		}
		if _, err := strconv.ParseInt(rep, 10, bits); err != nil {
			msg := fmt.Sprintf("Checked value must be of type integer (default format) in %s", w.path)
			if fmtName != "" {
				msg = fmt.Sprintf("Checked value must be of type integer with format %s in %s", fmtName, w.path)
			}
			// The API server reports this one at path "<nil>".
			w.invalid("", msg)
		}
	}
	if s.minimum.set {
		below := n.f < float64(s.minimum.v) || (s.exclusiveMin && n.f == float64(s.minimum.v))
		if n.isInt {
			below = n.i < s.minimum.v || (s.exclusiveMin && n.i == s.minimum.v)
		}
		if below {
			op := "greater than or equal to"
			if s.exclusiveMin {
				op = "greater than"
			}
			w.invalid(n.value(), fmt.Sprintf("%s in body should be %s %d", w.path, op, s.minimum.v))
		}
	}
	if s.maximum.set {
		above := n.f > float64(s.maximum.v) || (s.exclusiveMax && n.f == float64(s.maximum.v))
		if n.isInt {
			above = n.i > s.maximum.v || (s.exclusiveMax && n.i == s.maximum.v)
		}
		if above {
			op := "less than or equal to"
			if s.exclusiveMax {
				op = "less than"
			}
			w.invalid(n.value(), fmt.Sprintf("%s in body should be %s %d", w.path, op, s.maximum.v))
		}
	}
}

// checkEnum is kube-openapi's basicCommonValidator: the value matches an
// enum value when it converts to that value's Go type and is then equal.
func (w *walker) checkEnum(v any, s *node) {
	if len(s.enum) == 0 {
		return
	}
	bad := scalar(v)
	for _, e := range s.enum {
		switch e := e.(type) {
		case string:
			switch x := bad.(type) {
			case string:
				if x == e {
					return
				}
			case int64: // Go's int-to-string conversion
				if string(rune(x)) == e {
					return
				}
			}
		case int64:
			switch x := bad.(type) {
			case int64:
				if x == e {
					return
				}
			case float64:
				if int64(x) == e {
					return
				}
			}
		case bool: // no other type converts to bool
			if x, ok := bad.(bool); ok && x == e {
				return
			}
		}
	}
	w.blocking = true
	values := make([]string, len(s.enum))
	for i, e := range s.enum {
		values[i] = fmt.Sprint(e)
	}
	if bad == nil {
		bad = "null"
	}
	w.add("Unsupported value", field.NotSupported(nil, bad, values).ErrorBody())
}

// checkList is kube-openapi's schemaSliceValidator plus the list-type
// uniqueness invariants.
func (w *walker) checkList(x []any, s *node) {
	if s.items != nil {
		for i, it := range x {
			n := w.pushIndex(i)
			w.validate(it, s.items)
			w.pop(n)
		}
	}
	if s.minItems.set && int64(len(x)) < s.minItems.v {
		w.invalid(int64(len(x)), fmt.Sprintf("%s in body should have at least %d items", w.path, s.minItems.v))
	}
	if s.maxItems.set && int64(len(x)) > s.maxItems.v {
		w.blocking = true
		w.add("Too many", field.TooMany(nil, len(x), int(s.maxItems.v)).ErrorBody())
	}
	switch s.listType {
	case listSet:
		w.checkUnique(x, func(it any) any { return it }, func(it any) uniqueKey { return uniqueKeyOf(scalar(it)) })
	case listMap:
		for i, it := range x {
			if _, ok := it.(map[string]any); it != nil && !ok {
				n := w.pushIndex(i)
				w.invalid(scalar(it), "must be an object for an array of list-type map")
				w.pop(n)
				return
			}
		}
		keyOf := func(it any) any {
			m, _ := it.(map[string]any)
			key := map[string]any{}
			for _, k := range s.mapKeys {
				if v, ok := m[k]; ok {
					key[k] = v
				}
			}
			return key
		}
		compared := func(it any) uniqueKey { return uniqueKeyOf(scalar(keyOf(it))) }
		if len(s.mapKeys) == 1 {
			// Most list-type maps are keyed by one string (a name): it is
			// compared as it is, where its key's JSON would be built for
			// every item. A key of another type, or none, compares as
			// that JSON.
			compared = func(it any) uniqueKey {
				m, _ := it.(map[string]any)
				if v, ok := m[s.mapKeys[0]].(string); ok {
					return uniqueKey{kind: 'S', s: v}
				}
				return uniqueKeyOf(scalar(keyOf(it)))
			}
		}
		w.checkUnique(x, keyOf, compared)
	}
}

// uniqueKey is what checkUnique compares of a list item: a scalar by Go
// type and value, a compound by its JSON, a list-type map's one string
// key by its text.
type uniqueKey struct {
	kind byte
	s    string
	i    int64
	f    float64
	b    bool
}

func uniqueKeyOf(key any) uniqueKey {
	switch v := key.(type) {
	case nil:
		return uniqueKey{kind: 'n'}
	case string:
		return uniqueKey{kind: 's', s: v}
	case int64:
		return uniqueKey{kind: 'i', i: v}
	case float64:
		return uniqueKey{kind: 'f', f: v}
	case bool:
		return uniqueKey{kind: 'b', b: v}
	}
	bs, _ := json.Marshal(key)
	return uniqueKey{kind: 'j', s: string(bs)}
}

// maxLinearUnique is the longest list checkUnique compares item by item,
// without a map; the CRDs bound their lists well below it.
const maxLinearUnique = 64

// checkUnique reports the second occurrence of each repeated key (a third
// one is not reported, like listtype.validateListSet), as keyOf shows it,
// comparing the keys compared makes. A string key, as a set's item or a
// list-type map's one key, compares by its text, which is its JSON's
// (the tree holds valid UTF-8: jsontree replaces invalid bytes as
// encoding/json does).
func (w *walker) checkUnique(x []any, keyOf func(any) any, compared func(any) uniqueKey) {
	if len(x) <= 1 {
		return
	}
	var buf [maxLinearUnique]uniqueKey
	keys := buf[:0]
	for _, it := range x {
		keys = append(keys, compared(it))
	}
	var seen map[uniqueKey]int
	if len(keys) > maxLinearUnique {
		seen = make(map[uniqueKey]int, len(keys))
	}
	for i, k := range keys {
		earlier := 0
		if seen != nil {
			earlier = seen[k]
			seen[k]++
		} else {
			for _, e := range keys[:i] {
				if e == k {
					earlier++
				}
			}
		}
		if earlier == 1 {
			n := w.pushIndex(i)
			w.add("Duplicate value", field.Duplicate(nil, scalar(keyOf(x[i]))).ErrorBody())
			w.pop(n)
		}
	}
}

// prunedLen is the number of properties of x the API server keeps: x
// still holds the undeclared ones (reported, not deleted, by prepare).
func prunedLen(x map[string]any, s *node) int {
	if s.additional != nil {
		return len(x)
	}
	n := 0
	for k := range x {
		if s.prop(k) != nil {
			n++
		}
	}
	return n
}

// checkObject is kube-openapi's objectValidator. Undeclared keys were
// pruned by the API server: they are not validated.
func (w *walker) checkObject(x map[string]any, s *node) {
	if s.minProperties.set || s.maxProperties.set {
		n := prunedLen(x, s)
		if s.minProperties.set && int64(n) < s.minProperties.v {
			w.invalid(int64(n), fmt.Sprintf("%s in body should have at least %d properties", w.path, s.minProperties.v))
		}
		if s.maxProperties.set && int64(n) > s.maxProperties.v {
			w.blocking = true
			w.add("Too many", field.TooMany(nil, n, int(s.maxProperties.v)).ErrorBody())
		}
	}
	for k, v := range x {
		if c := s.prop(k); c != nil {
			n := w.pushField(k)
			w.validate(v, c)
			w.pop(n)
		} else if s.additional != nil {
			n := w.pushKey(k)
			w.validate(v, s.additional)
			w.pop(n)
		}
	}
	for _, k := range s.required {
		if _, ok := x[k]; !ok {
			w.blocking = true
			n := w.pushField(k)
			w.add("Required value", "Required value")
			w.pop(n)
		}
	}
}

// checkComposition is kube-openapi's schemaPropsValidator for oneOf, anyOf
// and not (only Gateway addresses use them: an IPAddress must be an IP).
// Branches are validated by a sub-walker without CEL; like kube-openapi, a
// failing composition reports its own error plus those of the branch that
// got furthest.
func (w *walker) checkComposition(v any, s *node) {
	branch := func(b *node) *walker {
		sub := &walker{path: append([]byte(nil), w.path...), noCEL: true, ph: w.ph}
		sub.validate(v, b)
		return sub
	}
	merge := func(sub *walker) {
		w.out = append(w.out, sub.out...)
		w.blocking = w.blocking || sub.blocking
	}
	// These errors are plain errors for kube-openapi, reported at path
	// "<nil>" by the API server with the path quoted in the message.
	composite := func(msg string) { w.invalid("", fmt.Sprintf("%q %s", w.path, msg)) }

	if len(s.anyOf) > 0 {
		var best *walker
		ok := false
		for _, b := range s.anyOf {
			sub := branch(b)
			if len(sub.out) == 0 {
				ok = true
				break
			}
			if best == nil || sub.checks > best.checks {
				best = sub
			}
		}
		if !ok {
			composite("must validate at least one schema (anyOf)")
			merge(best)
		}
	}
	if len(s.oneOf) > 0 {
		var best *walker
		valid := 0
		for _, b := range s.oneOf {
			sub := branch(b)
			if len(sub.out) == 0 {
				valid++
				continue
			}
			if valid == 0 && (best == nil || sub.checks > best.checks) {
				best = sub
			}
		}
		switch {
		case valid == 0:
			composite("must validate one and only one schema (oneOf). Found none valid")
			merge(best)
		case valid > 1:
			composite(fmt.Sprintf("must validate one and only one schema (oneOf). Found %d valid alternatives", valid))
		}
	}
	if s.not != nil && len(branch(s.not).out) == 0 {
		composite("must not validate the schema (not)")
	}
}
