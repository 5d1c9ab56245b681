package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/resolve"
)

var defaultInputs = inputOptions{Filenames: []string{"."}, ControllerName: resolve.DefaultControllerName, Channel: "standard"}

func TestExplainRouteFlags(t *testing.T) {
	clitest.RunFlagCases(t, newExplainRouteCmd, []clitest.FlagCase[explainRouteOptions]{
		{
			Name: "defaults",
			Args: []string{"store"},
			Want: explainRouteOptions{explainOptions: explainOptions{
				inputOptions: defaultInputs, Output: "text", Color: "auto", Name: "store",
			}},
		},
		{
			Name: "every flag",
			Args: []string{"store", "-f", "a.yaml", "--filename", "dir", "-f", "-", "-n", "shop", "--strict-refs",
				"--controller-name", "example.com/gw", "-o", "yaml", "--color", "never", "--kind", "grpcroute", "--channel", "experimental"},
			Want: explainRouteOptions{
				explainOptions: explainOptions{
					inputOptions: inputOptions{
						Filenames: []string{"a.yaml", "dir", "-"}, Namespace: "shop", StrictRefs: true, ControllerName: "example.com/gw",
						Channel: "experimental",
					},
					Output: "yaml", Color: "never", Name: "store",
				},
				Kind: resolve.KindGRPCRoute,
			},
		},
		{Name: "filenames keep commas", Args: []string{"x", "-f", "a,b.yaml"},
			Want: explainRouteOptions{explainOptions: explainOptions{
				inputOptions: inputOptions{Filenames: []string{"a,b.yaml"}, ControllerName: resolve.DefaultControllerName, Channel: "standard"},
				Output:       "text", Color: "auto", Name: "x",
			}}},
		{Name: "no name", Args: nil, WantErr: "accepts 1 arg(s), received 0"},
		{Name: "two names", Args: []string{"a", "b"}, WantErr: "accepts 1 arg(s), received 2"},
		{Name: "bad output", Args: []string{"a", "-o", "wide"}, WantErr: `invalid value "wide" for --output: must be one of text, json, yaml`},
		{Name: "bad color", Args: []string{"a", "--color", "yes"}, WantErr: `invalid value "yes" for --color`},
		{Name: "bad kind", Args: []string{"a", "--kind", "Gateway"}, WantErr: `invalid value "Gateway" for --kind`},
		{Name: "bad channel", Args: []string{"a", "--channel", "beta"}, WantErr: `unknown channel "beta" (want standard or experimental)`},
	})
}

func TestExplainGatewayAndServiceFlags(t *testing.T) {
	want := explainOptions{inputOptions: defaultInputs, Output: "json", Color: "auto", Name: "x"}
	want.Namespace = "infra"
	cases := []clitest.FlagCase[explainOptions]{
		{Name: "flags", Args: []string{"x", "-n", "infra", "-o", "json"}, Want: want},
		{Name: "no --kind", Args: []string{"x", "--kind", "HTTPRoute"}, WantErr: "unknown flag: --kind"},
	}
	t.Run("gateway", func(t *testing.T) { clitest.RunFlagCases(t, newExplainGatewayCmd, cases) })
	t.Run("service", func(t *testing.T) { clitest.RunFlagCases(t, newExplainServiceCmd, cases) })
}

func TestStatusFlags(t *testing.T) {
	clitest.RunFlagCases(t, newStatusCmd, []clitest.FlagCase[statusOptions]{
		{Args: nil, Want: statusOptions{inputOptions: defaultInputs, Output: "yaml"}},
		{Args: []string{"-o", "json", "-f", "x", "--strict-refs", "--channel", "experimental"}, Want: statusOptions{
			inputOptions: inputOptions{Filenames: []string{"x"}, StrictRefs: true, ControllerName: resolve.DefaultControllerName, Channel: "experimental"},
			Output:       "json",
		}},
		{Args: []string{"-o", "text"}, WantErr: `invalid value "text" for --output: must be one of yaml, json`},
		{Args: []string{"--channel", "beta"}, WantErr: `unknown channel "beta" (want standard or experimental)`},
		{Args: []string{"extra"}, WantErr: `unknown command "extra"`},
	})
}

// TestHelpHasExamples: every command documents itself with clitest.Examples.
func TestHelpHasExamples(t *testing.T) {
	clitest.CheckExamples(t, newRootCmd(clitest.Discard()))
}

// TestInputFlagsAnywhere: -n and -f mean the same before the command, between
// its words and after them, as kubectl takes them. -n nowhere proves that
// -n arrived (the route is not found there).
func TestInputFlagsAnywhere(t *testing.T) {
	ex := clitest.Examples
	var cases []clitest.Case
	for name, args := range map[string][]string{
		"before the command":   {"-n", "NS", "-f", ex, "explain", "route", "store"},
		"long, with =":         {"--namespace=NS", "--filename=" + ex, "explain", "route", "store"},
		"between its words":    {"explain", "-n", "NS", "-f", ex, "route", "store"},
		"after the subcommand": {"explain", "route", "-n", "NS", "-f", ex, "store"},
		"after NAME":           {"explain", "route", "store", "-n", "NS", "-f", ex},
		"split":                {"-f", ex, "explain", "route", "store", "-n", "NS"},
		"a spelling":           {"-n", "NS", "explain", "httproute", "-f", ex, "store"},
	} {
		with := func(ns string) []string {
			out := slices.Clone(args)
			for i, a := range out {
				out[i] = strings.Replace(a, "NS", ns, 1)
			}
			return out
		}
		cases = append(cases,
			clitest.Case{Name: name, Args: with("store"), Code: 0, StdoutHas: "HTTPRoute store/store"},
			clitest.Case{Name: name + ", elsewhere", Args: with("nowhere"), Code: 1, StderrHas: `"store" not found in namespace "nowhere"`})
	}
	cases = append(cases,
		clitest.Case{Name: "status, -f before", Args: []string{"-f", ex, "status", "-o", "json"}, Code: 0, StdoutHas: `"name": "shared"`},
		clitest.Case{Name: "-f before and after add up", Args: []string{"-f", ex + "/10-gateway.yaml", "explain", "gw", "shared", "-f", ex + "/20-store.yaml"},
			Code: 0, StdoutHas: "store/store"},
		clitest.Case{Name: "version ignores them", Args: []string{"-n", "store", "version"}, Code: 0, StdoutHas: "gwctl "},
		clitest.Case{Name: "other flags stay after the command", Args: []string{"--strict-refs", "status", "-f", ex}, Code: 2})
	clitest.RunCases(t, newRootCmd, cases)
}
