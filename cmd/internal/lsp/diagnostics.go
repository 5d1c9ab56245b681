package lsp

import (
	"os"
	"reflect"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/lint"
)

// rulesURL is where each rule's documentation is, by its id as anchor.
const rulesURL = "https://github.com/gwlint/gwlint/blob/main/docs/rules.md#"

// source names gwlint as the diagnostics' source.
var source = "gwlint"

// byFile groups findings by the file they point at.
func byFile(findings []lint.Finding) map[string][]lint.Finding {
	out := map[string][]lint.Finding{}
	for _, f := range findings {
		out[f.File] = append(out[f.File], f)
	}
	return out
}

// diagnostics converts one file's findings; text is the file's lines, to
// measure ranges in; texts finds other files' for related locations.
func diagnostics(findings []lint.Finding, text []string, texts func(path string) []string) []protocol.Diagnostic {
	out := make([]protocol.Diagnostic, 0, len(findings))
	for _, f := range findings {
		severity := severityOf(f.Severity)
		d := protocol.Diagnostic{
			Range:           fieldRange(text, f.Position),
			Severity:        &severity,
			Code:            &protocol.IntegerOrString{Value: f.Rule},
			CodeDescription: &protocol.CodeDescription{HRef: rulesURL + f.Rule},
			Source:          &source,
			Message:         f.Message,
		}
		if f.Object != "" {
			d.Message += " (" + f.Object + " " + f.Path + ")"
		}
		for _, r := range f.Related {
			d.RelatedInformation = append(d.RelatedInformation, protocol.DiagnosticRelatedInformation{
				Location: protocol.Location{URI: uriOf(r.File), Range: fieldRange(texts(r.File), r.Position)},
				Message:  r.Message,
			})
		}
		out = append(out, d)
	}
	return out
}

// fieldRange runs from a finding's position (a field's key, or its value)
// to the end of the value on that line.
func fieldRange(text []string, p lint.Position) protocol.Range {
	start := lspPosition(text, p.Line, max(p.Col, 1))
	end := lineEnd(text, p.Line)
	if end.Character < start.Character {
		end = start
	}
	return protocol.Range{Start: start, End: end}
}

func severityOf(s lint.Severity) protocol.DiagnosticSeverity {
	switch s {
	case lint.Error:
		return protocol.DiagnosticSeverityError
	case lint.Warning:
		return protocol.DiagnosticSeverityWarning
	}
	return protocol.DiagnosticSeverityInformation
}

// publisher remembers what it published for each file, so that a check
// sends only the files whose findings changed, and clears the files that
// have none any more.
type publisher struct {
	published map[string][]lint.Finding // files with findings
	// sent are the files sent since they were opened: an open file is
	// sent once even without findings, so that the editor knows it has
	// none.
	sent map[string]bool
}

func newPublisher() *publisher {
	return &publisher{published: map[string][]lint.Finding{}, sent: map[string]bool{}}
}

// changes are the files whose diagnostics differ from those published:
// their new findings, nil for none.
func (p *publisher) changes(findings map[string][]lint.Finding, open []string) map[string][]lint.Finding {
	out := map[string][]lint.Finding{}
	for file, fs := range findings {
		if old, ok := p.published[file]; !ok || !reflect.DeepEqual(old, fs) {
			out[file] = fs
		}
	}
	for file := range p.published {
		if _, ok := findings[file]; !ok {
			out[file] = nil
		}
	}
	for _, file := range open {
		if !p.sent[file] {
			out[file] = findings[file]
		}
	}
	for file, fs := range out {
		if fs == nil {
			delete(p.published, file)
		} else {
			p.published[file] = fs
		}
		p.sent[file] = true
	}
	return out
}

// diskLines reads a file's lines, or none when it cannot be read.
func diskLines(path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil
	}
	return lines(data)
}
