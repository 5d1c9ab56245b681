package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// hostile is what a pull request can write in names and values to forge
// a workflow command, colour the terminal or disguise text.
const hostile = "x\n::error file=README.md,line=1::pwned\r\x1b[31m\x00\u202e\x7f\u0085\u2028\"y"

// hostileManifests are a Gateway and a route whose names and values are
// hostile (JSON strings, which YAML reads).
func hostileManifests(t *testing.T) string {
	q := func(s string) string {
		js, err := json.Marshal(s + hostile)
		if err != nil {
			t.Fatal(err)
		}
		return string(cli.EscapeJSON(js))
	}
	return fmt.Sprintf(`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: %[1]s, namespace: shop}
spec:
  gatewayClassName: %[2]s
  listeners:
  - {name: %[3]s, port: 80, protocol: HTTP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: %[4]s, namespace: shop}
spec:
  parentRefs: [{name: %[1]s, sectionName: %[3]s}]
  rules:
  - name: %[5]s
    matches: [{path: {type: PathPrefix, value: %[6]s}}]
    backendRefs: [{name: %[7]s, port: 8080}]
`, q("gw"), q("class"), q("::l"), q("::route"), q("rule"), q("/a"), q("::svc"))
}

// sgr matches the colour sequences fatih/color writes: with --color
// always, those are gwctl's own (the run without colour shows that the
// inputs' are escaped).
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestOutputsEscapeInput: every text output of gwctl, and its stderr,
// escapes what comes from the inputs (cli.Escape), a file name included:
// no line is a workflow command (starts with "::" after spaces), none
// holds a control or format character, and diagram labels stay quoted.
func TestOutputsEscapeInput(t *testing.T) {
	dir := t.TempDir()
	for _, side := range []string{"old", "new"} {
		if err := os.MkdirAll(filepath.Join(dir, side), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	file := "m\n::error file=README.md,line=1::pwned\x1b[31m\u202e.yaml"
	if err := os.WriteFile(filepath.Join(dir, "new", file), []byte(hostileManifests(t)), 0o644); err != nil {
		t.Skipf("this file system takes no such name: %v", err)
	}
	// A file that fails to read, for the messages on stderr.
	if err := os.WriteFile(filepath.Join(dir, "new", "::bad\n"+file), []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	route := "::route" + hostile
	newDir := filepath.Join(dir, "new")
	for _, args := range [][]string{
		{"explain", "route", route, "-f", newDir},
		{"explain", "route", route, "-f", newDir, "--color", "always"},
		{"explain", "route", route, "-f", newDir, "-o", "mermaid"},
		{"explain", "route", route, "-f", newDir, "-o", "dot"},
		{"graph", "-f", newDir},
		{"graph", "-f", newDir, "-o", "dot"},
		{"status", "-f", newDir, "-o", "json"},
		{"diff", filepath.Join(dir, "old"), newDir},
		{"diff", filepath.Join(dir, "old"), newDir, "-o", "markdown"},
		{"diff", filepath.Join(dir, "old"), newDir, "-o", "json"},
	} {
		stdout, stderr, _ := clitest.Run(newRootCmd, "", args...)
		if !strings.Contains(stdout, "pwned") {
			t.Errorf("%q: the hostile names are not in the output:\n%s\n%s", args[:2], stdout, stderr)
		}
		for name, out := range map[string]string{"stdout": stdout, "stderr": stderr} {
			out = sgr.ReplaceAllString(out, "")
			for _, line := range strings.Split(out, "\n") {
				if strings.HasPrefix(strings.TrimLeftFunc(line, unicode.IsSpace), "::") {
					t.Errorf("%q: a line of %s is a workflow command: %q", args, name, line)
				}
				if strings.ContainsFunc(line, func(r rune) bool { return r != ':' && cli.Escape(string(r)) != string(r) }) {
					t.Errorf("%q: a line of %s holds characters cli.Escape escapes: %q", args, name, line)
				}
			}
		}
	}
}
