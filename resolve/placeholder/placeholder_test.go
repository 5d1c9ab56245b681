package placeholder

import (
	"reflect"
	"testing"
)

func TestFind(t *testing.T) {
	tests := []struct {
		syntax Syntax
		in     string
		want   []string // the placeholders, as written
	}{
		// Flux post-build substitution.
		{Default, "${DOMAIN}", []string{"${DOMAIN}"}},
		{Default, "radarr.${SECRET_DOMAIN}", []string{"${SECRET_DOMAIN}"}},
		{Default, "${APP}-${ENV}", []string{"${APP}", "${ENV}"}},
		{Default, "${PORT:=8080}", []string{"${PORT:=8080}"}},
		{Default, "${NS:-default}", []string{"${NS:-default}"}},
		{Default, "${SUFFIX:+-canary}", []string{"${SUFFIX:+-canary}"}},
		{Default, "${#NAME}", []string{"${#NAME}"}},
		{Default, "${_x1}", []string{"${_x1}"}},
		{Default, "${A:-${B}}.example.com", []string{"${A:-${B}}"}},
		{Default, "$DOMAIN", nil},              // Flux substitutes only braces
		{Default, "$${DOMAIN}", nil},           // envsubst's escape: a literal ${DOMAIN}
		{Default, "${1X}", nil},                // not a variable name
		{Default, "${}", nil},                  //
		{Default, "${DOMAIN", nil},             // unterminated
		{Default, "a$b${C}", []string{"${C}"}}, //
		// Argo CD plugins.
		{Default, "<path:secret/data/gw#hostname>", []string{"<path:secret/data/gw#hostname>"}},
		{Default, "<path:kv/app#host#2>.example.com", []string{"<path:kv/app#host#2>"}},
		{Default, "<secret:gw-config:domain>", []string{"<secret:gw-config:domain>"}},
		{Default, "<path:>", nil},
		{Default, "<path:a b>", nil},
		{Default, "<hostname>", nil}, // generic form: only with the annotation
		{All, "<hostname>", []string{"<hostname>"}},
		{All, "app.<domain>", []string{"<domain>"}},
		{All, "a < b > c", nil},
		{Flux, "<path:a#b>", nil},
		// Template actions.
		{Default, "{{ .Values.host }}", []string{"{{ .Values.host }}"}},
		{Default, "{{.Release.Name}}-svc", []string{"{{.Release.Name}}"}},
		{Default, "{ a }", nil},
		{Flux, "{{ .x }}", nil},
		// Plain values.
		{Default, "", nil},
		{Default, "example.com", nil},
		{Default, "%DOWNSTREAM_REMOTE_ADDRESS%", nil},
	}
	for _, tt := range tests {
		var got []string
		for _, sp := range tt.syntax.Find(tt.in) {
			got = append(got, tt.in[sp.Start:sp.End])
		}
		if !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Find(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if c := tt.syntax.Contains(tt.in); c != (len(tt.want) > 0) {
			t.Errorf("Contains(%q) = %v", tt.in, c)
		}
	}
}

func TestLiterals(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"example.com", []string{"example.com"}},
		{"radarr.${DOMAIN}", []string{"radarr.", ""}},
		{"${A}.x.${B}", []string{"", ".x.", ""}},
		{"bad_host.${DOMAIN:=example.com}", []string{"bad_host.", ""}},
	}
	for _, tt := range tests {
		if got := Default.Literals(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Literals(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestForObject(t *testing.T) {
	if ForObject(annotations{"a": "b"}) != Default {
		t.Error("an object without the avp annotation must not get the generic form")
	}
	if ForObject(annotations{AVPPathAnnotation: "secret/data/gw"}) != All {
		t.Error("an object with the avp annotation must get the generic form")
	}
}

func TestWhy(t *testing.T) {
	if got, want := Default.Why("radarr.${SECRET_DOMAIN}"), "depends on ${SECRET_DOMAIN}, substituted at deploy time"; got != want {
		t.Errorf("Why = %q, want %q", got, want)
	}
	if got := Default.Why("example.com"); got != "" {
		t.Errorf("Why of a plain value = %q", got)
	}
}

// annotations are a map as placeholder.Annotations.
type annotations map[string]string

func (a annotations) Has(key string) bool {
	_, ok := a[key]
	return ok
}
