package lsp

import (
	"regexp"
	"strings"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
)

// suggestion is the name a finding's message suggests: `did you mean
// "shared"?` (an object's name) or `did you mean listener-no-routes?` (a
// rule id).
var suggestion = regexp.MustCompile(`did you mean "?([^"?\s,]+)"?\?`)

// fixes are the code actions for one finding: the name it suggests in
// place of the misspelt one, a port its Service has, the ReferenceGrant it
// lacks, and an ignore comment with a reason to fill in. text is the
// file's lines; texts finds other files'.
func fixes(f lint.Finding, graphs []*resolve.Graph, text []string, texts func(string) []string, diag protocol.Diagnostic) []protocol.CodeAction {
	uri := uriOf(f.File)
	var out []protocol.CodeAction
	if edit, ok := didYouMean(f, graphs, text); ok {
		out = append(out, quickFix("Change to "+edit.NewText, true, &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {edit}}}))
	}
	out = append(out, portFixes(f, graphs, text)...)
	out = append(out, grantFix(f, graphs, texts)...)
	if f.Line >= 1 && f.Line <= len(text) {
		line := text[f.Line-1]
		indent := line[:len(line)-len(strings.TrimLeft(line, " \t"))]
		if strings.HasPrefix(strings.TrimLeft(line, " \t"), "- ") {
			indent += "  " // above the item's first key, the comment names the item's line
		}
		at := protocol.Position{Line: protocol.UInteger(f.Line - 1)}
		out = append(out, quickFix("Ignore "+f.Rule+" here (gwlint:ignore, with a reason)", false, &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{uri: {{
			Range:   protocol.Range{Start: at, End: at},
			NewText: indent + "# gwlint:ignore " + f.Rule + " REASON\n",
		}}}}))
	}
	for i := range out {
		out[i].Diagnostics = []protocol.Diagnostic{diag}
	}
	return out
}

// quickFix is a quick fix that makes edit.
func quickFix(title string, preferred bool, edit *protocol.WorkspaceEdit) protocol.CodeAction {
	kind := protocol.CodeActionKindQuickFix
	a := protocol.CodeAction{Title: title, Kind: &kind, Edit: edit}
	if preferred {
		a.IsPreferred = &preferred
	}
	return a
}

// didYouMean replaces the misspelt name with the one the message
// suggests. The misspelt name is a word of the message written on the
// finding's line or, for a reference whose name is on a line of its own,
// on the line of the field's name.
func didYouMean(f lint.Finding, graphs []*resolve.Graph, text []string) (protocol.TextEdit, bool) {
	m := suggestion.FindStringSubmatch(f.Message)
	if m == nil {
		return protocol.TextEdit{}, false
	}
	want := m[1]
	candidates := []int{f.Line}
	if meta := findingObject(f, graphs); meta != nil && meta.Positions != nil {
		if pos, ok := meta.Positions.ValuePos(f.Path + ".name"); ok {
			candidates = append(candidates, pos.Line)
		}
	}
	words := strings.FieldsFunc(f.Message[:strings.Index(f.Message, m[0])], func(r rune) bool {
		return r == ' ' || r == '"' || r == '/' || r == ';' || r == ':' || r == '(' || r == ')'
	})
	for _, line := range candidates {
		if line < 1 || line > len(text) {
			continue
		}
		for _, w := range words {
			if w == want {
				continue
			}
			if col := wordIndex(text[line-1], w); col >= 0 {
				start := lspPosition(text, line, len([]rune(text[line-1][:col]))+1)
				end := lspPosition(text, line, len([]rune(text[line-1][:col+len(w)]))+1)
				return protocol.TextEdit{Range: protocol.Range{Start: start, End: end}, NewText: want}, true
			}
		}
	}
	return protocol.TextEdit{}, false
}

// wordIndex is where w is written in s as a whole value (not part of a
// longer name), or -1.
func wordIndex(s, w string) int {
	for from := 0; ; {
		i := strings.Index(s[from:], w)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(w)
		if (i == 0 || !nameChar(s[i-1])) && (end == len(s) || !nameChar(s[end])) {
			return i
		}
		from = i + 1
	}
}

func nameChar(c byte) bool {
	return c == '-' || c == '.' || c == '_' || (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
}

// findingObject is the object a finding is about.
func findingObject(f lint.Finding, graphs []*resolve.Graph) *resolve.Meta {
	for _, g := range graphs {
		for _, obj := range g.Objects {
			if m := obj.Metadata(); about(f, m) {
				return m
			}
		}
	}
	return nil
}
