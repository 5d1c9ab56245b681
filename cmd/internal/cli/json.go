package cli

import (
	"encoding/json"
	"io"
)

// WriteJSON prints v as JSON indented by two spaces, without escaping
// HTML: messages say "GRPCRoute > HTTPRoute".
func WriteJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}
