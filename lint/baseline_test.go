package lint

import (
	"bytes"
	"testing"
)

func TestBaselineKeys(t *testing.T) {
	at := func(line int, msg string) Finding {
		return Finding{Rule: "object-duplicate", Severity: Error, Position: Position{File: "a/x.yaml", Line: line, Col: 3},
			Object: "Service ns/web", Path: "metadata.name", Message: msg}
	}
	noObject := Finding{Rule: "unused-ignore", Position: Position{File: "a/x.yaml", Line: 4}, Message: "suppresses nothing: no such finding on line 5"}
	b, err := NewBaseline([]Finding{at(4, "Service ns/web is already defined at a/y.yaml:10:3"), noObject,
		{Rule: InvalidManifest.ID, Position: Position{File: "a/z.yaml"}, Message: "bad"}}, ".")
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if _, err := b.WriteTo(&buf); err != nil {
		t.Fatal(err)
	}
	b, err = ParseBaseline(buf.Bytes(), "b.json")
	if err != nil {
		t.Fatal(err)
	}
	if b.Len() != 2 {
		t.Fatalf("%d entries, want 2 (invalid-manifest is never baselined):\n%s", b.Len(), buf.String())
	}
	moved := noObject
	moved.Line, moved.Message = 9, "suppresses nothing: no such finding on line 10"
	fresh, stale, err := b.Filter([]Finding{
		at(40, "Service ns/web is already defined at b/y.yaml:12:3"), // moved, and the first one too
		at(41, "Service ns/web is already defined at b/y.yaml:12:3"), // a second one is new
		moved,
		{Rule: InvalidManifest.ID, Position: Position{File: "a/z.yaml"}, Message: "bad"},
	}, ".")
	if err != nil {
		t.Fatal(err)
	}
	if len(fresh) != 2 || fresh[0].Line != 41 || fresh[1].Rule != InvalidManifest.ID || len(stale) != 0 {
		t.Errorf("fresh %+v, stale %+v", fresh, stale)
	}
	_, stale, _ = b.Filter(nil, ".")
	if len(stale) != 2 {
		t.Errorf("stale %+v, want both entries", stale)
	}
	// The file is a key only without an object, relative to the baseline.
	_, stale, _ = b.Filter([]Finding{moved}, "a")
	if len(stale) != 2 {
		t.Errorf("matched from another directory: stale %+v", stale)
	}
}
