package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// complete runs cobra's hidden __complete command, as the shell scripts
// of `gwctl completion` do, and returns the completions (the lines before
// the ":directive" line) and the directive.
func complete(t *testing.T, args ...string) (completions []string, directive string) {
	t.Helper()
	out, stderr, code := clitest.Run(newRootCmd, "", append([]string{"__complete"}, args...)...)
	if code != 0 {
		t.Fatalf("__complete %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

// TestCompleteNames: explain route|gateway|service complete the names of
// the objects of their kind in the -f inputs, in the -n namespace when it
// is given, with the objects as descriptions; the kubectl spellings
// complete their own kind only.
func TestCompleteNames(t *testing.T) {
	const shop = "testdata/trace"
	for _, tt := range []struct {
		args []string
		want []string
	}{
		{[]string{"explain", "route", "-f", clitest.Examples, ""},
			[]string{"payments\tHTTPRoute payments/payments", "store\tHTTPRoute store/store"}},
		{[]string{"explain", "route", "-f", clitest.Examples, "-n", "store", ""}, []string{"store\tHTTPRoute store/store"}},
		{[]string{"explain", "route", "-n", "nowhere", "-f", clitest.Examples, ""}, nil},
		{[]string{"explain", "route", "-f", clitest.Examples, "pay"}, []string{"payments\tHTTPRoute payments/payments"}},
		{[]string{"explain", "gateway", "-f", clitest.Examples, ""}, []string{"shared\tGateway infra/shared"}},
		{[]string{"explain", "gw", "-f", clitest.Examples, ""}, []string{"shared\tGateway infra/shared"}},
		{[]string{"explain", "service", "-f", clitest.Examples, "store"},
			[]string{"store-v1\tService store/store-v1", "store-v2\tService store/store-v2"}},
		{[]string{"explain", "svc", "--namespace", "payments", "-f", clitest.Examples, ""}, []string{"payments\tService payments/payments"}},
		// --kind and the kubectl spellings narrow the kinds.
		{[]string{"explain", "grpcroute", "-f", shop, ""}, []string{"cart-api\tGRPCRoute shop/cart-api"}},
		{[]string{"explain", "route", "--kind", "grpcroute", "-f", shop, ""}, []string{"cart-api\tGRPCRoute shop/cart-api"}},
		{[]string{"explain", "httproutes", "-f", shop, "t"}, []string{"twin-a\tHTTPRoute shop/twin-a", "twin-b\tHTTPRoute shop/twin-b"}},
		// -n and -f before the command, as kubectl takes them.
		{[]string{"-n", "store", "-f", clitest.Examples, "explain", "route", ""}, []string{"store\tHTTPRoute store/store"}},
		{[]string{"-f", clitest.Examples, "explain", "--namespace", "infra", "gw", ""}, []string{"shared\tGateway infra/shared"}},
		{[]string{"-nstore", "--filename=" + clitest.Examples, "explain", "svc", ""},
			[]string{"store-v1\tService store/store-v1", "store-v2\tService store/store-v2"}},
		// One NAME only; stdin is never read.
		{[]string{"explain", "route", "-f", clitest.Examples, "store", ""}, nil},
		{[]string{"explain", "route", "-f", "-", ""}, nil},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, directive := complete(t, tt.args...)
			if !slices.Equal(got, tt.want) {
				t.Errorf("completions\n%q\nwant\n%q", got, tt.want)
			}
			if directive != ":4" { // ShellCompDirectiveNoFileComp
				t.Errorf("directive %s, want :4 (no file completion)", directive)
			}
		})
	}
}

// TestKubectlSpellings: kubectl's resource names work as explain's
// subcommands.
func TestKubectlSpellings(t *testing.T) {
	const shop = "testdata/trace"
	clitest.RunCases(t, newRootCmd, []clitest.Case{
		{Name: "httproute", Args: []string{"explain", "httproute", "store", "-n", "store", "-f", clitest.Examples}, Code: 0,
			StdoutHas: "HTTPRoute store/store"},
		{Name: "httproutes", Args: []string{"explain", "httproutes", "store", "-f", clitest.Examples}, Code: 0,
			StdoutHas: "HTTPRoute store/store"},
		{Name: "routes", Args: []string{"explain", "routes", "store", "-f", clitest.Examples}, Code: 0,
			StdoutHas: "HTTPRoute store/store"},
		{Name: "grpcroute presets the kind", Args: []string{"explain", "grpcroute", "store", "-f", clitest.Examples}, Code: 1,
			StderrHas: `GRPCRoute "store" not found`},
		{Name: "grpcroutes", Args: []string{"explain", "grpcroutes", "cart-api", "-f", shop}, Code: 0,
			StdoutHas: "GRPCRoute shop/cart-api"},
		{Name: "tcproute", Args: []string{"explain", "tcproute", "store", "-f", clitest.Examples}, Code: 1,
			StderrHas: `TCPRoute "store" not found`},
		{Name: "same --kind", Args: []string{"explain", "httproute", "store", "--kind", "httproute", "-f", clitest.Examples}, Code: 0},
		{Name: "other --kind", Args: []string{"explain", "httproute", "store", "--kind", "GRPCRoute", "-f", clitest.Examples}, Code: 2,
			StderrHas: `--kind GRPCRoute contradicts "httproute", which is HTTPRoute`},
		{Name: "gw", Args: []string{"explain", "gw", "shared", "-f", clitest.Examples}, Code: 0, StdoutHas: "Gateway infra/shared"},
		{Name: "gateways", Args: []string{"explain", "gateways", "shared", "-f", clitest.Examples}, Code: 0, StdoutHas: "Gateway infra/shared"},
		{Name: "svc", Args: []string{"explain", "svc", "store-v1", "-f", clitest.Examples}, Code: 0, StdoutHas: "Service store/store-v1"},
		{Name: "services", Args: []string{"explain", "services", "store-v1", "-f", clitest.Examples}, Code: 0, StdoutHas: "Service store/store-v1"},
	})
}

// TestCompleteCommandsAfterInputFlags: -n and -f before a command do not
// stop its name from completing, and -f completes file names wherever it
// stands.
func TestCompleteCommandsAfterInputFlags(t *testing.T) {
	for _, tt := range []struct {
		args          []string
		want          []string
		wantDirective string
	}{
		{[]string{"-n", "store", "ex"}, []string{"explain\tExplain a route, a Gateway, a Service or a policy"}, ":4"},
		{[]string{"-f", clitest.Examples, "st"}, []string{"status\tPrint the status a controller would write for every object"}, ":4"},
		{[]string{"-f", clitest.Examples, "-n", "store", "explain", "ro"}, []string{"route\tExplain where a route attaches and where its traffic goes"}, ":4"},
		{[]string{"explain", "-n", "store", "ro"}, []string{"route\tExplain where a route attaches and where its traffic goes"}, ":4"},
		// The shell completes file names (ShellCompDirectiveDefault).
		{[]string{"-f", ""}, nil, ":0"},
		{[]string{"explain", "-f", ""}, nil, ":0"},
	} {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, directive := complete(t, tt.args...)
			if !slices.Equal(got, tt.want) || directive != tt.wantDirective {
				t.Errorf("completions %q %s, want %q %s", got, directive, tt.want, tt.wantDirective)
			}
		})
	}
}
