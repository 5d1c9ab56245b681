package oracle

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/crd/internal/cases"
)

// TestMutations validates random mutations of the example and invalid
// example documents both ways. Mutations mix generic edits (delete, null,
// duplicate, unknown field) with values and subtrees picked to hit the
// schema's and the CEL rules' edge cases.
//
// Every release runs, each on its own examples and the seeds (40 mutants
// per seed document: about 4 s a release on 2 cores).
func TestMutations(t *testing.T) {
	eachRelease(t, func(t *testing.T, r *release) {
		n := 40 // mutants per seed document
		if testing.Short() {
			n = 5
		}
		mutations(t, r, n)
	})
}

func mutations(t *testing.T, rel *release, n int) {
	seeds := readCorpus(t, filepath.Join(rel.dir, "examples"), rel.rel)
	seeds = append(seeds, readCorpus(t, filepath.Join(rel.dir, "hack/invalid-examples"), rel.rel)...)
	seeds = append(seeds, readCorpus(t, "testdata/seeds", rel.rel)...)
	seed := uint64(1)
	// More, or other, mutants: ORACLE_MUTANTS=400 ORACLE_SEED=7 go test -run Mutations
	if v, err := strconv.Atoi(os.Getenv("ORACLE_MUTANTS")); err == nil {
		n = v
	}
	if v, err := strconv.ParseUint(os.Getenv("ORACLE_SEED"), 10, 64); err == nil {
		seed = v
	}
	// Subtrees by field name, from all seeds, to graft elsewhere.
	grafts := map[string][]any{}
	var names []string
	for _, d := range seeds {
		walk(decode(t, d.json), func(key string, v any) {
			if key != "" {
				if _, ok := grafts[key]; !ok {
					names = append(names, key)
				}
				grafts[key] = append(grafts[key], v)
			}
		})
	}
	sort.Strings(names)

	r := rand.New(rand.NewPCG(seed, 2))
	var st stats
	failures := 0
	seen := map[string]bool{} // CEL rule messages seen failing
	for _, d := range seeds {
		for i := 0; i < n; i++ {
			doc := decode(t, d.json)
			var ops []string
			for range 1 + r.IntN(3) {
				ops = append(ops, mutate(r, doc, grafts, names))
			}
			m := d
			m.name = fmt.Sprintf("%s mutant %d [%s]", d.name, i, strings.Join(ops, "; "))
			m.json = mustMarshal(t, doc)
			o := run(t, m)
			st.record(o)
			for _, msg := range o.real {
				if _, rule, ok := strings.Cut(msg, "Invalid value: "); ok {
					seen[rule] = true
				}
			}
			if !o.agree() {
				if failures++; failures <= 40 {
					t.Errorf("%s: disagreement%s\n    document: %s", m.name, o.diff(), m.json)
				}
			}
		}
	}
	if failures > 40 {
		t.Errorf("... %d disagreements in all", failures)
	}
	t.Log(st)
	var missed []string
	for msg := range rel.ruleMessages {
		if !seen[msg] {
			missed = append(missed, msg)
		}
	}
	sort.Strings(missed)
	t.Logf("%d of the %d CEL rule messages (create path) seen failing; not seen: %q", len(rel.ruleMessages)-len(missed), len(rel.ruleMessages), missed)
}

func decode(t *testing.T, js []byte) map[string]any {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

// walk calls f on every value with its map key ("" for list items).
func walk(v any, f func(key string, v any)) {
	switch x := v.(type) {
	case map[string]any:
		// Sorted, so that the grafts, and so the mutants, are the same on
		// every run: a disagreement is reproducible.
		for _, k := range slices.Sorted(maps.Keys(x)) {
			c := x[k]
			f(k, c)
			walk(c, f)
		}
	case []any:
		for _, c := range x {
			f("", c)
			walk(c, f)
		}
	}
}

// slot is a place in a document: a map key or a list index.
type slot struct {
	m   map[string]any
	k   string
	l   []any
	i   int
	pth string
}

func (s slot) get() any {
	if s.m != nil {
		return s.m[s.k]
	}
	return s.l[s.i]
}

func (s slot) set(v any) {
	if s.m != nil {
		s.m[s.k] = v
	} else {
		s.l[s.i] = v
	}
}

func slots(v any, pth string, out *[]slot) {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) { // in order: see walk
			c := x[k]
			if pth == "" && (k == "apiVersion" || k == "kind") {
				continue
			}
			p := strings.TrimPrefix(pth+"."+k, ".")
			*out = append(*out, slot{m: x, k: k, pth: p})
			slots(c, p, out)
		}
	case []any:
		for i, c := range x {
			p := fmt.Sprintf("%s[%d]", pth, i)
			*out = append(*out, slot{l: x, i: i, pth: p})
			slots(c, p, out)
		}
	}
}

var scalarPool = []any{
	"", "a", "Foo", "*", "*.example.com", "example.com", "Example.com", "a..b", "-a", "a/b", "example.com/Foo",
	"example.com/", "/", "/a//b", "/a/./b", "/a/../b", "/a%2fb", "/a%2Fb", "/a#b", "/a/..", "/a/.", "/a%zz", "/a b",
	"http://a.com", "https://*.a.com:8080", "https://a.com:123456", "1.2.3.4", "::1", "::ffff:1.2.3.4", "01.2.3.4",
	"256.1.1.1", "fe80::1%eth0", "10s", "1h", "0s", "1h30m", "2h", "100000h", "abc", "1ms", "500ms", "0.5s",
	"Exact", "PathPrefix", "RegularExpression", "Service", "Gateway", "Secret", "HTTP", "HTTPS", "TLS", "TCP",
	"UDP", "Terminate", "Passthrough", "RequestHeaderModifier", "ResponseHeaderModifier", "RequestRedirect",
	"URLRewrite", "RequestMirror", "ExtensionRef", "CORS", "ExternalAuth", "ReplaceFullPath", "ReplacePrefixMatch",
	"Hostname", "IPAddress", "NamedAddress", "URI", "GET", "GRPC", "ClientAndServer", "Cookie", "Permanent", "Session",
	"System", "foo.svc.cluster.local", "a b", "a\tb", "a  b", " a", "a\nb", "ſervice", "Ka", "_m", ".a.b", "a.b.",
	"gateway.networking.k8s.io", "example.net/gateway-controller", "x-header", "X_Header", "a:b",
	strings.Repeat("a", 63), strings.Repeat("a", 64), strings.Repeat("a", 254), strings.Repeat("é", 200),
	json.Number("0"), json.Number("1"), json.Number("-1"), json.Number("80"), json.Number("65535"),
	json.Number("65536"), json.Number("1000001"), json.Number("2147483648"), json.Number("1.5"),
	json.Number("3.0"), json.Number("1e20"), json.Number("302"), json.Number("303"), json.Number("100"),
	true, false, nil,
	map[string]any{}, []any{}, []any{"*", "GET"}, []any{"a", "a"}, []any{json.Number("500"), json.Number("500")},
	map[string]any{"name": "a"}, []any{map[string]any{"name": "a"}, map[string]any{"name": "a"}},
	map[string]any{"type": "PathPrefix", "value": "/"}, map[string]any{"group": "", "kind": "Service", "name": "s"},
}

// keyedPool holds values, in YAML, aimed at the schema and CEL rules of a
// field, by field name.
var keyedPool = func() map[string][]any {
	src := map[string][]string{
		"value":                   {"/a#b", "/a/../b", "/a/./b", "/a%2fb", "/a%2Fb", "/a/..", "/a/.", "a", "//a", "/a b", "1.2.3.4", "Bad_Host", "'*.a.com'", "'::1'"},
		"hostname":                {"'*.a.com'", "1.2.3.4", "a.cluster.local", "a", "''", "Bad", "a.b.com"},
		"hostnames":               {"['1.2.3.4']", "['a.*.com']", "['*']", "['*.a.com', 'b.com']", "['::1']", "['Upper.com']"},
		"type":                    {"Hostname", "URI", "IPAddress", "Exact", "PathPrefix", "RegularExpression", "CORS", "RequestRedirect", "URLRewrite", "ReplaceFullPath", "ReplacePrefixMatch", "Cookie", "Header", "ExternalHostname", "ExtensionRef", "RequestMirror", "ExternalAuth"},
		"allowOrigins":            {"['*', 'https://a.com']", "['*']"},
		"allowMethods":            {"['*', 'GET']", "['*']"},
		"allowHeaders":            {"['*', 'x-a']"},
		"request":                 {"1s", "0s", "abc", "1h"},
		"backendRequest":          {"2s", "abc", "0s"},
		"interval":                {"0s", "2h", "500ms", "30m", "1h", "abc"},
		"numerator":               {"200", "0"},
		"denominator":             {"10", "1"},
		"percent":                 {"50", "3.0"},
		"fraction":                {"{numerator: 1, denominator: 2}", "{numerator: 3}"},
		"labels":                  {"{'Bad Key': v}", "{'" + strings.Repeat("a", 260) + "/b': v}", "{a: b, c: d, e: f, g: h, i: j, k: l, m: n, o: p, q: r}"},
		"annotations":             {"{'-bad': v}", "{'" + strings.Repeat("a.", 130) + "/b': v}"},
		"sectionName":             {"''", "a", "https"},
		"port":                    {"0", "80", "443", "3.0"},
		"name":                    {"a", "dup", "http", "''", "Bad_Name"},
		"subjectAltNames":         {"[{type: Hostname}]", "[{type: URI}]", "[{type: URI, hostname: a.com}]", "[{type: Hostname, uri: 'spiffe://a'}]", "[{type: Hostname, hostname: ''}]"},
		"wellKnownCACertificates": {"System", "''"},
		"caCertificateRefs":       {"[{group: '', kind: ConfigMap, name: ca}]", "[]"},
		"cookieConfig":            {"{lifetimeType: Permanent}", "{lifetimeType: Session}"},
		"absoluteTimeout":         {"1h", "abc"},
		"method":                  {"{service: a.b}", "{type: Exact}", "{method: 9bad}", "{service: bad-svc}", "{type: RegularExpression}", "{service: ſvc, method: Kelvin}"},
		"mode":                    {"Terminate", "Passthrough", "ClientAndServer", "None", "''"},
		"certificateRefs":         {"[]", "[{name: c}]"},
		"options":                 {"{}", "{a: b}"},
		"tls":                     {"{mode: Terminate}", "{mode: Passthrough}", "{}", "{mode: ''}", "{mode: ClientAndServer}"},
		"filters": {
			"[{type: CORS, cors: {}}, {type: CORS, cors: {}}]",
			"[{type: RequestRedirect, requestRedirect: {}}, {type: URLRewrite, urlRewrite: {}}]",
			"[{type: ResponseHeaderModifier, responseHeaderModifier: {}}, {type: ResponseHeaderModifier, responseHeaderModifier: {}}]",
			"[{type: RequestRedirect, requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /x}}}]",
			"[{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /x}}}]",
			"[{type: ExtensionRef}]", "[{type: RequestMirror, extensionRef: {group: a, kind: B, name: c}}]",
			"[{type: RequestMirror, requestMirror: {backendRef: {name: m}}}]",
			"[{type: RequestMirror, requestMirror: {backendRef: {name: m, port: 80}, percent: 5, fraction: {numerator: 1}}}]",
			"[{type: ExternalAuth, externalAuth: {protocol: HTTP, backendRef: {name: a, port: 1}}}]",
			"[{type: ExternalAuth, externalAuth: {protocol: GRPC, backendRef: {name: a, port: 1}, http: {}}}]",
		},
		"matches":  {"[]", "[{path: {type: Exact, value: /a}}]", "[{path: {type: PathPrefix, value: /a}}, {path: {type: PathPrefix, value: /b}}]", "[{headers: [{name: a, value: b}]}]"},
		"protocol": {"HTTP", "GRPC", "TCP", "UDP", "TLS", "HTTPS"},
		"grpc":     {"{}"},
		"http":     {"{}"},
		"perPort":  {"[{port: 443, tls: {}}, {port: 443, tls: {}}]"},
		"addresses": {
			"[{type: Hostname, value: a.com}, {type: Hostname, value: a.com}]",
			"[{type: IPAddress, value: 1.2.3.4}, {value: 1.2.3.4}]",
			"[{type: Hostname, value: Bad_}]", "[{type: IPAddress, value: a.com}]", "[{type: Hostname}]",
		},
		"targetRefs": {
			"[{group: '', kind: Service, name: a}, {group: '', kind: Service, name: a}]",
			"[{group: '', kind: Service, name: a, sectionName: x}, {group: '', kind: Service, name: a}]",
			"[{group: '', kind: Service, name: a, sectionName: x}, {group: '', kind: Service, name: a, sectionName: x}]",
		},
		"parentRefs": {
			"[{name: g}, {name: g}]", "[{name: g, sectionName: a}, {name: g}]", "[{name: g, port: 80}, {name: g}]",
			"[{name: g, port: 80}, {name: g, port: 80}]", "[{name: g, namespace: ''}, {name: g}]", "[{name: g, port: 3.0}, {name: g}]",
		},
		"rules": {
			"[{name: a}, {name: a}]",
			"[" + strings.Repeat("{matches: [{}, {}, {}, {}, {}, {}, {}, {}, {}]}, ", 15) + "{matches: [{}, {}, {}, {}, {}, {}, {}, {}, {}]}]",
			"[{matches: [{path: {type: PathPrefix, value: /a}}], backendRefs: [{name: s, port: 1, filters: [{type: URLRewrite, urlRewrite: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /x}}}]}]}, {matches: [{path: {type: Exact, value: /a}}], backendRefs: [{name: s, port: 1, filters: [{type: RequestRedirect, requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /x}}}]}]}]",
		},
		"listeners": {
			"[{name: a, port: 80, protocol: HTTP}, {name: b, port: 80, protocol: HTTP}]",
			"[{name: a, port: 443, protocol: HTTPS, tls: {mode: Terminate}}]",
			"[{name: a, port: 443, protocol: TLS}]",
		},
		"externalHostname":     {"{hostname: a.cluster.local}", "{hostname: a.com}"},
		"clientCertificateRef": {"{name: c}"},
		"requestRedirect":      {"{path: {type: ReplaceFullPath}}", "{path: {type: ReplacePrefixMatch, replaceFullPath: /a}}"},
		"urlRewrite":           {"{path: {type: ReplacePrefixMatch}}", "{path: {type: ReplaceFullPath, replacePrefixMatch: /a}}"},
		"service":              {"a.b", "bad-svc", ".a"},
	}
	pool := map[string][]any{}
	for k, ys := range src {
		for _, y := range ys {
			js, err := yaml.YAMLToJSON([]byte(y))
			if err != nil {
				panic(fmt.Sprintf("%s: %q: %v", k, y, err))
			}
			dec := json.NewDecoder(bytes.NewReader(js))
			dec.UseNumber()
			var v any
			if err := dec.Decode(&v); err != nil {
				panic(err)
			}
			pool[k] = append(pool[k], v)
		}
	}
	return pool
}()

// mutate applies one random edit to doc and describes it.
func mutate(r *rand.Rand, doc map[string]any, grafts map[string][]any, names []string) string {
	var ss, keyed []slot
	slots(doc, "", &ss)
	if len(ss) == 0 {
		return "none"
	}
	for _, s := range ss {
		if s.m != nil && keyedPool[s.k] != nil {
			keyed = append(keyed, s)
		}
	}
	if len(keyed) > 0 && r.IntN(2) == 0 {
		s := keyed[r.IntN(len(keyed))]
		v := keyedPool[s.k][r.IntN(len(keyedPool[s.k]))]
		s.set(cases.DeepCopy(v))
		return fmt.Sprintf("%s=%v", s.pth, v)
	}
	s := ss[r.IntN(len(ss))]
	switch op := r.IntN(10); {
	case op < 3:
		v := scalarPool[r.IntN(len(scalarPool))]
		s.set(cases.DeepCopy(v))
		return fmt.Sprintf("%s=%v", s.pth, v)
	case op == 3:
		if s.m != nil {
			delete(s.m, s.k)
			return "delete " + s.pth
		}
		s.set(nil)
		return "null " + s.pth
	case op == 4:
		if l, ok := s.get().([]any); ok && len(l) > 0 {
			s.set(append(l, cases.DeepCopy(l[r.IntN(len(l))])))
			return "duplicate an item of " + s.pth
		}
		s.set(nil)
		return "null " + s.pth
	case op == 5:
		if m, ok := s.get().(map[string]any); ok {
			m["weigth"] = json.Number("1")
			return "unknown field in " + s.pth
		}
		return "none"
	case op < 8:
		// Graft a subtree found under the same field name elsewhere.
		if s.m != nil && len(grafts[s.k]) > 0 {
			g := grafts[s.k][r.IntN(len(grafts[s.k]))]
			s.set(cases.DeepCopy(g))
			return "graft " + s.pth
		}
		return "none"
	default:
		// Add a field known somewhere in the corpus.
		if m, ok := s.get().(map[string]any); ok {
			k := names[r.IntN(len(names))]
			gs := grafts[k]
			m[k] = cases.DeepCopy(gs[r.IntN(len(gs))])
			return fmt.Sprintf("add %s.%s", s.pth, k)
		}
		return "none"
	}
}
