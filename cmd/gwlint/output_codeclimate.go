package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
	"strconv"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// Code Climate issues (https://github.com/codeclimate/platform/blob/master/spec/analyzers/SPEC.md#issues),
// as GitLab reads them for its Code Quality report
// (https://docs.gitlab.com/ci/testing/code_quality/#code-quality-report-format):
// a JSON array with one issue per finding. GitLab requires description,
// check_name, fingerprint, severity, location.path and
// location.lines.begin; type and categories are the Code Climate spec's
// own required fields.

type ccIssue struct {
	Type           string       `json:"type"`
	CheckName      string       `json:"check_name"`
	Description    string       `json:"description"`
	Categories     []string     `json:"categories"`
	Severity       string       `json:"severity"`
	Fingerprint    string       `json:"fingerprint"`
	Location       ccLocation   `json:"location"`
	OtherLocations []ccLocation `json:"other_locations,omitempty"`
}

type ccLocation struct {
	Path  string  `json:"path"`
	Lines ccLines `json:"lines"`
}

type ccLines struct {
	Begin int `json:"begin"`
}

// ccSeverity maps gwlint's severities onto Code Climate's five: an input
// that could not be read blocks everything else, so it is a blocker.
func ccSeverity(f lint.Finding) string {
	switch {
	case f.Rule == lint.InvalidManifest.ID:
		return "blocker"
	case f.Severity == lint.Error:
		return "critical"
	case f.Severity == lint.Warning:
		return "minor"
	}
	return "info"
}

func ccLocationAt(p lint.Position) ccLocation {
	// Code Climate lines are 1-based and required: an unknown line is the
	// file's first.
	return ccLocation{Path: p.File, Lines: ccLines{Begin: max(p.Line, 1)}}
}

// fingerprint identifies a finding across runs for GitLab, which compares
// the fingerprints of the merge request with those of the target branch:
// it hashes the rule, the file, the object, the field path and the
// message, never the line, so that a finding stays the same finding when
// the lines above it change.
func fingerprint(f lint.Finding) string {
	h := sha256.New()
	for _, s := range []string{"gwlint/v1", f.Rule, f.File, f.Object, f.Path, f.Message} {
		io.WriteString(h, s)
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:32]
}

// codeClimateOutput collects the issues and prints one JSON array.
type codeClimateOutput struct {
	w      io.Writer
	issues []ccIssue
	seen   map[string]int // fingerprint → how many findings had it
}

func (o *codeClimateOutput) Write(r result) error {
	if r.Suppression != nil {
		return nil
	}
	fp := fingerprint(r.Finding)
	if o.seen == nil {
		o.seen = map[string]int{}
	}
	// GitLab wants fingerprints unique in a report; the same finding twice
	// in one file (on different lines) is told apart by its rank, which
	// the sorted order makes deterministic.
	o.seen[fp]++
	if n := o.seen[fp]; n > 1 {
		again := r.Finding
		again.Message += "\x00" + strconv.Itoa(n)
		fp = fingerprint(again)
	}
	issue := ccIssue{
		Type:        "issue",
		CheckName:   r.Rule,
		Description: r.Message,
		Categories:  []string{"Bug Risk"},
		Severity:    ccSeverity(r.Finding),
		Fingerprint: fp,
		Location:    ccLocationAt(r.Position),
	}
	for _, rel := range r.Related {
		issue.OtherLocations = append(issue.OtherLocations, ccLocationAt(rel.Position))
	}
	o.issues = append(o.issues, issue)
	return nil
}

func (o *codeClimateOutput) Flush(summary) error {
	if o.issues == nil {
		o.issues = []ccIssue{} // [], not null: GitLab reads an empty report
	}
	return cli.WriteJSON(o.w, o.issues)
}
