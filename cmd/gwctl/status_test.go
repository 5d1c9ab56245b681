package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/resolve"
)

// writeStatusList writes, an item at a time, exactly what writeMachine
// writes for the whole List.
func TestWriteStatusListStreams(t *testing.T) {
	type statusList struct {
		APIVersion string                 `json:"apiVersion"`
		Kind       string                 `json:"kind"`
		Items      []resolve.StatusObject `json:"items"`
	}
	g := resolve.Resolve(resolve.Load([]string{clitest.Examples}, nil, resolve.Options{}), resolve.Options{})
	items := g.Statuses()
	// A message over several lines, as YAML writes in a block scalar.
	items = append(items, resolve.StatusObject{APIVersion: "v1", Kind: "X", Status: map[string]any{"message": "a\n\nb\n  c"}})
	for _, format := range []string{formatYAML, formatJSON} {
		for _, items := range [][]resolve.StatusObject{items, {}} {
			var got, want bytes.Buffer
			if err := writeStatusList(&got, format, items); err != nil {
				t.Fatal(err)
			}
			if err := writeMachine(&want, format, statusList{"v1", "List", items}); err != nil {
				t.Fatal(err)
			}
			if got.String() != want.String() {
				t.Errorf("%s, %d items:\n%s\nwant\n%s", format, len(items), got.String(), want.String())
			}
			if format == formatYAML && len(items) > 1 && !strings.Contains(got.String(), "\n      b\n") {
				t.Errorf("%s: the block scalar was not written:\n%s", format, got.String())
			}
		}
	}
}
