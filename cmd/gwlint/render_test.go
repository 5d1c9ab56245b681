package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestRenderGolden lints the bundled Kustomize tree and Helm chart as
// docs/gwlint.md shows, from the repository's root: every overlay is
// built and judged on its own, the chart rendered with its defaults and
// with a values file, and each finding is at its source file's line.
func TestRenderGolden(t *testing.T) {
	t.Chdir(filepath.Join("..", ".."))
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		{Name: "check-kustomize", Args: []string{"check", "testdata/kustomize"}, Code: 1},
		{Name: "check-kustomize-prod-json", Args: []string{"check", "-o", "json", "testdata/kustomize/overlays/prod"}, Code: 1},
		{Name: "check-helm", Args: []string{"check", "testdata/helm/store"}, Code: 0},
		{Name: "check-helm-values", Args: []string{"check", "testdata/helm", "--values", "testdata/helm/prod-values.yaml"}, Code: 1},
	})
}

// A base and the overlays that include it, walked together, are each
// overlay's build: no object is a duplicate of itself, no patch is read
// as an object, and a finding about the base that both overlays make is
// reported once. Naming the base alone builds it.
func TestRenderBaseAndOverlays(t *testing.T) {
	tree := filepath.Join("..", "..", "testdata", "kustomize")
	stdout, _, code := clitest.Run(newRootCmd, "", "check", "-o", "github", tree)
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	for _, bad := range []string{"object-duplicate", "invalid-manifest", "backend-port.yaml"} {
		if strings.Contains(stdout, bad) {
			t.Errorf("walking base/ and overlays/ reports %s:\n%s", bad, stdout)
		}
	}
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	seen := map[string]bool{}
	for _, l := range lines {
		if seen[l] {
			t.Errorf("reported twice: %s", l)
		}
		seen[l] = true
	}
	stdout, _, code = clitest.Run(newRootCmd, "", "check", filepath.Join(tree, "base"))
	if code != 0 || !strings.Contains(stdout, "(3 objects)") {
		t.Errorf("check base = exit %d:\n%s\nwant its 3 objects, clean", code, stdout)
	}
}

// A kustomization that cannot be built is an input error at the line that
// names what is missing (exit 2), and the other inputs are still checked;
// what a kustomization would fetch is unknown (info), and the rest of it
// is built.
func TestRenderErrorsAreInputErrors(t *testing.T) {
	dir := t.TempDir()
	for name, text := range map[string]string{
		"broken/kustomization.yaml": "resources:\n- missing.yaml\n",
		"remote/kustomization.yaml": "resources:\n- github.com/example/infra//gateway?ref=v1.0.0\n- service.yaml\n",
		"remote/service.yaml":       "apiVersion: v1\nkind: Service\nmetadata:\n  name: remote\nspec:\n  ports:\n  - port: 8080\n",
		"plain/route.yaml": `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: r
spec:
  rules:
  - backendRefs:
    - name: s
      port: 80
`,
		"plain/service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 8080\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", dir)
	if code != 2 {
		t.Errorf("exit %d, want 2", code)
	}
	for _, want := range []string{
		filepath.Join(dir, "broken", "kustomization.yaml") + `:2:3: error: "missing.yaml" is not a file or directory here [invalid-manifest]`,
		filepath.Join(dir, "remote", "kustomization.yaml") + `:2:3: info: "github.com/example/infra//gateway?ref=v1.0.0" is remote: gwlint fetches nothing, so what it holds is unknown`,
		filepath.Join(dir, "plain", "route.yaml") + ":9:7: error: Service default/s has no port 80",
		"in 4 files (3 objects)", // the plain files and the two kustomizations
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("output lacks %q:\n%s", want, stdout)
		}
	}
}

// An ignore comment in a base that suppresses a finding of one overlay is
// used, though the other overlay has no such finding to suppress.
func TestRenderIgnoreUsedByOneOverlay(t *testing.T) {
	src := filepath.Join("..", "..", "testdata", "kustomize")
	dir := t.TempDir()
	for _, name := range []string{"base/kustomization.yaml", "base/gateway.yaml", "base/store.yaml",
		"overlays/prod/kustomization.yaml", "overlays/prod/backend-port.yaml", "overlays/staging/kustomization.yaml"} {
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			t.Fatal(err)
		}
		if name == "base/store.yaml" {
			data = []byte(strings.Replace(string(data), "  - backendRefs:\n",
				"  - backendRefs:\n    # gwlint:ignore backend-port-not-found prod moves the port with its Service\n", 1))
		}
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	stdout, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", dir)
	if code != 0 || strings.Contains(stdout, "backend-port-not-found") || strings.Contains(stdout, "unused-ignore") {
		t.Errorf("exit %d, want 0, with the prod finding suppressed and the ignore used:\n%s", code, stdout)
	}
}

// Walking a repository's root, the YAML of other tools (an Ansible
// playbook, a Talos template) is not a manifest: no finding, counted in
// the summary; a values file named as --values is the charts' input and
// not counted.
func TestCheckCountsNotManifests(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{
		"ansible/playbook.yaml":   "- name: Bootstrap\n  hosts: all\n  tasks:\n  - ansible.builtin.ping:\n",
		"talos/controlplane.yaml": "version: v1alpha1\nmachine:\n  token: {{ ENV.MACHINE_TOKEN }}\n  {% if ENV.DISK %}\n  install: {disk: x}\n  {% endif %}\n",
		"apps/service.yaml":       "apiVersion: v1\nkind: Service\nmetadata:\n  name: echo\nspec:\n  ports:\n  - port: 8080\n",
		"apps/values.yaml":        "replicas: 2\n",
	})
	stdout, _, code := clitest.Run(newRootCmd, "", "check", "--no-config", "--values", filepath.Join(dir, "apps", "values.yaml"), dir)
	if want := "0 errors, 0 warnings, 0 info in 3 files (1 object; 2 not manifests, skipped)\n"; code != 0 || stdout != want {
		t.Errorf("exit %d, output:\n%s\nwant exit 0 and %q", code, stdout, want)
	}
}

// --each-dir judges each directory of independent examples on its own:
// the Gateway every example defines alike is no duplicate, and each
// example's own mistake is still found, once.
func TestCheckEachDir(t *testing.T) {
	dir := filepath.Join("..", "..", "testdata", "each-dir")
	typo := filepath.Join(dir, "section-typo", "example.yaml") + `:24:5: error: Gateway default/example-gateway has no listener named "htps" [parentref-no-match]`
	for _, tc := range []struct {
		args   []string
		want   []string
		unwant []string
	}{
		{args: []string{dir}, want: []string{typo, "section-typo/example.yaml:6:3: warning: Gateway default/example-gateway is already defined",
			"1 error, 2 warnings, 0 info in 5 files (7 objects)\n"}},
		{args: []string{"--each-dir", dir}, want: []string{typo, "1 error, 0 warnings, 1 info in 5 files (7 objects)\n"}, unwant: []string{"[object-duplicate]"}},
	} {
		stdout, _, code := clitest.Run(newRootCmd, "", append([]string{"check", "--no-config"}, tc.args...)...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", tc.args, code)
		}
		for _, want := range tc.want {
			if strings.Count(stdout, want) != 1 {
				t.Errorf("%v: output lacks %q once:\n%s", tc.args, want, stdout)
			}
		}
		for _, unwant := range tc.unwant {
			if strings.Contains(stdout, unwant) {
				t.Errorf("%v: output holds %q:\n%s", tc.args, unwant, stdout)
			}
		}
	}
}
