package lint

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
)

// BaselineVersion versions the baseline file's schema; see docs/gwlint.md.
// Field names are part of it and never change silently.
const BaselineVersion = "gwlint.io/baseline/v1"

// A Baseline is the findings a project has accepted for now, so that a
// check reports only new ones (gwlint baseline, gwlint check --baseline).
//
// An entry is keyed by what a finding is about, never by where it is
// printed, so it survives edits that move lines: the object
// ("HTTPRoute ns/name"), the rule id, the field path and the message. A
// position inside a message ("already defined at a.yaml:4:3") is reduced to
// the file's base name, a line number ("on line 43") to "line N". The file is part of the key only for findings
// about no object. Entries are a multiset: two identical findings need two
// entries.
type Baseline struct {
	entries []BaselineEntry
}

// BaselineEntry is one accepted finding.
type BaselineEntry struct {
	Rule   string `json:"rule"`
	Object string `json:"object,omitempty"`
	Path   string `json:"path,omitempty"`
	// File is set only when Object is empty, relative to the baseline
	// file's directory, /-separated.
	File    string `json:"file,omitempty"`
	Message string `json:"message"`
}

// baselineFile is the JSON document.
type baselineFile struct {
	Version  string          `json:"version"`
	Findings []BaselineEntry `json:"findings"`
}

// baselineEntry is the key of a finding; dir is the baseline file's
// directory, for findings keyed by file.
func baselineEntry(f Finding, dir string) BaselineEntry {
	e := BaselineEntry{Rule: f.Rule, Object: f.Object, Path: f.Path,
		Message: messageWithoutLines(f.Message)}
	if e.Object == "" {
		e.File = f.File
		if abs, err := filepath.Abs(f.File); err == nil && f.File != "-" {
			if rel, err := filepath.Rel(dir, abs); err == nil {
				e.File = filepath.ToSlash(rel)
			}
		}
	}
	return e
}

func compareEntries(a, b BaselineEntry) int {
	return cmp.Or(cmp.Compare(a.Object, b.Object), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Path, b.Path),
		cmp.Compare(a.File, b.File), cmp.Compare(a.Message, b.Message))
}

// NewBaseline records findings for a baseline file in dir. Findings of
// invalid-manifest are left out: an unreadable file is never accepted.
func NewBaseline(findings []Finding, dir string) (*Baseline, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	b := &Baseline{entries: []BaselineEntry{}}
	for _, f := range findings {
		if f.Rule != InvalidManifest.ID {
			b.entries = append(b.entries, baselineEntry(f, dir))
		}
	}
	slices.SortFunc(b.entries, compareEntries)
	return b, nil
}

// Len is the number of entries.
func (b *Baseline) Len() int { return len(b.entries) }

// WriteTo writes the baseline as indented JSON, sorted, so that it can be
// committed and diffed.
func (b *Baseline) WriteTo(w io.Writer) (int64, error) {
	data, err := json.MarshalIndent(baselineFile{Version: BaselineVersion, Findings: b.entries}, "", "  ")
	if err != nil {
		return 0, err
	}
	n, err := w.Write(append(data, '\n'))
	return int64(n), err
}

// ParseBaseline reads a baseline file; name is for messages.
func ParseBaseline(data []byte, name string) (*Baseline, error) {
	var f baselineFile
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: not a gwlint baseline: %w", name, err)
	}
	if f.Version != BaselineVersion {
		return nil, fmt.Errorf("%s: baseline version %q, want %q (write it again with gwlint baseline)", name, f.Version, BaselineVersion)
	}
	for i, e := range f.Findings {
		if e.Rule == "" || e.Message == "" {
			return nil, fmt.Errorf("%s: findings[%d] has no rule or message", name, i)
		}
	}
	return &Baseline{entries: f.Findings}, nil
}

// Filter splits findings into those the baseline does not hold, which are
// new, and returns them with the entries that matched no finding (their
// problem is fixed, or changed beyond recognition). dir is the baseline
// file's directory.
func (b *Baseline) Filter(findings []Finding, dir string) (fresh []Finding, stale []BaselineEntry, err error) {
	if dir, err = filepath.Abs(dir); err != nil {
		return nil, nil, err
	}
	left := map[BaselineEntry]int{}
	for _, e := range b.entries {
		left[e]++
	}
	for _, f := range findings {
		k := baselineEntry(f, dir)
		if f.Rule != InvalidManifest.ID && left[k] > 0 {
			left[k]--
			continue
		}
		fresh = append(fresh, f)
	}
	for _, e := range b.entries {
		if left[e] > 0 {
			left[e]--
			stale = append(stale, e)
		}
	}
	slices.SortFunc(stale, compareEntries)
	return fresh, stale, nil
}
