package main

import (
	"io"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// schemaVersion versions the JSON output of check and rules; see
// docs/gwlint.md. Field names are part of it and never change silently.
const schemaVersion = "gwlint.io/v1"

// jsonReport is the JSON output of gwlint check.
type jsonReport struct {
	Version  string        `json:"version"`
	Findings []jsonFinding `json:"findings"`
	Summary  jsonSummary   `json:"summary"`
}

type jsonFinding struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	File     string `json:"file"`
	// Line and Column are 1-based; 0 when unknown.
	Line    int           `json:"line"`
	Column  int           `json:"column"`
	Object  string        `json:"object"`
	Path    string        `json:"path"`
	Message string        `json:"message"`
	Related []jsonRelated `json:"related"`
}

type jsonRelated struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Column  int    `json:"column"`
	Message string `json:"message"`
}

type jsonSummary struct {
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Info       int `json:"info"`
	Suppressed int `json:"suppressed"`
	Files      int `json:"files"`
	Objects    int `json:"objects"`
	// GatewayAPI: see summary.
	GatewayAPI []gatewayAPI `json:"gatewayAPI,omitempty"`
}

// jsonOutput collects the findings and prints one JSON document.
type jsonOutput struct {
	w        io.Writer
	findings []jsonFinding
}

func (o *jsonOutput) Write(r result) error {
	if r.Suppression != nil {
		return nil
	}
	o.findings = append(o.findings, newJSONFinding(r.Finding))
	return nil
}

func newJSONFinding(f lint.Finding) jsonFinding {
	jf := jsonFinding{
		Rule: f.Rule, Severity: f.Severity.String(), File: f.File, Line: f.Line, Column: f.Col,
		Object: f.Object, Path: f.Path, Message: f.Message, Related: []jsonRelated{},
	}
	for _, r := range f.Related {
		jf.Related = append(jf.Related, jsonRelated{File: r.File, Line: r.Line, Column: r.Col, Message: r.Message})
	}
	return jf
}

func (o *jsonOutput) Flush(s summary) error {
	report := jsonReport{
		Version:  schemaVersion,
		Findings: o.findings,
		Summary: jsonSummary{
			Errors: s.Errors, Warnings: s.Warnings, Info: s.Info,
			Suppressed: s.Suppressed, Files: s.Files, Objects: s.Objects, GatewayAPI: s.GatewayAPI,
		},
	}
	if report.Findings == nil {
		report.Findings = []jsonFinding{} // "findings": [], not null
	}
	return cli.WriteJSON(o.w, report)
}
