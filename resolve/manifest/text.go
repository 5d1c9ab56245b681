package manifest

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"unicode/utf16"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"
)

// decodeText returns a file's bytes as the UTF-8 text with LF line breaks
// that everything after it reads. libyaml reads UTF-16 with a byte order
// mark and CR, CRLF and NEL (U+0085) line breaks, but the fast parser, the
// document splitter and the ignore-comment scanner read UTF-8 lines ending
// in LF: converting first gives them all the same lines and columns as
// yaml.v3 (which makes the same conversions as it reads, so its trees do
// not change). A UTF-8 byte order mark is dropped, as libyaml drops it.
// (libyaml also counts LS and PS as line breaks, but keeps them in values,
// so they stay: yaml.v3 counts the lines they end within their document,
// and the splitter does not count them for the documents after it.)
func decodeText(data []byte) ([]byte, *textError) {
	switch {
	case bytes.HasPrefix(data, []byte{0xFF, 0xFE}):
		return fromUTF16(data[2:], false)
	case bytes.HasPrefix(data, []byte{0xFE, 0xFF}):
		return fromUTF16(data[2:], true)
	}
	data = bytes.TrimPrefix(data, []byte("\uFEFF"))
	first := bytes.IndexByte(data, '\r')
	if nel := bytes.Index(data, []byte(nelUTF8)); nel >= 0 && (first < 0 || nel < first) {
		first = nel
	}
	if first < 0 {
		return data, nil
	}
	out := make([]byte, 0, len(data))
	out = append(out, data[:first]...)
	for i := first; i < len(data); i++ {
		switch c := data[i]; {
		case c == '\r' && i+1 < len(data) && data[i+1] == '\n':
			// CRLF: the LF is written next.
		case c == '\r':
			out = append(out, '\n')
		case c == nelUTF8[0] && i+1 < len(data) && data[i+1] == nelUTF8[1]:
			out = append(out, '\n')
			i++
		default:
			out = append(out, c)
		}
	}
	return out, nil
}

// nelUTF8 is NEL, U+0085, in UTF-8.
const nelUTF8 = "\u0085"

// textError is a problem with the text itself, before any YAML is read:
// where it is in the text, and what it is.
type textError struct {
	pos Pos
	msg string
}

// fromUTF16 transcodes UTF-16 text (after its byte order mark) to UTF-8,
// with LF line breaks.
func fromUTF16(data []byte, bigEndian bool) ([]byte, *textError) {
	unit := func(i int) rune {
		if bigEndian {
			return rune(data[i])<<8 | rune(data[i+1])
		}
		return rune(data[i+1])<<8 | rune(data[i])
	}
	out := make([]byte, 0, len(data)/2)
	line, lineStart := 1, 0 // lineStart: offset in out
	for i := 0; i < len(data); i += 2 {
		if i+1 == len(data) {
			return nil, &textError{Pos{line, 0}, "invalid UTF-16: the file ends in the middle of a character"}
		}
		r := unit(i)
		if utf16.IsSurrogate(r) {
			if i+3 >= len(data) {
				r = utf8.RuneError
			} else if r = utf16.DecodeRune(r, unit(i+2)); r != utf8.RuneError {
				i += 2
			}
			if r == utf8.RuneError {
				col := 1 + utf8.RuneCount(out[lineStart:])
				return nil, &textError{Pos{line, col}, "invalid UTF-16: an unpaired surrogate"}
			}
		}
		switch {
		case r == '\r' && i+3 < len(data) && unit(i+2) == '\n':
			continue // CRLF: the LF is written next
		case r == '\r' || r == '\n' || r == 0x85:
			out = append(out, '\n')
			line, lineStart = line+1, len(out)
		default:
			out = utf8.AppendRune(out, r)
		}
	}
	return out, nil
}

// scanText reads text once for two answers: whether it holds only
// characters whose meaning the fast parser knows (no tabs, CRs, byte order
// marks, control characters or the line breaks libyaml also accepts: NEL,
// LS, PS), and the offset of the first character that YAML does not allow
// at all (libyaml's "control characters are not allowed" and invalid
// UTF-8), or -1.
func scanText(data []byte) (fast bool, bad int) { return scanTextBy(data, true) }

// scanTextBy is scanText, skipping eight bytes at a time while they are
// printable ASCII or LF (as nearly all of a manifest is) when words is
// set; without, it reads every character, as its test's reference.
func scanTextBy(data []byte, words bool) (fast bool, bad int) {
	fast = true
	for i := 0; i < len(data); {
		if words && i+8 <= len(data) && plainWord(binary.LittleEndian.Uint64(data[i:])) {
			i += 8
			continue
		}
		c := data[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n') || c == 0x7F {
				fast = false
				if c != '\t' && c != '\r' {
					return false, i
				}
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size == 1 || r < 0xA0 && r != 0x85 || r == 0xFFFE || r == 0xFFFF {
			return false, i
		}
		if r < 0xA0 || r == 0x2028 || r == 0x2029 || r == 0xFEFF {
			fast = false
		}
		i += size
	}
	return fast, -1
}

// plainWord reports whether each of the eight bytes of w is printable
// ASCII (0x20 to 0x7E) or a line feed, with the byte tricks of "Bit
// Twiddling Hacks", made exact for each byte by adding only to 7-bit
// values, which cannot carry into the next byte.
func plainWord(w uint64) bool {
	const (
		ones = 0x0101010101010101
		high = 0x8080808080808080
		low7 = 0x7F7F7F7F7F7F7F7F
	)
	seven := w & low7
	printable := (seven + ones*(0x80-0x20)) & high // the low 7 bits are 0x20 or more
	del := (seven + ones) & high                   // the low 7 bits are 0x7F
	lf := w ^ ones*'\n'
	notLF := ((lf&low7 + low7) | lf) & high
	return (w&high | del | ^printable&notLF&high) == 0
}

// badCharError describes the character at data[i], which scanText refused.
func badCharError(data []byte, i int) string {
	r, size := utf8.DecodeRune(data[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("invalid UTF-8 (byte 0x%02X): manifests are UTF-8, or UTF-16 with a byte order mark", data[i])
	case r == 0:
		return "NUL character (U+0000) is not allowed in YAML: is this a binary file?"
	}
	return fmt.Sprintf("control character U+%04X is not allowed in YAML", r)
}

// piece is a run of whole lines of a file holding one or more of its YAML
// documents, or one JSON object of a stream of them.
type piece struct {
	start, end int // offsets in the file's text
	line       int // the 1-based line of start
	// col is the 0-based column of start: a JSON object may follow another
	// on the same line.
	col int
}

// splitDocuments cuts text into pieces that are read one at a time, so
// that no more than one document's tree is held at once (a file of
// thousands of documents costs little more than the objects read from it)
// and so that a document that cannot be read does not cost the ones after
// it. YAML documents are cut at the lines that start with a "---" marker,
// as kubectl cuts them: YAML allows such a line nowhere else, and nothing
// of one document (anchors included) reaches into the next. A file that
// starts with '{' and holds a stream of JSON objects ({...}{...}, or one
// per line) is cut into its objects, as kubectl reads such a stream.
//
// A file with directives (%YAML, %TAG), which belong to the document after
// them, is read whole.
func splitDocuments(text []byte) []piece {
	if spans := jsonStream(text); len(spans) > 1 {
		out := make([]piece, len(spans))
		line, lineStart, from := 1, 0, 0
		for i, s := range spans {
			if n := bytes.Count(text[from:s[0]], []byte{'\n'}); n > 0 {
				line += n
				lineStart = bytes.LastIndexByte(text[:s[0]], '\n') + 1
			}
			from = s[0]
			out[i] = piece{start: s[0], end: s[1], line: line, col: utf8.RuneCount(text[lineStart:s[0]])}
		}
		return out
	}
	if len(text) > 0 && text[0] == '%' || bytes.Contains(text, []byte("\n%")) {
		return []piece{{end: len(text), line: 1}}
	}
	var out []piece
	start, startLine, line := 0, 1, 1
	for i := 0; i < len(text); {
		end := bytes.IndexByte(text[i:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += i
		}
		if i > start && isDocumentStart(text[i:end]) {
			out = append(out, piece{start: start, end: i, line: startLine})
			start, startLine = i, line
		}
		i, line = end+1, line+1
	}
	return append(out, piece{start: start, end: len(text), line: startLine})
}

// isDocumentStart reports whether a line starts with the "---" marker.
func isDocumentStart(line []byte) bool {
	return len(line) >= 3 && line[0] == '-' && line[1] == '-' && line[2] == '-' &&
		(len(line) == 3 || line[3] == ' ' || line[3] == '\t')
}

// jsonStream returns the spans of the JSON objects of text when it is a
// stream of them (only whitespace between and after them), else nil. It
// only finds where each object ends, counting brackets outside strings;
// the YAML reader then reads each, and reports what is not valid. Text
// that merely looks like JSON at first (a YAML flow mapping, a comment) is
// left whole to the YAML reader.
func jsonStream(text []byte) [][2]int {
	var spans [][2]int
	for i := skipJSONSpace(text, 0); i < len(text); i = skipJSONSpace(text, i) {
		if text[i] != '{' {
			return nil
		}
		end := jsonObjectEnd(text, i)
		if end < 0 {
			return nil
		}
		spans = append(spans, [2]int{i, end})
		i = end
	}
	return spans
}

func skipJSONSpace(text []byte, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t' || text[i] == '\n') {
		i++
	}
	return i
}

// jsonObjectEnd returns the offset just past the object opening at
// text[i], or -1. Single-quoted strings are skipped too (JSON has none, and
// a YAML flow mapping may hold braces in them); a '#' outside a string is
// a YAML comment, which JSON cannot hold.
func jsonObjectEnd(text []byte, i int) int {
	depth := 0
	for ; i < len(text); i++ {
		switch c := text[i]; c {
		case '"', '\'':
			j := i + 1
			for ; j < len(text); j++ {
				if c == '"' && text[j] == '\\' {
					j++ // an escaped character
					continue
				}
				if text[j] == c {
					if c == '"' || j+1 == len(text) || text[j+1] != '\'' {
						break
					}
					j++ // '' is an escaped quote
				}
			}
			if j >= len(text) {
				return -1
			}
			i = j
		case '{', '[':
			depth++
		case '}', ']':
			if depth--; depth == 0 {
				return i + 1
			}
		case '#':
			return -1
		}
	}
	return -1
}

// extraBreaks maps the lines and columns yaml.v3 reports in a piece to
// the lines editors show. libyaml ends a line at LS (U+2028) and PS
// (U+2029) as well as at LF, as YAML 1.1 (and so kubectl's parser) does,
// so without it every position after such a character is a line too low.
// Each entry is a line as libyaml counts them that starts inside an
// editor's line.
type extraBreaks []lineStart

type lineStart struct {
	libyamlLine int // 1-based, as yaml.v3 reports it
	line        int // 1-based editor line of the piece it starts in
	col         int // characters before it on that editor line
}

// findExtraBreaks returns the LS and PS breaks of data, nil when it has
// none (almost always).
func findExtraBreaks(data []byte) extraBreaks {
	if !bytes.Contains(data, []byte("\u2028")) && !bytes.Contains(data, []byte("\u2029")) {
		return nil
	}
	var out extraBreaks
	libyamlLine, line, col := 1, 1, 0
	for _, r := range string(data) {
		switch r {
		case '\n':
			libyamlLine, line, col = libyamlLine+1, line+1, 0
			continue
		case '\u2028', '\u2029':
			libyamlLine++
			col++
			out = append(out, lineStart{libyamlLine, line, col})
			continue
		}
		col++
	}
	return out
}

// pos maps a 1-based line and column as yaml.v3 reports them to the
// editor's.
func (b extraBreaks) pos(line, col int) (int, int) {
	shift := 0 // libyaml lines that started inside editor lines before line
	for _, s := range b {
		switch {
		case s.libyamlLine == line:
			return s.line, s.col + col
		case s.libyamlLine < line:
			shift++
		}
	}
	return line - shift, col
}

// remap moves the positions of a tree yaml.v3 read from the piece to the
// editor's lines.
func (b extraBreaks) remap(n *yaml.Node) {
	n.Line, n.Column = b.pos(n.Line, n.Column)
	for _, child := range n.Content {
		b.remap(child)
	}
}
