package main

import (
	"os/exec"
	"strings"
	"testing"
)

// gwlint and gwctl link none of the rendering libraries: those are
// gwlint-render's alone, so that a run that renders nothing does not pay
// for their initialisation (about 13 ms and 5 MB at every start) and
// their pages.
func TestCommandsLinkNoRenderer(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH")
	}
	out, err := exec.Command("go", "list", "-deps", "github.com/gwlint/gwlint/cmd/gwlint", "github.com/gwlint/gwlint/cmd/gwctl").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	for _, pkg := range strings.Fields(string(out)) {
		for _, heavy := range []string{"helm.sh/", "sigs.k8s.io/kustomize/", "github.com/fluxcd/pkg/kustomize", "k8s.io/client-go", "sigs.k8s.io/controller-runtime"} {
			if strings.HasPrefix(pkg, heavy) {
				t.Errorf("gwlint or gwctl links %s: rendering belongs to gwlint-render (resolve/manifest/render/worker)", pkg)
			}
		}
		if strings.HasPrefix(pkg, "github.com/spf13/cobra/doc") || strings.HasPrefix(pkg, "github.com/russross/blackfriday") {
			t.Errorf("gwlint or gwctl links %s: the man command belongs to the manpages build (cmd/internal/cli/man.go)", pkg)
		}
	}
}
