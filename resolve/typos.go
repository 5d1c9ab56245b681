package resolve

import (
	"slices"
	"strings"
	"unicode"

	"github.com/gwlint/gwlint/internal/suggest"
	"github.com/gwlint/gwlint/resolve/crd"
)

// foldTypos makes one mistake one violation. The API server reports a
// misspelt field twice: as an unknown field, and through what its absence
// under the right name breaks — a required field of the same object
// (`nam:` for `name:`), or a CEL rule of that object naming the field
// (`certificateRef:` for `certificateRefs:`). The second is dropped and the
// unknown field says which name was meant. And a union member named after an
// unsupported type (`type: ExternalAuth` with `externalAuth:`, under the
// standard channel) is part of the type's violation, not a second mistake.
func foldTypos(vs []crd.Violation) []crd.Violation {
	drop := make([]bool, len(vs))
	for i, u := range vs {
		if u.Type != crd.TypeUnknownField {
			continue
		}
		parent, name := splitFieldPath(u.Path)
		for j, v := range vs {
			if v.Type == crd.TypeUnknownField {
				continue
			}
			if unionMember(v, parent, name) {
				drop[i] = true
				continue
			}
			if meant := meantField(v, parent, name); meant != "" {
				drop[j] = true
				vs[i].Message = u.Message + `; did you mean "` + meant + `"?` // once: u is the original
			}
		}
	}
	out := vs[:0]
	for i, v := range vs {
		if !drop[i] {
			out = append(out, v)
		}
	}
	return out
}

// meantField returns the field that the unknown field name of the object
// at parent was meant to be when v is what its absence breaks: v is that
// field's "Required value", or a CEL rule of the object that names it.
func meantField(v crd.Violation, parent, name string) string {
	if vParent, field := splitFieldPath(v.Path); v.Type == "Required value" && vParent == parent && isTypo(name, field) {
		return field
	}
	if v.Path != parent {
		return ""
	}
	words := strings.FieldsFunc(v.Message, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if i := slices.IndexFunc(words, func(w string) bool { return isTypo(name, w) }); i >= 0 {
		return words[i]
	}
	return ""
}

// unionMember reports whether the unknown field name of the object at
// parent is the member of a union whose type v reports as unsupported.
func unionMember(v crd.Violation, parent, name string) bool {
	value, ok := strings.CutPrefix(v.Message, `Unsupported value: "`)
	value, _, quoted := strings.Cut(value, `"`)
	return ok && quoted && v.Path == joinFieldPath(parent, "type") && strings.EqualFold(value, name)
}

// isTypo reports whether typed is a misspelling of field: a letter or two
// away (one for short names), letter case aside, but not field itself.
func isTypo(typed, field string) bool {
	if typed == field {
		return false
	}
	limit := 2
	if len(field) < 5 {
		limit = 1
	}
	return suggest.Distance(strings.ToLower(typed), strings.ToLower(field)) <= limit
}

// splitFieldPath splits "spec.rules[0].name" into "spec.rules[0]" and
// "name"; a top-level field has the parent "".
// A dot inside a map key ("annotations[example.com/x]") separates nothing.
func splitFieldPath(path string) (parent, name string) {
	depth := 0
	for i := len(path) - 1; i >= 0; i-- {
		switch path[i] {
		case ']':
			depth++
		case '[':
			depth--
		case '.':
			if depth == 0 {
				return path[:i], path[i+1:]
			}
		}
	}
	return "", path
}

func joinFieldPath(parent, name string) string {
	if parent == "" {
		return name
	}
	return parent + "." + name
}
