package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A ClientTrafficPolicy whose http1.http10.useDefaultHost asks for a
// default host needs one on each listener: the listener's hostname without
// a wildcard, else exactly one internal route (per route, rule, match and
// hostname) whose hostname has none. Envoy Gateway refuses it otherwise.
func TestClientTrafficPolicyHTTP10(t *testing.T) {
	const onlyWildcard = "HTTP1: cannot set http10 default host on listener with only wildcard hostnames."
	const moreThanOne = "HTTP1: cannot set http10 default host on listener with only wildcard hostnames and more than one possible default route."
	route := func(name, hostnames, rules string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `, namespace: infra}
spec:
  parentRefs: [{name: edge}]
  hostnames: ` + hostnames + `
  rules: ` + rules
	}
	const oneMatch = `[{matches: [{path: {value: /}}]}]`
	for _, c := range []struct {
		name, hostname, http1, extra string
		routes                       []string
		want                         string
	}{
		{name: "a listener hostname without a wildcard", hostname: "www.example.com", http1: "{http10: {useDefaultHost: true}}"},
		{name: "no routes", http1: "{http10: {useDefaultHost: true}}", want: onlyWildcard},
		{name: "no default host asked for", http1: "{http10: {}}"},
		{name: "one route, one match", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[shop.example.com]", oneMatch)}},
		{name: "a route without hostnames", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[]", oneMatch)}, want: onlyWildcard},
		{name: "a wildcard route hostname", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "['*.example.com']", oneMatch)}, want: onlyWildcard},
		{name: "a wildcard listener hostname narrowing nothing", hostname: "'*.example.com'", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[]", oneMatch)}, want: onlyWildcard},
		{name: "two routes", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[shop.example.com]", oneMatch), route("blog", "[blog.example.com]", oneMatch)}, want: moreThanOne},
		{name: "one route, two matches", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[shop.example.com]", `[{matches: [{path: {value: /a}}, {path: {value: /b}}]}]`)}, want: moreThanOne},
		{name: "one route, two rules", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[shop.example.com]", `[{matches: [{path: {value: /a}}]}, {}]`)}, want: moreThanOne},
		{name: "one route, two hostnames", http1: "{http10: {useDefaultHost: true}}",
			routes: []string{route("shop", "[shop.example.com, www.example.com]", oneMatch)}, want: moreThanOne},
		{name: "between headers and http2", http1: "{http10: {useDefaultHost: true}}",
			extra: "\n  headers: {maxRequestHeaderLimit: 512}\n  http2: {initialStreamWindowSize: 1Ki}",
			want:  "Headers: MaxRequestHeaderLimit value 512 must be at least 1Ki\nHTTP1: cannot set http10 default host on listener with only wildcard hostnames\nHTTP2: InitialStreamWindowSize value 1Ki is out of range, must be between 65535 and 2147483647."},
	} {
		t.Run(c.name, func(t *testing.T) {
			hostname := ""
			if c.hostname != "" {
				hostname = ", hostname: " + c.hostname
			}
			docs := append([]string{egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80` + hostname + `}]}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: p, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge, sectionName: http}]
  http1: ` + c.http1 + c.extra}, c.routes...)
			g := resolvetest.Resolve(t, byClass, docs...)
			p := g.Policy(resolve.ObjectRef{Kind: envoygateway.KindClientTrafficPolicy + "." + envoygateway.Group, Namespace: "infra", Name: "p"})
			if p == nil || len(p.Ancestors) != 1 {
				t.Fatalf("want one ancestor, policy %v", p)
			}
			checkInvalid(t, p.Ancestors[0].Accepted, c.want)
		})
	}
}
