package resolve

import (
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd"
)

// One mistake, one violation: what a misspelt field's absence breaks is
// folded into its unknown field, and a union member of an unsupported type
// into the type's violation. Unrelated violations stay.
func TestTyposAreOneViolation(t *testing.T) {
	for _, tc := range []struct {
		name, doc, channel string
		want               []string
	}{{
		name: "required field misspelt",
		doc: `kind: HTTPRoute
spec: {rules: [{matches: [{headers: [{nam: x, value: "y"}]}]}]}`,
		want: []string{`spec.rules[0].matches[0].headers[0].nam: Unknown field "nam"; did you mean "name"?`},
	}, {
		name: "field a CEL rule needs misspelt",
		doc: `kind: Gateway
spec:
  gatewayClassName: acme
  listeners: [{name: https, protocol: HTTPS, port: 443, tls: {mode: Terminate, certificateRef: [{name: cert}]}}]`,
		want: []string{`spec.listeners[0].tls.certificateRef: Unknown field "certificateRef"; did you mean "certificateRefs"?`},
	}, {
		name: "spec misspelt",
		doc:  "kind: HTTPRoute\nspecs: {}",
		want: []string{`specs: Unknown field "specs"; did you mean "spec"?`},
	}, {
		name: "experimental filter under the standard channel",
		doc: `kind: HTTPRoute
spec: {rules: [{filters: [{type: ExternalAuth, externalAuth: {protocol: HTTP, backendRef: {name: auth, port: 80}}}]}]}`,
		want: []string{`spec.rules[0].filters[0].type: Unsupported value: "ExternalAuth"`},
	}, {
		name: "unrelated violations stay",
		doc: `kind: HTTPRoute
spec: {rules: [{matches: [{headers: [{color: x, value: "y"}]}]}]}`,
		want: []string{`spec.rules[0].matches[0].headers[0].color: Unknown field "color"`, `spec.rules[0].matches[0].headers[0].name: Required value`},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			doc := "apiVersion: gateway.networking.k8s.io/v1\nmetadata: {name: x, namespace: app}\n" + tc.doc
			in := Load([]string{"-"}, strings.NewReader(doc), Options{Validate: true, Channel: crd.Standard})
			if len(in.Objects) != 1 {
				t.Fatalf("%d objects, errors %v", len(in.Objects), in.Errors)
			}
			var got []string
			for _, v := range in.Objects[0].Metadata().Violations {
				got = append(got, v.Path+": "+v.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("violations %q, want %q", got, tc.want)
			}
			for i, w := range tc.want {
				if !strings.HasPrefix(got[i], w) {
					t.Errorf("violation %q, want %q", got[i], w)
				}
			}
		})
	}
}

func TestSplitFieldPath(t *testing.T) {
	for path, want := range map[string][2]string{
		"spec":                                {"", "spec"},
		"spec.rules[0].name":                  {"spec.rules[0]", "name"},
		"metadata.annotations[example.com/x]": {"metadata", "annotations[example.com/x]"},
	} {
		if p, n := splitFieldPath(path); p != want[0] || n != want[1] {
			t.Errorf("splitFieldPath(%q) = %q, %q; want %q, %q", path, p, n, want[0], want[1])
		}
	}
}
