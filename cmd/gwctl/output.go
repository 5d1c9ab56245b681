package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
	"github.com/olekukonko/tablewriter"
	"github.com/olekukonko/tablewriter/renderer"
	"github.com/olekukonko/tablewriter/tw"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/cmd/internal/cli"
)

// Output formats.
const (
	formatText = "text"
	formatJSON = "json"
	formatYAML = "yaml"
)

// palette colours the few words that carry a verdict (see cli.NewColor).
type palette struct {
	heading, good, warn, bad *color.Color
}

func newPalette(enabled bool) palette {
	return palette{
		heading: cli.NewColor(enabled, color.Bold),
		good:    cli.NewColor(enabled, color.FgGreen),
		warn:    cli.NewColor(enabled, color.FgYellow),
		bad:     cli.NewColor(enabled, color.FgRed),
	}
}

// verdict colours a condition-like word: green when ok, red otherwise.
func (p palette) verdict(ok bool, s string) string {
	if ok {
		return p.good.Sprint(s)
	}
	return p.bad.Sprint(s)
}

// printer writes indented lines and tables and keeps the first write
// error, so that rendering code reads as a plain sequence of lines.
type printer struct {
	w   io.Writer
	pal palette
	err error
}

const indentUnit = "  "

func (p *printer) write(s string) {
	if p.err == nil {
		_, p.err = io.WriteString(p.w, s)
	}
}

// line prints one line at the given indent level.
func (p *printer) line(indent int, format string, args ...any) {
	p.write(strings.Repeat(indentUnit, indent) + fmt.Sprintf(format, args...) + "\n")
}

// blank prints an empty line.
func (p *printer) blank() { p.write("\n") }

// title heads an explanation: the object and where it was written.
func (p *printer) title(obj refView, source string) {
	p.line(0, "%s   (%s)", p.pal.heading.Sprint(obj), source)
}

// heading starts a section of an explanation.
func (p *printer) heading(s string) {
	p.line(0, "%s", p.pal.heading.Sprint(s))
}

// table prints rows as aligned columns without borders at the given
// indent level; header may be nil. Trailing blanks are cut so that golden
// files carry no invisible differences.
func (p *printer) table(indent int, header []string, rows [][]string) {
	if p.err != nil || len(rows) == 0 {
		return
	}
	var buf bytes.Buffer
	t := tablewriter.NewTable(&buf,
		tablewriter.WithRenderer(renderer.NewBlueprint(tw.Rendition{
			Borders: tw.BorderNone,
			Symbols: tw.NewSymbols(tw.StyleNone),
			Settings: tw.Settings{
				Separators: tw.Separators{BetweenRows: tw.Off, BetweenColumns: tw.Off},
				Lines:      tw.Lines{ShowHeaderLine: tw.Off},
			},
		})),
		tablewriter.WithHeaderAlignment(tw.AlignLeft),
		tablewriter.WithRowAlignment(tw.AlignLeft),
		tablewriter.WithHeaderAutoFormat(tw.Off),
		tablewriter.WithHeaderAutoWrap(tw.WrapNone),
		tablewriter.WithRowAutoWrap(tw.WrapNone),
		tablewriter.WithPadding(tw.Padding{Right: "  ", Overwrite: true}),
	)
	if header != nil {
		t.Header(header)
	}
	for _, row := range rows {
		if p.err = t.Append(row); p.err != nil {
			return
		}
	}
	if p.err = t.Render(); p.err != nil {
		return
	}
	prefix := strings.Repeat(indentUnit, indent)
	for _, l := range strings.Split(strings.TrimRight(buf.String(), "\n"), "\n") {
		p.write(prefix + strings.TrimRight(l, " ") + "\n")
	}
}

// writeMachine prints v as indented JSON or as YAML. YAML goes through the
// JSON tags (sigs.k8s.io/yaml), so both formats share one schema.
func writeMachine(w io.Writer, format string, v any) error {
	if format == formatJSON {
		return cli.WriteJSON(w, v)
	}
	js, err := json.Marshal(v)
	if err != nil {
		return err
	}
	out, err := yaml.JSONToYAML(escapeForYAML(js))
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// escapeForYAML escapes, in JSON text, the characters that JSON may hold
// raw in a string but YAML may not (DEL, the C1 controls, U+FEFF,
// U+FFFE, U+FFFF) or reads differently (NEL is a line break there):
// sigs.k8s.io/yaml reads the JSON as YAML, and refused a
// whole status List for one name or message holding one of them.
func escapeForYAML(js []byte) []byte {
	var out []byte // nil until something is escaped
	last := 0
	for i := 0; i < len(js); {
		r, size := utf8.DecodeRune(js[i:])
		if r == 0x7F || r >= 0x80 && r <= 0x9F || r == 0xFEFF || r == 0xFFFE || r == 0xFFFF {
			out = append(out, js[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + size
		}
		i += size
	}
	if out == nil {
		return js
	}
	return append(out, js[last:]...)
}

// percent renders a share (0..1) with at most one decimal: 80%, 33.3%.
func percent(share float64) string {
	return strings.TrimSuffix(strconv.FormatFloat(share*100, 'f', 1, 64), ".0") + "%"
}

// orNone joins items, or says "none".
func orNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return strings.Join(items, ", ")
}
