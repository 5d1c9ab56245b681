package cli

import (
	"encoding/json"
	"testing"
)

func TestEscape(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"HTTPRoute shop/cart", "HTTPRoute shop/cart"},
		{"café/日本語.yaml", "café/日本語.yaml"},
		{`^/api/v\d+`, `^/api/v\d+`},
		{"a.yaml\n::error file=README.md,line=1::pwned", `a.yaml\n::error file=README.md,line=1::pwned`},
		{"\r\t\a\b\f\v", `\r\t\a\b\f\v`},
		{"\x1b[31mred", `\x1b[31mred`},
		{"\x00\x7f", `\x00\x7f`},
		{"\u0085\u009b", `\u0085\u009b`},
		{"\u2028\u2029", `\u2028\u2029`},
		{"admin\u202e\u2066txt.yaml\u2069", `admin\u202e\u2066txt.yaml\u2069`},
		{"zero\u200bwidth\ufeff\u00ad", `zero\u200bwidth\ufeff\u00ad`},
		{"tag\U000E0041", `tag\U000e0041`},
		{"\ufffe\uffff", `\ufffe\uffff`},
		{"bad\xffutf8\xc3", `bad\xffutf8\xc3`},
		{"\ufffd", "\ufffd"}, // a real replacement character is text
		// A line starting with "::" after spaces is a workflow command.
		{"::error file=README.md::pwned.yaml", `\x3a:error file=README.md::pwned.yaml`},
		{" \u3000::x", " \u3000\\x3a:x"},
		{"\t::x", `\t::x`},
		{"a::b", "a::b"},
	} {
		if got := Escape(tt.in); got != tt.want {
			t.Errorf("Escape(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestEscapeJSON: what Escape escapes and encoding/json does not is
// escaped in the JSON text, which still decodes to the same string.
func TestEscapeJSON(t *testing.T) {
	in := "a\u202eb\x7f\u0085\U000E0041\ufeff é\n"
	js, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	got := EscapeJSON(js)
	if want := `"a\u202eb\u007f\u0085\udb40\udc41\ufeff é\n"`; string(got) != want {
		t.Errorf("EscapeJSON = %s, want %s", got, want)
	}
	var back string
	if err := json.Unmarshal(got, &back); err != nil || back != in {
		t.Errorf("decodes to %q (%v), want %q", back, err, in)
	}
}
