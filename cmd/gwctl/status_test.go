package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	sigsyaml "sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// writeStatusList writes, an item at a time, exactly what writeMachine
// writes for the whole List.
func TestWriteStatusListStreams(t *testing.T) {
	type statusList struct {
		APIVersion string                 `json:"apiVersion"`
		Kind       string                 `json:"kind"`
		Items      []resolve.StatusObject `json:"items"`
	}
	g := resolve.Resolve(resolve.Load([]string{clitest.Examples}, nil, resolve.Options{}), resolve.Options{Implementations: implementations.All()})
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

// FuzzStatusOutput writes status items with arbitrary names and messages
// in YAML and JSON: both must read back to the same strings (invalid UTF-8
// as U+FFFD), item by item.
func FuzzStatusOutput(f *testing.F) {
	f.Add("store", "shop", "Route is accepted", "a: b\n- c")
	f.Add("", "", "", "\x00\ufeff'\"#&*!|>%@`")
	f.Fuzz(func(t *testing.T, name, namespace, reason, message string) {
		items := []resolve.StatusObject{
			{APIVersion: "gateway.networking.k8s.io/v1", Kind: "HTTPRoute",
				Metadata: resolve.StatusMetadata{Name: name, Namespace: namespace, Generation: 1},
				Status:   map[string]any{"conditions": []map[string]string{{"reason": reason, "message": message}}}},
			{APIVersion: "v1", Kind: "X", Metadata: resolve.StatusMetadata{Name: message}},
		}
		valid := func(s string) string { return string([]rune(s)) }
		for _, format := range []string{formatYAML, formatJSON} {
			var out bytes.Buffer
			if err := writeStatusList(&out, format, items); err != nil {
				t.Fatal(err)
			}
			var list struct {
				Kind  string `json:"kind"`
				Items []struct {
					Metadata struct{ Name, Namespace string } `json:"metadata"`
					Status   struct {
						Conditions []struct{ Reason, Message string } `json:"conditions"`
					} `json:"status"`
				} `json:"items"`
			}
			unmarshal := func(b []byte, v any) error { return sigsyaml.Unmarshal(b, v) }
			if format == formatJSON {
				unmarshal = json.Unmarshal // a YAML parser refuses what JSON allows (a BOM in a string)
			}
			if err := unmarshal(out.Bytes(), &list); err != nil {
				t.Fatalf("%s does not read back: %v\n%s", format, err, out.Bytes())
			}
			if list.Kind != "List" || len(list.Items) != 2 || list.Items[0].Metadata.Name != valid(name) ||
				list.Items[0].Metadata.Namespace != valid(namespace) || list.Items[1].Metadata.Name != valid(message) ||
				list.Items[0].Status.Conditions[0].Reason != valid(reason) || list.Items[0].Status.Conditions[0].Message != valid(message) {
				t.Fatalf("%s does not give the strings back:\n%s", format, out.Bytes())
			}
		}
	})
}

// Characters that JSON holds raw and YAML refuses are escaped: one such
// name or message cost the whole YAML output.
func TestWriteMachineYAMLEscapes(t *testing.T) {
	for _, s := range []string{"a\x7fb", "\u0080\u0085\u009f", "\ufeff", "\uffff\ufffe", "plain é"} {
		var out bytes.Buffer
		if err := writeMachine(&out, formatYAML, map[string]string{"name": s}); err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		var back map[string]string
		if err := sigsyaml.Unmarshal(out.Bytes(), &back); err != nil || back["name"] != s {
			t.Errorf("%q written as %q, read back as %q (%v)", s, out.String(), back["name"], err)
		}
	}
}
