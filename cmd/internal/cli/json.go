package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"unicode/utf16"
	"unicode/utf8"
)

// WriteJSON prints v as JSON indented by two spaces, without escaping
// HTML (messages say "GRPCRoute > HTTPRoute"), and with the characters
// Escape escapes escaped (see EscapeJSON).
func WriteJSON(w io.Writer, v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := w.Write(EscapeJSON(buf.Bytes()))
	return err
}

// EscapeJSON escapes, in JSON text, the characters Escape escapes that
// encoding/json writes raw (DEL, the C1 controls, the format characters,
// U+FFFE and U+FFFF), as \uXXXX: the JSON still decodes to the same
// strings, but printed to a terminal or a log it neither acts on them nor
// hides them. They can only be inside strings, the rest of JSON being
// ASCII; the controls below DEL are left to encoding/json, which escapes
// them in strings, so that the newlines of indented JSON stay.
func EscapeJSON(js []byte) []byte {
	var out []byte // nil until something is escaped
	last := 0
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r >= 0x7F && mustEscape(r) {
			out = append(out, js[last:i]...)
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				out = fmt.Appendf(out, `\u%04x\u%04x`, r1, r2)
			} else {
				out = fmt.Appendf(out, `\u%04x`, r)
			}
			last = i + size
		}
		i += size
	}
	if out == nil {
		return js
	}
	return append(out, js[last:]...)
}
