package kgateway_test

import (
	"fmt"
	"runtime"
	"slices"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/kgateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// kgateway's HTTPRoute delegation: a backendRef of kind HTTPRoute hands a
// rule to child routes (BackendNotFound when the named child does not
// exist: kgateway's test/kubernetes/e2e/features/route_delegation,
// TestUnresolvedChild), and a child's parentRef of kind HTTPRoute attaches
// it when that route delegates to it. Elsewhere both are kinds nothing
// supports.
func TestRouteDelegation(t *testing.T) {
	const routes = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: root, namespace: infra}
spec:
  parentRefs: [{name: gw}]
  rules:
  - matches: [{path: {type: PathPrefix, value: /shop}}]
    backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: "*", namespace: app}]
  - matches: [{path: {type: PathPrefix, value: /api}}]
    backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: api, namespace: other}]
  - matches: [{path: {type: PathPrefix, value: /gone}}]
    backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: gone, namespace: app}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: root, namespace: infra}]
  rules:
  - matches: [{path: {type: PathPrefix, value: /shop/cart}}]
    backendRefs: [{name: web, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: api, namespace: other}
spec:
  rules:
  - matches: [{path: {type: PathPrefix, value: /api/v1}}]
    backendRefs: [{name: web, namespace: app, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: stray, namespace: other}
spec:
  parentRefs:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: root, namespace: infra}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: absent, namespace: infra}
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, name: root, namespace: platform}
  rules: [{backendRefs: [{name: web, namespace: app, port: 8080}]}]
---
# Parents of each other: judging them must end.
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ping, namespace: other}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: pong}]
  rules: [{backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: pong}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: pong, namespace: other}
spec:
  parentRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: ping}]
  rules: [{backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: ping}]}]`
	for _, c := range []struct {
		impl resolve.Implementation
		// backends are the reasons of root's three backendRefs.
		backends [3]resolve.Reason
		// shop, stray are the Accepted reasons of the children's parentRefs.
		shop        resolve.Reason
		stray       [3]resolve.Reason
		unsupported bool
		delegated   int // routes delegating to other/api
	}{
		{nil, [3]resolve.Reason{resolve.ReasonInvalidKind, resolve.ReasonInvalidKind, resolve.ReasonInvalidKind},
			resolve.ReasonUnsupportedValue, [3]resolve.Reason{resolve.ReasonUnsupportedValue, resolve.ReasonUnsupportedValue, resolve.ReasonUnsupportedValue}, true, 0},
		{kgateway.Implementation{}, [3]resolve.Reason{"", "", resolve.ReasonBackendNotFound},
			resolve.ReasonAccepted, [3]resolve.Reason{resolve.ReasonNoMatchingParent, resolve.ReasonNoMatchingParent, resolve.ReasonPending}, false, 1},
	} {
		opts := resolvetest.JudgedBy(t, c.impl)
		opts.OwnedNamespaces = []string{"infra", "app", "other"}
		g := resolvetest.Resolve(t, opts, resolvetest.World, routes)
		root := resolvetest.Route(t, g, resolve.KindHTTPRoute, "infra", "root")
		for i, want := range c.backends {
			if got := root.Rules[i].Backends[0].Reason; got != want {
				t.Errorf("under %v: root's rules[%d] backend %q; want %q", c.impl, i, got, want)
			}
		}
		shop := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "shop").Parents[0]
		if shop.Accepted.Reason != c.shop || shop.UnsupportedKind != c.unsupported {
			t.Errorf("under %v: shop's parentRef %s (unsupported kind %v); want %s (%v)", c.impl, shop.Accepted.Reason, shop.UnsupportedKind, c.shop, c.unsupported)
		}
		if shop.HasStatus() != !c.unsupported {
			t.Errorf("under %v: shop's parentRef has status %v; want %v", c.impl, shop.HasStatus(), !c.unsupported)
		}
		// kgateway writes nothing for a child no parent delegates to.
		for i, p := range resolvetest.Route(t, g, resolve.KindHTTPRoute, "other", "stray").Parents {
			if p.Accepted.Reason != c.stray[i] || p.HasStatus() {
				t.Errorf("under %v: stray's parentRefs[%d] %s, with status %v; want %s, without", c.impl, i, p.Accepted.Reason, p.HasStatus(), c.stray[i])
			}
		}
		if n := len(g.RoutesHandingTo(resolvetest.Route(t, g, resolve.KindHTTPRoute, "other", "api").Route)); n != c.delegated {
			t.Errorf("under %v: %d routes delegate to api; want %d", c.impl, n, c.delegated)
		}
	}
}

// Routes are resolved in parallel, and call Builder.HandTo in any order:
// RoutesHandingTo is still in the graph's order, on any number of cores.
func TestRoutesHandingToInGraphOrder(t *testing.T) {
	docs := []string{`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  rules: [{backendRefs: [{name: web, port: 8080}]}]`}
	var want []string
	for i := range 16 {
		name := fmt.Sprintf("root-%02d", i)
		want = append(want, name)
		docs = append(docs, fmt.Sprintf(`
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: %s, namespace: infra}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: "*", namespace: app}]}]`, name))
	}
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(0))
	for _, procs := range []int{1, 2, 8} {
		runtime.GOMAXPROCS(procs)
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, kgateway.Implementation{}), append([]string{resolvetest.World}, docs...)...)
		var got []string
		for _, r := range g.RoutesHandingTo(resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "shop").Route) {
			got = append(got, r.Ref.Name)
		}
		if !slices.Equal(got, want) {
			t.Errorf("GOMAXPROCS=%d: routes handing shop traffic %v; want %v", procs, got, want)
		}
	}
}

// A RequestMirror filter's backendRef of kind HTTPRoute sends the child a
// copy of the requests, not the rule: it hands the child nothing, so the
// child still needs a parent of its own.
func TestMirrorHandsNothing(t *testing.T) {
	const routes = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: root, namespace: infra}
spec:
  parentRefs: [{name: gw}]
  rules:
  - filters:
    - type: RequestMirror
      requestMirror:
        backendRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shadow, namespace: app}
    backendRefs: [{name: web, namespace: app, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shadow, namespace: app}
spec:
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, kgateway.Implementation{}), resolvetest.World, routes)
	if from := g.RoutesHandingTo(resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "shadow").Route); len(from) != 0 {
		t.Errorf("a mirror handed the child route traffic: from %v", from)
	}
	rule := resolvetest.Route(t, g, resolve.KindHTTPRoute, "infra", "root").Rules[0]
	if len(rule.FilterBackends) != 1 || !rule.FilterBackends[0].Filter || rule.Backends[0].Filter {
		t.Errorf("Filter marks the mirror's backendRef only: filter backends %v, backends %v", rule.FilterBackends, rule.Backends)
	}
}
