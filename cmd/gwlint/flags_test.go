package main

import (
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

func TestCheckFlags(t *testing.T) {
	defaults := checkOptions{Paths: []string{"."}, Channel: "standard", FailOn: "error", Output: "text", Color: "auto"}
	clitest.RunFlagCases(t, newCheckCmd, []clitest.FlagCase[checkOptions]{
		{Name: "defaults", Args: nil, Want: defaults},
		{
			Name: "every flag",
			Args: []string{"a.yaml", "dir", "-", "-n", "shop", "--strict-refs", "--fail-on", "warning", "-o", "sarif",
				"--color", "never", "-q", "--config", "lint.yaml", "--channel", "experimental", "--baseline", "b.json"},
			Want: checkOptions{
				Paths: []string{"a.yaml", "dir", "-"}, Namespace: "shop", StrictRefs: true, Channel: "experimental", FailOn: "warning",
				Output: "sarif", Color: "never", Quiet: true, Config: cli.ConfigFlags{File: "lint.yaml"}, Baseline: "b.json",
				namespaceSet: true, strictRefsSet: true, channelSet: true, failOnSet: true,
			},
		},
		{
			// Flags given with their default value still override the
			// configuration file.
			Name: "explicit defaults are set",
			Args: []string{"--fail-on", "error", "--strict-refs=false", "--namespace", "", "--no-config"},
			Want: checkOptions{
				Paths: []string{"."}, Channel: "standard", FailOn: "error", Output: "text", Color: "auto", Config: cli.ConfigFlags{None: true},
				namespaceSet: true, strictRefsSet: true, failOnSet: true,
			},
		},
		{Name: "implementation", Args: []string{"--implementation", "istio@1.28", "--without-features", "HTTPRouteCORS,TLSRouteModeMixed"},
			Want: checkOptions{Paths: []string{"."}, Channel: "standard", FailOn: "error", Output: "text", Color: "auto",
				Implementation:    cli.Implementation{Name: "istio@1.28", WithoutFeatures: []string{"HTTPRouteCORS", "TLSRouteModeMixed"}},
				implementationSet: true, withoutFeaturesSet: true}},
		{Name: "unknown implementation", Args: []string{"--implementation", "nope"}, WantErr: `--implementation: unknown implementation "nope"`},
		{Name: "unknown feature", Args: []string{"--without-features", "CORS"}, WantErr: `--without-features: unknown feature "CORS"`},
		{Name: "paths keep commas", Args: []string{"a,b.yaml"},
			Want: checkOptions{Paths: []string{"a,b.yaml"}, Channel: "standard", FailOn: "error", Output: "text", Color: "auto"}},
		{Name: "bad output", Args: []string{"-o", "yaml"}, WantErr: `invalid value "yaml" for --output: must be one of text, json, sarif, github, codeclimate, junit`},
		{Name: "bad fail-on", Args: []string{"--fail-on", "none"}, WantErr: `invalid value "none" for --fail-on: must be one of error, warning, info`},
		{Name: "bad color", Args: []string{"--color", "yes"}, WantErr: `invalid value "yes" for --color`},
		{Name: "config and no-config", Args: []string{"--config", "x", "--no-config"}, WantErr: "if any flags in the group [config no-config] are set none of the others can be"},
		{Name: "unknown flag", Args: []string{"--format", "json"}, WantErr: "unknown flag: --format"},
	})
}

func TestBaselineFlags(t *testing.T) {
	clitest.RunFlagCases(t, newBaselineCmd, []clitest.FlagCase[checkOptions]{
		{Args: []string{"b.json"}, Want: checkOptions{Baseline: "b.json", Paths: []string{"."}, Channel: "standard"}},
		{Args: []string{"-", "a", "b", "-n", "shop", "--no-config"}, Want: checkOptions{Baseline: "-", Paths: []string{"a", "b"},
			Namespace: "shop", Channel: "standard", Config: cli.ConfigFlags{None: true}, namespaceSet: true}},
		{Args: nil, WantErr: "requires at least 1 arg(s), only received 0"},
		{Args: []string{"b.json", "-o", "json"}, WantErr: "unknown shorthand flag: 'o'"},
	})
}

func TestRulesFlags(t *testing.T) {
	clitest.RunFlagCases(t, newRulesCmd, []clitest.FlagCase[rulesOptions]{
		{Args: nil, Want: rulesOptions{Output: "text"}},
		{Args: []string{"backend-not-found", "-o", "json"}, Want: rulesOptions{Output: "json", ID: "backend-not-found"}},
		{Args: []string{"-o", "sarif"}, WantErr: `invalid value "sarif" for --output: must be one of text, json`},
		{Args: []string{"a", "b"}, WantErr: "accepts at most 1 arg(s), received 2"},
	})
}

// TestHelpHasExamples: every command documents itself with examples.
func TestHelpHasExamples(t *testing.T) {
	clitest.CheckExamples(t, newRootCmd(clitest.Discard()))
}
