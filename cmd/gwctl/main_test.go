package main

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

var golden = clitest.NewGolden()

func TestGolden(t *testing.T) {
	golden.RunCases(t, newRootCmd, []clitest.GoldenCase{
		{Name: "explain-route-store", Args: []string{"explain", "route", "store", "-f", clitest.Examples}, Code: 0},
		{Name: "explain-route-store-json", Args: []string{"explain", "route", "store", "-f", clitest.Examples, "-o", "json"}, Code: 0},
		{Name: "explain-route-store-nginx", Args: []string{"explain", "route", "store", "-f", clitest.Examples, "--implementation", "nginx-gateway-fabric@2.6.0"}, Code: 0},
		{Name: "explain-route-store-yaml", Args: []string{"explain", "route", "store", "-f", clitest.Examples, "-o", "yaml"}, Code: 0},
		{Name: "explain-route-payments", Args: []string{"explain", "route", "payments", "-n", "payments", "-f", clitest.Examples}, Code: 0},
		{Name: "explain-gateway-shared", Args: []string{"explain", "gateway", "shared", "-f", clitest.Examples}, Code: 0},
		// A Flux repository's cluster, as gwlint check judges it: the route
		// of one app folder attaches to the Gateway of another.
		{Name: "explain-gateway-flux", Args: []string{"explain", "gateway", "envoy-external", "-n", "network", "-f", "../../testdata/gitops/flux"}, Code: 0},
		// The release whose CRDs the inputs install prunes the rules'
		// names (standard since v1.4.0): no rule is named.
		{Name: "explain-route-release-installed", Args: []string{"explain", "route", "storefront", "-n", "shop", "--no-config", "-f", "../gwlint/testdata/releases/installed"}, Code: 0},
		{Name: "explain-route-release-flag", Args: []string{"explain", "route", "storefront", "-n", "shop", "--no-config", "--gateway-api-version", "v1.6.3", "-f", "../gwlint/testdata/releases/installed"}, Code: 0},
		// Envoy Gateway's policies: inherited from the Gateway, overridden
		// by the route's own, conflicted by an older one, a target that is
		// a typo.
		{Name: "explain-route-policies", Args: []string{"explain", "route", "checkout", "-n", "shop", "--no-config", "-f", "testdata/policies"}, Code: 0},
		{Name: "explain-route-policies-json", Args: []string{"explain", "route", "checkout", "-n", "shop", "--no-config", "-f", "testdata/policies", "-o", "json"}, Code: 0},
		{Name: "explain-gateway-policies", Args: []string{"explain", "gateway", "eg", "--no-config", "-f", "testdata/policies"}, Code: 0},
		{Name: "explain-policy-conflicted", Args: []string{"explain", "policy", "gateway-timeouts", "--no-config", "-f", "testdata/policies"}, Code: 0},
		{Name: "explain-policy-typo-json", Args: []string{"explain", "policy", "checkout-auth", "--no-config", "-f", "testdata/policies", "-o", "json"}, Code: 0},
		{Name: "explain-policy-unknown-kind", Args: []string{"explain", "policy", "store-timeouts", "-f", clitest.Examples}, Code: 0},
		{Name: "explain-policy-missing", Args: []string{"explain", "policy", "nope", "--no-config", "-f", "testdata/policies"}, Code: 1},
		{Name: "graph-policies", Args: []string{"graph", "--no-config", "-f", "testdata/policies"}, Code: 0},
		{Name: "explain-gateway-argocd", Args: []string{"explain", "gateway", "external", "-n", "gateway", "-f", "../../testdata/gitops/argocd"}, Code: 0},
		{Name: "explain-gateway-shared-json", Args: []string{"explain", "gateway", "shared", "-f", clitest.Examples, "-o", "json"}, Code: 0},
		{Name: "explain-service-store-v1", Args: []string{"explain", "service", "store-v1", "-f", clitest.Examples}, Code: 0},
		{Name: "explain-service-store-v1-yaml", Args: []string{"explain", "service", "store-v1", "-f", clitest.Examples, "-o", "yaml"}, Code: 0},
		{Name: "status-yaml", Args: []string{"status", "-f", clitest.Examples}, Code: 0},
		{Name: "status-json", Args: []string{"status", "-f", clitest.Examples, "-o", "json"}, Code: 0},

		// One canary backend is missing: its 20% gets HTTP 500.
		{Name: "canary-missing", Args: []string{"explain", "route", "checkout", "-f", "testdata/canary-missing"}, Code: 0},
		{Name: "canary-unlisted", Args: []string{"explain", "route", "checkout", "-f", "testdata/canary-missing/shop.yaml", "--no-config"}, Code: 0},
		// Refused by a listener (namespaces), and by every listener's hostname.
		{Name: "refused-not-allowed", Args: []string{"explain", "route", "other-ns", "-f", "testdata/refused"}, Code: 1},
		{Name: "refused-hostname", Args: []string{"explain", "route", "wrong-host", "-f", "testdata/refused"}, Code: 1},
		{Name: "refused-gateway", Args: []string{"explain", "gateway", "edge", "-f", "testdata/refused"}, Code: 0},
		// Envoy Gateway attaches a route to conflicted listeners that
		// serve nothing (GatewayJudge.AttachesWhileConflicted); explain says so.
		{Name: "conflicted-eg", Args: []string{"explain", "route", "web", "-n", "infra", "-f", "testdata/conflicted"}, Code: 0},
		// Envoy Gateway drops a rule it cannot translate
		// (profile.FilterChecks); explain names it and why.
		{Name: "dropped-eg", Args: []string{"explain", "route", "api", "-n", "shop", "-f", "testdata/dropped"}, Code: 0},
		{Name: "dropped-eg-json", Args: []string{"explain", "route", "api", "-n", "shop", "-f", "testdata/dropped", "-o", "json"}, Code: 0},
		// Mesh (GEP-1426): a producer route, a Service with producer,
		// consumer and conflicted routes, and the route that lost.
		{Name: "mesh-route", Args: []string{"explain", "route", "cart-split", "-f", "testdata/mesh"}, Code: 0},
		{Name: "mesh-route-json", Args: []string{"explain", "route", "cart-split", "-f", "testdata/mesh", "-o", "json"}, Code: 0},
		{Name: "mesh-service", Args: []string{"explain", "service", "cart", "-f", "testdata/mesh"}, Code: 0},
		{Name: "mesh-conflicted", Args: []string{"explain", "route", "cart-tcp", "-f", "testdata/mesh"}, Code: 1},
		// BackendTLSPolicy: a valid policy, one without a usable CA, and a
		// plain-text backend; the policies' status.ancestors.
		{Name: "backend-tls-route", Args: []string{"explain", "route", "shop", "-f", "testdata/backend-tls"}, Code: 0},
		{Name: "backend-tls-route-json", Args: []string{"explain", "route", "shop", "-f", "testdata/backend-tls", "-o", "json"}, Code: 0},
		{Name: "backend-tls-service", Args: []string{"explain", "service", "payments", "-f", "testdata/backend-tls"}, Code: 0},
		{Name: "backend-tls-status", Args: []string{"status", "-f", "testdata/backend-tls"}, Code: 0},
		{Name: "policies-status", Args: []string{"status", "-f", "testdata/policy-status"}, Code: 0},
		// Versions the channel does not serve: read as v1 and resolved,
		// with a warning on stderr for each (the experimental channel
		// serves TLSRoute v1alpha2; no channel serves GRPCRoute v1alpha2).
		{Name: "versions-status", Args: []string{"status", "-f", "testdata/versions"}, Code: 0},
		{Name: "versions-status-experimental", Args: []string{"status", "--channel", "experimental", "-f", "testdata/versions"}, Code: 0},
		// No GatewayClass among the inputs: the implementation is inferred
		// and explain says from what, or which ones the evidence names.
		{Name: "inferred-gateway", Args: []string{"explain", "gateway", "envoy-external", "-f", "testdata/inferred/envoy-gateway.yaml"}, Code: 0},
		{Name: "inferred-gateway-json", Args: []string{"explain", "gateway", "envoy-external", "-f", "testdata/inferred/envoy-gateway.yaml", "-o", "json"}, Code: 0},
		{Name: "placeholders-gateway", Args: []string{"explain", "gateway", "internal", "-n", "network", "-f", "testdata/placeholders/gateway.yaml", "--no-config"}, Code: 0},
		{Name: "placeholders-route", Args: []string{"explain", "route", "app", "-n", "network", "-f", "testdata/placeholders/gateway.yaml", "--no-config"}, Code: 0},
		{Name: "inferred-gateway-ambiguous", Args: []string{"explain", "gateway", "external", "-f", "testdata/inferred/ambiguous.yaml"}, Code: 0},
		// A broken file next to good ones: positioned error on stderr, the
		// good route still explained, exit 2.
		{Name: "broken", Args: []string{"explain", "route", "good", "-f", "testdata/broken"}, Code: 2},
		{Name: "broken-status", Args: []string{"status", "-f", "testdata/broken"}, Code: 2},
	})
}

func TestExitCodes(t *testing.T) {
	// Two routes named web in different namespaces make a bare name
	// ambiguous.
	dir := t.TempDir()
	twoWebs := `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: a}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: b}
`
	if err := os.WriteFile(filepath.Join(dir, "webs.yaml"), []byte(twoWebs), 0o644); err != nil {
		t.Fatal(err)
	}
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "found and accepted", Args: []string{"explain", "route", "store", "-f", clitest.Examples}, Code: 0},
		{Name: "found with -n", Args: []string{"explain", "route", "store", "-n", "store", "-f", clitest.Examples}, Code: 0},
		{Name: "route not found", Args: []string{"explain", "route", "nope", "-f", clitest.Examples}, Code: 1,
			StderrHas: `route "nope" not found in any namespace`, StdoutNone: true},
		{Name: "not found in namespace", Args: []string{"explain", "route", "store", "-n", "payments", "-f", clitest.Examples}, Code: 1,
			StderrHas: `route "store" not found in namespace "payments"`, StdoutNone: true},
		{Name: "kind filters", Args: []string{"explain", "route", "store", "--kind", "grpcroute", "-f", clitest.Examples}, Code: 1,
			StderrHas: `GRPCRoute "store" not found`},
		{Name: "gateway not found", Args: []string{"explain", "gateway", "nope", "-f", clitest.Examples}, Code: 1},
		{Name: "service not found", Args: []string{"explain", "service", "nope", "-f", clitest.Examples}, Code: 1},
		{Name: "not accepted", Args: []string{"explain", "route", "other-ns", "-f", "testdata/refused"}, Code: 1,
			StderrHas: "HTTPRoute team/other-ns is not accepted by any parent"},
		{Name: "ambiguous name", Args: []string{"explain", "route", "web", "-f", dir}, Code: 2,
			StderrHas: `route "web" is ambiguous: HTTPRoute a/web, HTTPRoute b/web`, StdoutNone: true},
		{Name: "ambiguity settled by -n", Args: []string{"explain", "route", "web", "-n", "b", "-f", dir}, Code: 1,
			StderrHas: "HTTPRoute b/web is not accepted"},
		{Name: "bad -o", Args: []string{"explain", "route", "store", "-o", "xml", "-f", clitest.Examples}, Code: 2,
			StderrHas: `invalid value "xml" for --output`, StdoutNone: true},
		{Name: "status refuses text", Args: []string{"status", "-o", "text", "-f", clitest.Examples}, Code: 2},
		{Name: "bad --color", Args: []string{"explain", "route", "store", "--color", "sometimes", "-f", clitest.Examples}, Code: 2},
		{Name: "bad --kind", Args: []string{"explain", "route", "store", "--kind", "Ingress", "-f", clitest.Examples}, Code: 2},
		{Name: "unknown flag", Args: []string{"explain", "route", "store", "--bogus"}, Code: 2,
			StderrHas: "Run 'gwctl explain route --help' for usage."},
		{Name: "missing name", Args: []string{"explain", "route"}, Code: 2},
		{Name: "unknown command", Args: []string{"frobnicate"}, Code: 2},
		{Name: "unknown explain subcommand", Args: []string{"explain", "ingress", "x"}, Code: 2},
		{Name: "broken file", Args: []string{"explain", "route", "good", "-f", "testdata/broken"}, Code: 2,
			StderrHas: "testdata/broken/broken.yaml:9: "},
		{Name: "missing file", Args: []string{"status", "-f", "testdata/no-such-dir"}, Code: 2,
			StderrHas: "testdata/no-such-dir: no such file or directory"},
		{Name: "empty path", Args: []string{"status", "-f", ""}, Code: 2, StdoutNone: true,
			StderrHas: `an empty path names no file or directory (use "." for the current directory)`},
		{Name: "empty path, explain", Args: []string{"explain", "route", "store", "-f", clitest.Examples, "-f", ""}, Code: 2, StdoutNone: true,
			StderrHas: `an empty path names no file or directory`},
		{Name: "empty path, graph", Args: []string{"graph", "-f", ""}, Code: 2, StdoutNone: true,
			StderrHas: `an empty path names no file or directory`},
		{Name: "stdin", Stdin: twoWebs, Args: []string{"explain", "route", "web", "-n", "a", "-f", "-"}, Code: 1,
			StderrHas: "HTTPRoute a/web is not accepted"},
		{Name: "help", Args: []string{"explain", "route", "--help"}, Code: 0},
	})
}

// TestColor: colour reaches the output only in text, and only when
// enabled (cli.ColorEnabled decides when).
func TestColor(t *testing.T) {
	colored, _, _ := clitest.Run(newRootCmd, "", "explain", "route", "store", "-f", clitest.Examples, "--color", "always")
	if !strings.Contains(colored, "\x1b[") {
		t.Errorf("--color always printed no escape sequence:\n%s", colored)
	}
	plain, _, _ := clitest.Run(newRootCmd, "", "explain", "route", "store", "-f", clitest.Examples)
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("colour printed to a non-terminal:\n%s", plain)
	}
	machine, _, _ := clitest.Run(newRootCmd, "", "explain", "route", "store", "-f", clitest.Examples, "--color", "always", "-o", "json")
	if strings.Contains(machine, "\x1b[") {
		t.Errorf("colour in JSON output:\n%s", machine)
	}
}

func TestPercent(t *testing.T) {
	for share, want := range map[float64]string{0: "0%", 0.8: "80%", 1.0 / 3: "33.3%", 2.0 / 3: "66.7%", 1: "100%", 0.0004: "0%"} {
		if got := percent(share); got != want {
			t.Errorf("percent(%v) = %q, want %q", share, got, want)
		}
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("broken pipe") }

// When the output cannot be written and an input could not be read either,
// every explain command exits 2: the lost input outranks the verdict.
func TestOutputFailureWithInputErrors(t *testing.T) {
	for _, args := range [][]string{
		{"explain", "route", "good", "-f", "testdata/broken"},
		{"explain", "gateway", "web", "-f", "testdata/broken"},
	} {
		var stderr bytes.Buffer
		code := cli.Run(newRootCmd, args, &cli.IOStreams{Out: failingWriter{}, ErrOut: &stderr})
		if code != cli.ExitUsage || !strings.Contains(stderr.String(), "broken pipe") {
			t.Errorf("%v: exit %d, stderr %q; want %d and the write error", args, code, stderr.String(), cli.ExitUsage)
		}
	}
}

// TestDuplicateWarnings: gwctl says which definition of an object defined
// again it resolves, and is silent about copies written as the first (as
// object-duplicate is).
func TestDuplicateWarnings(t *testing.T) {
	dir := t.TempDir()
	gw := func(port string) string {
		return `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: a}
spec:
  gatewayClassName: x
  listeners: [{name: http, port: ` + port + `, protocol: HTTP}]
---
`
	}
	route := `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: a}
---
`
	// Gateway: 80, 8080, 80 (the third copies the first, the second is
	// replaced by it); HTTPRoute: written twice alike.
	if err := os.WriteFile(filepath.Join(dir, "dup.yaml"), []byte(gw("80")+gw("8080")+gw("80")+route+route), 0o644); err != nil {
		t.Fatal(err)
	}
	_, stderr, _ := clitest.Run(newRootCmd, "", "status", "-f", dir)
	want := "dup.yaml:8:1: warning: Gateway a/gw is defined again; the definition at " + filepath.Join(dir, "dup.yaml") + ":15:1 is used"
	if !strings.Contains(stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, stderr)
	}
	if n := strings.Count(stderr, "defined again"); n != 1 {
		t.Errorf("%d duplicate warnings, want 1 (copies of the first are silent):\n%s", n, stderr)
	}
}

// TestMain lets a test run gwctl as a process (see clitest.Command), and
// render with a worker built from this module.
func TestMain(m *testing.M) { clitest.Main(m, main) }
