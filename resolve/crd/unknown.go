package crd

import (
	"regexp/syntax"
	"unicode"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Values holding a deploy-time placeholder (package placeholder: Flux's
// ${VAR}, Argo CD plugins' <path:...>) are unknown: the API server sees
// them only after substitution. Validate gives them no type, format, enum,
// minLength or pattern verdict, runs no CEL rule of their own node, and does
// not report a CEL rule that fails on a value holding one (the substituted
// value may pass it). What substitution cannot change is still judged,
// because it only ever inserts text where a placeholder is: the text around
// the placeholders (the literals) must fit maxLength, and may only use
// characters an anchored pattern allows ("bad_host.${DOMAIN}" can never be
// a hostname). Metadata errors about a value holding one are dropped too.

// syntaxOf is the placeholder syntax of a document: argocd-vault-plugin's
// generic <key> only counts on an object that asks for it.
func syntaxOf(obj map[string]any) placeholder.Syntax {
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	if _, ok := ann[placeholder.AVPPathAnnotation]; ok {
		return placeholder.All
	}
	return placeholder.Default
}

// checkUnknownString judges a string holding a placeholder against s: only
// what no substitution can repair.
func (w *walker) checkUnknownString(x string, s *node) {
	if s.typ != tString {
		return // "port: ${PORT}" becomes an integer once substituted
	}
	lits := w.ph.Literals(x)
	n := 0
	for _, l := range lits {
		n += utf8.RuneCountInString(l)
	}
	if s.maxLength.set && int64(n) > s.maxLength.v {
		w.blocking = true
		w.add("Too long", field.TooLong(nil, "", int(s.maxLength.v)).ErrorBody())
		return
	}
	if s.pattern == nil {
		return
	}
	allowed := s.pattern.alphabet()
	if allowed == nil {
		return
	}
	for _, l := range lits {
		for _, r := range l {
			if !allowed(r) {
				w.invalid(x, w.patternMessage(s.pattern))
				return
			}
		}
	}
}

// holdsPlaceholder reports whether v, a prepared value, holds a string with
// a placeholder anywhere.
func (w *walker) holdsPlaceholder(v any) bool {
	switch x := v.(type) {
	case string:
		return w.ph.Contains(x)
	case []any:
		for _, it := range x {
			if w.holdsPlaceholder(it) {
				return true
			}
		}
	case map[string]any:
		for _, it := range x {
			if w.holdsPlaceholder(it) {
				return true
			}
		}
	}
	return false
}

// alphabet returns the characters a match of the pattern can consist of,
// or nil when that is not a restriction: the pattern is not anchored at
// both ends in every alternative (unanchored, it matches inside any text),
// or it has a "." (any character).
func (p *pattern) alphabet() func(rune) bool {
	p.alphaOnce.Do(func() {
		re, err := syntax.Parse(p.src, syntax.Perl)
		if err != nil || !anchored(re) {
			return
		}
		var ranges []rune
		if !collectRanges(re, &ranges) {
			return
		}
		p.alpha = func(r rune) bool {
			for i := 0; i+1 < len(ranges); i += 2 {
				if ranges[i] <= r && r <= ranges[i+1] {
					return true
				}
			}
			return false
		}
	})
	return p.alpha
}

// anchored reports whether every match of re spans the whole text.
func anchored(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !anchored(sub) {
				return false
			}
		}
		return true
	case syntax.OpCapture:
		return anchored(re.Sub[0])
	case syntax.OpConcat:
		return len(re.Sub) >= 2 && re.Sub[0].Op == syntax.OpBeginText && re.Sub[len(re.Sub)-1].Op == syntax.OpEndText
	case syntax.OpEmptyMatch:
		return false
	}
	return false
}

// collectRanges appends to ranges (pairs lo, hi) every character re can
// match; false when re can match any character.
func collectRanges(re *syntax.Regexp, ranges *[]rune) bool {
	switch re.Op {
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		return false
	case syntax.OpLiteral:
		for _, r := range re.Rune {
			*ranges = append(*ranges, r, r)
			if re.Flags&syntax.FoldCase != 0 {
				for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
					*ranges = append(*ranges, f, f)
				}
			}
		}
	case syntax.OpCharClass:
		*ranges = append(*ranges, re.Rune...)
	}
	for _, sub := range re.Sub {
		if !collectRanges(sub, ranges) {
			return false
		}
	}
	return true
}
