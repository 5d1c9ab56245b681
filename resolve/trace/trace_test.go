package trace

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// traceWorld is a Gateway with one HTTP listener and routes whose matches
// differ by one precedence criterion at a time.
const traceWorld = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
  - {name: tls, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: c}]}, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules:
  - matches: [{path: {type: RegularExpression, value: "/items/[0-9]+"}}]
    backendRefs: [{name: regex, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /items}}]
    backendRefs: [{name: prefix, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /items}, method: POST}]
    backendRefs: [{name: post, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /items}, method: POST, queryParams: [{name: v, value: "2"}]}]
    backendRefs: [{name: post-v2, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /old}}]
    filters:
    - type: RequestRedirect
      requestRedirect: {path: {type: ReplacePrefixMatch, replacePrefixMatch: /new}}
  - matches: [{path: {type: PathPrefix, value: /secure}}]
    filters:
    - type: RequestRedirect
      requestRedirect: {scheme: https, port: 8443}
  - matches: [{path: {type: Exact, value: /empty}}]
`

func TestTracePrecedence(t *testing.T) {
	tracer := New(resolvetest.Resolve(t, resolve.Options{}, traceWorld))
	for _, tt := range []struct {
		url, method string
		backend     string // the winner's only backend
		why         Reason
		status      int
		location    string
	}{
		{url: "http://h/items/12", backend: "prefix", why: PrecedencePathType},
		{url: "http://h/items/x", backend: "prefix", why: PrecedenceOnlyMatch},
		{url: "http://h/itemsx", status: 404},
		{url: "http://h/items", method: "POST", backend: "post", why: PrecedenceMethod},
		{url: "http://h/items/1?v=2&v=3", method: "POST", backend: "post-v2", why: PrecedenceQueryParams},
		{url: "http://h/old/a/b?q=1", status: 302, location: "http://h/new/a/b"},
		{url: "http://h/old", status: 302, location: "http://h/new"},
		{url: "http://h:80/secure", status: 302, location: "https://h:8443/secure"},
		{url: "http://h/empty", status: 500},
	} {
		t.Run(tt.url, func(t *testing.T) {
			req, err := ParseRequestURL(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			req.Method = tt.method
			tr := tracer.Trace(req)
			if tr.StatusCode != tt.status {
				t.Fatalf("status %d, want %d: %s %s", tr.StatusCode, tt.status, tr.Outcome, tr.Message)
			}
			if tt.location != "" && (tr.Redirect == nil || tr.Redirect.String() != tt.location) {
				t.Errorf("redirect %v, want %s", tr.Redirect, tt.location)
			}
			if tt.backend == "" {
				return
			}
			if tr.Rule == nil || tr.Rule.Backends[0].Target.Name != tt.backend {
				t.Fatalf("%s: %s", tr.Outcome, tr.Message)
			}
			if w := tr.Winner(); w.Reason != tt.why {
				t.Errorf("won by %s (%s), want %s", w.Reason, w.Message, tt.why)
			}
		})
	}
}

func TestTraceListenerAndRouteKind(t *testing.T) {
	tracer := New(resolvetest.Resolve(t, resolve.Options{}, traceWorld))
	req, _ := ParseRequestURL("https://h/items")
	if tr := tracer.Trace(req); tr.Outcome != NotMatched || len(tr.Misses) != 0 {
		t.Errorf("https: %s, %d misses; want NotMatched: r is attached to the http listener only", tr.Outcome, len(tr.Misses))
	}
	req, _ = ParseRequestURL("grpc://h/pkg.S/M")
	if tr := tracer.Trace(req); tr.Outcome != NotMatched || len(tr.Ignored) != 1 {
		t.Errorf("grpc: %s, %d ignored; want the HTTPRoute ignored", tr.Outcome, len(tr.Ignored))
	}
	req, _ = ParseRequestURL("http://h:8080/")
	if tr := tracer.Trace(req); tr.Outcome != NoGateway {
		t.Errorf("port 8080: %s", tr.Outcome)
	}
}

func TestParseRequestURL(t *testing.T) {
	for _, bad := range []string{"h/x", "ftp://h/", "http:///x", "http://h:0/", "grpc://h/Svc", "grpc://h/a/b/c",
		"tcp://h", "udp://h/", "tls://h/path", "tls://h?q=1"} {
		if _, err := ParseRequestURL(bad); err == nil {
			t.Errorf("%q parsed", bad)
		}
	}
	req, err := ParseRequestURL("HTTPS://Example.COM:8443?a=1&b&a=2")
	if err != nil {
		t.Fatal(err)
	}
	if req.Scheme != "https" || req.Host != "example.com" || req.Port != 8443 || req.Path != "/" || len(req.Query) != 3 || req.EffectivePort() != 8443 {
		t.Errorf("parsed %+v", req)
	}
}

func TestPrefixMatches(t *testing.T) {
	for _, tt := range []struct {
		prefix, path string
		want         bool
	}{
		{"", "/anything", true}, {"/abc", "/abc", true}, {"/abc", "/abc/", true},
		{"/abc", "/abc/def", true}, {"/abc", "/abcd", false}, {"/abc", "/ab", false},
	} {
		if got := prefixMatches(tt.prefix, tt.path); got != tt.want {
			t.Errorf("prefixMatches(%q, %q) = %v", tt.prefix, tt.path, got)
		}
	}
}

// streamWorld has TLS listeners on one port told apart by hostname, a
// terminating TLS listener with a TCPRoute, and TCP and UDP listeners with
// competing routes.
const streamWorld = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - {name: wild, protocol: TLS, port: 443, hostname: "*.example.com", tls: {mode: Passthrough}, allowedRoutes: {namespaces: {from: All}}}
  - {name: exact, protocol: TLS, port: 443, hostname: db.example.com, tls: {mode: Passthrough}, allowedRoutes: {namespaces: {from: All}}}
  - {name: term, protocol: TLS, port: 8443, tls: {mode: Terminate, certificateRefs: [{name: c}]}, allowedRoutes: {namespaces: {from: All}, kinds: [{kind: TCPRoute}]}}
  - {name: tcp, protocol: TCP, port: 9000, allowedRoutes: {namespaces: {from: All}}}
  - {name: udp, protocol: UDP, port: 53, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: wild, namespace: app, creationTimestamp: "2024-01-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: wild}]
  hostnames: ["*.example.com"]
  rules: [{backendRefs: [{name: wild, port: 443}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: shop, namespace: app, creationTimestamp: "2024-02-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: wild}]
  hostnames: [shop.example.com, "*.shop.example.com"]
  rules: [{backendRefs: [{name: shop, port: 443}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: b-shop, namespace: app, creationTimestamp: "2024-02-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: wild}]
  hostnames: [shop.example.com]
  rules: [{backendRefs: [{name: b-shop, port: 443}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TLSRoute
metadata: {name: db, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: ["*.example.com"]
  rules: [{backendRefs: [{name: db, port: 5432, weight: 3}, {name: db-replica, port: 5432, weight: 1}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: term, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: term}]
  rules: [{backendRefs: [{name: term, port: 80}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: new, namespace: app, creationTimestamp: "2024-05-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: tcp}]
  rules: [{backendRefs: [{name: new, port: 9000}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: old, namespace: app, creationTimestamp: "2024-04-01T00:00:00Z"}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: tcp}]
  rules: [{backendRefs: [{name: old, port: 9000, weight: 0}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: UDPRoute
metadata: {name: dns, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: udp}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]
`

func TestTraceStream(t *testing.T) {
	tracer := New(resolvetest.Resolve(t, resolve.Options{}, streamWorld))
	for _, tt := range []struct {
		url      string
		listener string
		route    string // the winner, "" when none
		why      Reason
		outcome  Outcome
		losers   []string // the runners-up, in order
	}{
		// The exact route hostname beats the wildcard one; of two routes
		// with the same hostname and age, b-shop comes first by name.
		{url: "tls://shop.example.com", listener: "wild", route: "b-shop", why: PrecedenceName, outcome: Forwarded, losers: []string{"shop", "wild", "db"}},
		// A wildcard of more characters beats a shorter one.
		{url: "tls://a.shop.example.com", listener: "wild", route: "shop", why: PrecedenceHostname, outcome: Forwarded, losers: []string{"wild", "db"}},
		// Equal wildcards: the older route; db has no timestamp and counts
		// as newest.
		{url: "tls://x.example.com", listener: "wild", route: "wild", why: PrecedenceCreationTime, outcome: Forwarded, losers: []string{"db"}},
		// The exact listener hostname takes db.example.com; on it, the db
		// route's wildcard intersects to db.example.com.
		{url: "tls://db.example.com:443", listener: "exact", route: "db", why: PrecedenceOnlyMatch, outcome: Forwarded},
		{url: "tls://x.example.org", outcome: NoGateway},
		{url: "tls://anything:8443", listener: "term", route: "term", why: PrecedenceOnlyMatch, outcome: Forwarded},
		// The older TCPRoute is bound even though its only backend has
		// weight 0: the newer conflicts and gets nothing.
		{url: "tcp://h:9000", listener: "tcp", route: "old", why: PrecedenceCreationTime, outcome: Rejected, losers: []string{"new"}},
		{url: "udp://h:53", listener: "udp", route: "dns", why: PrecedenceOnlyMatch, outcome: Forwarded},
		{url: "tcp://h:53", outcome: NoGateway},
	} {
		t.Run(tt.url, func(t *testing.T) {
			req, err := ParseRequestURL(tt.url)
			if err != nil {
				t.Fatal(err)
			}
			tr := tracer.Trace(req)
			if tr.Outcome != tt.outcome {
				t.Fatalf("outcome %s (%s), want %s", tr.Outcome, tr.Message, tt.outcome)
			}
			if tt.listener != "" && (tr.Listener == nil || tr.Listener.Name != tt.listener) {
				t.Fatalf("listener %v, want %s", tr.Listener, tt.listener)
			}
			w := tr.Winner()
			if tt.route == "" {
				if w != nil {
					t.Fatalf("winner %s, want none", w.Route.Ref)
				}
				return
			}
			if w == nil || w.Route.Ref.Name != tt.route || w.Reason != tt.why {
				t.Fatalf("winner %v, want %s by %s: %s", w, tt.route, tt.why, tr.Message)
			}
			var losers []string
			for _, m := range tr.Matches[1:] {
				losers = append(losers, m.Route.Ref.Name)
			}
			if !slices.Equal(losers, tt.losers) {
				t.Errorf("runners-up %v, want %v", losers, tt.losers)
			}
		})
	}
}

func TestSampleRequests(t *testing.T) {
	for _, tt := range []struct {
		name  string
		world string
		want  []string
	}{
		// The regular expression match gives no sample; the others give the
		// request they select, a rule without matches "/".
		{"http", traceWorld, []string{
			"GET http://any-host.example/empty (Gateway infra/gw)",
			"GET http://any-host.example/items (Gateway infra/gw)",
			"GET http://any-host.example/old (Gateway infra/gw)",
			"GET http://any-host.example/secure (Gateway infra/gw)",
			"POST http://any-host.example/items (Gateway infra/gw)",
			"POST http://any-host.example/items?v=2 (Gateway infra/gw)",
		}},
		// A TLSRoute's effective hostnames become SNIs (the wildcard's
		// "any."), a TCPRoute's or UDPRoute's listener a connection.
		{"stream", streamWorld, []string{
			"tcp://gw:9000 (Gateway infra/gw)",
			"tls://any-host.example:8443 (Gateway infra/gw)",
			"tls://any.example.com (Gateway infra/gw)",
			"tls://any.shop.example.com (Gateway infra/gw)",
			"tls://db.example.com (Gateway infra/gw)",
			"tls://shop.example.com (Gateway infra/gw)",
			"udp://gw:53 (Gateway infra/gw)",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, r := range SampleRequests(resolvetest.Resolve(t, resolve.Options{}, tt.world)) {
				got = append(got, r.String())
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("samples:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// A route without rules (a GRPCRoute may leave them out; a TCPRoute's may
// be empty) matches nothing, and says so: its miss was once nil, which
// the view dereferenced.
func TestTraceRouteWithoutRules(t *testing.T) {
	tracer := New(resolvetest.Resolve(t, resolve.Options{}, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - {name: http, protocol: HTTP, port: 80}
  - {name: tcp, protocol: TCP, port: 9000}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: empty, namespace: infra}
spec:
  parentRefs: [{name: gw, sectionName: http}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: empty, namespace: infra}
spec:
  parentRefs: [{name: gw, sectionName: tcp}]
  rules: []
`))
	for _, url := range []string{"grpc://x/a.B/C", "tcp://x:9000"} {
		req, err := ParseRequestURL(url)
		if err != nil {
			t.Fatal(err)
		}
		tr := tracer.Trace(req)
		if tr.Outcome != NotMatched || len(tr.Misses) != 1 || tr.Misses[0] == nil || tr.Misses[0].Reason != MissNoRules {
			t.Errorf("%s: %s, misses %v; want NotMatched and one NoRules miss", url, tr.Outcome, tr.Misses)
		}
	}
}

// indexWorld has routes whose hostnames and paths take every form
// routesFor indexes, on listeners with and without a hostname: exact and
// wildcard hostnames and none (one route with two that cover the same
// host), Exact and PathPrefix paths (with and without a trailing slash),
// RegularExpression paths with and without a literal prefix (one all
// literal) and one that does not compile, a rule without matches, and a GRPCRoute beside the
// HTTPRoutes.
const indexWorld = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
  - {name: wild, protocol: HTTP, port: 8080, hostname: "*.example.com", allowedRoutes: {namespaces: {from: All}}}
  - {name: api, protocol: HTTP, port: 8080, hostname: api.example.com, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: prefix, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - matches: [{path: {type: PathPrefix, value: /api/}}, {path: {type: Exact, value: /a/b}}]
    backendRefs: [{name: api, port: 80}]
  - matches: [{path: {type: PathPrefix, value: /h}, headers: [{name: x-a, value: "1"}, {type: RegularExpression, name: x-b, value: "[0-9]"}]}]
    backendRefs: [{name: headers, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: slashes, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - matches: [{path: {type: PathPrefix, value: //}}]
    backendRefs: [{name: slashes, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: regex, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - matches: [{path: {type: RegularExpression, value: "/items/[0-9]+"}}, {path: {type: RegularExpression, value: /lit}}]
    backendRefs: [{name: regex, port: 80}]
  - matches: [{path: {type: RegularExpression, value: "/bad/("}}]
    backendRefs: [{name: bad, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: regex-any, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules:
  - matches: [{path: {type: RegularExpression, value: ".*/admin"}}, {path: {type: RegularExpression, value: "(?i)/case"}}]
    backendRefs: [{name: regex-any, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: exact, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: [a.example.com, api.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /a}}, {path: {type: PathPrefix, value: /}, method: POST}]
    backendRefs: [{name: a, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: wild, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  hostnames: ["*.example.com", a.example.com]
  rules:
  - matches: [{path: {type: PathPrefix, value: /a}}]
    backendRefs: [{name: w, port: 80}]
  - matches: []
    backendRefs: [{name: all, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: deep, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  hostnames: ["*.b.example.com"]
  rules:
  - backendRefs: [{name: deep, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: grpc, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules:
  - matches: [{method: {service: pkg.S}}]
    backendRefs: [{name: grpc, port: 80}]
`

// destinationMismatch says how tracer.Destination(req) differs from
// tracer.Trace(req), the routes the request misses or that do not apply to
// it aside; "" when it does not.
func destinationMismatch(tracer *Tracer, req Request) string {
	want, got := tracer.Trace(req), tracer.Destination(req)
	want.Misses, want.Ignored = nil, nil
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return fmt.Sprintf("Destination: %s (%s), %d matches; Trace: %s (%s), %d matches",
		got.Outcome, got.Message, len(got.Matches), want.Outcome, want.Message, len(want.Matches))
}

// Destination, which checks only the routes a request can reach by its
// host and path (routesFor), finds what Trace finds by checking every
// route: for every sample request, and for each on other hosts and paths
// around the routes' own.
func TestDestinationIsTrace(t *testing.T) {
	hosts := []string{"", "a.example.com", "api.example.com", "x.b.example.com", "b.example.com", "example.com",
		"*.example.com", "*.b.example.com", "other.test"}
	paths := []string{"", "/", "/a", "/a/", "/a/b", "/ab", "/api", "/api/", "/api/v1", "/apix", "/items/42", "/items/x",
		"/x/admin", "/case", "/CASE", "/bad/(", "/lit", "//", "//x", "/h"}
	for _, world := range []struct{ name, yaml string }{{"trace", traceWorld}, {"stream", streamWorld}, {"index", indexWorld}} {
		t.Run(world.name, func(t *testing.T) {
			g := resolvetest.Resolve(t, resolve.Options{}, world.yaml)
			tracer := New(g)
			checked := 0
			for _, sample := range SampleRequests(g) {
				for _, host := range append(hosts, sample.Host) {
					for _, path := range append(paths, sample.Path, sample.Path+"/", sample.Path+"/more", sample.Path+"x") {
						req := sample
						req.Host, req.Path = host, path
						if problem := destinationMismatch(tracer, req); problem != "" {
							t.Errorf("%s: %s", req, problem)
						}
						checked++
					}
				}
			}
			if checked == 0 {
				t.Error("no sample requests")
			}
		})
	}
}

// Request.String reads back as the same request, and requests that differ
// never render alike.
func TestRequestStringRoundTrip(t *testing.T) {
	a := Request{Scheme: SchemeHTTP, Host: "shop.example.com", Path: "/cart", Method: "GET",
		Query:   []NameValue{{"q", "a&b=c"}},
		Headers: []NameValue{{"x-note", "it's"}}}
	b := Request{Scheme: SchemeHTTP, Host: "shop.example.com", Path: "/cart", Method: "GET",
		Query:   []NameValue{{"q", "a"}, {"b", "c"}},
		Headers: []NameValue{{"x-note", "it's"}}}
	if a.String() == b.String() {
		t.Errorf("two requests render alike: %s", a.String())
	}
	if want := `GET http://shop.example.com/cart?q=a%26b%3Dc -H 'x-note: it'\''s'`; a.String() != want {
		t.Errorf("String() = %s, want %s", a.String(), want)
	}
	url := strings.Fields(a.String())[1]
	back, err := ParseRequestURL(url)
	if err != nil || !slices.Equal(back.Query, a.Query) {
		t.Errorf("ParseRequestURL(%s) = %v, %v; want the query %v", url, back.Query, err, a.Query)
	}
}
