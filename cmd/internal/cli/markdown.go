package cli

import "strings"

// Markdown for pull-request comments and job summaries, where a name from
// the inputs must not close a code span, end a table row or start a line.

// MarkdownCode renders s as a code span, escaped (Escape); a backtick,
// which would end the span, becomes a quote. An empty s is no span.
func MarkdownCode(s string) string {
	if s == "" {
		return ""
	}
	return "`" + strings.ReplaceAll(Escape(s), "`", "'") + "`"
}

// MarkdownCell makes s, which may hold code spans, one cell of a table:
// escaped (Escape), so on one line, and with its pipes literal, which
// GitHub reads as such even in a code span.
func MarkdownCell(s string) string {
	return strings.ReplaceAll(Escape(s), "|", `\|`)
}
