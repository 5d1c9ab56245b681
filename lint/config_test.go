package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestParseConfig(t *testing.T) {
	full := `# A team's configuration.
rules:
  listener-no-routes: off        # YAML 1.1 reads this as false
  referencegrant-unused: "off"
  backend-not-found: warning
  unused-ignore: error
exclude:
- "charts/**"
- "**/kustomization.yaml"
namespace: apps
strictRefs: true
failOn: warning
`
	cfg, err := ParseConfig([]byte(full), ".gwlint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	strict, warning := true, Warning
	want := &Config{
		File: ".gwlint.yaml",
		RuleSettings: map[string]RuleSetting{
			"listener-no-routes":    {Off: true},
			"referencegrant-unused": {Off: true},
			"backend-not-found":     {Severity: Warning},
			"unused-ignore":         {Severity: Error},
		},
		Exclude:    []string{"charts/**", "**/kustomization.yaml"},
		Namespace:  "apps",
		StrictRefs: &strict,
		FailOn:     &warning,
		exclude:    [][]string{{"charts", "**"}, {"**", "kustomization.yaml"}},
	}
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("ParseConfig\n got %+v\nwant %+v", cfg, want)
	}

	for _, empty := range []string{"", "# nothing yet\n", "---\n", "~\n"} {
		cfg, err := ParseConfig([]byte(empty), "c.yaml")
		if err != nil || !reflect.DeepEqual(cfg, &Config{File: "c.yaml"}) {
			t.Errorf("ParseConfig(%q) = %+v, %v; want the defaults", empty, cfg, err)
		}
	}
}

func TestParseConfigErrors(t *testing.T) {
	tests := []struct {
		name, config, want string
	}{
		{"unknown key", "rules: {}\nfailon: warning\n",
			`c.yaml:2:1: unknown key "failon" (known keys: channel, charts, exclude, failOn, gatewayAPIVersion, implementation, namespace, ownedNamespaces, rules, strictRefs, withoutFeatures)`},
		{"unknown rule", "rules:\n  backend-not-found: off\n  parentref-not-alowed: off\n",
			`c.yaml:3:3: unknown rule "parentref-not-alowed" (did you mean parentref-not-allowed?) (see gwlint rules)`},
		{"unknown rule far from any", "rules:\n  no-such-thing: warning\n",
			`c.yaml:2:3: unknown rule "no-such-thing" (see gwlint rules)`},
		{"bad setting", "rules:\n  backend-not-found: fatal\n",
			`c.yaml:2:22: rule backend-not-found: unknown setting "fatal" (want off, error, warning or info)`},
		{"on is not a setting", "rules:\n  backend-not-found: on\n",
			`c.yaml:2:22: rule backend-not-found: unknown setting "true" (want off, error, warning or info)`},
		{"invalid-manifest is always on", "rules:\n  invalid-manifest: off\n",
			`c.yaml:2:3: invalid-manifest cannot be configured: exclude the files instead`},
		{"rules not a mapping", "rules: [a]\n",
			`c.yaml:1:8: rules must be a mapping of rule id to off, error, warning or info`},
		{"exclude not a list", "exclude: charts/**\n",
			`c.yaml:1:10: exclude must be a list of path patterns, such as ["charts/**"]`},
		{"bad pattern", "exclude:\n- ok/**\n- \"[z-a\"\n",
			`c.yaml:3:3: exclude pattern "[z-a": syntax error in pattern`},
		{"pattern leaves the directory", "exclude:\n- ../other\n",
			`c.yaml:2:3: exclude pattern "../other": patterns cannot leave the configuration's directory ("..")`},
		{"bad failOn", "failOn: never\n",
			`c.yaml:1:9: failOn: unknown severity "never" (want error, warning or info)`},
		{"wrong type", "namespace: [a, b]\n",
			`c.yaml:1:12: namespace must be a string, not array`},
		{"wrong type in a list", "exclude:\n- {a: b}\n",
			`c.yaml:2:1: exclude must be a string, not object`},
		{"strictRefs not a boolean", "strictRefs: 1\n",
			`c.yaml:1:13: strictRefs must be true or false, not number`},
		{"duplicate key", "namespace: a\nnamespace: b\n",
			`c.yaml:2:1: "namespace" is already set at line 1`},
		{"duplicate rule", "rules:\n  backend-not-found: off\n  backend-not-found: info\n",
			`c.yaml:3:3: "backend-not-found" is already set at line 2`},
		{"not a mapping", "- rules\n", `c.yaml:1:1: the configuration must be a mapping of channel, charts, exclude, failOn, gatewayAPIVersion, implementation, namespace, ownedNamespaces, rules, strictRefs, withoutFeatures`},
		{"unknown implementation", "implementation: nginx\n",
			`c.yaml:1:17: implementation: unknown implementation "nginx" (known: agentgateway, alibaba-cloud-service-mesh, application-gateway-for-containers, aws-application-networking-k8s, aws-load-balancer-controller, buoyant-enterprise-for-linkerd, cilium, cloud-provider-kind, contour, envoy-gateway, gateway-operator, gke-gateway, gloo-gateway, gravitee-kubernetes-operator, haproxy-ingress, istio, kgateway, kong-operator, kubernetes-ingress-controller, kubvernor, kuma, linkerd, microgateway, nginx-gateway-fabric, traefik, varnish-gateway)`},
		{"unknown feature", "withoutFeatures: [CORS]\n",
			`c.yaml:1:18: withoutFeatures: unknown feature "CORS" (see sigs.k8s.io/gateway-api/pkg/features)`},
		{"syntax error", "rules:\n  a: b\n c: d\n", `c.yaml:2: did not find expected key`},
		{"second document", "failOn: warning\n---\n---\nrules:\n  backend-not-found: off\n",
			`c.yaml:4:1: a second YAML document: the configuration is one document`},
		{"syntax error in a second document", "failOn: warning\n---\na: [\n", `c.yaml:3: did not find expected node content`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tt.config), "c.yaml")
			if err == nil {
				t.Fatalf("no error; config %+v", cfg)
			}
			if err.Error() != tt.want {
				t.Errorf("error\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestConfigRules(t *testing.T) {
	cfg, err := ParseConfig([]byte("rules:\n  listener-no-routes: off\n  backend-not-found: info\n  unused-ignore: error\n"), "c.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rules := cfg.Rules()
	byID := map[string]*Rule{}
	for i, r := range rules {
		byID[r.ID] = r
		if i > 0 && rules[i-1].ID >= r.ID {
			t.Errorf("not sorted: %s after %s", r.ID, rules[i-1].ID)
		}
	}
	if byID["listener-no-routes"] != nil {
		t.Error("listener-no-routes is off but in effect")
	}
	if byID["invalid-manifest"] != nil {
		t.Error("invalid-manifest is reported by gwlint itself, not a rule to run")
	}
	if r := byID["backend-not-found"]; r == nil || r.Severity != Info {
		t.Errorf("backend-not-found = %+v, want severity info", r)
	}
	if r := byID["unused-ignore"]; r == nil || r.Severity != Error {
		t.Errorf("unused-ignore = %+v, want severity error", r)
	}
	if len(rules) != len(Rules())+len(MetaRules())-2 {
		t.Errorf("%d rules in effect, want every rule and pseudo-rule but two", len(rules))
	}

	// Copies: the package's values never change.
	if Lookup("backend-not-found").Severity != Error || UnusedIgnore.Severity != Warning {
		t.Error("Config.Rules changed a package-level rule")
	}
	byID["referencegrant-unused"].Severity = Error
	if Lookup("referencegrant-unused").Severity != Info {
		t.Error("a rule from Config.Rules shares its value with the package's")
	}

	var none *Config
	if got := none.Rules(); len(got) != len(Rules())+len(MetaRules())-1 {
		t.Errorf("nil config: %d rules, want all but invalid-manifest", len(got))
	}
}

func TestConfigExcludes(t *testing.T) {
	dir := t.TempDir()
	cfg, err := ParseConfig([]byte(`exclude:
- "charts/**"
- "**/kustomization.yaml"
- "generated"
- "/rooted/*.json"
- "apps/*/tmp-*.yaml"
`), filepath.Join(dir, ".gwlint.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		"charts/echo/templates/route.yaml": true,
		"charts":                           true,
		"chartsx/route.yaml":               false,
		"kustomization.yaml":               true,
		"clusters/prod/kustomization.yaml": true,
		"clusters/prod/kustomization.yml":  false,
		"generated/a/b.yaml":               true,
		"src/generated/b.yaml":             false, // patterns are anchored
		"rooted/x.json":                    true,
		"rooted/sub/x.json":                false,
		"apps/store/tmp-1.yaml":            true,
		"apps/store/deep/tmp-1.yaml":       false,
		"apps/store/route.yaml":            false,
		"../elsewhere/kustomization.yaml":  true, // ** matches any directories
		"../elsewhere/route.yaml":          false,
	} {
		if got := cfg.Excludes(filepath.Join(dir, filepath.FromSlash(path))); got != want {
			t.Errorf("Excludes(%s) = %v, want %v", path, got, want)
		}
	}
	if cfg.Excludes("-") {
		t.Error("stdin excluded")
	}
	if (*Config)(nil).Excludes("charts/x.yaml") || (&Config{}).Excludes("charts/x.yaml") {
		t.Error("the defaults exclude something")
	}

	// Relative paths are relative to the working directory, patterns to
	// the configuration file's.
	t.Chdir(dir)
	if err := os.MkdirAll("sub", 0o755); err != nil {
		t.Fatal(err)
	}
	sub, err := ParseConfig([]byte("exclude: [\"charts/**\"]\n"), filepath.Join("sub", ".gwlint.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	if !sub.Excludes("sub/charts/a.yaml") || sub.Excludes("charts/a.yaml") {
		t.Error("patterns are not relative to the configuration's directory")
	}
}

func TestFindConfig(t *testing.T) {
	root := t.TempDir()
	mkdir := func(p string) string {
		t.Helper()
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
		return p
	}
	touch := func(p string) string {
		t.Helper()
		p = filepath.Join(root, filepath.FromSlash(p))
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mkdir("repo/.git")
	mkdir("repo/a/b/c")
	mkdir("repo/sub/.gwlint.yaml") // a directory, not a config
	mkdir("bare/x")
	touch(".gwlint.yaml") // above both repositories
	inRepo := touch("repo/.gwlint.yaml")
	nested := touch("repo/a/.gwlint.yaml")

	for dir, want := range map[string]string{
		"repo":       inRepo,
		"repo/a":     nested,
		"repo/a/b/c": nested, // the nearest one
		"repo/sub":   inRepo,
		"bare/x":     filepath.Join(root, ".gwlint.yaml"), // no .git: up to the root
	} {
		got, err := FindConfig(filepath.Join(root, filepath.FromSlash(dir)))
		if err != nil || got != want {
			t.Errorf("FindConfig(%s) = %q, %v; want %q", dir, got, err, want)
		}
	}

	// A repository without a config stops the search at its top.
	mkdir("other/.git")
	mkdir("other/deep")
	if got, err := FindConfig(filepath.Join(root, "other", "deep")); got != "" || err != nil {
		t.Errorf("FindConfig went past .git: %q, %v", got, err)
	}
}

func TestLoadConfig(t *testing.T) {
	if _, err := LoadConfig(filepath.Join(t.TempDir(), "missing.yaml")); err == nil || !strings.Contains(err.Error(), "missing.yaml: no such file or directory") {
		t.Errorf("error %v, want the file named", err)
	}
}

func TestFindConfigFor(t *testing.T) {
	root := t.TempDir()
	for name, content := range map[string]string{
		"a/.git/x":            "",
		"a/.gwlint.yaml":      "",
		"a/deploy/route.yaml": "",
		"a/sub/.gwlint.yaml":  "",
		"a/sub/route.yaml":    "",
		"b/.git/x":            "",
		"b/route.yaml":        "",
	} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	at := func(p string) string { return filepath.Join(root, filepath.FromSlash(p)) }
	tests := []struct {
		paths   []string
		want    string
		wantErr string
	}{
		{paths: []string{at("a/deploy/route.yaml")}, want: at("a/.gwlint.yaml")},
		{paths: []string{at("a/deploy")}, want: at("a/.gwlint.yaml")},
		{paths: []string{at("a/deploy/missing.yaml")}, want: at("a/.gwlint.yaml")},
		{paths: []string{at("a/sub")}, want: at("a/sub/.gwlint.yaml")},
		// A path that finds none shares the one another path finds.
		{paths: []string{at("b/route.yaml"), at("a/deploy")}, want: at("a/.gwlint.yaml")},
		{paths: []string{at("b")}, want: ""},
		{paths: []string{at("a/deploy"), at("a/sub/route.yaml")}, wantErr: "is configured by"},
	}
	for _, tt := range tests {
		got, err := FindConfigFor(tt.paths)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("FindConfigFor(%q) error %v, want %q", tt.paths, err, tt.wantErr)
			}
			continue
		}
		if got != tt.want || err != nil {
			t.Errorf("FindConfigFor(%q) = %q, %v; want %q", tt.paths, got, err, tt.want)
		}
	}
	// stdin stands for the working directory.
	t.Chdir(at("a/deploy"))
	if got, err := FindConfigFor([]string{"-"}); got != at("a/.gwlint.yaml") || err != nil {
		t.Errorf(`FindConfigFor("-") = %q, %v`, got, err)
	}
}

func TestParseConfigTrailingSeparator(t *testing.T) {
	cfg, err := ParseConfig([]byte("failOn: warning\n---\n# nothing\n"), "c.yaml")
	if err != nil || cfg.FailOn == nil || *cfg.FailOn != Warning {
		t.Errorf("ParseConfig = %+v, %v; want failOn warning", cfg, err)
	}
}
