package lint

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strings"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile"
)

// ConfigSchemaID is where the JSON Schema of .gwlint.yaml is published
// (docs/gwlint.schema.json), for editors: the yaml-language-server modeline
//
//	# yaml-language-server: $schema=<ConfigSchemaID>
const ConfigSchemaID = "https://raw.githubusercontent.com/gwlint/gwlint/main/docs/gwlint.schema.json"

// configKeyDocs describe the keys of .gwlint.yaml in the schema; every key
// of rawConfig has one (checked by a test).
var configKeyDocs = map[string]string{
	"rules":             "Turn rules off, or change their severity, by rule id (see gwlint rules). invalid-manifest cannot be configured.",
	"exclude":           "Paths not read, relative to the configuration file's directory, /-separated; each segment a shell glob, ** any number of directories.",
	"namespace":         "Namespace for objects that name none, like --namespace (default \"default\").",
	"strictRefs":        "Treat every referenced object outside the inputs as missing instead of external, like --strict-refs.",
	"ownedNamespaces":   "Namespaces (shell patterns) whose every object the inputs hold: an object referenced there and not among the inputs is missing.",
	"channel":           "Gateway API release channel whose CRDs the cluster runs, like --channel.",
	"gatewayAPIVersion": "Gateway API release whose CRDs the cluster runs, vX.Y.Z or vX.Y for its newest patch, like --gateway-api-version (default: the release of the Gateway API CRDs among the inputs, else the one gwlint is built with; gwlint releases lists them).",
	"failOn":            "Exit 1 when a finding has this severity or a higher one, like --fail-on.",
	"implementation":    "Judge every Gateway by this implementation's profile, NAME[@VERSION], like --implementation.",
	"withoutFeatures":   "Features the implementation lacks, as sigs.k8s.io/gateway-api/pkg/features names them, like --without-features.",
	"charts":            "Local copies of the Helm charts that HelmReleases install from outside the repository: chart reference (an oci:// URL, a Helm repository URL/chart, or the chart's name) to a directory relative to this file.",
}

// ConfigSchema returns the JSON Schema (draft 07, which editors support
// best) of .gwlint.yaml, generated from the code: its keys, the rule ids
// with their summaries, the severities, the channels, the implementations
// and the features. docs/gwlint.schema.json is its output.
func ConfigSchema() []byte {
	type obj = map[string]any
	stringList := func(desc string, items obj) obj {
		return obj{"description": desc, "type": "array", "items": items}
	}
	severities := []any{Error.String(), Warning.String(), Info.String()}

	rules := obj{}
	for _, r := range configurableRules() {
		rules[r.ID] = obj{
			"description": r.Summary + " (default: " + r.Severity.String() + ")",
			"$ref":        "#/definitions/ruleSetting",
		}
	}
	var names []string
	for _, n := range profile.Names() {
		names = append(names, regexp.QuoteMeta(n))
	}
	var feats []string
	for _, f := range features.AllFeatures.UnsortedList() {
		feats = append(feats, string(f.Name))
	}
	slices.Sort(feats)

	props := obj{
		"rules": obj{"description": configKeyDocs["rules"], "type": "object",
			"properties": rules, "additionalProperties": false},
		"exclude": stringList(configKeyDocs["exclude"], obj{"type": "string", "minLength": 1,
			"not": obj{"pattern": `(^|/)\.\.(/|$)`}}),
		"namespace":         obj{"description": configKeyDocs["namespace"], "type": "string"},
		"strictRefs":        obj{"description": configKeyDocs["strictRefs"], "type": "boolean"},
		"ownedNamespaces":   stringList(configKeyDocs["ownedNamespaces"], obj{"type": "string", "minLength": 1}),
		"channel":           obj{"description": configKeyDocs["channel"], "enum": []any{"standard", "experimental"}},
		"failOn":            obj{"description": configKeyDocs["failOn"], "enum": severities},
		"gatewayAPIVersion": obj{"description": configKeyDocs["gatewayAPIVersion"], "type": "string", "pattern": `^v?[0-9]+\.[0-9]+(\.[0-9]+)?$`},
		"implementation": obj{"description": configKeyDocs["implementation"], "type": "string",
			"pattern": "^(" + strings.Join(names, "|") + ")(@.+)?$"},
		"withoutFeatures": stringList(configKeyDocs["withoutFeatures"], obj{"type": "string", "enum": feats}),
		"charts": obj{"description": configKeyDocs["charts"], "type": "object",
			"additionalProperties": obj{"type": "string", "minLength": 1}},
	}
	schema := obj{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"$id":                  ConfigSchemaID,
		"title":                "gwlint configuration (" + ConfigFileName + ")",
		"description":          "Generated from the code by lint.ConfigSchema; see docs/gwlint.md.",
		"type":                 []any{"object", "null"},
		"properties":           props,
		"additionalProperties": false,
		"definitions": obj{
			"ruleSetting": obj{
				// An unquoted off is false in YAML 1.1, and gwlint takes it.
				"description": "off, or the severity to report the rule's findings with",
				"enum":        append([]any{"off", false}, severities...),
			},
		},
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // maps: keys sorted
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false) // summaries say "a > b"
	if err := enc.Encode(schema); err != nil {
		panic(err) // only maps, slices, strings and bools
	}
	return buf.Bytes()
}
