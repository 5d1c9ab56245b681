// Package corpus writes a deterministic, realistic and semantically consistent corpus of
// Kubernetes Gateway API manifests for gwlint's benchmarks and corpus accuracy tests.
//
// Provenance: copied from shared/bench/gen/main.go (the benchmark corpus generator of the
// gwlint issue on performance; module gwbench/gen, standard library only) and turned into a
// package: main() became Generate, flags became Options, os.Exit became errors and internal
// panics are returned as errors. Everything else, and so the output, is unchanged: for the
// same flags Generate writes byte-identical files (TestMatchesOriginal checks this against
// the original when ../shared is present). Keep it that way: benchmark numbers in
// docs/performance.md are for this exact corpus. The CLI wrapper is cmd/gencorpus.
//
// The original documentation follows.
//
// Command gen writes a deterministic, realistic and semantically consistent corpus of
// Kubernetes Gateway API manifests for benchmarking and testing an offline Gateway API
// linter. Output is byte-identical for the same flags and seed. Standard library only.
//
//	go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -size medium -out /tmp/corpus-medium
//	go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -routes 2500 -gateways 10 -services 3000 -namespaces 50 -seed 7 -out DIR
//	go run -tags gwlintdev ./internal/corpus/cmd/gencorpus -size small -semantic-rate 0.1 -invalid-rate 0.05 -out DIR
//
// Layout of OUT:
//
//	infra/gatewayclasses.yaml                 GatewayClasses named by the Gateways
//	infra/<ns>/<gateway>.yaml                 one Gateway (2-5 listeners)
//	infra/<ns>/<gateway>-tls.yaml             its kubernetes.io/tls Secrets (one real self-signed certificate)
//	infra/infra-certs/*.yaml                  shared wildcard certs, their Namespace and the
//	                                          ReferenceGrants (Gateway -> Secret) they need
//	namespaces/<ns>/namespace.yaml            Namespace with labels (selector targets)
//	namespaces/<ns>/<app>/services.yaml       Services of one app
//	namespaces/<ns>/<app>/httproutes.yaml     its HTTPRoutes, or routes/route-N.yaml each
//	namespaces/<ns>/referencegrants.yaml      grants admitting HTTPRoutes -> Services
//
// With both rates 0 the corpus is valid at CRD level and semantically: every parentRef
// attaches (Accepted) to the listener(s) it names, honouring sectionName, port,
// allowedRoutes kinds and namespaces (All / Same / Selector with matchLabels and
// matchExpressions, evaluated against the emitted Namespace objects plus the implicit
// kubernetes.io/metadata.name label; an omitted allowedRoutes means Same) and hostname
// intersection; every backendRef (including RequestMirror) names an existing Service and
// one of its ports; cross-namespace references (backends and certificateRefs) are
// admitted by a ReferenceGrant; listener names and port+protocol+hostname are unique per
// Gateway; rule names are unique per route; no rule has all backend weights 0. Routes
// that share a hostname with other routes (none, api.<domain>, *.<domain>) get a
// route-unique path prefix so no two routes or rules have identical matches. Every route
// is resolved by a small built-in resolver as it is generated (panic on inconsistency).
//
// Variety: 1-3 parentRefs, some to a whole Gateway (no sectionName) or with a port
// (GEP-957); wildcard, exact, multi-label and absent route hostnames; listeners with and
// without hostnames, a GRPCRoute-only listener, explicit and defaulted allowedRoutes;
// several Gateways per namespace; local and shared (cross-namespace) certificates;
// ~30% of rules named (GEP-995); weights incl. 0 for drained backends; header, query
// and method matches; header modifier, rewrite, redirect and mirror filters; broad,
// per-Service and multi-namespace ReferenceGrants; mixed YAML styles and quoting.
//
// Injection (a route gets at most one; -invalid-rate wins if both pick it):
//
//	-invalid-rate F   a fraction of HTTPRoutes get one CRD-level error (schema/CEL),
//	                  listed in OUT/EXPECTED_INVALID.txt
//	-semantic-rate F  a fraction of HTTPRoutes get exactly one semantic error, the document
//	                  otherwise valid: parentRef to a nonexistent Gateway; sectionName no
//	                  listener has; namespace not admitted by the listener (Same/Selector);
//	                  route hostnames not intersecting the listener hostname; backendRef to
//	                  a nonexistent Service; Service port not exposed; cross-namespace
//	                  backendRef without ReferenceGrant; duplicate rule name (GEP-995); all
//	                  backendRef weights 0 in a rule. Listed in OUT/EXPECTED_SEMANTIC.txt.
//
// Both files are sorted, one line per injected document, tab-separated:
//
//	relative/path.yaml  docIndexInFile  Kind/namespace/name  reason  line
//
// docIndexInFile counts the file's YAML documents from 0 (a comment before a leading `---`
// is not a document). line is the 1-based line in the file of the offending field: the
// parentRef's name (nonexistent Gateway) or sectionName (unknown section, namespace not
// admitted); the `hostnames:` key (no intersection); the backendRef's name (no such
// Service), port (port not exposed) or namespace (no grant); the duplicate rule's name
// (its second occurrence); the rule's `backendRefs:` key (all weights 0). For CRD errors:
// the bad port / path value / hostname entry, the repeated filter item, the backendRef
// item lacking a port.
//
// The corpus is generated with the main random stream; injections use separate per-route
// streams derived from the seed (semantic ones are applied once the whole corpus, grants
// included, is built), so the same seed with and without injection differs only in the
// injected documents (and the EXPECTED files).
package corpus

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// ---------- tiny ordered YAML tree + emitter ----------

type KV struct {
	K string
	V any
}
type M []KV // ordered mapping
type L []any

type emitter struct {
	b           strings.Builder
	indentSeqs  bool // "key:\n  - a" (true) vs "key:\n- a" (kubectl style, false)
	quoteAlways bool
	target      []any // path (map keys and list indices) whose line is wanted; nil: none
	stack       []any
	line        int // 1-based line of target within the emitted text; 0: not seen
}

var yamlWords = []string{"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}

func needsQuote(s string) bool {
	if s == "" {
		return true
	}
	if len(s) <= 5 && slices.ContainsFunc(yamlWords, func(w string) bool { return strings.EqualFold(s, w) }) {
		return true
	}
	// ParseFloat only accepts text starting (after a sign) with a digit, '.', inf or nan
	c := s[0]
	if (c == '+' || c == '-') && len(s) > 1 {
		c = s[1]
	}
	if c >= '0' && c <= '9' || c == '.' || strings.ContainsRune("iInN", rune(c)) {
		if _, err := strconv.ParseFloat(s, 64); err == nil {
			return true
		}
	}
	if strings.ContainsAny(s[:1], "*&!|>'\"%@`#,[]{}-?:") {
		return true
	}
	if strings.Contains(s, ": ") || strings.Contains(s, " #") || strings.HasSuffix(s, ":") {
		return true
	}
	return false
}

func (e *emitter) scalar(v any) string {
	switch x := v.(type) {
	case string:
		if e.quoteAlways || needsQuote(x) {
			return strconv.Quote(x)
		}
		return x
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	}
	panic(fmt.Sprintf("bad scalar %T", v))
}

const spaces = "                                                                "

func pad(n int) string {
	if n <= len(spaces) {
		return spaces[:n]
	}
	return strings.Repeat(" ", n)
}

func pathEq(a, b []any) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// enter records the line about to be written when the path reaches the target.
func (e *emitter) enter(k any) {
	if e.target == nil {
		return
	}
	e.stack = append(e.stack, k)
	if e.line == 0 && pathEq(e.stack, e.target) {
		e.line = strings.Count(e.b.String(), "\n") + 1
	}
}

func (e *emitter) leave() {
	if e.target != nil {
		e.stack = e.stack[:len(e.stack)-1]
	}
}

// emitMap writes mapping entries at indentation ind. If first is non-empty, the
// first entry is written after that prefix (used for "- " sequence items).
func (e *emitter) emitMap(m M, ind int, firstPrefix string) {
	for i, kv := range m {
		e.enter(kv.K)
		if i == 0 && firstPrefix != "" {
			e.b.WriteString(firstPrefix)
		} else {
			e.b.WriteString(pad(ind))
		}
		e.b.WriteString(kv.K)
		e.b.WriteString(":")
		e.emitValue(kv.V, ind)
		e.leave()
	}
}

func (e *emitter) emitValue(v any, ind int) {
	switch x := v.(type) {
	case M:
		if len(x) == 0 {
			e.b.WriteString(" {}\n")
			return
		}
		e.b.WriteString("\n")
		e.emitMap(x, ind+2, "")
	case L:
		if len(x) == 0 {
			e.b.WriteString(" []\n")
			return
		}
		e.b.WriteString("\n")
		si := ind
		if e.indentSeqs {
			si = ind + 2
		}
		e.emitSeq(x, si)
	default:
		e.b.WriteString(" ")
		e.b.WriteString(e.scalar(x))
		e.b.WriteString("\n")
	}
}

func (e *emitter) emitSeq(l L, ind int) {
	for i, it := range l {
		e.enter(i)
		switch x := it.(type) {
		case M:
			if len(x) == 0 {
				e.b.WriteString(pad(ind) + "- {}\n")
			} else {
				e.emitMap(x, ind+2, pad(ind)+"- ")
			}
		case L:
			panic("nested list")
		default:
			e.b.WriteString(pad(ind) + "- " + e.scalar(x) + "\n")
		}
		e.leave()
	}
}

// ---------- tree helpers ----------

func get(m M, k string) any {
	for _, kv := range m {
		if kv.K == k {
			return kv.V
		}
	}
	return nil
}

func str(v any, def string) string {
	if s, ok := v.(string); ok {
		return s
	}
	return def
}

// put replaces the value of k, or inserts k before the first present key of before
// (appending if none is present). The result must be stored back.
func put(m M, k string, v any, before ...string) M {
	for i := range m {
		if m[i].K == k {
			m[i].V = v
			return m
		}
	}
	for i := range m {
		if slices.Contains(before, m[i].K) {
			return slices.Insert(m, i, KV{k, v})
		}
	}
	return append(m, KV{k, v})
}

func del(m M, k string) M {
	return slices.DeleteFunc(m, func(kv KV) bool { return kv.K == k })
}

func clone(v any) any {
	switch x := v.(type) {
	case M:
		c := make(M, len(x))
		for i, kv := range x {
			c[i] = KV{kv.K, clone(kv.V)}
		}
		return c
	case L:
		c := make(L, len(x))
		for i, it := range x {
			c[i] = clone(it)
		}
		return c
	}
	return v
}

func path(p ...any) []any { return p }

func extend(p []any, more ...any) []any {
	return append(slices.Clip(p), more...)
}

// ---------- world ----------

var words = []string{"alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
	"kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango", "uniform",
	"victor", "whiskey", "xray", "yankee", "zulu", "payments", "checkout", "catalog", "search", "auth",
	"billing", "cart", "orders", "inventory", "shipping", "reviews", "profile", "media", "notify"}

var pathWords = []string{"api", "v1", "v2", "users", "orders", "items", "search", "static", "assets", "health",
	"login", "logout", "admin", "metrics", "graphql", "webhooks", "reports", "export", "upload", "images"}

var ruleNames = []string{"primary", "canary", "static", "api", "health", "admin", "legacy", "v1", "v2",
	"mobile", "assets", "web", "default", "internal", "webhooks", "graphql"}

var classes = []struct{ name, controller string }{
	{"istio", "istio.io/gateway-controller"},
	{"envoy-gateway", "gateway.envoyproxy.io/gatewayclass-controller"},
	{"cilium", "io.cilium/gateway-controller"},
	{"nginx", "gateway.nginx.org/nginx-gateway-controller"},
}

const (
	gwGroup = "gateway.networking.k8s.io"
	certNS  = "infra-certs"
	saltInv = 0x494e56414c494421 // per-route stream of -invalid-rate
	saltSem = 0x53454d414e544943 // per-route stream of -semantic-rate
	nsLabel = "kubernetes.io/metadata.name"
)

// A real self-signed ECDSA P-256 certificate for example.com and *.example.com (valid
// 2025-2125) with its key, shared by every TLS Secret, so Secrets parse as a controller
// parses them. Its SANs do not cover the listeners' hostnames.
var (
	tlsCrt = "LS0tLS1CRUdJTiBDRVJUSUZJQ0FURS0tLS0tCk1JSUJhakNDQVJHZ0F3SUJBZ0lCQVRBS0JnZ3Foa2pPUFFRREFqQVdNUlF3RWdZRFZRUURFd3RsZUdGdGNHeGwKTG1OdmJUQWdGdzB5TlRBeE1ERXdNREF3TURCYUdBOHlNVEkxTURFd01UQXdNREF3TUZvd0ZqRVVNQklHQTFVRQpBeE1MWlhoaGJYQnNaUzVqYjIwd1dUQVRCZ2NxaGtqT1BRSUJCZ2dxaGtqT1BRTUJCd05DQUFTNHlKN2ZSQ1ZWClUxYkFja1VNSHUwNjJxN3FTdFBPOGhuQlRzK1libDNGQzMyZHo1cllQNnpEa2hOYnc0T0pMWnN1c3grN0hCOTcKN1VwZVdncjh4bW5VbzA0d1REQU9CZ05WSFE4QkFmOEVCQU1DQjRBd0V3WURWUjBsQkF3d0NnWUlLd1lCQlFVSApBd0V3SlFZRFZSMFJCQjR3SElJTFpYaGhiWEJzWlM1amIyMkNEU291WlhoaGJYQnNaUzVqYjIwd0NnWUlLb1pJCnpqMEVBd0lEUndBd1JBSWdmczdwZ2RpcDl0SFI5NUsram9aQXI0RFVvYkoxYTlpVW5ERHhEalRlSlo0Q0lFdzkKZkY1Mnp2dm5oanBMYVU0WWh2RW5NSThwMHVvRXhrWFVSVVhoaTFuKwotLS0tLUVORCBDRVJUSUZJQ0FURS0tLS0tCg=="
	tlsKey = "LS0tLS1CRUdJTiBQUklWQVRFIEtFWS0tLS0tCk1JR0hBZ0VBTUJNR0J5cUdTTTQ5QWdFR0NDcUdTTTQ5QXdFSEJHMHdhd0lCQVFRZ0FMVmpWalB3TFFIdFprdkQKRFNkSzNiT1RaclRLOUNxSmFnNlM3aXYrYTVxaFJBTkNBQVM0eUo3ZlJDVlZVMWJBY2tVTUh1MDYycTdxU3RQTwo4aG5CVHMrWWJsM0ZDMzJkejVyWVA2ekRraE5idzRPSkxac3VzeCs3SEI5NzdVcGVXZ3I4eG1uVQotLS0tLUVORCBQUklWQVRFIEtFWS0tLS0tCg=="
)

type nsInfo struct {
	name   string
	labels M                 // labels as written in the Namespace object
	all    map[string]string // labels incl. the implicit kubernetes.io/metadata.name
	used   bool
}

type listener struct {
	name, proto, host string
	port              int
	from              string // All, Same, Selector
	omitNS            bool   // Same by default: allowedRoutes.namespaces not written
	sel               M      // label selector (from: Selector)
	kinds             L      // allowedRoutes.kinds as written; nil: protocol default
	tls               bool
}

type gateway struct {
	ns, name, domain, class string
	listeners               []*listener
	sharedCert              bool // certificateRefs point to a wildcard Secret in infra-certs
}

type service struct {
	ns, name string
	ports    []int
}

type app struct {
	ns, name string
	services []*service
	nroutes  int
}

type attach struct {
	gw *gateway
	l  *listener
}

type grantRule struct{ fromKind, fromNS, toKind, toName string }

type doc struct {
	obj                     M
	text                    string
	indentSeqs, quoteAlways bool
	kind, ns, name          string
	reason                  string // injected error; "" if none
	semantic                bool
	path                    []any     // offending field
	line                    int       // its line within text
	pend                    *routeRec // semantic injection still to apply
}

type routeRec struct {
	a   *app
	idx int
	r   *rand.Rand
}

type file struct {
	rel          string
	docs         []*doc
	header, lead bool
}

type gen struct {
	r                  *rand.Rand
	seed               uint64
	out                string
	nss                []*nsInfo
	nsByName           map[string]*nsInfo
	gateways           []*gateway
	gwByKey            map[string]*gateway
	admissible         map[string][]attach
	apps               []*app
	svcByKey           map[string]*service
	need               map[string]map[string]map[string]bool // toNS -> fromNS -> Service names
	grants             map[string][]grantRule                // toNS -> what its grants admit
	invRate, semRate   float64
	invalid, semantics []string
	pending            []*file
	routeN             int // HTTPRoutes generated so far (index of the per-route streams)
	semSkipped         int // routes picked by -semantic-rate that no error kind fitted
	files              int
	bytes              int64
	counts             map[string]int
}

func (g *gen) pick(n int) int        { return g.r.IntN(n) }
func (g *gen) chance(p float64) bool { return g.r.Float64() < p }
func (g *gen) between(lo, hi int) int {
	return lo + g.r.IntN(hi-lo+1)
}
func (g *gen) word() string { return words[g.pick(len(words))] }

func (g *gen) newDoc(obj M, kind, ns, name string) *doc {
	return &doc{obj: obj, kind: kind, ns: ns, name: name, indentSeqs: g.chance(0.5), quoteAlways: g.chance(0.1)}
}

func (d *doc) render() {
	if d.text != "" {
		return
	}
	e := &emitter{indentSeqs: d.indentSeqs, quoteAlways: d.quoteAlways, target: d.path}
	e.emitMap(d.obj, 0, "")
	if d.path != nil && e.line == 0 {
		panic(fmt.Sprintf("%s/%s/%s: path %v not emitted", d.kind, d.ns, d.name, d.path))
	}
	d.text, d.line, d.obj = e.b.String(), e.line, nil
}

// addFile draws the file's cosmetics now and writes it unless a document in it still
// awaits its semantic injection (those files are written at the end).
func (g *gen) addFile(rel string, docs []*doc) {
	f := &file{rel: rel, docs: docs, header: g.chance(0.3), lead: g.chance(0.2)}
	for _, d := range docs {
		if d.pend != nil {
			g.pending = append(g.pending, f)
			return
		}
	}
	g.writeFile(f)
}

func (g *gen) writeFile(f *file) {
	p := filepath.Join(g.out, f.rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		panic(err)
	}
	var b strings.Builder
	line := 1 // line the next text starts on
	if f.header {
		b.WriteString("# Managed by platform-team. Do not edit by hand.\n")
		line++
	}
	for i, d := range f.docs {
		if i > 0 || f.lead {
			b.WriteString("---\n")
			line++
		}
		d.render()
		b.WriteString(d.text)
		g.counts[d.kind]++
		if d.reason != "" {
			e := fmt.Sprintf("%s\t%d\t%s/%s/%s\t%s\t%d", filepath.ToSlash(f.rel), i, d.kind, d.ns, d.name, d.reason, line+d.line-1)
			if d.semantic {
				g.semantics = append(g.semantics, e)
			} else {
				g.invalid = append(g.invalid, e)
			}
		}
		line += strings.Count(d.text, "\n")
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		panic(err)
	}
	g.files++
	g.bytes += int64(b.Len())
}

func meta(name, ns string, labels M, annotations M) M {
	m := M{{"name", name}}
	if ns != "" {
		m = append(m, KV{"namespace", ns})
	}
	if len(labels) > 0 {
		m = append(m, KV{"labels", labels})
	}
	if len(annotations) > 0 {
		m = append(m, KV{"annotations", annotations})
	}
	return m
}

func (g *gen) labels(appName, team string) M {
	l := M{{"app.kubernetes.io/name", appName}, {"app.kubernetes.io/part-of", team}}
	if g.chance(0.5) {
		l = append(l, KV{"environment", []string{"prod", "staging", "dev"}[g.pick(3)]})
	}
	return l
}

// ---------- resolution (shared by generation, injection and the self-check) ----------

func selMatches(sel M, labels map[string]string) bool {
	if ml, ok := get(sel, "matchLabels").(M); ok {
		for _, kv := range ml {
			if v, ok := labels[kv.K]; !ok || v != kv.V.(string) {
				return false
			}
		}
	}
	if me, ok := get(sel, "matchExpressions").(L); ok {
		for _, x := range me {
			e := x.(M)
			v, has := labels[get(e, "key").(string)]
			vals, _ := get(e, "values").(L)
			in := slices.Contains(vals, any(v))
			switch get(e, "operator") {
			case "In":
				if !has || !in {
					return false
				}
			case "NotIn":
				if has && in {
					return false
				}
			case "Exists":
				if !has {
					return false
				}
			case "DoesNotExist":
				if has {
					return false
				}
			}
		}
	}
	return true
}

func (l *listener) allowsHTTPRoute() bool {
	if len(l.kinds) == 0 {
		return l.proto == "HTTP" || l.proto == "HTTPS"
	}
	for _, k := range l.kinds {
		m := k.(M)
		if get(m, "kind") == "HTTPRoute" && str(get(m, "group"), gwGroup) == gwGroup {
			return true
		}
	}
	return false
}

func (g *gen) nsAllowed(gw *gateway, l *listener, routeNS string) bool {
	switch l.from {
	case "All":
		return true
	case "Selector":
		labels := map[string]string{nsLabel: routeNS}
		if n := g.nsByName[routeNS]; n != nil {
			labels = n.all
		}
		return selMatches(l.sel, labels)
	}
	return gw.ns == routeNS
}

// hostIntersect reports whether listener hostname lh and route hostname rh intersect.
func hostIntersect(lh, rh string) bool {
	lw, rw := strings.HasPrefix(lh, "*."), strings.HasPrefix(rh, "*.")
	switch {
	case lh == rh:
		return true
	case lw && rw:
		return strings.HasSuffix(lh[1:], rh[1:]) || strings.HasSuffix(rh[1:], lh[1:])
	case lw:
		return strings.HasSuffix(rh, lh[1:])
	case rw:
		return strings.HasSuffix(lh, rh[1:])
	}
	return false
}

func hostsMatch(lh string, hosts []string) bool {
	if lh == "" || len(hosts) == 0 {
		return true
	}
	for _, h := range hosts {
		if hostIntersect(lh, h) {
			return true
		}
	}
	return false
}

type violation struct {
	code string
	path []any
}

func routeHosts(spec M) []string {
	var hs []string
	if l, ok := get(spec, "hostnames").(L); ok {
		for _, h := range l {
			hs = append(hs, h.(string))
		}
	}
	return hs
}

// parentCands returns the Gateway and the listeners a parentRef selects (by sectionName
// and port); gw is nil for a parentRef to an unknown Gateway.
func (g *gen) parentCands(routeNS string, p M) (*gateway, []*listener) {
	gw := g.gwByKey[str(get(p, "namespace"), routeNS)+"/"+str(get(p, "name"), "")]
	if gw == nil {
		return nil, nil
	}
	sec, hasSec := get(p, "sectionName").(string)
	port, hasPort := get(p, "port").(int)
	var ls []*listener
	for _, l := range gw.listeners {
		if (!hasSec || l.name == sec) && (!hasPort || l.port == port) {
			ls = append(ls, l)
		}
	}
	return gw, ls
}

func (g *gen) checkParent(routeNS string, hosts []string, p M, i int) []violation {
	if str(get(p, "group"), gwGroup) != gwGroup || str(get(p, "kind"), "Gateway") != "Gateway" {
		return nil
	}
	base := path("spec", "parentRefs", i)
	gw, cands := g.parentCands(routeNS, p)
	if gw == nil {
		return []violation{{"gateway-not-found", extend(base, "name")}}
	}
	_, hasSec := get(p, "sectionName").(string)
	if len(cands) == 0 {
		if hasSec {
			return []violation{{"section-not-found", extend(base, "sectionName")}}
		}
		return []violation{{"section-not-found", extend(base, "port")}}
	}
	lpath := extend(base, "name")
	if hasSec {
		lpath = extend(base, "sectionName")
	}
	hpath := path("spec", "hostnames")
	if len(cands) == 1 { // report every failing condition
		l := cands[0]
		var vs []violation
		if !l.allowsHTTPRoute() {
			vs = append(vs, violation{"kind-not-allowed", lpath})
		}
		if !g.nsAllowed(gw, l, routeNS) {
			vs = append(vs, violation{"namespace-not-allowed", lpath})
		}
		if !hostsMatch(l.host, hosts) {
			vs = append(vs, violation{"hostname-mismatch", hpath})
		}
		return vs
	}
	anyKind, anyNS := false, false
	for _, l := range cands {
		k, n := l.allowsHTTPRoute(), g.nsAllowed(gw, l, routeNS)
		if k && n && hostsMatch(l.host, hosts) {
			return nil
		}
		anyKind = anyKind || k
		anyNS = anyNS || (k && n)
	}
	switch {
	case !anyKind:
		return []violation{{"kind-not-allowed", lpath}}
	case !anyNS:
		return []violation{{"namespace-not-allowed", lpath}}
	}
	return []violation{{"hostname-mismatch", hpath}}
}

func (g *gen) permits(fromKind, fromNS, toNS, toKind, toName string) bool {
	for _, gr := range g.grants[toNS] {
		if gr.fromKind == fromKind && gr.fromNS == fromNS && gr.toKind == toKind && (gr.toName == "" || gr.toName == toName) {
			return true
		}
	}
	return false
}

func (g *gen) checkBackend(routeNS string, b M, p []any, grants bool) []violation {
	if str(get(b, "group"), "") != "" || str(get(b, "kind"), "Service") != "Service" {
		return nil
	}
	ns, name := str(get(b, "namespace"), routeNS), str(get(b, "name"), "")
	var vs []violation
	if ns != routeNS && grants && !g.permits("HTTPRoute", routeNS, ns, "Service", name) {
		vs = append(vs, violation{"ref-not-permitted", extend(p, "namespace")})
	}
	svc := g.svcByKey[ns+"/"+name]
	if svc == nil {
		return append(vs, violation{"backend-not-found", extend(p, "name")})
	}
	if port, ok := get(b, "port").(int); ok && !slices.Contains(svc.ports, port) {
		vs = append(vs, violation{"backend-port", extend(p, "port")})
	}
	return vs
}

// checkRoute resolves an HTTPRoute object against the world. With grants false the
// ReferenceGrant check is skipped (grants are derived from the routes afterwards).
func (g *gen) checkRoute(ns string, obj M, grants bool) []violation {
	spec := get(obj, "spec").(M)
	hosts := routeHosts(spec)
	var vs []violation
	prs, _ := get(spec, "parentRefs").(L)
	// the two CEL rules on parentRefs: several refs to one parent all carry a
	// sectionName, and (parent, sectionName) is unique
	type pkey struct{ group, kind, ns, name string }
	refs, sectionless := map[pkey]int{}, map[pkey]int{}
	seen := map[[2]any]bool{}
	for i, x := range prs {
		p := x.(M)
		k := pkey{str(get(p, "group"), gwGroup), str(get(p, "kind"), "Gateway"), str(get(p, "namespace"), ""), str(get(p, "name"), "")}
		refs[k]++
		if get(p, "sectionName") == nil {
			sectionless[k]++
		}
		if sk := [2]any{k, get(p, "sectionName")}; seen[sk] {
			vs = append(vs, violation{"cel-parentref", path("spec", "parentRefs", i)})
		} else {
			seen[sk] = true
		}
		vs = append(vs, g.checkParent(ns, hosts, p, i)...)
	}
	for k, n := range sectionless {
		if n > 0 && refs[k] > 1 {
			vs = append(vs, violation{"cel-parentref", path("spec", "parentRefs")})
		}
	}
	names := map[string]bool{}
	rules, _ := get(spec, "rules").(L)
	for k, x := range rules {
		rule := x.(M)
		rp := path("spec", "rules", k)
		if n, ok := get(rule, "name").(string); ok {
			if names[n] {
				vs = append(vs, violation{"duplicate-rule-name", extend(rp, "name")})
			}
			names[n] = true
		}
		brs, _ := get(rule, "backendRefs").(L)
		sum := 0
		for j, y := range brs {
			b := y.(M)
			vs = append(vs, g.checkBackend(ns, b, extend(rp, "backendRefs", j), grants)...)
			if w, ok := get(b, "weight").(int); ok {
				sum += w
			} else {
				sum++
			}
		}
		if len(brs) > 0 && sum == 0 {
			vs = append(vs, violation{"all-weights-zero", extend(rp, "backendRefs")})
		}
		fs, _ := get(rule, "filters").(L)
		for j, y := range fs {
			if rm, ok := get(y.(M), "requestMirror").(M); ok {
				if b, ok := get(rm, "backendRef").(M); ok {
					vs = append(vs, g.checkBackend(ns, b, extend(rp, "filters", j, "requestMirror", "backendRef"), grants)...)
				}
			}
		}
	}
	return vs
}

// ---------- generation ----------

func (g *gen) makeNamespaces(n int) {
	for i := 0; i < n; i++ {
		name := fmt.Sprintf("team-%s-%02d", words[i%len(words)], i)
		ns := &nsInfo{name: name, all: map[string]string{nsLabel: name}}
		if g.chance(0.3) {
			ns.labels = append(ns.labels, KV{nsLabel, name})
		}
		ns.labels = append(ns.labels, KV{"team", words[i%len(words)]})
		if g.chance(0.85) {
			env := "prod"
			if p := g.pick(10); p >= 8 {
				env = "dev"
			} else if p >= 5 {
				env = "staging"
			}
			ns.labels = append(ns.labels, KV{"environment", env})
		}
		if g.chance(0.65) {
			ns.labels = append(ns.labels, KV{"gateway-access", "true"})
		}
		for _, kv := range ns.labels {
			ns.all[kv.K] = kv.V.(string)
		}
		g.nss = append(g.nss, ns)
		g.nsByName[name] = ns
	}
}

func (g *gen) selector(gw *gateway) M {
	switch g.pick(8) {
	case 0, 1, 2:
		return M{{"matchLabels", M{{"gateway-access", "true"}}}}
	case 3:
		return M{{"matchLabels", M{{"environment", "prod"}}}}
	case 4:
		return M{{"matchExpressions", L{M{{"key", "environment"}, {"operator", "In"}, {"values", L{"prod", "staging"}}}}}}
	case 5:
		return M{{"matchExpressions", L{M{{"key", "gateway-access"}, {"operator", "Exists"}}}}}
	case 6:
		vals := L{gw.ns}
		for n := g.between(1, 3); n > 0; n-- {
			if v := g.nss[g.pick(len(g.nss))].name; !slices.Contains(vals, any(v)) {
				vals = append(vals, v)
			}
		}
		return M{{"matchExpressions", L{M{{"key", nsLabel}, {"operator", "In"}, {"values", vals}}}}}
	}
	return M{
		{"matchLabels", M{{"gateway-access", "true"}}},
		{"matchExpressions", L{M{{"key", "environment"}, {"operator", "NotIn"}, {"values", L{"dev"}}}}},
	}
}

func (g *gen) makeGateway(i int) *gateway {
	ns := g.nss[((i/2)*7)%len(g.nss)]
	gw := &gateway{ns: ns.name, name: fmt.Sprintf("gw-%s-%d", g.word(), i)}
	gw.domain = fmt.Sprintf("%s%d.example.com", g.word(), i)
	gw.class = classes[g.pick(len(classes))].name
	cands := []listener{
		{name: "http", proto: "HTTP", host: "*." + gw.domain, port: 80},
		{name: "https", proto: "HTTPS", host: "*." + gw.domain, port: 443, tls: true},
		{name: "https-api", proto: "HTTPS", host: "api." + gw.domain, port: 443, tls: true},
		{name: "http-internal", proto: "HTTP", port: 8080},
		{name: "grpc", proto: "HTTPS", host: "grpc." + gw.domain, port: 443, tls: true, kinds: L{M{{"kind", "GRPCRoute"}}}},
	}
	nl := g.between(2, 5)
	for j := 0; j < nl; j++ {
		l := cands[j]
		switch p := g.pick(10); {
		case p < 3:
			l.from = "All"
		case p < 6:
			l.from, l.omitNS = "Same", g.chance(0.35)
		default:
			l.from, l.sel = "Selector", g.selector(gw)
		}
		if l.kinds == nil && g.chance(0.4) {
			switch g.pick(4) {
			case 0:
				l.kinds = L{M{{"group", gwGroup}, {"kind", "HTTPRoute"}}}
			case 1:
				if l.proto == "HTTPS" {
					l.kinds = L{M{{"kind", "HTTPRoute"}}, M{{"kind", "GRPCRoute"}}}
					break
				}
				fallthrough
			default:
				l.kinds = L{M{{"kind", "HTTPRoute"}}}
			}
		}
		gw.listeners = append(gw.listeners, &l)
	}
	gw.sharedCert = g.chance(0.3)
	return gw
}

func (g *gen) certName(gw *gateway, l *listener) string {
	if gw.sharedCert {
		return "wildcard-" + strings.ReplaceAll(gw.domain, ".", "-")
	}
	return gw.name + "-" + l.name + "-cert"
}

func (g *gen) gatewayDoc(gw *gateway) *doc {
	var listeners L
	for _, c := range gw.listeners {
		l := M{{"name", c.name}}
		if c.host != "" {
			l = append(l, KV{"hostname", c.host})
		}
		l = append(l, KV{"port", c.port}, KV{"protocol", c.proto})
		if c.tls {
			ref := M{}
			if g.chance(0.6) {
				ref = append(ref, KV{"kind", "Secret"}, KV{"group", ""})
			}
			ref = append(ref, KV{"name", g.certName(gw, c)})
			if gw.sharedCert {
				ref = append(ref, KV{"namespace", certNS})
			}
			tls := M{}
			if g.chance(0.7) {
				tls = append(tls, KV{"mode", "Terminate"})
			}
			l = append(l, KV{"tls", append(tls, KV{"certificateRefs", L{ref}})})
		}
		ar := M{}
		if !c.omitNS {
			nsm := M{{"from", c.from}}
			if c.sel != nil {
				nsm = append(nsm, KV{"selector", c.sel})
			}
			ar = append(ar, KV{"namespaces", nsm})
		}
		if c.kinds != nil {
			ar = append(ar, KV{"kinds", c.kinds})
		}
		if len(ar) > 0 {
			l = append(l, KV{"allowedRoutes", ar})
		}
		listeners = append(listeners, l)
	}
	spec := M{{"gatewayClassName", gw.class}, {"listeners", listeners}}
	if g.chance(0.2) {
		spec = append(spec, KV{"addresses", L{M{{"type", "IPAddress"}, {"value", fmt.Sprintf("10.%d.%d.%d", g.pick(256), g.pick(256), 1+g.pick(254))}}}})
	}
	obj := M{
		{"apiVersion", "gateway.networking.k8s.io/v1"},
		{"kind", "Gateway"},
		{"metadata", meta(gw.name, gw.ns, M{{"team", "platform"}}, nil)},
		{"spec", spec},
	}
	return g.newDoc(obj, "Gateway", gw.ns, gw.name)
}

func (g *gen) secretDoc(name, ns string) *doc {
	obj := M{
		{"apiVersion", "v1"},
		{"kind", "Secret"},
		{"metadata", meta(name, ns, M{{"team", "platform"}}, nil)},
		{"type", "kubernetes.io/tls"},
		{"data", M{{"tls.crt", tlsCrt}, {"tls.key", tlsKey}}},
	}
	return g.newDoc(obj, "Secret", ns, name)
}

func (g *gen) namespaceDoc(name string, labels M) *doc {
	obj := M{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", meta(name, "", labels, nil)}}
	return g.newDoc(obj, "Namespace", "", name)
}

func (g *gen) makeService(s *service, team string) *doc {
	var ports L
	pnames := []string{"http", "https", "grpc", "metrics"}
	for i, p := range s.ports {
		ports = append(ports, M{{"name", pnames[i]}, {"port", p}, {"protocol", "TCP"}, {"targetPort", p + 8000}})
	}
	obj := M{
		{"apiVersion", "v1"},
		{"kind", "Service"},
		{"metadata", meta(s.name, s.ns, M{{"app.kubernetes.io/name", s.name}, {"app.kubernetes.io/part-of", team}}, nil)},
		{"spec", M{{"type", "ClusterIP"}, {"selector", M{{"app.kubernetes.io/name", s.name}}}, {"ports", ports}}},
	}
	return g.newDoc(obj, "Service", s.ns, s.name)
}

func (g *gen) randPath() string {
	n := g.between(1, 3)
	parts := make([]string, n)
	for i := range parts {
		parts[i] = pathWords[g.pick(len(pathWords))]
	}
	return "/" + strings.Join(parts, "/")
}

// uniquePath returns a path (under prefix) not yet used for this match type in the route.
func (g *gen) uniquePath(typ, prefix, suffix string, used map[string]bool) string {
	var v string
	for try := 0; ; try++ {
		v = prefix + g.randPath()
		if try >= 8 {
			v += "/r" + strconv.Itoa(len(used))
		}
		if !used[typ+" "+v+suffix] {
			break
		}
	}
	used[typ+" "+v+suffix] = true
	return v + suffix
}

func (g *gen) backendRef(a *app, weighted bool) M {
	svc := a.services[g.pick(len(a.services))]
	if len(g.apps) > 1 && g.chance(0.05) {
		// cross-namespace backend, needs a ReferenceGrant in the target namespace
		other := g.apps[g.pick(len(g.apps))]
		if other.ns != a.ns {
			svc = other.services[g.pick(len(other.services))]
		}
	}
	b := M{}
	if g.chance(0.3) {
		b = append(b, KV{"group", ""}, KV{"kind", "Service"})
	}
	b = append(b, KV{"name", svc.name})
	if svc.ns != a.ns {
		b = append(b, KV{"namespace", svc.ns})
	}
	b = append(b, KV{"port", svc.ports[g.pick(len(svc.ports))]})
	if weighted {
		w := []int{1, 5, 10, 20, 50, 90, 100}[g.pick(7)]
		if g.chance(0.08) {
			w = 0 // drained backend
		}
		b = append(b, KV{"weight", w})
	}
	return b
}

func (g *gen) noteGrant(routeNS string, b M) {
	if ns, ok := get(b, "namespace").(string); ok && ns != routeNS {
		if g.need[ns] == nil {
			g.need[ns] = map[string]map[string]bool{}
		}
		if g.need[ns][routeNS] == nil {
			g.need[ns][routeNS] = map[string]bool{}
		}
		g.need[ns][routeNS][get(b, "name").(string)] = true
	}
}

func (g *gen) headerMods() M {
	m := M{}
	if g.chance(0.6) {
		m = append(m, KV{"set", L{M{{"name", "X-Env"}, {"value", []string{"prod", "staging"}[g.pick(2)]}}}})
	}
	if g.chance(0.5) {
		m = append(m, KV{"add", L{M{{"name", "X-Request-Source"}, {"value", "gateway"}}, M{{"name", "X-Route-Version"}, {"value", strconv.Itoa(g.between(1, 9))}}}})
	}
	if len(m) == 0 || g.chance(0.3) {
		m = append(m, KV{"remove", L{"X-Internal-Debug"}})
	}
	return m
}

func (g *gen) makeRoute(a *app, idx int) *doc {
	name := fmt.Sprintf("%s-route-%d", a.name, idx)
	base := fmt.Sprintf("%s-%d", a.name, idx)
	adm := g.admissible[a.ns]
	var chosen []attach
	for np := g.between(1, 3); np > 0; np-- {
		c := adm[g.pick(len(adm))]
		if !slices.Contains(chosen, c) {
			chosen = append(chosen, c)
		}
	}
	var parents L
	for _, c := range chosen {
		p := M{}
		if g.chance(0.2) {
			p = append(p, KV{"group", gwGroup}, KV{"kind", "Gateway"})
		}
		p = append(p, KV{"name", c.gw.name})
		if c.gw.ns != a.ns {
			p = append(p, KV{"namespace", c.gw.ns})
		}
		sameGW := 0
		for _, o := range chosen {
			if o.gw == c.gw {
				sameGW++
			}
		}
		if sameGW == 1 && g.chance(0.08) {
			// whole Gateway (or all its listeners on one port, GEP-957)
			if g.chance(0.3) {
				p = append(p, KV{"port", c.l.port})
			}
		} else {
			p = append(p, KV{"sectionName", c.l.name})
			if g.chance(0.05) {
				p = append(p, KV{"port", c.l.port})
			}
		}
		parents = append(parents, p)
	}
	spec := M{{"parentRefs", parents}}

	// hostnames: at least one intersecting each chosen listener's hostname
	shared := true // some hostname (or the lack of any) is shared with other routes
	if g.chance(0.8) {
		shared = false
		var hs L
		add := func(h string) {
			if !slices.Contains(hs, any(h)) {
				hs = append(hs, h)
			}
		}
		for _, c := range chosen {
			h := c.l.host
			switch {
			case h == "":
			case strings.HasPrefix(h, "*."):
				d := h[2:]
				switch g.pick(10) {
				case 0:
					add("*." + base + "." + d)
				case 1:
					add(g.word() + "." + base + "." + d)
				default:
					add(base + "." + d)
				}
				if g.chance(0.2) {
					add(base + "-canary." + d)
				}
			default:
				if g.chance(0.8) {
					add(h)
				} else {
					add("*" + h[strings.IndexByte(h, '.'):])
				}
				shared = true
			}
		}
		if len(hs) == 0 {
			add(base + ".internal.example.com")
		}
		spec = append(spec, KV{"hostnames", hs})
	}
	prefix := ""
	if shared {
		prefix = "/" + base
	}

	var rules L
	usedNames := map[string]bool{}
	usedPaths := map[string]bool{}
	catchAll := false
	nr := g.between(1, 5)
	for r := 0; r < nr; r++ {
		rule := M{}
		if g.chance(0.3) {
			n := ruleNames[g.pick(len(ruleNames))]
			if usedNames[n] {
				n += "-" + strconv.Itoa(r)
			}
			usedNames[n] = true
			rule = append(rule, KV{"name", n})
		}
		nm := g.pick(4) // 0-3 matches; 0 = catch-all, at most one per route
		if nm == 0 && (shared || catchAll) {
			nm = g.between(1, 3)
		}
		catchAll = catchAll || nm == 0
		var matches L
		var prefixMatches int
		for m := 0; m < nm; m++ {
			match := M{}
			switch g.pick(10) {
			case 0:
				match = append(match, KV{"path", M{{"type", "Exact"}, {"value", g.uniquePath("Exact", prefix, "", usedPaths)}}})
			case 1:
				match = append(match, KV{"path", M{{"type", "RegularExpression"}, {"value", g.uniquePath("RegularExpression", prefix, "/[0-9]+", usedPaths)}}})
			default:
				match = append(match, KV{"path", M{{"type", "PathPrefix"}, {"value", g.uniquePath("PathPrefix", prefix, "", usedPaths)}}})
				prefixMatches++
			}
			if g.chance(0.3) {
				hdrs := L{M{{"name", "X-Canary"}, {"value", "true"}}}
				if g.chance(0.3) {
					hdrs = append(hdrs, M{{"type", "RegularExpression"}, {"name", "User-Agent"}, {"value", ".*Mobile.*"}})
				}
				match = append(match, KV{"headers", hdrs})
			}
			if g.chance(0.1) {
				match = append(match, KV{"queryParams", L{M{{"name", "version"}, {"value", "v" + strconv.Itoa(g.between(1, 3))}}}})
			}
			if g.chance(0.15) {
				match = append(match, KV{"method", []string{"GET", "POST", "PUT", "DELETE"}[g.pick(4)]})
			}
			matches = append(matches, match)
		}
		if len(matches) > 0 {
			rule = append(rule, KV{"matches", matches})
		}
		redirectOnly := g.chance(0.05)
		var filters L
		if redirectOnly {
			filters = append(filters, M{{"type", "RequestRedirect"}, {"requestRedirect", M{{"scheme", "https"}, {"statusCode", 301}}}})
		} else {
			if g.chance(0.3) {
				filters = append(filters, M{{"type", "RequestHeaderModifier"}, {"requestHeaderModifier", g.headerMods()}})
			}
			if g.chance(0.15) {
				filters = append(filters, M{{"type", "ResponseHeaderModifier"}, {"responseHeaderModifier", g.headerMods()}})
			}
			if g.chance(0.1) {
				if nm == 1 && prefixMatches == 1 {
					filters = append(filters, M{{"type", "URLRewrite"}, {"urlRewrite", M{{"path", M{{"type", "ReplacePrefixMatch"}, {"replacePrefixMatch", "/"}}}}}})
				} else {
					filters = append(filters, M{{"type", "URLRewrite"}, {"urlRewrite", M{{"hostname", "internal." + a.ns + ".svc"}}}})
				}
			}
			if g.chance(0.05) {
				mb := g.backendRef(a, false)
				g.noteGrant(a.ns, mb)
				filters = append(filters, M{{"type", "RequestMirror"}, {"requestMirror", M{{"backendRef", mb}}}})
			}
		}
		if len(filters) > 0 {
			rule = append(rule, KV{"filters", filters})
		}
		if !redirectOnly {
			nb := g.between(1, 4)
			var brs L
			seen := map[string]bool{}
			sum := 0
			for b := 0; b < nb; b++ {
				br := g.backendRef(a, nb > 1)
				key := str(get(br, "namespace"), a.ns) + "/" + get(br, "name").(string) + ":" + strconv.Itoa(get(br, "port").(int))
				if seen[key] {
					continue // no duplicate backend in one rule
				}
				seen[key] = true
				if w, ok := get(br, "weight").(int); ok {
					sum += w
				} else {
					sum++
				}
				brs = append(brs, br)
			}
			if sum == 0 {
				brs[0] = put(brs[0].(M), "weight", 1)
			}
			for _, br := range brs {
				g.noteGrant(a.ns, br.(M))
			}
			rule = append(rule, KV{"backendRefs", brs})
			if g.chance(0.1) {
				rule = append(rule, KV{"timeouts", M{{"request", strconv.Itoa(g.between(5, 60)) + "s"}}})
			}
		}
		rules = append(rules, rule)
	}
	spec = append(spec, KV{"rules", rules})

	var ann M
	if g.chance(0.3) {
		ann = M{{"owner", a.name + "@example.com"}, {"description", "Routes for " + a.name + " (" + a.ns + ")"}}
	}
	obj := M{
		{"apiVersion", "gateway.networking.k8s.io/v1"},
		{"kind", "HTTPRoute"},
		{"metadata", meta(name, a.ns, g.labels(a.name, a.ns), ann)},
		{"spec", spec},
	}
	if vs := g.checkRoute(a.ns, obj, false); len(vs) > 0 {
		panic(fmt.Sprintf("generated route %s/%s is not valid: %v", a.ns, name, vs))
	}
	d := g.newDoc(obj, "HTTPRoute", a.ns, name)

	// injection decisions: per-route streams, independent of the main one
	k := uint64(g.routeN)
	g.routeN++
	if g.invRate > 0 {
		r := rand.New(rand.NewPCG(g.seed^saltInv, k))
		if r.Float64() < g.invRate {
			d.reason, d.path = injectInvalid(r, obj)
		}
	}
	if g.semRate > 0 && d.reason == "" {
		r := rand.New(rand.NewPCG(g.seed^saltSem, k))
		if r.Float64() < g.semRate {
			d.pend = &routeRec{a: a, idx: idx, r: r}
		}
	}
	return d
}

// injectInvalid mutates obj with one error the CRD schema/CEL rejects.
func injectInvalid(r *rand.Rand, obj M) (string, []any) {
	spec := get(obj, "spec").(M)
	rules := get(spec, "rules").(L)
	rule := rules[0].(M)
	r0 := path("spec", "rules", 0)
	switch r.IntN(5) {
	case 0:
		if brs, ok := get(rule, "backendRefs").(L); ok {
			put(brs[0].(M), "port", 70000)
			return "backendRef port > 65535", extend(r0, "backendRefs", 0, "port")
		}
		fallthrough
	case 1:
		rules[0] = put(rule, "matches", L{M{{"path", M{{"type", "PathPrefix"}, {"value", "/bad[]path"}}}}}, "filters", "backendRefs", "timeouts")
		return "path contains invalid characters (CEL)", extend(r0, "matches", 0, "path", "value")
	case 2:
		f := M{{"type", "RequestHeaderModifier"}, {"requestHeaderModifier", M{{"remove", L{"X-A"}}}}}
		fs, _ := get(rule, "filters").(L)
		var nfs L
		for _, x := range fs {
			if get(x.(M), "type") != "RequestHeaderModifier" {
				nfs = append(nfs, x)
			}
		}
		nfs = append(nfs, f, clone(f))
		rules[0] = put(rule, "filters", nfs, "backendRefs", "timeouts")
		return "duplicate RequestHeaderModifier filter (CEL)", extend(r0, "filters", len(nfs)-1)
	case 3:
		if brs, ok := get(rule, "backendRefs").(L); ok {
			brs[0] = del(brs[0].(M), "port")
			return "Service backendRef without port (CEL, needs defaulting of kind)", extend(r0, "backendRefs", 0)
		}
		fallthrough
	default:
		for i := range obj {
			if obj[i].K == "spec" {
				obj[i].V = put(spec, "hostnames", L{"Invalid_Host.example.com"}, "rules")
			}
		}
		return "hostname pattern", path("spec", "hostnames", 0)
	}
}

// ---------- semantic injection ----------

// injectSemantic gives the pending route exactly one semantic error, verified with
// checkRoute; it leaves the route unchanged when no kind of error fits.
func (g *gen) injectSemantic(d *doc) {
	rec := d.pend
	d.pend = nil
	kinds := []func(*routeRec, M) (code, reason string, p []any){
		g.semGatewayNotFound, g.semSectionNotFound, g.semNamespaceNotAllowed, g.semHostnameMismatch,
		g.semBackendNotFound, g.semBackendPort, g.semRefNotPermitted, g.semDuplicateRuleName, g.semWeightsZero,
	}
	for _, t := range rec.r.Perm(len(kinds)) {
		for try := 0; try < 3; try++ {
			c := clone(d.obj).(M)
			code, reason, p := kinds[t](rec, c)
			if code == "" {
				break
			}
			vs := g.checkRoute(d.ns, c, true)
			if len(vs) == 1 && vs[0].code == code && pathEq(vs[0].path, p) {
				d.obj, d.reason, d.path, d.semantic = c, reason, p, true
				return
			}
		}
	}
	g.semSkipped++
}

func specOf(obj M) M { return get(obj, "spec").(M) }

func setSpec(obj M, spec M) {
	for i := range obj {
		if obj[i].K == "spec" {
			obj[i].V = spec
		}
	}
}

func (g *gen) semGatewayNotFound(rec *routeRec, obj M) (string, string, []any) {
	prs := get(specOf(obj), "parentRefs").(L)
	i := rec.r.IntN(len(prs))
	p := prs[i].(M)
	ns := str(get(p, "namespace"), rec.a.ns)
	old := get(p, "name").(string)
	names := []string{old + "-old", old + "-v2", "gw-shared", "gw-" + words[rec.r.IntN(len(words))] + "-legacy"}
	for _, off := range rec.r.Perm(len(names)) {
		if n := names[off]; g.gwByKey[ns+"/"+n] == nil {
			prs[i] = put(p, "name", n)
			return "gateway-not-found", fmt.Sprintf("parentRef to nonexistent Gateway %s/%s", ns, n), path("spec", "parentRefs", i, "name")
		}
	}
	return "", "", nil
}

func (g *gen) semSectionNotFound(rec *routeRec, obj M) (string, string, []any) {
	prs := get(specOf(obj), "parentRefs").(L)
	i := rec.r.IntN(len(prs))
	p := prs[i].(M)
	gw, _ := g.parentCands(rec.a.ns, p)
	if gw == nil {
		return "", "", nil
	}
	bogus := []string{"https-public", "http-legacy", "web", "https-internal", "grpc-web", "admin"}
	for _, off := range rec.r.Perm(len(bogus)) {
		s := bogus[off]
		if slices.ContainsFunc(gw.listeners, func(l *listener) bool { return l.name == s }) {
			continue
		}
		prs[i] = put(p, "sectionName", s, "port")
		return "section-not-found", fmt.Sprintf("NoMatchingParent: Gateway %s/%s has no listener named %q", gw.ns, gw.name, s), path("spec", "parentRefs", i, "sectionName")
	}
	return "", "", nil
}

func (g *gen) semNamespaceNotAllowed(rec *routeRec, obj M) (string, string, []any) {
	ns := rec.a.ns
	prs := get(specOf(obj), "parentRefs").(L)
	hosts := routeHosts(specOf(obj))
	i := rec.r.IntN(len(prs))
	p := prs[i].(M)
	cur, _ := g.parentCands(ns, p)
	// listeners of the same Gateway first, then of the others in random order
	order := []*gateway{}
	if cur != nil {
		order = append(order, cur)
	}
	for _, j := range rec.r.Perm(len(g.gateways)) {
		if g.gateways[j] != cur {
			order = append(order, g.gateways[j])
		}
	}
	for _, gw := range order {
		// another parentRef to gw without sectionName would make the new one break CEL
		blocked := false
		for j, x := range prs {
			q, _ := g.parentCands(ns, x.(M))
			blocked = blocked || (j != i && q == gw && get(x.(M), "sectionName") == nil)
		}
		if blocked {
			continue
		}
		for _, l := range gw.listeners {
			if !l.allowsHTTPRoute() || g.nsAllowed(gw, l, ns) || !hostsMatch(l.host, hosts) {
				continue
			}
			taken := false
			for j, x := range prs {
				q, _ := g.parentCands(ns, x.(M))
				taken = taken || (j != i && q == gw && get(x.(M), "sectionName") == l.name)
			}
			if taken {
				continue
			}
			np := M{}
			for _, kv := range p {
				if kv.K == "group" || kv.K == "kind" {
					np = append(np, kv)
				}
			}
			np = append(np, KV{"name", gw.name})
			if gw.ns != ns {
				np = append(np, KV{"namespace", gw.ns})
			}
			np = append(np, KV{"sectionName", l.name})
			prs[i] = np
			from := l.from
			if l.omitNS {
				from = "Same (default)"
			}
			return "namespace-not-allowed", fmt.Sprintf("NotAllowedByListeners: listener %s/%s/%s (from: %s) does not admit routes from namespace %s", gw.ns, gw.name, l.name, from, ns), path("spec", "parentRefs", i, "sectionName")
		}
	}
	return "", "", nil
}

// acceptingListeners: the listeners of parentRef p that admit the route by kind and
// namespace (hostnames aside).
func (g *gen) acceptingListeners(ns string, p M) []*listener {
	gw, ls := g.parentCands(ns, p)
	var out []*listener
	for _, l := range ls {
		if l.allowsHTTPRoute() && g.nsAllowed(gw, l, ns) {
			out = append(out, l)
		}
	}
	return out
}

func (g *gen) semHostnameMismatch(rec *routeRec, obj M) (string, string, []any) {
	ns := rec.a.ns
	spec := specOf(obj)
	prs := get(spec, "parentRefs").(L)
	base := fmt.Sprintf("%s-%d", rec.a.name, rec.idx)
	for _, i := range rec.r.Perm(len(prs)) {
		lp := g.acceptingListeners(ns, prs[i].(M))
		if len(lp) == 0 || slices.ContainsFunc(lp, func(l *listener) bool { return l.host == "" }) {
			continue
		}
		hitsP := func(h string) bool {
			return slices.ContainsFunc(lp, func(l *listener) bool { return hostIntersect(l.host, h) })
		}
		var hs L
		ok := true
		for j, x := range prs {
			if j == i {
				continue
			}
			lq := g.acceptingListeners(ns, x.(M))
			if slices.ContainsFunc(lq, func(l *listener) bool { return l.host == "" }) {
				continue
			}
			found := false
			for _, l := range lq {
				h := l.host
				if strings.HasPrefix(h, "*.") {
					h = base + h[1:]
				}
				if !hitsP(h) {
					if !slices.Contains(hs, any(h)) {
						hs = append(hs, h)
					}
					found = true
					break
				}
			}
			if !found {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		gw, _ := g.parentCands(ns, prs[i].(M))
		hs = append(hs, base+"."+strings.TrimSuffix(gw.domain, ".com")+".org") // wrong TLD
		setSpec(obj, put(spec, "hostnames", hs, "rules"))
		what := fmt.Sprintf("any listener of Gateway %s/%s", gw.ns, gw.name)
		if _, has := get(prs[i].(M), "sectionName").(string); has && len(lp) == 1 {
			what = fmt.Sprintf("listener %s/%s/%s hostname %s", gw.ns, gw.name, lp[0].name, lp[0].host)
		}
		return "hostname-mismatch", "NoMatchingListenerHostname: no route hostname intersects " + what, path("spec", "hostnames")
	}
	return "", "", nil
}

// pickBackend chooses a rules[k].backendRefs[j] entry; with localOnly one in the route's
// own namespace (changing a cross-namespace one could leave its ReferenceGrant unused).
func pickBackend(r *rand.Rand, spec M, localOnly bool) (L, int, int) {
	rules := get(spec, "rules").(L)
	type kj struct{ k, j int }
	var all []kj
	for k, x := range rules {
		brs, _ := get(x.(M), "backendRefs").(L)
		for j, b := range brs {
			if !localOnly || get(b.(M), "namespace") == nil {
				all = append(all, kj{k, j})
			}
		}
	}
	if len(all) == 0 {
		return nil, 0, 0
	}
	c := all[r.IntN(len(all))]
	return get(rules[c.k].(M), "backendRefs").(L), c.k, c.j
}

func (g *gen) semBackendNotFound(rec *routeRec, obj M) (string, string, []any) {
	brs, k, j := pickBackend(rec.r, specOf(obj), true)
	if brs == nil {
		return "", "", nil
	}
	b := brs[j].(M)
	ns, old := str(get(b, "namespace"), rec.a.ns), get(b, "name").(string)
	names := []string{old + "-v2", strings.Replace(old, "-svc-", "-service-", 1), old + "-canary"}
	for _, off := range rec.r.Perm(len(names)) {
		if n := names[off]; g.svcByKey[ns+"/"+n] == nil {
			brs[j] = put(b, "name", n)
			return "backend-not-found", fmt.Sprintf("BackendNotFound: Service %s/%s does not exist", ns, n), path("spec", "rules", k, "backendRefs", j, "name")
		}
	}
	return "", "", nil
}

func (g *gen) semBackendPort(rec *routeRec, obj M) (string, string, []any) {
	brs, k, j := pickBackend(rec.r, specOf(obj), false)
	if brs == nil {
		return "", "", nil
	}
	b := brs[j].(M)
	ns, name := str(get(b, "namespace"), rec.a.ns), get(b, "name").(string)
	svc := g.svcByKey[ns+"/"+name]
	if svc == nil {
		return "", "", nil
	}
	// the targetPort instead of the port (a common mistake), or a port nobody exposes
	for _, p := range []int{svc.ports[rec.r.IntN(len(svc.ports))] + 8000, 8443, 9901} {
		if !slices.Contains(svc.ports, p) {
			put(b, "port", p)
			return "backend-port", fmt.Sprintf("BackendNotFound: Service %s/%s has no port %d", ns, name, p), path("spec", "rules", k, "backendRefs", j, "port")
		}
	}
	return "", "", nil
}

func (g *gen) semRefNotPermitted(rec *routeRec, obj M) (string, string, []any) {
	brs, k, j := pickBackend(rec.r, specOf(obj), true)
	if brs == nil {
		return "", "", nil
	}
	for try := 0; try < 40; try++ {
		other := g.apps[rec.r.IntN(len(g.apps))]
		if other.ns == rec.a.ns {
			continue
		}
		s := other.services[rec.r.IntN(len(other.services))]
		if g.permits("HTTPRoute", rec.a.ns, s.ns, "Service", s.name) {
			continue
		}
		nb := M{}
		old := brs[j].(M)
		for _, kv := range old {
			if kv.K == "group" || kv.K == "kind" {
				nb = append(nb, kv)
			}
		}
		nb = append(nb, KV{"name", s.name}, KV{"namespace", s.ns}, KV{"port", s.ports[rec.r.IntN(len(s.ports))]})
		if w := get(old, "weight"); w != nil {
			nb = append(nb, KV{"weight", w})
		}
		brs[j] = nb
		return "ref-not-permitted", fmt.Sprintf("RefNotPermitted: no ReferenceGrant in %s admits HTTPRoute from %s to Service %s", s.ns, rec.a.ns, s.name), path("spec", "rules", k, "backendRefs", j, "namespace")
	}
	return "", "", nil
}

func (g *gen) semDuplicateRuleName(rec *routeRec, obj M) (string, string, []any) {
	rules := get(specOf(obj), "rules").(L)
	if len(rules) < 2 {
		return "", "", nil
	}
	ij := rec.r.Perm(len(rules))[:2]
	i, j := min(ij[0], ij[1]), max(ij[0], ij[1])
	n := str(get(rules[i].(M), "name"), "")
	if n == "" {
		used := map[string]bool{}
		for _, x := range rules {
			used[str(get(x.(M), "name"), "")] = true
		}
		for _, off := range rec.r.Perm(len(ruleNames)) {
			if !used[ruleNames[off]] {
				n = ruleNames[off]
				break
			}
		}
		if n == "" {
			return "", "", nil
		}
	}
	first := []string{"matches", "filters", "backendRefs", "timeouts"}
	rules[i] = put(rules[i].(M), "name", n, first...)
	rules[j] = put(rules[j].(M), "name", n, first...)
	return "duplicate-rule-name", fmt.Sprintf("duplicate rule name %q (rules %d and %d; GEP-995)", n, i, j), path("spec", "rules", j, "name")
}

func (g *gen) semWeightsZero(rec *routeRec, obj M) (string, string, []any) {
	brs, k, _ := pickBackend(rec.r, specOf(obj), false)
	if brs == nil {
		return "", "", nil
	}
	for j := range brs {
		brs[j] = put(brs[j].(M), "weight", 0)
	}
	return "all-weights-zero", fmt.Sprintf("all backendRefs of rule %d have weight 0 (rule gets no traffic)", k), path("spec", "rules", k, "backendRefs")
}

// ---------- grants ----------

func (g *gen) grantDoc(name, ns string, from, to L) *doc {
	obj := M{
		{"apiVersion", "gateway.networking.k8s.io/v1"},
		{"kind", "ReferenceGrant"},
		{"metadata", meta(name, ns, nil, nil)},
		{"spec", M{{"from", from}, {"to", to}}},
	}
	return g.newDoc(obj, "ReferenceGrant", ns, name)
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// routeGrants writes, per target namespace, the ReferenceGrants the cross-namespace
// backendRefs need: broad per source namespace, per source namespace naming the
// Services, or one grant listing all source namespaces.
func (g *gen) routeGrants() {
	for _, to := range sortedKeys(g.need) {
		froms := sortedKeys(g.need[to])
		var docs []*doc
		style := g.pick(10)
		if style >= 8 && len(froms) <= 16 {
			var fl L
			for _, f := range froms {
				fl = append(fl, M{{"group", gwGroup}, {"kind", "HTTPRoute"}, {"namespace", f}})
				g.grants[to] = append(g.grants[to], grantRule{"HTTPRoute", f, "Service", ""})
			}
			docs = append(docs, g.grantDoc("allow-httproutes", to, fl, L{M{{"group", ""}, {"kind", "Service"}}}))
		} else {
			for _, f := range froms {
				svcs := sortedKeys(g.need[to][f])
				tl := L{M{{"group", ""}, {"kind", "Service"}}}
				if style >= 6 && len(svcs) <= 16 {
					tl = nil
					for _, s := range svcs {
						tl = append(tl, M{{"group", ""}, {"kind", "Service"}, {"name", s}})
						g.grants[to] = append(g.grants[to], grantRule{"HTTPRoute", f, "Service", s})
					}
				} else {
					g.grants[to] = append(g.grants[to], grantRule{"HTTPRoute", f, "Service", ""})
				}
				docs = append(docs, g.grantDoc("allow-routes-from-"+f, to, L{M{{"group", gwGroup}, {"kind", "HTTPRoute"}, {"namespace", f}}}, tl))
			}
		}
		g.addFile(filepath.Join("namespaces", to, "referencegrants.yaml"), docs)
	}
}
