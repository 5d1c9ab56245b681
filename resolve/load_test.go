package resolve

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestParseYAMLTimestamp(t *testing.T) {
	utc := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			t.Fatal(err)
		}
		return v.UTC()
	}
	for _, tc := range []struct {
		in   string
		want time.Time // zero: not a timestamp
	}{
		// The examples of yaml.org/type/timestamp.
		{"2001-12-14t21:59:43.10-05:00", utc("2001-12-15T02:59:43.1Z")},
		{"2001-12-14 21:59:43.10 -5", utc("2001-12-15T02:59:43.1Z")},
		{"2001-12-15 2:59:43.10", utc("2001-12-15T02:59:43.1Z")},
		{"2002-12-14", utc("2002-12-14T00:00:00Z")},
		// As Istio's and Envoy Gateway's inputs write them.
		{"2025-07-01 20:47:53+00:00", utc("2025-07-01T20:47:53Z")},
		{"2025-07-01T20:47:53Z", utc("2025-07-01T20:47:53Z")},
		{"2025-07-01 20:47:53 Z", utc("2025-07-01T20:47:53Z")},
		{"2025-07-01 20:47:53+0530", utc("2025-07-01T15:17:53Z")},
		{"2025-07-01T20:47:53.123456789123Z", utc("2025-07-01T20:47:53.123456789Z")},
		{"2025-02-30", time.Time{}},
		{"2025-07-01 25:00:00", time.Time{}},
		{"2025-07-01 20:47", time.Time{}},
		{"yesterday", time.Time{}},
		{"2025-07-01 20:47:53 +00:00 UTC", time.Time{}},
	} {
		got, ok := parseYAMLTimestamp(tc.in)
		if ok != !tc.want.IsZero() || !got.Equal(tc.want) {
			t.Errorf("parseYAMLTimestamp(%q) = %v, %v; want %v", tc.in, got, ok, tc.want)
		}
	}
}

// Unquoted YAML timestamps, in either spelling, are read as times (not an
// error that drops the object) and order routes by the spec's precedence:
// the oldest route wins an identical match.
func TestCreationTimestampSpellings(t *testing.T) {
	route := func(name, created string) string {
		return `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: ` + name + `
  namespace: app
  creationTimestamp: ` + created + `
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	}
	g := resolveYAML(t, Options{}, world,
		route("a-newer", "2025-07-02T08:00:00Z"),
		route("b-older", "2025-07-01 20:47:53+00:00"),
		route("c-oldest", "2025-07-01"))
	want := map[string]string{
		"a-newer":  "2025-07-02T08:00:00Z",
		"b-older":  "2025-07-01T20:47:53Z",
		"c-oldest": "2025-07-01T00:00:00Z",
	}
	for name, created := range want {
		if got := mustRoute(t, g, KindHTTPRoute, "app", name).Created().UTC().Format(time.RFC3339); got != created {
			t.Errorf("%s: Created = %s, want %s", name, got, created)
		}
	}
	winners := map[string]string{}
	for _, s := range g.Shadows {
		winners[s.Shadowed.Route.Ref.Name] = s.Winner.Route.Ref.Name
	}
	if winners["a-newer"] != "c-oldest" || winners["b-older"] != "c-oldest" {
		t.Errorf("shadowed by = %v, want both by c-oldest", winners)
	}
}

// TestCreatedKeepsTheTimestamp checks that Meta's compact creation time
// gives back what was written, to the nanosecond, and the zero time for
// none (the zero Meta included).
func TestCreatedKeepsTheTimestamp(t *testing.T) {
	for _, written := range []time.Time{
		{},
		time.Date(2025, 7, 1, 20, 47, 53, 0, time.UTC),
		time.Date(2025, 7, 1, 20, 47, 53, 123456789, time.UTC),
		time.Date(1, 1, 1, 0, 0, 1, 0, time.UTC),
		time.Date(1969, 12, 31, 23, 59, 59, 999999999, time.UTC),
		time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
	} {
		var m Meta
		m.setCreated(written)
		if got := m.Created(); !got.Time.Equal(written) || got.IsZero() != written.IsZero() {
			t.Errorf("setCreated(%s): Created() = %s", written, got.Time)
		}
	}
	var zero Meta
	if c := zero.Created(); !c.IsZero() {
		t.Error("the zero Meta has a creation time")
	}
}

// A file git-crypt encrypts is among the Unknowns, not the Errors: gwlint
// check says so as input-unknown, and exits 0 for it.
func TestLoadGitCryptFileIsUnknown(t *testing.T) {
	file := filepath.Join(t.TempDir(), "secrets.json")
	if err := os.WriteFile(file, []byte("\x00GITCRYPT\x00\xf9\xad*\xb2"), 0o644); err != nil {
		t.Fatal(err)
	}
	in := Load([]string{file}, nil, Options{})
	if len(in.Errors) != 0 || len(in.Unknowns) != 1 {
		t.Errorf("errors %v, unknowns %v; want it unknown", in.Errors, in.Unknowns)
	}
}
