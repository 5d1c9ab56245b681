package lint

import (
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/xeipuuv/gojsonschema"
	"sigs.k8s.io/yaml"
)

const schemaDoc = "../docs/gwlint.schema.json"

// TestConfigSchemaFile keeps docs/gwlint.schema.json generated from the
// code. After changing a rule or a key, run:
// go test ./lint -run TestConfigSchemaFile -update
func TestConfigSchemaFile(t *testing.T) {
	got := ConfigSchema()
	if *update {
		if err := os.WriteFile(schemaDoc, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(schemaDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("%s is stale; regenerate it with: go test ./lint -run TestConfigSchemaFile -update", schemaDoc)
	}
	doc, err := os.ReadFile("../docs/gwlint.md")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "# yaml-language-server: $schema="+ConfigSchemaID) {
		t.Errorf("docs/gwlint.md does not show the yaml-language-server modeline for %s", ConfigSchemaID)
	}
}

// TestConfigSchemaKeys: the schema has every key the parser knows, and
// every configurable rule.
func TestConfigSchemaKeys(t *testing.T) {
	var schema struct {
		Properties map[string]struct {
			Properties map[string]any `json:"properties"`
			Enum       []any          `json:"enum"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(ConfigSchema(), &schema); err != nil {
		t.Fatal(err)
	}
	var keys, tags, docs []string
	for k := range schema.Properties {
		keys = append(keys, k)
	}
	typ := reflect.TypeOf(rawConfig{})
	for i := range typ.NumField() {
		name, _, _ := strings.Cut(typ.Field(i).Tag.Get("json"), ",")
		tags = append(tags, name)
	}
	for k := range configKeyDocs {
		docs = append(docs, k)
	}
	slices.Sort(keys)
	slices.Sort(tags)
	slices.Sort(docs)
	if !slices.Equal(keys, configKeys) || !slices.Equal(tags, configKeys) || !slices.Equal(docs, configKeys) {
		t.Errorf("schema keys %v, rawConfig fields %v, key docs %v; want %v", keys, tags, docs, configKeys)
	}
	var rules []string
	for id := range schema.Properties["rules"].Properties {
		rules = append(rules, id)
	}
	slices.Sort(rules)
	var want []string
	for _, r := range configurableRules() {
		want = append(want, r.ID)
	}
	if !slices.Equal(rules, want) {
		t.Errorf("schema rules %v, want %v", rules, want)
	}
	if got := schema.Properties["failOn"].Enum; !reflect.DeepEqual(got, []any{"error", "warning", "info"}) {
		t.Errorf("failOn enum %v", got)
	}
}

// TestConfigSchemaAgrees: the schema accepts what ParseConfig accepts and
// refuses what it refuses, the documented example included.
func TestConfigSchemaAgrees(t *testing.T) {
	schema, err := gojsonschema.NewSchema(gojsonschema.NewBytesLoader(ConfigSchema()))
	if err != nil {
		t.Fatal(err)
	}
	doc, err := os.ReadFile("../docs/gwlint.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "## Configuration")
	example := regexp.MustCompile("(?s)```yaml\n(.*?)```").FindStringSubmatch(section)
	if example == nil {
		t.Fatal("no yaml example in the Configuration section of docs/gwlint.md")
	}
	repoConfig, err := os.ReadFile("../cmd/gwlint/testdata/repo/.gwlint.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, yaml string
		valid      bool
	}{
		{"docs example", example[1], true},
		{"testdata repo", string(repoConfig), true},
		{"empty", "", true},
		{"unquoted off", "rules:\n  listener-no-routes: off\n", true},
		{"every key", "namespace: a\nstrictRefs: false\nownedNamespaces: [a]\nchannel: standard\nfailOn: info\nimplementation: istio@1.28\nwithoutFeatures: [HTTPRouteCORS]\nexclude: [x]\n", true},
		{"unknown key", "failon: error\n", false},
		{"unknown rule", "rules:\n  backend-not-fund: off\n", false},
		{"invalid-manifest", "rules:\n  invalid-manifest: off\n", false},
		{"bad setting", "rules:\n  backend-not-found: fatal\n", false},
		{"bad channel", "channel: beta\n", false},
		{"bad failOn", "failOn: never\n", false},
		{"exclude not a list", "exclude: charts\n", false},
		{"exclude leaves", "exclude: [../x]\n", false},
		{"unknown implementation", "implementation: nope\n", false},
		{"unknown feature", "withoutFeatures: [CORS]\n", false},
		{"strictRefs not a bool", "strictRefs: maybe\n", false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			_, parseErr := ParseConfig([]byte(tt.yaml), ".gwlint.yaml")
			if (parseErr == nil) != tt.valid {
				t.Fatalf("ParseConfig: %v, want valid=%v", parseErr, tt.valid)
			}
			data, err := yaml.YAMLToJSON([]byte(tt.yaml))
			if err != nil {
				t.Fatal(err)
			}
			res, err := schema.Validate(gojsonschema.NewBytesLoader(data))
			if err != nil {
				t.Fatal(err)
			}
			if res.Valid() != tt.valid {
				t.Errorf("schema: valid=%v, want %v: %v", res.Valid(), tt.valid, res.Errors())
			}
		})
	}
}
