package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// The release that judges the inputs: the flag, the configuration, the
// CRDs among the inputs (as objects, a kustomization's remote entry, a
// Flux GitRepository at a tag, one per cluster), else the default, which
// says nothing of itself. testdata/releases holds one route written for
// v1.6 (named rules, a CORS filter, a 308 redirect).
func TestGatewayAPIRelease(t *testing.T) {
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		{Name: "release-default", Args: []string{"check", "--no-config", "testdata/releases/plain"}, Code: 0},
		{Name: "release-flag", Args: []string{"check", "--no-config", "--gateway-api-version", "v1.2", "--channel", "standard", "testdata/releases/plain"}, Code: 1},
		{Name: "release-installed", Args: []string{"check", "--no-config", "testdata/releases/installed"}, Code: 1},
		{Name: "release-installed-json", Args: []string{"check", "--no-config", "-o", "json", "testdata/releases/installed"}, Code: 1},
		{Name: "release-installed-flag", Args: []string{"check", "--no-config", "--gateway-api-version", "v1.6.3", "testdata/releases/installed"}, Code: 0},
		{Name: "release-kustomize-remote", Args: []string{"check", "--no-config", "testdata/releases/kustomize"}, Code: 1},
		{Name: "release-flux-clusters", Args: []string{"check", "--no-config", "testdata/releases/flux"}, Code: 1},
		// Each kind by its own CRD: the experimental TLSRoute CRD beside
		// the standard ones serves TLSRoute v1alpha2.
		{Name: "release-kind-crds", Args: []string{"check", "--no-config", "testdata/releases/kinds"}, Code: 0},
		{Name: "release-unknown", Args: []string{"check", "--no-config", "--gateway-api-version", "v0.8.0", "testdata/releases/plain"}, Code: 2},
		{Name: "releases", Args: []string{"releases", "--no-config", "testdata/releases/plain"}, Code: 0},
		{Name: "releases-json", Args: []string{"releases", "--no-config", "-o", "json", "testdata/releases/plain"}, Code: 0},
	})
}

// The configuration's gatewayAPIVersion chooses the release over the
// CRDs among the inputs, and the flag over the configuration.
func TestGatewayAPIReleaseConfig(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"route.yaml", "gateway.yaml", "crds/gateway-api.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/releases/installed", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, ".gwlint.yaml"), []byte("gatewayAPIVersion: v1.5.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"check", dir}, 0, "; Gateway API v1.5.0 (standard channel) from "},
		{[]string{"check", "--gateway-api-version", "v1.4", dir}, 1, "Gateway API v1.4.1 (standard channel) from --gateway-api-version"},
		{[]string{"check", "--show-config", "-o", "json", dir}, 0, `"key": "gatewayAPIVersion",
      "value": "v1.5.0",
      "source": "`},
	}
	for _, tt := range tests {
		stdout, stderr, code := clitest.Run(newRootCmd, "", tt.args...)
		if code != tt.code || !strings.Contains(stdout, tt.want) || strings.Contains(stdout, "gateway-api.yaml") {
			t.Errorf("%v: exit %d (want %d), stdout lacks %q:\n%s%s", tt.args, code, tt.code, tt.want, stdout, stderr)
		}
	}
}

// The CRDs in a manifest on stdin choose the release too: stdin is read
// once and kept for the second reading.
func TestGatewayAPIReleaseStdin(t *testing.T) {
	var in strings.Builder
	for _, f := range []string{"crds/gateway-api.yaml", "gateway.yaml", "route.yaml"} {
		data, err := os.ReadFile(filepath.Join("testdata/releases/installed", f))
		if err != nil {
			t.Fatal(err)
		}
		in.WriteString("---\n")
		in.Write(data)
	}
	stdout, stderr, code := clitest.Run(newRootCmd, in.String(), "check", "--no-config", "-o", "json", "-")
	var report struct {
		Findings []struct{ Rule string }
		Summary  struct{ GatewayAPI []gatewayAPI }
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		t.Fatalf("exit %d: %v\n%s%s", code, err, stdout, stderr)
	}
	if code != 1 || len(report.Summary.GatewayAPI) != 1 || report.Summary.GatewayAPI[0].Version != "v1.2.0" || report.Summary.GatewayAPI[0].Source != "<stdin>:9" {
		t.Errorf("exit %d, summary %+v, want v1.2.0 from <stdin>:9", code, report.Summary.GatewayAPI)
	}
	if len(report.Findings) != 5 {
		t.Errorf("%d findings, want 5 (an info and four refusals):\n%s", len(report.Findings), stdout)
	}
}

// What a release refuses alike in many objects (a version it does not
// serve, a field of every route) is one line of the text, with a count.
func TestGroupRefusals(t *testing.T) {
	notServed := "apiVersion: gateway.networking.k8s.io/v1 ReferenceGrant is not served by Gateway API v1.2.0 (standard channel)"
	groups := groupRefusals([]refusal{
		{File: "a.yaml", Line: 1, Object: "ReferenceGrant a/one", Path: "apiVersion", Message: notServed},
		{File: "r.yaml", Line: 9, Object: "HTTPRoute a/r", Path: "spec.rules[0].name", Message: `Unknown field "name"; added in v1.4.0`},
		{File: "r.yaml", Line: 14, Object: "HTTPRoute a/r", Path: "spec.rules[1].name", Message: `Unknown field "name"; added in v1.4.0`},
		{File: "b.yaml", Line: 1, Object: "ReferenceGrant b/two", Path: "apiVersion", Message: notServed},
		{File: "r.yaml", Line: 20, Object: "HTTPRoute a/r", Path: "spec.rules[1].filters[0].type", Message: `Unsupported value: "CORS"`},
	})
	var sizes []int
	for _, g := range groups {
		sizes = append(sizes, len(g))
	}
	if len(groups) != 3 || !slices.Equal(sizes, []int{2, 2, 1}) || groups[0][1].Object != "ReferenceGrant b/two" {
		t.Errorf("groups of %v: %+v", sizes, groups)
	}
}
