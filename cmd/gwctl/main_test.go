package main

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/golden")

// examples is the bundled example tree, given as a relative path so that
// file names in the output, and so the golden files, are stable.
const examples = "../../testdata/examples"

// runGwctl runs gwctl in-process with buffers for its streams: the output
// is never a terminal, so colour is off unless --color always is given.
func runGwctl(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &IOStreams{In: strings.NewReader(stdin), Out: &out, ErrOut: &errOut})
	return out.String(), errOut.String(), code
}

func TestGolden(t *testing.T) {
	tests := []struct {
		name string
		args []string
		code int
	}{
		{"explain-route-store", []string{"explain", "route", "store", "-f", examples}, 0},
		{"explain-route-store-json", []string{"explain", "route", "store", "-f", examples, "-o", "json"}, 0},
		{"explain-route-store-yaml", []string{"explain", "route", "store", "-f", examples, "-o", "yaml"}, 0},
		{"explain-route-payments", []string{"explain", "route", "payments", "-n", "payments", "-f", examples}, 0},
		{"explain-gateway-shared", []string{"explain", "gateway", "shared", "-f", examples}, 0},
		{"explain-gateway-shared-json", []string{"explain", "gateway", "shared", "-f", examples, "-o", "json"}, 0},
		{"explain-service-store-v1", []string{"explain", "service", "store-v1", "-f", examples}, 0},
		{"explain-service-store-v1-yaml", []string{"explain", "service", "store-v1", "-f", examples, "-o", "yaml"}, 0},
		{"status-yaml", []string{"status", "-f", examples}, 0},
		{"status-json", []string{"status", "-f", examples, "-o", "json"}, 0},

		// One canary backend is missing: its 20% gets HTTP 500.
		{"canary-missing", []string{"explain", "route", "checkout", "-f", "testdata/canary-missing"}, 0},
		// Refused by a listener (namespaces), and by every listener's hostname.
		{"refused-not-allowed", []string{"explain", "route", "other-ns", "-f", "testdata/refused"}, 1},
		{"refused-hostname", []string{"explain", "route", "wrong-host", "-f", "testdata/refused"}, 1},
		{"refused-gateway", []string{"explain", "gateway", "edge", "-f", "testdata/refused"}, 0},
		// Mesh (GEP-1426): a producer route, a Service with producer,
		// consumer and conflicted routes, and the route that lost.
		{"mesh-route", []string{"explain", "route", "cart-split", "-f", "testdata/mesh"}, 0},
		{"mesh-route-json", []string{"explain", "route", "cart-split", "-f", "testdata/mesh", "-o", "json"}, 0},
		{"mesh-service", []string{"explain", "service", "cart", "-f", "testdata/mesh"}, 0},
		{"mesh-conflicted", []string{"explain", "route", "cart-tcp", "-f", "testdata/mesh"}, 1},
		// A broken file next to good ones: positioned error on stderr, the
		// good route still explained, exit 2.
		{"broken", []string{"explain", "route", "good", "-f", "testdata/broken"}, 2},
		{"broken-status", []string{"status", "-f", "testdata/broken"}, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := runGwctl(t, "", tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			checkGolden(t, tt.name+".golden", stdout)
			checkGolden(t, tt.name+".stderr.golden", stderr)
		})
	}
}

// checkGolden compares got with testdata/golden/name, or rewrites it with
// -update. An absent file stands for empty output, so only commands that
// write to stderr have a .stderr.golden.
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		var err error
		if got == "" {
			err = os.Remove(path)
			if os.IsNotExist(err) {
				err = nil
			}
		} else {
			err = os.WriteFile(path, []byte(got), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (rerun with -update if the change is intended)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
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
	tests := []struct {
		name       string
		stdin      string
		args       []string
		code       int
		stderrHas  string
		stdoutNone bool
	}{
		{name: "found and accepted", args: []string{"explain", "route", "store", "-f", examples}, code: 0},
		{name: "found with -n", args: []string{"explain", "route", "store", "-n", "store", "-f", examples}, code: 0},
		{name: "route not found", args: []string{"explain", "route", "nope", "-f", examples}, code: 1,
			stderrHas: `route "nope" not found in any namespace`, stdoutNone: true},
		{name: "not found in namespace", args: []string{"explain", "route", "store", "-n", "payments", "-f", examples}, code: 1,
			stderrHas: `route "store" not found in namespace "payments"`, stdoutNone: true},
		{name: "kind filters", args: []string{"explain", "route", "store", "--kind", "grpcroute", "-f", examples}, code: 1,
			stderrHas: `GRPCRoute "store" not found`},
		{name: "gateway not found", args: []string{"explain", "gateway", "nope", "-f", examples}, code: 1},
		{name: "service not found", args: []string{"explain", "service", "nope", "-f", examples}, code: 1},
		{name: "not accepted", args: []string{"explain", "route", "other-ns", "-f", "testdata/refused"}, code: 1,
			stderrHas: "HTTPRoute team/other-ns is not accepted by any parent"},
		{name: "ambiguous name", args: []string{"explain", "route", "web", "-f", dir}, code: 2,
			stderrHas: `route "web" is ambiguous: HTTPRoute a/web, HTTPRoute b/web`, stdoutNone: true},
		{name: "ambiguity settled by -n", args: []string{"explain", "route", "web", "-n", "b", "-f", dir}, code: 1,
			stderrHas: "HTTPRoute b/web is not accepted"},
		{name: "bad -o", args: []string{"explain", "route", "store", "-o", "xml", "-f", examples}, code: 2,
			stderrHas: `invalid value "xml" for --output`, stdoutNone: true},
		{name: "status refuses text", args: []string{"status", "-o", "text", "-f", examples}, code: 2},
		{name: "bad --color", args: []string{"explain", "route", "store", "--color", "sometimes", "-f", examples}, code: 2},
		{name: "bad --kind", args: []string{"explain", "route", "store", "--kind", "Ingress", "-f", examples}, code: 2},
		{name: "unknown flag", args: []string{"explain", "route", "store", "--bogus"}, code: 2,
			stderrHas: "Run 'gwctl explain route --help' for usage."},
		{name: "missing name", args: []string{"explain", "route"}, code: 2},
		{name: "unknown command", args: []string{"frobnicate"}, code: 2},
		{name: "unknown explain subcommand", args: []string{"explain", "ingress", "x"}, code: 2},
		{name: "broken file", args: []string{"explain", "route", "good", "-f", "testdata/broken"}, code: 2,
			stderrHas: "testdata/broken/broken.yaml:6: "},
		{name: "missing file", args: []string{"status", "-f", "testdata/no-such-dir"}, code: 2,
			stderrHas: "testdata/no-such-dir: no such file or directory"},
		{name: "stdin", stdin: twoWebs, args: []string{"explain", "route", "web", "-n", "a", "-f", "-"}, code: 1,
			stderrHas: "HTTPRoute a/web is not accepted"},
		{name: "help", args: []string{"explain", "route", "--help"}, code: 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			stdout, stderr, code := runGwctl(t, tt.stdin, tt.args...)
			if code != tt.code {
				t.Errorf("exit status %d, want %d; stderr:\n%s", code, tt.code, stderr)
			}
			if !strings.Contains(stderr, tt.stderrHas) {
				t.Errorf("stderr does not contain %q:\n%s", tt.stderrHas, stderr)
			}
			if tt.stdoutNone && stdout != "" {
				t.Errorf("stdout should be empty, got:\n%s", stdout)
			}
		})
	}
}

func TestColor(t *testing.T) {
	tests := []struct {
		mode            string
		tty, noColorEnv bool
		want            bool
	}{
		{colorAuto, true, false, true},
		{colorAuto, true, true, false},
		{colorAuto, false, false, false},
		{colorAlways, false, true, true},
		{colorNever, true, false, false},
	}
	for _, tt := range tests {
		streams := &IOStreams{OutIsTTY: tt.tty, NoColor: tt.noColorEnv}
		if got := colorEnabled(tt.mode, streams); got != tt.want {
			t.Errorf("colorEnabled(%s, tty=%v, NO_COLOR=%v) = %v, want %v", tt.mode, tt.tty, tt.noColorEnv, got, tt.want)
		}
	}

	// Colour reaches the output only in text, and only when enabled.
	colored, _, _ := runGwctl(t, "", "explain", "route", "store", "-f", examples, "--color", "always")
	if !strings.Contains(colored, "\x1b[") {
		t.Errorf("--color always printed no escape sequence:\n%s", colored)
	}
	plain, _, _ := runGwctl(t, "", "explain", "route", "store", "-f", examples)
	if strings.Contains(plain, "\x1b[") {
		t.Errorf("colour printed to a non-terminal:\n%s", plain)
	}
	machine, _, _ := runGwctl(t, "", "explain", "route", "store", "-f", examples, "--color", "always", "-o", "json")
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

// discardStreams are for tests that only parse flags.
func discardStreams() *IOStreams {
	return &IOStreams{In: strings.NewReader(""), Out: io.Discard, ErrOut: io.Discard}
}
