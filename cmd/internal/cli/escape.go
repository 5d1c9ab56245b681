package cli

import (
	"strconv"
	"unicode"
	"unicode/utf8"
)

// Escape makes s, which came from the inputs (a file name, an object name,
// a message quoting a field's value), safe to print among gwlint's own
// text: gwlint runs in CI on pull requests from forks, and what it prints
// lands in logs and terminals that act on control characters. A newline
// followed by "::error ..." would forge a GitHub workflow command, ESC [
// would reach the terminal, and a bidi override would make a name read
// differently from what it is (trojan source).
//
// Every character that is not plain visible text is written as a Go
// escape: the C0 and C1 controls and DEL (\n, \t, \x1b, \u0085), the line
// and paragraph separators (\u2028, \u2029), the format characters, which
// are invisible and include the bidi overrides and isolates (\u202e,
// \u2066), and the noncharacters U+FFFE and U+FFFF; a byte of invalid
// UTF-8 is \xNN. Everything else, accented letters and CJK included, is
// kept, and so are backslashes: the result is for reading, not for
// parsing back, and doubling them would disfigure every regular
// expression a message quotes.
//
// One printable character is escaped too: a colon that s starts with,
// after spaces, is \x3a. Text output starts lines with file names, and
// the GitHub runner takes any line that starts with "::", after spaces,
// for a workflow command.
func Escape(s string) string {
	colon := leadingColon(s)
	i := escapeFrom(s)
	if colon >= 0 {
		i = min(i, colon)
	}
	if i == len(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	b = append(b, s[:i]...)
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\x`...)
			b = append(b, hex[s[i]>>4], hex[s[i]&0xF])
		case mustEscape(r):
			q := strconv.QuoteRuneToASCII(r) // '\n', '\x1b', '\u202e'
			b = append(b, q[1:len(q)-1]...)
		case i == colon:
			b = append(b, `\x3a`...)
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return string(b)
}

const hex = "0123456789abcdef"

// escapeFrom returns the index of the first byte of s that Escape writes
// as an escape because it is not plain visible text, len(s) when none.
func escapeFrom(s string) int {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || mustEscape(r) {
			return i
		}
		i += size
	}
	return len(s)
}

// leadingColon returns the index of the colon that s starts with after
// the spaces Escape keeps, -1 when there is none.
func leadingColon(s string) int {
	i := 0
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if !unicode.IsSpace(r) || mustEscape(r) {
			break
		}
		i += size
	}
	if i < len(s) && s[i] == ':' {
		return i
	}
	return -1
}

// mustEscape reports whether Escape writes r as an escape.
func mustEscape(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) ||
		r == '\u2028' || r == '\u2029' || r == '\uFFFE' || r == '\uFFFF'
}
