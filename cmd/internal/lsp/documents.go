package lsp

import (
	"io"
	"net/url"
	"path/filepath"
	"strings"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"
)

// document is an open document: the editor's text, which overrides the
// file on disk until the editor closes it.
type document struct {
	path    string
	version int32
	text    []byte
}

// pathOf is the file a file:// URI names; "" for any other scheme.
func pathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return ""
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// uriOf is the file:// URI of a path.
func uriOf(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}).String()
}

// lines splits text into lines without their line breaks.
func lines(text []byte) []string {
	return strings.Split(strings.ReplaceAll(string(text), "\r\n", "\n"), "\n")
}

// lspPosition converts gwlint's 1-based line and column (in characters)
// to the protocol's 0-based line and UTF-16 offset within that line.
func lspPosition(text []string, line, col int) protocol.Position {
	if line < 1 {
		return protocol.Position{}
	}
	p := protocol.Position{Line: protocol.UInteger(line - 1)}
	if line > len(text) {
		return p
	}
	units := 0
	for i, r := range []rune(text[line-1]) {
		if i >= col-1 {
			break
		}
		units += utf16Len(r)
	}
	p.Character = protocol.UInteger(units)
	return p
}

// gwlintPosition converts a protocol position to gwlint's 1-based line
// and column in characters.
func gwlintPosition(text []string, p protocol.Position) (line, col int) {
	line = int(p.Line) + 1
	if int(p.Line) >= len(text) {
		return line, int(p.Character) + 1
	}
	units, col := 0, 1
	for _, r := range text[p.Line] {
		if units >= int(p.Character) {
			break
		}
		units += utf16Len(r)
		col++
	}
	return line, col
}

func utf16Len(r rune) int {
	if r >= 0x10000 && utf8.ValidRune(r) {
		return 2
	}
	return 1
}

// lineEnd is where the content of a line ends: before a trailing comment
// and the blanks before it. A field's range runs from its key to there,
// the end of its value when the value is on the key's line.
func lineEnd(text []string, line int) protocol.Position {
	if line < 1 || line > len(text) {
		return protocol.Position{Line: protocol.UInteger(max(line-1, 0))}
	}
	s := text[line-1]
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	} else if strings.HasPrefix(strings.TrimSpace(s), "#") {
		s = ""
	}
	s = strings.TrimRight(s, " \t")
	return lspPosition(text, line, utf8.RuneCountInString(s)+1)
}

// stdio is the server's end of a client's pipes.
type stdio struct {
	io.Reader
	io.Writer
}

func (stdio) Close() error { return nil }

// Stdio joins the client's pipes into the stream Serve serves.
func Stdio(in io.Reader, out io.Writer) io.ReadWriteCloser { return stdio{in, out} }
