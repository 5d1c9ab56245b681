package envoygateway_test

import (
	"reflect"
	"testing"

	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A policy's targetSelectors add the objects of a kind it takes whose
// labels match, in its namespace or those the selector admits (another
// namespace's only with a ReferenceGrant), oldest first, before the
// targets it names.
func TestTargetSelectors(t *testing.T) {
	base := []string{resolvetest.World, egClass, `
apiVersion: v1
kind: Namespace
metadata: {name: team, labels: {tier: blue}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: app}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app, labels: {policy: on}, creationTimestamp: "2024-02-01T00:00:00Z"}
spec: {parentRefs: [{name: edge}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: cart, namespace: app, labels: {policy: on}, creationTimestamp: "2024-01-01T00:00:00Z"}
spec: {parentRefs: [{name: edge}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: blog, namespace: app}
spec: {parentRefs: [{name: edge}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: wiki, namespace: team, labels: {policy: on}}
spec: {parentRefs: [{name: edge, namespace: app}]}`}
	policy := func(spec string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: traffic, namespace: app}
spec:
  ` + spec
	}
	grant := `
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: policies, namespace: team}
spec:
  from: [{group: gateway.envoyproxy.io, kind: BackendTrafficPolicy, namespace: app}]
  to: [{group: gateway.networking.k8s.io, kind: HTTPRoute}]`
	for _, c := range []struct {
		name string
		docs []string
		want []string
	}{{
		name: "labels in its namespace, oldest first",
		docs: []string{policy(`targetSelectors: [{kind: HTTPRoute, matchLabels: {policy: on}}]`)},
		want: []string{"HTTPRoute app/cart", "HTTPRoute app/shop"},
	}, {
		name: "match expressions",
		docs: []string{policy(`targetSelectors: [{kind: HTTPRoute, matchExpressions: [{key: policy, operator: DoesNotExist}]}]`)},
		want: []string{"HTTPRoute app/blog"},
	}, {
		name: "a named target after the selected ones, a selected one named once",
		docs: []string{policy(`targetSelectors: [{kind: HTTPRoute, matchLabels: {policy: on}}]
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}, {group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]`)},
		want: []string{"HTTPRoute app/cart", "HTTPRoute app/shop", "Gateway app/edge"},
	}, {
		name: "a kind the policy does not take selects nothing",
		docs: []string{policy(`targetSelectors: [{kind: GatewayClass, matchLabels: {policy: on}}]`)},
		want: nil,
	}, {
		name: "all namespaces, another's without a grant",
		docs: []string{policy(`targetSelectors: [{kind: HTTPRoute, namespaces: {from: All}, matchLabels: {policy: on}}]`)},
		want: []string{"HTTPRoute app/cart", "HTTPRoute app/shop"},
	}, {
		name: "namespaces by their labels, with a grant",
		docs: []string{grant, policy(`targetSelectors: [{kind: HTTPRoute, namespaces: {from: Selector, selector: {matchLabels: {tier: blue}}}, matchLabels: {policy: on}}]`)},
		want: []string{"HTTPRoute team/wiki"},
	}} {
		g := resolvetest.Resolve(t, byClass, append(base, c.docs...)...)
		var got []string
		for _, p := range g.Policies {
			for _, target := range p.Targets {
				if !target.Applies() {
					t.Errorf("%s: %s: %s", c.name, target, target.Message)
				}
				got = append(got, target.Target.String())
			}
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: targets %q, want %q", c.name, got, c.want)
		}
	}
}
