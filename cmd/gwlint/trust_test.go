//go:build unix

package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestTrustBoundary is gwlint check on a repository that a pull request
// made hostile: each case plants links out of it (to a file of the CI
// runner, to its environment) that a plain walk, a chart, a values file,
// a kustomization or the configuration would read. In every output
// format, nothing of what the links lead to is shown, the link is a
// finding, and good.yaml beside it is still checked.
func TestTrustBoundary(t *testing.T) {
	const secret = "TOKEN-5f0c2a91"
	t.Setenv("GWLINT_TEST_SECRET", secret) // in /proc/self/environ
	outside := filepath.Join(t.TempDir(), "runner-file")
	write(t, outside, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  k: "+secret+"\n")
	chart := map[string]string{
		"chart/Chart.yaml": "apiVersion: v2\nname: c\nversion: 0.1.0\n",
		"chart/templates/route.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n" +
			"spec:\n  hostnames: [{{ .Files.Get \"env\" | quote }}]\n",
	}
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string // link → target
		args  []string
		want  string // the link finding's file
	}{
		{name: "a manifest that is a link to a runner's file", links: map[string]string{"leak.yaml": outside}, want: "leak.yaml"},
		{name: "a manifest that is a link to the environment", links: map[string]string{"env.yaml": "/proc/self/environ"}, want: "env.yaml"},
		{name: "a chart's .Files.Get of the environment", files: chart, links: map[string]string{"chart/env": "/proc/self/environ"}, want: "chart/env"},
		{name: "a chart's .Files.Get of a runner's file", files: chart, links: map[string]string{"chart/env": outside}, want: "chart/env"},
		{name: "a values file that is a link", files: map[string]string{
			"chart/Chart.yaml":           "apiVersion: v2\nname: c\nversion: 0.1.0\n",
			"chart/templates/route.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  hostnames: [{{ .Values | toJson | quote }}]\n",
		}, links: map[string]string{"ci.values": outside}, args: []string{"--values", "ci.values"}, want: "ci.values"},
		{name: "a kustomization's resource", files: map[string]string{"app/kustomization.yaml": "resources:\n- leak.yaml\n"},
			links: map[string]string{"app/leak.yaml": outside}, want: "app/kustomization.yaml"},
		{name: "a kustomization's generator", files: map[string]string{"app/kustomization.yaml": "configMapGenerator:\n- name: g\n  files:\n  - leak\n"},
			links: map[string]string{"app/leak": "/proc/self/environ"}, want: "app/leak"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil { // a repository: the root
				t.Fatal(err)
			}
			good, err := os.ReadFile(filepath.Join("testdata", "badinput", "good.yaml"))
			if err != nil {
				t.Fatal(err)
			}
			write(t, filepath.Join(dir, "good.yaml"), string(good))
			for name, text := range tt.files {
				if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(dir, name), text)
			}
			for name, target := range tt.links {
				symlink(t, target, filepath.Join(dir, name))
			}
			t.Chdir(dir)
			for _, format := range []string{formatText, formatJSON, formatSARIF, formatGitHub, formatCodeClimate, formatJUnit} {
				args := append([]string{"check", "--no-config", "-o", format, "."}, tt.args...)
				stdout, stderr, code := clitest.Run(newRootCmd, "", args...)
				if strings.Contains(stdout+stderr, secret) || strings.Contains(stdout+stderr, "PATH=") {
					t.Fatalf("-o %s leaks:\n%s\n%s", format, stdout, stderr)
				}
				if format != formatText {
					continue
				}
				if code != 2 || !strings.Contains(stdout, tt.want+": error: ") || !strings.Contains(stdout, "leads outside the inputs' root") ||
					!strings.Contains(stdout, "good.yaml:26:7") {
					t.Errorf("exit %d:\n%s%s\nwant exit 2, a finding at %s and good.yaml's", code, stdout, stderr, tt.want)
				}
			}
		})
	}
}

// A configuration file that a pull request made a link out of the
// repository is refused, unread.
func TestConfigLinkOutside(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "x")
	write(t, outside, "rules: {SECRET-cfg: off}\n")
	symlink(t, outside, filepath.Join(dir, ".gwlint.yaml"))
	t.Chdir(dir)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", ".")
	if code != 2 || strings.Contains(stdout+stderr, "SECRET") || !strings.Contains(stderr, "leads outside the inputs' root") {
		t.Errorf("exit %d:\n%s%s\nwant exit 2 and the link refused", code, stdout, stderr)
	}
}

// A baseline that a pull request made a link out of the repository is
// refused, unread.
func TestBaselineLinkOutside(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "x")
	write(t, outside, "SECRET-baseline")
	symlink(t, outside, filepath.Join(dir, "baseline.json"))
	t.Chdir(dir)
	stdout, stderr, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--baseline", "baseline.json", ".")
	if code != 2 || strings.Contains(stdout+stderr, "SECRET") || !strings.Contains(stderr, "leads outside the inputs' root") {
		t.Errorf("exit %d:\n%s%s\nwant exit 2 and the link refused", code, stdout, stderr)
	}
}
