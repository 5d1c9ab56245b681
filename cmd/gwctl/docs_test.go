package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestDocs keeps docs/gwctl.md in step with the code: every command, every
// flag and every schema kind must be documented there.
func TestDocs(t *testing.T) {
	doc := clitest.ReadDoc(t, "../../docs/gwctl.md", "docs/gwctl.md")
	doc.Mentions(t, viewAPIVersion, "RouteExplanation", "GatewayExplanation", "ServiceExplanation", "RequestTrace", "`Diff`")
	doc.DocumentsCommands(t, newRootCmd(clitest.Discard()))
}

// sampleBlock is a fenced block of docs/gwctl.md that shows what a command
// prints: a trace ("Request ...") or a diff ("diff ...").
var sampleBlock = regexp.MustCompile("(?ms)^```\n((?:Request|diff) .*?)^```$")

// TestDocSamples keeps the sample outputs in docs/gwctl.md true: each must
// be, verbatim, the whole of a golden file the tests produce.
func TestDocSamples(t *testing.T) {
	doc := clitest.ReadDoc(t, "../../docs/gwctl.md", "docs/gwctl.md")
	goldens, err := filepath.Glob("testdata/golden/*.golden")
	if err != nil {
		t.Fatal(err)
	}
	texts := map[string]bool{}
	for _, g := range goldens {
		b, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		texts[string(b)] = true
	}
	samples := sampleBlock.FindAllStringSubmatch(doc.Text, -1)
	if len(samples) == 0 {
		t.Fatal("docs/gwctl.md has no sample outputs")
	}
	for _, m := range samples {
		if !texts[m[1]] {
			t.Errorf("docs/gwctl.md sample is not a golden file's output:\n%s", m[1])
		}
	}
}
