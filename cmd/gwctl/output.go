package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

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
	// sigs.k8s.io/yaml reads the JSON as YAML, which may not hold DEL, the
	// C1 controls, U+FEFF, U+FFFE or U+FFFF raw, and reads NEL as a line
	// break: it refused a whole status List for one name holding one.
	out, err := yaml.JSONToYAML(cli.EscapeJSON(js))
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

// escapedView returns a deep copy of a view (an explanation or a diff)
// with every string escaped (cli.Escape), for the text output to render:
// names, messages and file names come from the inputs, and text output
// must neither let them start a line nor pass their control characters to
// the terminal. Escaping the view, rather than each string where it is
// printed, covers every field whatever the rendering does with it, and
// comes before colour, which the rendering adds. The views are plain data
// with exported fields (they are also printed as JSON); the copy leaves
// the view itself, which may share slices with the graph, untouched.
func escapedView[V any](v V) V {
	out := reflect.New(reflect.TypeFor[V]()).Elem()
	copyEscaped(out, reflect.ValueOf(&v).Elem())
	return out.Interface().(V)
}

// copyEscaped sets dst, which is settable, to a deep copy of src with
// every string escaped.
func copyEscaped(dst, src reflect.Value) {
	switch src.Kind() {
	case reflect.String:
		dst.SetString(cli.Escape(src.String()))
	case reflect.Pointer:
		if !src.IsNil() {
			dst.Set(reflect.New(src.Type().Elem()))
			copyEscaped(dst.Elem(), src.Elem())
		}
	case reflect.Slice:
		if !src.IsNil() {
			dst.Set(reflect.MakeSlice(src.Type(), src.Len(), src.Len()))
			for i := range src.Len() {
				copyEscaped(dst.Index(i), src.Index(i))
			}
		}
	case reflect.Struct:
		// The whole struct first, for its unexported fields (flags such as
		// requestTrace.stream); an embedded struct of an unexported type
		// (typeMeta) cannot be set, but was copied with its parent, and
		// its exported fields can.
		if dst.CanSet() {
			dst.Set(src)
		}
		for i := range src.NumField() {
			if f := dst.Field(i); f.CanSet() || src.Type().Field(i).Anonymous {
				copyEscaped(f, src.Field(i))
			}
		}
	case reflect.Interface:
		if !src.IsNil() {
			e := reflect.New(src.Elem().Type()).Elem()
			copyEscaped(e, src.Elem())
			dst.Set(e)
		}
	case reflect.Map:
		panic("escapedView: a map in a view") // none yet, and map order is no output order
	default:
		dst.Set(src)
	}
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
