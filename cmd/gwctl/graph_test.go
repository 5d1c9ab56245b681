package main

import (
	"bytes"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

var diagramCases = []clitest.GoldenCase{
	{Name: "graph-examples-mermaid", Args: []string{"graph", "-f", clitest.Examples}, Code: 0},
	{Name: "graph-examples-dot", Args: []string{"graph", "-f", clitest.Examples, "-o", "dot"}, Code: 0},
	// Refused routes (dashed, with the reason) and a canary with a missing
	// backend (refused edge, degraded route).
	{Name: "graph-refused-dot", Args: []string{"graph", "-f", "testdata/refused", "-f", "testdata/canary-missing", "-o", "dot"}, Code: 0},
	{Name: "graph-mesh-mermaid", Args: []string{"graph", "-f", "testdata/mesh"}, Code: 0},
	{Name: "explain-route-store-mermaid", Args: []string{"explain", "route", "store", "-f", clitest.Examples, "-o", "mermaid"}, Code: 0},
	{Name: "explain-gateway-shared-dot", Args: []string{"explain", "gateway", "shared", "-f", clitest.Examples, "-o", "dot"}, Code: 0},
	{Name: "explain-service-cart-mermaid", Args: []string{"explain", "service", "cart", "-f", "testdata/mesh", "-o", "mermaid"}, Code: 0},
}

func TestDiagramGolden(t *testing.T) {
	golden.RunCases(t, newRootCmd, diagramCases)
}

// TestDOTParses feeds every DOT output to Graphviz when it is installed.
func TestDOTParses(t *testing.T) {
	dot, err := exec.LookPath("dot")
	if err != nil {
		t.Skip("Graphviz dot not installed")
	}
	for _, c := range diagramCases {
		if !strings.HasSuffix(c.Name, "-dot") {
			continue
		}
		stdout, _, _ := clitest.Run(newRootCmd, "", c.Args...)
		cmd := exec.Command(dot, "-Tsvg")
		cmd.Stdin = strings.NewReader(stdout)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("%s: dot: %v %s", c.Name, err, stderr.String())
		}
	}
}

var (
	mermaidNode  = regexp.MustCompile(`^  (n\d+)\["[^"]*"\]$`)
	mermaidEdge  = regexp.MustCompile(`^  (n\d+) (-->|-\.->)(\|"[^"]*"\|)? (n\d+)$`)
	mermaidClass = regexp.MustCompile(`^  (classDef \w+ fill:#[0-9a-f]{6},stroke:#[0-9a-f]{6}|class (n\d+(,n\d+)*) \w+)$`)
)

// TestMermaidStructure checks what a Mermaid parser needs: a flowchart
// header, nodes declared once with quoted labels, edges and classes that
// name only declared nodes.
func TestMermaidStructure(t *testing.T) {
	for _, c := range diagramCases {
		if !strings.HasSuffix(c.Name, "-mermaid") {
			continue
		}
		stdout, _, _ := clitest.Run(newRootCmd, "", c.Args...)
		lines := strings.Split(strings.TrimSuffix(stdout, "\n"), "\n")
		if lines[0] != "flowchart LR" {
			t.Errorf("%s: header %q", c.Name, lines[0])
		}
		declared := map[string]bool{}
		for _, l := range lines[1:] {
			switch {
			case mermaidNode.MatchString(l):
				id := mermaidNode.FindStringSubmatch(l)[1]
				if declared[id] {
					t.Errorf("%s: %s declared twice", c.Name, id)
				}
				declared[id] = true
			case mermaidEdge.MatchString(l):
				m := mermaidEdge.FindStringSubmatch(l)
				if !declared[m[1]] || !declared[m[4]] {
					t.Errorf("%s: edge to an undeclared node: %q", c.Name, l)
				}
			case mermaidClass.MatchString(l):
				if m := mermaidClass.FindStringSubmatch(l); m[2] != "" {
					for _, id := range strings.Split(m[2], ",") {
						if !declared[id] {
							t.Errorf("%s: class of an undeclared node: %q", c.Name, l)
						}
					}
				}
			default:
				t.Errorf("%s: unexpected line %q", c.Name, l)
			}
		}
	}
}

func TestGraphFlags(t *testing.T) {
	clitest.RunFlagCases(t, newGraphCmd, []clitest.FlagCase[graphOptions]{
		{Args: nil, Want: graphOptions{inputOptions: defaultInputs, Output: "mermaid"}},
		{Args: []string{"-o", "dot", "-f", "x"}, Want: graphOptions{
			inputOptions: inputOptions{Filenames: []string{"x"}, ControllerName: defaultInputs.ControllerName, Channel: "standard"}, Output: "dot"}},
		{Args: []string{"-o", "json"}, WantErr: `invalid value "json" for --output: must be one of mermaid, dot`},
	})
}
