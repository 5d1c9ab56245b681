package placeholder

import "strings"

// Syntax is a set of placeholder forms to recognise.
type Syntax uint8

// The forms. Default is what any value may hold; AVPGeneric is only
// recognised where argocd-vault-plugin is told to substitute it.
const (
	// Flux is post-build substitution: "${" NAME [operator ...] "}", NAME as
	// Flux validates it (^[_[:alpha:]][_[:alpha:][:digit:]]*$), or "${#NAME}".
	// "$NAME" without braces is literal to Flux, and "$${NAME}" is envsubst's
	// escape for a literal "${NAME}".
	Flux Syntax = 1 << iota
	// Plugin is an Argo CD plugin placeholder: "<path:" ... ">" (argocd-vault-
	// plugin, "<path:some/path#key>" with an optional "#version") or
	// "<secret:" ... ">", with no whitespace, '<' or '>' inside.
	Plugin
	// AVPGeneric is argocd-vault-plugin's "<key>" (letters, digits, '_',
	// '-', '.'), substituted only in objects annotated avp.kubernetes.io/path.
	AVPGeneric
	// Template is a Go template action, "{{" ... "}}": Helm or another
	// templating tool never rendered the manifest.
	Template
)

// Default is what any value may hold.
const Default = Flux | Plugin | Template

// All adds AVPGeneric to Default: for values that can never legitimately
// hold '<' or '>' (Kubernetes names, hostnames), where "<key>" is either a
// placeholder or an error CRD validation reports anyway.
const All = Default | AVPGeneric

// AVPPathAnnotation is the annotation that tells argocd-vault-plugin where
// the generic placeholders of an object come from.
const AVPPathAnnotation = "avp.kubernetes.io/path"

// Annotations are an object's annotations, asked by key.
type Annotations interface{ Has(key string) bool }

// ForObject is the syntax of the values of an object with these
// annotations: Default, plus AVPGeneric when argocd-vault-plugin is told to
// substitute the object.
func ForObject(annotations Annotations) Syntax {
	if annotations.Has(AVPPathAnnotation) {
		return All
	}
	return Default
}

// Span is one placeholder in a string s: s[Start:End].
type Span struct{ Start, End int }

// Contains reports whether s holds a placeholder of the syntax.
func (x Syntax) Contains(s string) bool {
	// The fast path: every form starts with '$', '<' or '{'.
	if !strings.ContainsAny(s, "$<{") {
		return false
	}
	_, _, ok := x.next(s, 0)
	return ok
}

// Find returns the placeholders of s, in order; nil when there is none.
func (x Syntax) Find(s string) []Span {
	if !strings.ContainsAny(s, "$<{") {
		return nil
	}
	var out []Span
	for i := 0; ; {
		start, end, ok := x.next(s, i)
		if !ok {
			return out
		}
		out = append(out, Span{start, end})
		i = end
	}
}

// First returns the first placeholder of s, as written ("${DOMAIN}"), or "".
func (x Syntax) First(s string) string {
	if sp := x.Find(s); len(sp) > 0 {
		return s[sp[0].Start:sp[0].End]
	}
	return ""
}

// Literals returns the text of s outside its placeholders: the parts that
// substitution keeps. Literals(s)[0] comes before the first placeholder and
// the last element after the last one; len is len(Find(s))+1.
func (x Syntax) Literals(s string) []string {
	spans := x.Find(s)
	out := make([]string, 0, len(spans)+1)
	i := 0
	for _, sp := range spans {
		out = append(out, s[i:sp.Start])
		i = sp.End
	}
	return append(out, s[i:])
}

// next finds the first placeholder starting at or after i.
func (x Syntax) next(s string, i int) (start, end int, ok bool) {
	for ; i < len(s); i++ {
		var n int
		switch s[i] {
		case '$':
			if x&Flux == 0 {
				continue
			}
			if strings.HasPrefix(s[i:], "$$") {
				i++ // "$$" is a literal '$': skip both
				continue
			}
			n = fluxLen(s[i:])
		case '<':
			n = x.angleLen(s[i:])
		case '{':
			if x&Template != 0 {
				n = templateLen(s[i:])
			}
		}
		if n > 0 {
			return i, i + n, true
		}
	}
	return 0, 0, false
}

// fluxLen is the length of the Flux placeholder s starts with, or 0. The
// operator part is taken up to the brace that closes the placeholder
// (envsubst nests "${A:-${B}}").
func fluxLen(s string) int {
	if !strings.HasPrefix(s, "${") {
		return 0
	}
	j := 2
	if j < len(s) && s[j] == '#' {
		j++ // ${#VAR}, the value's length
	}
	name := j
	for j < len(s) && (s[j] == '_' || isAlpha(s[j]) || (j > name && isDigit(s[j]))) {
		j++
	}
	if j == name {
		return 0
	}
	depth := 1
	for ; j < len(s); j++ {
		switch s[j] {
		case '{':
			depth++
		case '}':
			depth--
			if depth == 0 {
				return j + 1
			}
		}
	}
	return 0
}

// angleLen is the length of the plugin or generic placeholder s starts
// with, or 0.
func (x Syntax) angleLen(s string) int {
	end := strings.IndexByte(s, '>')
	if end < 0 {
		return 0
	}
	body := s[1:end]
	if body == "" || strings.ContainsAny(body, "< \t\r\n") {
		return 0
	}
	if x&Plugin != 0 && (strings.HasPrefix(body, "path:") && len(body) > len("path:") ||
		strings.HasPrefix(body, "secret:") && len(body) > len("secret:")) {
		return end + 1
	}
	if x&AVPGeneric != 0 {
		for k := 0; k < len(body); k++ {
			if c := body[k]; !isAlpha(c) && !isDigit(c) && c != '_' && c != '-' && c != '.' {
				return 0
			}
		}
		return end + 1
	}
	return 0
}

// templateLen is the length of the template action s starts with, or 0.
func templateLen(s string) int {
	if !strings.HasPrefix(s, "{{") {
		return 0
	}
	if end := strings.Index(s[2:], "}}"); end >= 0 {
		return end + 4
	}
	return 0
}

func isAlpha(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// Why says why a value holding a placeholder is unknown, for messages:
// `depends on ${DOMAIN}, substituted at deploy time`. It names the first
// placeholder of s; "" when s holds none.
func (x Syntax) Why(s string) string {
	if p := x.First(s); p != "" {
		return "depends on " + p + ", substituted at deploy time"
	}
	return ""
}
