package lint

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// The pinned Gateway API module's own manifests: every file of examples/
// must lint without an error, and every file of hack/invalid-examples/ must
// be flagged with one, each in the channel its directory names.
func gatewayAPIDir(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil || strings.TrimSpace(string(out)) == "" {
		t.Fatalf("locating sigs.k8s.io/gateway-api: %v", err)
	}
	return strings.TrimSpace(string(out))
}

func channelOf(path string) crd.Channel {
	if strings.Contains(filepath.ToSlash(path), "/experimental/") {
		return crd.Experimental
	}
	return crd.Standard
}

func lintFile(t *testing.T, path string) []Finding {
	t.Helper()
	opts := resolve.Options{Implementations: implementations.All(), Validate: true, Channel: channelOf(path)}
	in := resolve.Load([]string{path}, nil, opts)
	for _, err := range in.Errors {
		t.Errorf("%v", err)
	}
	return Run(resolve.Resolve(in, opts), Rules())
}

func yamlFiles(t *testing.T, dir string) []string {
	t.Helper()
	var files []string
	for _, pattern := range []string{"*.yaml", "*/*.yaml", "*/*/*.yaml", "*/*/*/*.yaml"} {
		m, _ := filepath.Glob(filepath.Join(dir, pattern))
		files = append(files, m...)
	}
	if len(files) == 0 {
		t.Fatalf("no YAML under %s", dir)
	}
	return files
}

func TestUpstreamExamplesHaveNoErrors(t *testing.T) {
	for _, file := range yamlFiles(t, filepath.Join(gatewayAPIDir(t), "examples")) {
		for _, f := range lintFile(t, file) {
			if f.Severity == Error {
				t.Errorf("%s: %s [%s]", f.Position, f.Message, f.Rule)
			}
		}
	}
}

func TestUpstreamInvalidExamplesAreFlagged(t *testing.T) {
	for _, file := range yamlFiles(t, filepath.Join(gatewayAPIDir(t), "hack", "invalid-examples")) {
		flagged := false
		for _, f := range lintFile(t, file) {
			flagged = flagged || f.Severity == Error
		}
		if !flagged {
			t.Errorf("%s: no error reported for an invalid example", file)
		}
	}
}
