package crd

import (
	"fmt"
	"strings"
	"sync"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The CRDs' x-kubernetes-validations rules are hand-translated into Go
// (cel_*.go, one file per kind, shared rules in cel_common.go): a CEL
// environment costs milliseconds to build and each program far more than
// the microseconds a whole document takes here. The translations keep CEL's
// semantics where they change the outcome:
//
//   - selecting an absent field is an error ("no such key: port"), and
//     errors absorb like CEL's: false && error is false, true || error is
//     true, error in a ternary's condition or in exists_one is an error
//     (see cbool, and, or, cond and the comprehension helpers);
//   - strings' size() counts code points; matches() is an unanchored RE2
//     search (Go's regexp);
//   - the value is the defaulted one.
//
// Rules using oldSelf are transition rules: the API server evaluates them
// on update only, so Validate (create) never does.

// celImpl is the Go translation of one CEL rule.
type celImpl struct {
	eval       func(self any) cbool
	transition bool // uses oldSelf: never evaluated on create
}

// ruleSets are the per-kind tables, keyed by the exact rule text, built
// on first use: gwlint version, and a run that validates nothing, do not
// pay for them.
var ruleSets = sync.OnceValue(func() []map[string]celImpl {
	return []map[string]celImpl{
		commonRules(),
		backendTLSPolicyRules(),
		gatewayClassRules(),
		gatewayRules(),
		listenerSetRules(),
		routeRules(),
		httpRouteRules(),
		grpcRouteRules(),
		tlsRouteRules(),
		xBackendRules(),
		xBackendTrafficPolicyRules(),
		xTelemetryPolicyRules(),
	}
})

// lookupRule returns the Go translation of a rule.
func lookupRule(src string) (celImpl, bool) {
	for _, set := range ruleSets() {
		if impl, ok := set[src]; ok {
			return impl, true
		}
	}
	return celImpl{}, false
}

// celImpls holds the translation of each celRules entry, resolved once. A
// rule without one is a bug TestEveryRuleImplemented catches.
var celImpls = sync.OnceValue(func() []celImpl {
	impls := make([]celImpl, len(celRules))
	for i, r := range celRules {
		impl, ok := lookupRule(r.src)
		if !ok {
			panic(fmt.Sprintf("crd: no Go implementation of CEL rule %q", r.src))
		}
		impls[i] = impl
	}
	return impls
})

// evalRules evaluates the rules of s on v, non-null, at the walker's path,
// like apiextensions' cel.Validator.validateExpressions.
func (w *walker) evalRules(v any, s *node) {
	impls := celImpls()
	for _, id := range s.rules {
		impl := impls[id]
		if impl.transition {
			continue
		}
		rule := &celRules[id]
		res := impl.eval(v)
		if (res.err != nil || !res.v) && w.holdsPlaceholder(v) {
			continue // the substituted value may pass: unknown (unknown.go)
		}
		switch {
		case res.err != nil:
			msg := fmt.Sprintf("%v evaluating rule: %s", res.err, rule.errorString())
			w.celErrors = append(w.celErrors, Violation{Path: string(w.path), Type: "Invalid value", Message: field.Invalid(nil, s.typ.String(), msg).ErrorBody()})
		case !res.v:
			var bad any = field.OmitValueType{}
			if s.typ != tObject && s.typ != tArray {
				bad = scalar(v)
			}
			w.celFailed = append(w.celFailed, Violation{Path: string(w.path), Type: "Invalid value", Message: field.Invalid(nil, bad, rule.message()).ErrorBody()})
		}
	}
}

// message is ruleMessageOrDefault.
func (r *celRule) message() string {
	if r.msg == "" {
		return "failed rule: " + r.errorString()
	}
	return strings.TrimSpace(r.msg)
}

// errorString is ruleErrorString.
func (r *celRule) errorString() string {
	if r.msg != "" {
		return strings.TrimSpace(r.msg)
	}
	return strings.TrimSpace(r.src)
}

// cbool is the result of a CEL boolean expression: a bool, or an
// evaluation error.
type cbool struct {
	v   bool
	err error
}

var (
	celTrue  = cbool{v: true}
	celFalse = cbool{}
)

func cb(v bool) cbool { return cbool{v: v} }

// errCBool lifts an error into a boolean result.
func errCBool(err error) cbool { return cbool{err: err} }

// not is CEL's !.
func not(x cbool) cbool { return cbool{v: !x.v && x.err == nil, err: x.err} }

// and is CEL's &&: false if any operand is false, else the first error.
// Operands are evaluated eagerly: the translations have no side effects.
func and(xs ...cbool) cbool {
	var err error
	for _, x := range xs {
		if x.err == nil && !x.v {
			return celFalse
		}
		if x.err != nil && err == nil {
			err = x.err
		}
	}
	if err != nil {
		return errCBool(err)
	}
	return celTrue
}

// or is CEL's ||: true if any operand is true, else the first error.
func or(xs ...cbool) cbool {
	var err error
	for _, x := range xs {
		if x.err == nil && x.v {
			return celTrue
		}
		if x.err != nil && err == nil {
			err = x.err
		}
	}
	if err != nil {
		return errCBool(err)
	}
	return celFalse
}

// cond is CEL's c ? t() : f().
func cond(c cbool, t, f func() cbool) cbool {
	switch {
	case c.err != nil:
		return c
	case c.v:
		return t()
	}
	return f()
}

// implies is the common `c ? t() : true`.
func implies(c cbool, t func() cbool) cbool { return cond(c, t, func() cbool { return celTrue }) }

// all is the all() macro over a list: false if any element is false, else
// the first error.
func all(xs []any, pred func(x any) cbool) cbool {
	var err error
	for _, x := range xs {
		r := pred(x)
		if r.err == nil && !r.v {
			return celFalse
		}
		if r.err != nil && err == nil {
			err = r.err
		}
	}
	if err != nil {
		return errCBool(err)
	}
	return celTrue
}

// exists is the exists() macro: true if any element is true, else the
// first error.
func exists(xs []any, pred func(x any) cbool) cbool {
	var err error
	for _, x := range xs {
		r := pred(x)
		if r.err == nil && r.v {
			return celTrue
		}
		if r.err != nil && err == nil {
			err = r.err
		}
	}
	if err != nil {
		return errCBool(err)
	}
	return celFalse
}

// existsOne is the exists_one() macro: any error is the result.
func existsOne(xs []any, pred func(x any) cbool) cbool {
	n := 0
	for _, x := range xs {
		r := pred(x)
		if r.err != nil {
			return r
		}
		if r.v {
			n++
		}
	}
	return cb(n == 1)
}

// count is size(list.filter(x, pred)): any error is the result.
func count(xs []any, pred func(x any) cbool) (int, error) {
	n := 0
	for _, x := range xs {
		r := pred(x)
		if r.err != nil {
			return 0, r.err
		}
		if r.v {
			n++
		}
	}
	return n, nil
}

// Field access. Documents are prepared (nulls dropped, defaults applied),
// so a present key has a non-null value.

// errNoSuchKey is CEL's error for selecting an absent field.
func errNoSuchKey(k string) error { return fmt.Errorf("no such key: %s", k) }

// errNoOverload is CEL's error for a value of an unexpected type, which
// only ill-typed documents produce (their CEL results are not reported).
var errNoOverload = fmt.Errorf("no such overload")

// errFloat is the error of selecting an integer field holding a float:
// kube-openapi accepts 3.0 as an integer, but converting it to a CEL value
// fails. Every number of the Gateway API CRDs is an integer (a float in a
// field of another type is a type error, after which CEL is not reported).
var errFloat = errorString("invalid data, expected int, got float64")

// has is CEL's has(x.k) on a field that cannot hold a number.
func has(x any, k string) bool {
	m, _ := x.(map[string]any)
	_, ok := m[k]
	return ok
}

// celHas is CEL's has(x.k) on a field that can hold a number, where it
// fails like a selection (see errFloat).
func celHas(x any, k string) cbool {
	m, _ := x.(map[string]any)
	v, ok := m[k]
	if ok && isFloat(v) {
		return errCBool(errFloat)
	}
	return cb(ok)
}

func isFloat(v any) bool {
	n, ok := toNumber(v)
	return ok && !n.isInt
}

// get is CEL's x.k.
func get(x any, k string) (any, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, errNoOverload
	}
	v, ok := m[k]
	if !ok {
		return nil, errNoSuchKey(k)
	}
	if isFloat(v) {
		return nil, errFloat
	}
	return v, nil
}

// getStr is x.k for a string field.
func getStr(x any, k string) (string, error) {
	v, err := get(x, k)
	if err != nil {
		return "", err
	}
	s, ok := v.(string)
	if !ok {
		return "", errNoOverload
	}
	return s, nil
}

// getList is x.k for a list field.
func getList(x any, k string) ([]any, error) {
	v, err := get(x, k)
	if err != nil {
		return nil, err
	}
	l, ok := v.([]any)
	if !ok {
		return nil, errNoOverload
	}
	return l, nil
}

// getInt is x.k for an integer field.
func getInt(x any, k string) (int64, error) {
	v, err := get(x, k)
	if err != nil {
		return 0, err
	}
	n, ok := toNumber(v)
	if !ok {
		return 0, errNoOverload
	}
	return n.i, nil
}

// strIs is x.k == want for a string field.
func strIs(x any, k, want string) cbool {
	s, err := getStr(x, k)
	if err != nil {
		return errCBool(err)
	}
	return cb(s == want)
}

// strIn is x.k in [wants...].
func strIn(x any, k string, wants ...string) cbool {
	s, err := getStr(x, k)
	if err != nil {
		return errCBool(err)
	}
	for _, w := range wants {
		if s == w {
			return celTrue
		}
	}
	return celFalse
}

// uniqueField is `self.all(x1, self.exists_one(x2, x1.k == x2.k))`: each
// item's k is unlike every other's.
func uniqueField(k string) func(self any) cbool {
	return func(self any) cbool {
		items, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(items, func(x1 any) cbool {
			return existsOne(items, func(x2 any) cbool { return fieldsEqual(x1, x2, k) })
		})
	}
}

// fieldsEqual is a.k == b.k, with CEL's equality of scalars.
func fieldsEqual(a, b any, k string) cbool {
	x, err := get(a, k)
	if err != nil {
		return errCBool(err)
	}
	y, err := get(b, k)
	if err != nil {
		return errCBool(err)
	}
	if xs, ok := x.(string); ok {
		if ys, ok := y.(string); ok {
			return cb(xs == ys) // the common case, without conversions
		}
	}
	return celEqual(x, y)
}

// celEqual is CEL's == on the scalar fields the rules compare (numbers
// compare across int and double). Compound values only appear there in
// ill-typed documents, whose CEL results are not reported.
func celEqual(x, y any) cbool {
	x, y = scalar(x), scalar(y)
	switch x.(type) {
	case string, int64, float64, bool:
	default:
		return errCBool(errNoOverload)
	}
	switch y.(type) {
	case string, bool:
	case int64, float64:
		// CEL compares numbers across types; int64 with int64 exactly.
		xi, xInt := x.(int64)
		yi, yInt := y.(int64)
		if xInt && yInt {
			return cb(xi == yi)
		}
		if xInt {
			x = float64(xi)
		}
		if yInt {
			y = float64(yi)
		}
	default:
		return errCBool(errNoOverload)
	}
	return cb(x == y)
}

// emptyOrAbsent is !has(x.k) || x.k == "" (CEL's empty string), or == 0
// for an integer field.
func emptyOrAbsent(x any, k string) cbool {
	m, _ := x.(map[string]any)
	v, ok := m[k]
	if !ok {
		return celTrue
	}
	if isFloat(v) {
		return errCBool(errFloat)
	}
	switch v := scalar(v).(type) {
	case string:
		return cb(v == "")
	case int64:
		return cb(v == 0)
	}
	return errCBool(errNoOverload)
}

// optionalEqual is the references' test for an optional field k:
// ((!has(p1.k) || p1.k is empty) && (!has(p2.k) || p2.k is empty)) || (has(p1.k) && has(p2.k) && p1.k == p2.k).
func optionalEqual(p1, p2 any, k string) cbool {
	both := and(celHas(p1, k), celHas(p2, k))
	if both.err == nil && both.v {
		both = fieldsEqual(p1, p2, k)
	}
	return or(and(emptyOrAbsent(p1, k), emptyOrAbsent(p2, k)), both)
}

// sameEmptiness is (!has(p1.k) || p1.k is empty) == (!has(p2.k) || p2.k is empty).
func sameEmptiness(p1, p2 any, k string) cbool {
	a, b := emptyOrAbsent(p1, k), emptyOrAbsent(p2, k)
	if err := firstErr(a.err, b.err); err != nil {
		return errCBool(err)
	}
	return cb(a.v == b.v)
}

// runeLen is CEL's size() of a string.
func runeLen(s string) int { return utf8.RuneCountInString(s) }

// celList is x viewed as a CEL list (self of a list-typed rule).
func celList(x any) ([]any, error) {
	l, ok := x.([]any)
	if !ok {
		return nil, errNoOverload
	}
	return l, nil
}

// celMapKeys is the keys of x viewed as a CEL map, for all(key, ...).
func celMapKeys(x any) ([]any, error) {
	m, ok := x.(map[string]any)
	if !ok {
		return nil, errNoOverload
	}
	keys := make([]any, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys, nil
}

// celStr is x viewed as a CEL string.
func celStr(x any) (string, error) {
	s, ok := x.(string)
	if !ok {
		return "", errNoOverload
	}
	return s, nil
}
