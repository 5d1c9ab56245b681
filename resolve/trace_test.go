package resolve

import (
	"testing"
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
	g := resolveYAML(t, Options{}, traceWorld)
	for _, tt := range []struct {
		url, method string
		backend     string // the winner's only backend
		why         TraceReason
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
			tr := g.Trace(req)
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
	g := resolveYAML(t, Options{}, traceWorld)
	req, _ := ParseRequestURL("https://h/items")
	if tr := g.Trace(req); tr.Outcome != TraceNotMatched || len(tr.Misses) != 0 {
		t.Errorf("https: %s, %d misses; want NotMatched: r is attached to the http listener only", tr.Outcome, len(tr.Misses))
	}
	req, _ = ParseRequestURL("grpc://h/pkg.S/M")
	if tr := g.Trace(req); tr.Outcome != TraceNotMatched || len(tr.Ignored) != 1 {
		t.Errorf("grpc: %s, %d ignored; want the HTTPRoute ignored", tr.Outcome, len(tr.Ignored))
	}
	req, _ = ParseRequestURL("http://h:8080/")
	if tr := g.Trace(req); tr.Outcome != TraceNoGateway {
		t.Errorf("port 8080: %s", tr.Outcome)
	}
}

func TestParseRequestURL(t *testing.T) {
	for _, bad := range []string{"h/x", "ftp://h/", "http:///x", "http://h:0/", "grpc://h/Svc", "grpc://h/a/b/c"} {
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
