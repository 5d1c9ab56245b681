package main

import (
	"io"
	"net/url"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// SARIF 2.1.0 (https://docs.oasis-open.org/sarif/sarif/v2.1.0/), the
// format of GitHub code scanning and most CI dashboards. Only the
// properties gwlint has values for are written; the types are gwlint's own
// so that the output stays small and every name is explicit. A test checks
// the output against the official schema with go-sarif.

const (
	sarifSchema     = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion    = "2.1.0"
	informationURI  = "https://github.com/gwlint/gwlint"
	rulesDocBaseURI = "https://github.com/gwlint/gwlint/blob/main/docs/rules.md#"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool sarifTool `json:"tool"`
	// ColumnKind says how columns count: resolve counts characters.
	ColumnKind string        `json:"columnKind"`
	Results    []sarifResult `json:"results"`
	// Properties say which Gateway API release judged the inputs, when
	// the defaults did not choose it.
	Properties *sarifRunProperties `json:"properties,omitempty"`
}

type sarifRunProperties struct {
	GatewayAPI []gatewayAPI `json:"gatewayAPI"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID                   string             `json:"id"`
	ShortDescription     sarifMessage       `json:"shortDescription"`
	FullDescription      sarifMessage       `json:"fullDescription"`
	Help                 sarifMessage       `json:"help"`
	HelpURI              string             `json:"helpUri"`
	DefaultConfiguration sarifConfiguration `json:"defaultConfiguration"`
}

type sarifMessage struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifConfiguration struct {
	Level string `json:"level"`
}

type sarifResult struct {
	RuleID           string             `json:"ruleId"`
	RuleIndex        int                `json:"ruleIndex"`
	Level            string             `json:"level"`
	Message          sarifMessage       `json:"message"`
	Locations        []sarifLocation    `json:"locations"`
	RelatedLocations []sarifLocation    `json:"relatedLocations,omitempty"`
	Suppressions     []sarifSuppression `json:"suppressions,omitempty"`
	// BaselineState is "new" for a reported finding of a run compared
	// with a baseline (--baseline, --new-from-rev); see sarifOutput.
	BaselineState string           `json:"baselineState,omitempty"`
	Properties    *sarifProperties `json:"properties,omitempty"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysicalLocation `json:"physicalLocation"`
	Message          *sarifMessage         `json:"message,omitempty"`
}

type sarifPhysicalLocation struct {
	ArtifactLocation sarifArtifactLocation `json:"artifactLocation"`
	Region           *sarifRegion          `json:"region,omitempty"`
}

type sarifArtifactLocation struct {
	URI string `json:"uri"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn,omitempty"`
}

// sarifSuppression marks a result that an ignore comment or annotation
// suppressed: viewers hide it, and the reason is the justification.
type sarifSuppression struct {
	Kind          string         `json:"kind"`
	Justification string         `json:"justification,omitempty"`
	Location      *sarifLocation `json:"location,omitempty"`
}

// sarifProperties carry what SARIF has no place for: the object and the
// field path of the finding.
type sarifProperties struct {
	Object string `json:"object,omitempty"`
	Path   string `json:"path,omitempty"`
}

// sarifOutput collects results and prints one SARIF log with one run.
//
// When the run was compared with a baseline, every reported finding is
// one the baseline did not hold, and says so with baselineState "new".
// The findings the baseline accepted are left out, as in every other
// format, rather than listed as "unchanged": GitHub code scanning ignores
// baselineState and would open an alert for each of them again (alerts
// for results that stop appearing are closed, which is what accepting
// them means). Suppressed results were not compared (a baseline never
// holds them) and carry no baselineState.
type sarifOutput struct {
	w        io.Writer
	run      sarifRun
	index    map[string]int // rule id → index in the driver's rules
	compared bool
}

// newSARIFOutput describes rules (the rules in effect, with their
// effective severities) in the tool's driver; compared says that the
// findings were compared with a baseline.
func newSARIFOutput(w io.Writer, rules []*lint.Rule, compared bool) *sarifOutput {
	o := &sarifOutput{w: w, index: map[string]int{}, compared: compared}
	o.run = sarifRun{
		Tool: sarifTool{Driver: sarifDriver{
			Name: "gwlint", Version: buildInfo().Version, InformationURI: informationURI, Rules: []sarifRule{},
		}},
		ColumnKind: "unicodeCodePoints",
		Results:    []sarifResult{},
	}
	sorted := slices.SortedFunc(slices.Values(rules), func(a, b *lint.Rule) int { return strings.Compare(a.ID, b.ID) })
	for _, r := range sorted {
		text := r.Doc.String()
		o.index[r.ID] = len(o.run.Tool.Driver.Rules)
		o.run.Tool.Driver.Rules = append(o.run.Tool.Driver.Rules, sarifRule{
			ID:                   r.ID,
			ShortDescription:     sarifMessage{Text: r.Summary},
			FullDescription:      sarifMessage{Text: text},
			Help:                 sarifMessage{Text: text, Markdown: r.Doc.Markdown()},
			HelpURI:              rulesDocBaseURI + r.ID,
			DefaultConfiguration: sarifConfiguration{Level: sarifLevel(r.Severity)},
		})
	}
	return o
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "note"
}

func (o *sarifOutput) Write(r result) error {
	index, ok := o.index[r.Rule]
	if !ok {
		index = -1 // the schema's "not given"
	}
	res := sarifResult{
		RuleID:    r.Rule,
		RuleIndex: index,
		Level:     sarifLevel(r.Severity),
		Message:   sarifMessage{Text: r.Message},
		Locations: []sarifLocation{sarifLocationAt(r.Position, "")},
	}
	for _, rel := range r.Related {
		res.RelatedLocations = append(res.RelatedLocations, sarifLocationAt(rel.Position, rel.Message))
	}
	if r.Object != "" || r.Path != "" {
		res.Properties = &sarifProperties{Object: r.Object, Path: r.Path}
	}
	if s := r.Suppression; s != nil {
		at := sarifLocationAt(s.Position, "")
		res.Suppressions = []sarifSuppression{{Kind: "inSource", Justification: s.Reason, Location: &at}}
	} else if o.compared {
		res.BaselineState = "new"
	}
	o.run.Results = append(o.run.Results, res)
	return nil
}

func (o *sarifOutput) Flush(s summary) error {
	if len(s.GatewayAPI) > 0 {
		o.run.Properties = &sarifRunProperties{GatewayAPI: s.GatewayAPI}
	}
	return cli.WriteJSON(o.w, sarifLog{Schema: sarifSchema, Version: sarifVersion, Runs: []sarifRun{o.run}})
}

func sarifLocationAt(p lint.Position, message string) sarifLocation {
	loc := sarifLocation{PhysicalLocation: sarifPhysicalLocation{ArtifactLocation: sarifArtifactLocation{URI: fileURI(p.File)}}}
	if p.Line > 0 {
		loc.PhysicalLocation.Region = &sarifRegion{StartLine: p.Line, StartColumn: p.Col}
	}
	if message != "" {
		loc.Message = &sarifMessage{Text: message}
	}
	return loc
}

// fileURI turns a path as given on the command line into a URI reference:
// relative paths stay relative (code scanning resolves them against the
// repository), absolute ones become file: URIs.
func fileURI(file string) string {
	slash := filepath.ToSlash(file)
	if filepath.IsAbs(file) {
		if !strings.HasPrefix(slash, "/") {
			slash = "/" + slash // C:/x → /C:/x
		}
		return (&url.URL{Scheme: "file", Path: slash}).String()
	}
	segs := strings.Split(slash, "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	ref := strings.Join(segs, "/")
	if first, _, _ := strings.Cut(ref, "/"); strings.Contains(first, ":") {
		ref = "./" + ref // not a scheme
	}
	return ref
}
