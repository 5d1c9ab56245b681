package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/fatih/color"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// result is one finding to print, or one that an ignore suppressed
// (Suppression set): only SARIF shows those, marked as suppressed.
type result struct {
	lint.Finding
	Suppression *lint.Suppression
}

// summary counts what was printed and what was read.
type summary struct {
	Errors, Warnings, Info int
	// Suppressed counts the findings that ignores suppressed.
	Suppressed int
	// Files is how many files (or stdin) were read, Objects how many
	// objects gwlint models were loaded from them.
	Files, Objects int
	// NotManifests is how many of the files read hold no Kubernetes
	// object, only other YAML (values files, tools' configurations).
	NotManifests int
	// Quiet is set when info findings were left out.
	Quiet bool
	// FileNames are the files read, in order ("-" for stdin), and FailOn
	// the severity that fails the run: JUnit reports both.
	FileNames []string
	FailOn    lint.Severity
	// GatewayAPI are the Gateway API releases whose CRDs judged the
	// inputs, when anything but the defaults chose them (one for each
	// choice: the worlds of a repository may install different ones).
	GatewayAPI []gatewayAPI
}

// gatewayAPI is a Gateway API release and channel whose CRDs judged the
// inputs, and what chose them.
type gatewayAPI struct {
	Version string `json:"version"`
	Channel string `json:"channel"`
	// Source is what chose them: the flag ("--gateway-api-version"), the
	// configuration file, or the CRDs among the inputs, at the first
	// one's annotation ("crds/gateway-api.yaml:9").
	Source string `json:"source"`
}

func (g gatewayAPI) String() string {
	return "Gateway API " + g.Version + " (" + g.Channel + " channel) from " + g.Source
}

func (s *summary) count(sev lint.Severity) {
	switch sev {
	case lint.Error:
		s.Errors++
	case lint.Warning:
		s.Warnings++
	default:
		s.Info++
	}
}

// String renders "3 errors, 1 warning, 2 info in 5 files (12 objects)",
// with "; 2 not manifests, skipped" inside the parentheses when files held
// no object, "; 2 suppressed" when ignores suppressed findings, and the
// Gateway API release that judged them when the defaults did not choose
// it.
func (s summary) String() string {
	counts := []string{plural(s.Errors, "error", "errors"), plural(s.Warnings, "warning", "warnings")}
	if !s.Quiet {
		counts = append(counts, plural(s.Info, "info", "info"))
	}
	read := plural(s.Objects, "object", "objects")
	if s.NotManifests > 0 {
		read += fmt.Sprintf("; %s, skipped", plural(s.NotManifests, "not a manifest", "not manifests"))
	}
	out := fmt.Sprintf("%s in %s (%s)", strings.Join(counts, ", "), plural(s.Files, "file", "files"), read)
	if s.Suppressed > 0 {
		out += fmt.Sprintf("; %d suppressed", s.Suppressed)
	}
	for _, g := range s.GatewayAPI {
		out += "; " + g.String()
	}
	return out
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// formatter writes results in one output format: Write is called for each
// result in order, then Flush once with the counts. Formatters that need
// every result before they can print (JSON, SARIF) print in Flush.
type formatter interface {
	Write(result) error
	Flush(summary) error
}

// location renders "file:line:col", dropping what is unknown (0), as
// compilers do, with the file name escaped (cli.Escape): it is printed
// among gwlint's own text.
func location(p lint.Position) string {
	file := cli.Escape(p.File)
	switch {
	case p.Line > 0 && p.Col > 0:
		return file + ":" + strconv.Itoa(p.Line) + ":" + strconv.Itoa(p.Col)
	case p.Line > 0:
		return file + ":" + strconv.Itoa(p.Line)
	}
	return file
}

// palette colours text output (see cli.NewColor).
type palette struct {
	pos, err, warn, info, note, rule *color.Color
}

func newPalette(enabled bool) palette {
	return palette{
		pos:  cli.NewColor(enabled, color.Bold),
		err:  cli.NewColor(enabled, color.FgRed, color.Bold),
		warn: cli.NewColor(enabled, color.FgYellow, color.Bold),
		info: cli.NewColor(enabled, color.FgCyan, color.Bold),
		note: cli.NewColor(enabled, color.Faint),
		rule: cli.NewColor(enabled, color.Faint),
	}
}

func (p palette) severity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return p.err.Sprint(s)
	case lint.Warning:
		return p.warn.Sprint(s)
	}
	return p.info.Sprint(s)
}

// textOutput prints one line per finding, grouped by file:
//
//	file:line:col: severity: message [rule-id]
//	    file:line:col: note: related message
//
// then a summary line. What comes from the inputs is escaped before it is
// coloured, so that no input starts a line or reaches the terminal as a
// control sequence.
type textOutput struct {
	w        io.Writer
	pal      palette
	lastFile string
	printed  bool
}

func (o *textOutput) Write(r result) error {
	if r.Suppression != nil {
		return nil
	}
	var b strings.Builder
	if o.printed && r.File != o.lastFile {
		b.WriteString("\n")
	}
	o.printed, o.lastFile = true, r.File
	fmt.Fprintf(&b, "%s: %s: %s %s\n", o.pal.pos.Sprint(location(r.Position)), o.pal.severity(r.Severity),
		cli.Escape(r.Message), o.pal.rule.Sprint("["+r.Rule+"]"))
	for _, rel := range r.Related {
		fmt.Fprintf(&b, "    %s: %s: %s\n", location(rel.Position), o.pal.note.Sprint("note"), cli.Escape(rel.Message))
	}
	_, err := io.WriteString(o.w, b.String())
	return err
}

func (o *textOutput) Flush(s summary) error {
	sep := ""
	if o.printed {
		sep = "\n"
	}
	_, err := io.WriteString(o.w, sep+s.String()+"\n")
	return err
}

// githubOutput prints GitHub Actions workflow commands, which annotate the
// pull request: ::error file=F,line=L,col=C,title=rule-id::message.
// https://docs.github.com/actions/reference/workflow-commands-for-github-actions
//
// The log shows the command as written, and acts on ANSI sequences, so
// what comes from the inputs is escaped (cli.Escape) as in text output
// before the command's own escaping; only the line breaks between the
// message and its notes are the command's %0A.
type githubOutput struct {
	w io.Writer
}

func (o *githubOutput) Write(r result) error {
	if r.Suppression != nil {
		return nil
	}
	command := map[lint.Severity]string{lint.Error: "error", lint.Warning: "warning", lint.Info: "notice"}[r.Severity]
	props := []string{"file=" + escapeProperty(cli.Escape(r.File))}
	if r.Line > 0 {
		props = append(props, "line="+strconv.Itoa(r.Line))
		if r.Col > 0 {
			props = append(props, "col="+strconv.Itoa(r.Col))
		}
	}
	props = append(props, "title="+escapeProperty(r.Rule))
	msg := cli.Escape(r.Message)
	for _, rel := range r.Related {
		msg += "\n" + location(rel.Position) + ": note: " + cli.Escape(rel.Message)
	}
	_, err := fmt.Fprintf(o.w, "::%s %s::%s\n", command, strings.Join(props, ","), escapeData(msg))
	return err
}

// Flush prints the summary as a plain log line.
func (o *githubOutput) Flush(s summary) error {
	_, err := io.WriteString(o.w, s.String()+"\n")
	return err
}

// escapeData escapes a workflow command's message, as @actions/core does.
func escapeData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// escapeProperty escapes a workflow command's property value, which also
// may not hold the separators : and ,.
func escapeProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
