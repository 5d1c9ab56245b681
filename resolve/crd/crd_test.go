package crd

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd/internal/cases"
	"github.com/gwlint/gwlint/resolve/crd/internal/gen"
)

// loadReleases is gen.LoadReleases, once for the package's tests.
var loadReleases = sync.OnceValues(func() (releases, error) {
	pinned, rels, err := gen.LoadReleases()
	return releases{pinned, rels}, err
})

type releases struct {
	pinned string
	rels   []gen.Release
}

// TestGeneratedUpToDate regenerates the schemas from every release's
// module and compares: run `go generate ./resolve/crd` when it fails.
func TestGeneratedUpToDate(t *testing.T) {
	rs, err := loadReleases()
	if err != nil {
		t.Skip(err)
	}
	src, err := gen.Generate(rs.pinned, rs.rels)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "zz_generated_schemas.go")
	if err := os.WriteFile(out, src, 0o644); err != nil {
		t.Fatal(err)
	}
	committed, err := os.ReadFile("zz_generated_schemas.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, src) {
		t.Errorf("zz_generated_schemas.go is stale (fresh copy in %s): run go generate ./resolve/crd", out)
	}
}

// TestEveryRuleImplemented walks every x-kubernetes-validations rule of
// every CRD version of both channels of every release, served or not: each
// must have a Go translation, marked transition exactly when it uses
// oldSelf; and each translation must translate a rule of the CRDs.
func TestEveryRuleImplemented(t *testing.T) {
	rs, err := loadReleases()
	if err != nil {
		t.Skip(err)
	}
	var uses []gen.RuleUse
	for _, rel := range rs.rels {
		uses = append(uses, gen.Rules(rel.Versions)...)
	}
	used := map[string]bool{}
	for _, u := range uses {
		src := u.Rule.Rule
		if used[src] {
			continue
		}
		used[src] = true
		impl, ok := lookupRule(src)
		switch {
		case !ok:
			t.Errorf("%s %s %s %s: no Go implementation of %q", u.Version.Channel, u.Version.Kind, u.Version.Version, u.Path, src)
		case impl.transition != strings.Contains(src, "oldSelf"):
			t.Errorf("%q: transition is %t", src, impl.transition)
		case !impl.transition && impl.eval == nil:
			t.Errorf("%q: no eval", src)
		}
	}
	for _, set := range ruleSets() {
		for src := range set {
			if !used[src] {
				t.Errorf("translation of a rule no CRD has: %q", src)
			}
		}
	}
	t.Logf("%d distinct rules, all implemented", len(used))
	celImpls() // must not panic
}

// TestSchemaPatternsNative: every pattern of the generated schemas has a
// native matcher, and every native matcher is used.
func TestSchemaPatternsNative(t *testing.T) {
	used := map[string]bool{}
	for i := range patterns {
		used[patterns[i].src] = true
		if nativePatterns[patterns[i].src] == nil {
			t.Errorf("no native matcher for %q", patterns[i].src)
		}
	}
	for src := range nativePatterns {
		if !used[src] {
			t.Errorf("native matcher for a pattern no schema has: %q", src)
		}
	}
}

// celRegexps are the regexps CEL rules pass to matches(), with the native
// matchers their translations use.
var celRegexps = map[string]func(string) bool{
	`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`:                                           isWildcardHostnameish,
	`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$`: isLabelKeyish,
	`^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$`:                                                                     isGRPCService,
	`^[A-Za-z_][A-Za-z_0-9]*$`:                                            isGRPCMethod,
	`^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$`:              isPathish,
	`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$`: isSubdomainish,
}

// TestNativePatterns proves each native matcher equal to its regexp on
// crafted and random strings.
func TestNativePatterns(t *testing.T) {
	all := map[string]func(string) bool{}
	for src, f := range nativePatterns {
		all[src] = f
	}
	for src, f := range celRegexps {
		all[src] = f
	}
	inputs := patternInputs()
	for src, native := range all {
		re := regexp.MustCompile(src)
		for _, s := range inputs {
			if got, want := native(s), re.MatchString(s); got != want {
				t.Errorf("%s: %q: native %t, regexp %t", src, s, got, want)
			}
		}
	}
}

// FuzzNativePatterns: go test -fuzz FuzzNativePatterns ./resolve/crd
func FuzzNativePatterns(f *testing.F) {
	for _, s := range patternInputs()[:200] {
		f.Add(s)
	}
	type pair struct {
		re     *regexp.Regexp
		native func(string) bool
	}
	var ps []pair
	for src, fn := range nativePatterns {
		ps = append(ps, pair{regexp.MustCompile(src), fn})
	}
	for src, fn := range celRegexps {
		ps = append(ps, pair{regexp.MustCompile(src), fn})
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range ps {
			if got, want := p.native(s), p.re.MatchString(s); got != want {
				t.Errorf("%s: %q: native %t, regexp %t", p.re, s, got, want)
			}
		}
	})
}

// patternInputs are crafted edge cases plus random strings over an
// alphabet of the characters the patterns care about.
func patternInputs() []string {
	in := []string{
		"", "a", "A", "0", "-", ".", "/", "*", "*.", "*.a", "a.", ".a", "a..b", "a-", "-a", "a-b", "a.b-c.d",
		"System", "Systems", "example.com/x", "example.com/", "/x", "a/b/c", "a/b", "Hostname", "xHostname",
		"IPAddress", "xxNamedAddressyy", "http://a", "https://a.b:1", "https://*.a.com", "http://*", "http://a:",
		"http://a:123456", "https://a..b", "*", "**", "1h", "1ms", "1h2m3s4ms", "1h2m3s4ms5s", "123456s", "1", "ms",
		"1mss", "/a%2f", "/a%zz", "/a%2", "%41", "a b", "a  b", " a", "a ", "a\tb", "a\nb", "ſ", "K", "ſvc.Kx",
		"_a", "a_", "9a", "a:b", "a,b:", ".a.b", "a.b.", "scheme://host/path?q#f", "://", "a:/b", "a:b//",
		strings.Repeat("a", 61), strings.Repeat("a", 62), strings.Repeat("a", 63), strings.Repeat("a", 64),
		strings.Repeat("a", 253) + "/b", "a/" + strings.Repeat("b", 63), "a/" + strings.Repeat("b", 64),
		"a+b.c-d://h:1", "s://h", "ab://h", "ab://h:", "ab://h:123456", "ab://h/x", "1b://h", "ab://h\n", "ab://a:b:1", "é", "\xff", "a\x00b", "x/y/z", "ab/cd/Ef", "AB/cd", "x.y/9", "Hostnamex", "1.2.3.4", "::1",
	}
	const alphabet = "aAzZ09-._/:*%#@!$&'()+,;=~ \t?Kſé\x60^|hmsS"
	r := rand.New(rand.NewPCG(3, 4))
	runes := []rune(alphabet)
	for range 20000 {
		var b strings.Builder
		for range r.IntN(24) {
			b.WriteRune(runes[r.IntN(len(runes))])
		}
		in = append(in, b.String())
	}
	return in
}

// TestValidateDoesNotModify: Validate copies what it defaults.
func TestValidateDoesNotModify(t *testing.T) {
	cs, err := cases.Load("testdata/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		obj := decodeDoc(t, c.Doc)
		ch := Standard
		if c.Channel == "experimental" {
			ch = Experimental
		}
		Validate(obj["apiVersion"].(string), obj["kind"].(string), obj, CRDs{Channel: ch})
		after, _ := json.Marshal(obj)
		before := decodeDoc(t, c.Doc)
		want, _ := json.Marshal(before)
		if !bytes.Equal(after, want) {
			t.Errorf("%s: document modified:\n%s\n%s", c.Name, want, after)
		}
	}
}

// ValidateOwned may change the document but must find exactly what
// Validate finds.
func TestValidateOwnedFindsTheSame(t *testing.T) {
	cs, err := cases.Load("testdata/cases.yaml")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		ch := Standard
		if c.Channel == "experimental" {
			ch = Experimental
		}
		obj := decodeDoc(t, c.Doc)
		apiVersion, kind := obj["apiVersion"].(string), obj["kind"].(string)
		want := Validate(apiVersion, kind, obj, CRDs{Channel: ch})
		got := ValidateOwned(apiVersion, kind, decodeDoc(t, c.Doc), CRDs{Channel: ch})
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: ValidateOwned = %v\nValidate = %v", c.Name, got, want)
		}
	}
}

func TestKnown(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		ch               Channel
		want             bool
	}{
		{"gateway.networking.k8s.io/v1", "HTTPRoute", Standard, true},
		{"gateway.networking.k8s.io/v1beta1", "HTTPRoute", Standard, true},
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", Standard, false}, // not served there
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", Experimental, true},
		{"gateway.networking.k8s.io/v1alpha3", "BackendTLSPolicy", Experimental, true},
		{"gateway.networking.x-k8s.io/v1alpha1", "XBackend", Standard, false},
		{"gateway.networking.x-k8s.io/v1alpha1", "XMesh", Experimental, true},
		{"gateway.networking.k8s.io/v1", "Service", Standard, false},
		{"v1", "Service", Standard, false},
	} {
		if got := Known(tc.apiVersion, tc.kind, CRDs{Channel: tc.ch}); got != tc.want {
			t.Errorf("Known(%s, %s, %d) = %t", tc.apiVersion, tc.kind, tc.ch, got)
		}
	}
	if vs := Validate("v1", "Service", map[string]any{}, CRDs{}); vs != nil {
		t.Errorf("Validate of an unknown kind: %v", vs)
	}
}

// typicalHTTPRoute is a route of a real-world size: two parents, two
// hostnames, three rules with matches, filters and weighted backends.
const typicalHTTPRoute = `{
  "apiVersion": "gateway.networking.k8s.io/v1", "kind": "HTTPRoute",
  "metadata": {"name": "shop", "namespace": "shop", "labels": {"app": "shop"}},
  "spec": {
    "parentRefs": [{"name": "gw", "namespace": "infra", "sectionName": "https"}, {"name": "gw", "namespace": "infra", "sectionName": "http"}],
    "hostnames": ["shop.example.com", "*.shop.example.com"],
    "rules": [
      {"matches": [{"path": {"type": "PathPrefix", "value": "/api"}, "headers": [{"name": "x-version", "value": "2"}]}],
       "filters": [{"type": "RequestHeaderModifier", "requestHeaderModifier": {"set": [{"name": "x-env", "value": "prod"}]}}],
       "backendRefs": [{"name": "api-v2", "port": 8080, "weight": 90}, {"name": "api-v3", "port": 8080, "weight": 10}],
       "timeouts": {"request": "10s", "backendRequest": "5s"}},
      {"matches": [{"path": {"type": "Exact", "value": "/login"}, "method": "POST"}],
       "backendRefs": [{"name": "auth", "port": 9000}]},
      {"matches": [{"path": {"type": "PathPrefix", "value": "/"}}],
       "filters": [{"type": "URLRewrite", "urlRewrite": {"path": {"type": "ReplacePrefixMatch", "replacePrefixMatch": "/web"}}}],
       "backendRefs": [{"name": "web", "port": 80}]}
    ]
  }
}`

func BenchmarkValidateHTTPRoute(b *testing.B) {
	obj := decodeDoc(b, []byte(typicalHTTPRoute))
	if vs := Validate("gateway.networking.k8s.io/v1", "HTTPRoute", obj, CRDs{}); len(vs) > 0 {
		b.Fatalf("typical route invalid: %v", vs)
	}
	b.ReportAllocs()
	for b.Loop() {
		Validate("gateway.networking.k8s.io/v1", "HTTPRoute", obj, CRDs{})
	}
}

// TestDeprecation: the CRDs' deprecated versions, with their warnings, and
// only where the channel serves them.
func TestDeprecation(t *testing.T) {
	for _, tc := range []struct {
		apiVersion, kind string
		ch               Channel
		want             string
	}{
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", Experimental, "The v1alpha2 version of TLSRoute has been deprecated and will be removed in a future release of the API. Please upgrade to v1."},
		{"gateway.networking.k8s.io/v1alpha3", "BackendTLSPolicy", Experimental, "The v1alpha3 version of BackendTLSPolicy has been deprecated and will be removed in a future release of the API. Please upgrade to v1."},
		{"gateway.networking.k8s.io/v1alpha2", "TLSRoute", Standard, ""}, // not served
		{"gateway.networking.k8s.io/v1beta1", "ReferenceGrant", Standard, ""},
		{"gateway.networking.k8s.io/v1beta1", "HTTPRoute", Experimental, ""},
		{"gateway.networking.k8s.io/v1", "TLSRoute", Experimental, ""},
	} {
		if got := Deprecation(tc.apiVersion, tc.kind, CRDs{Channel: tc.ch}); got != tc.want {
			t.Errorf("Deprecation(%s, %s, %d) = %q, want %q", tc.apiVersion, tc.kind, tc.ch, got, tc.want)
		}
	}
}

func TestAPIVersions(t *testing.T) {
	got := APIVersions(Pinned)
	for _, want := range []string{"gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1/HTTPRoute", "gateway.networking.k8s.io/v1alpha2/TLSRoute"} {
		if !slices.Contains(got, want) {
			t.Errorf("APIVersions() lacks %s", want)
		}
	}
	if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) {
		t.Error("APIVersions() is not sorted and unique")
	}
}
