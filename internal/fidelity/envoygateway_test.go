package fidelity

import (
	"reflect"
	"testing"
)

// Envoy Gateway's policies of a kind get creation times in declaration
// order, unless one of them has its own; other kinds keep theirs.
func TestEGDeclarationOrder(t *testing.T) {
	objs, err := egObjects([]byte(`
securityPolicies:
- {apiVersion: gateway.envoyproxy.io/v1alpha1, kind: SecurityPolicy, metadata: {name: zeta, namespace: ns}}
- {apiVersion: gateway.envoyproxy.io/v1alpha1, kind: SecurityPolicy, metadata: {name: alpha, namespace: ns}}
backendTrafficPolicies:
- {apiVersion: gateway.envoyproxy.io/v1alpha1, kind: BackendTrafficPolicy, metadata: {name: b, namespace: ns}}
- {apiVersion: gateway.envoyproxy.io/v1alpha1, kind: BackendTrafficPolicy, metadata: {name: a, namespace: ns, creationTimestamp: "2024-01-01T00:00:00Z"}}
httpRoutes:
- {metadata: {name: r, namespace: ns}}
`))
	if err != nil {
		t.Fatal(err)
	}
	egDeclarationOrder(objs)
	got := map[string]any{}
	for _, m := range objs {
		meta := m["metadata"].(map[string]any)
		got[meta["name"].(string)] = meta["creationTimestamp"]
	}
	want := map[string]any{"zeta": "2000-01-01T00:00:00Z", "alpha": "2000-01-01T00:00:01Z", "b": nil, "a": "2024-01-01T00:00:00Z", "r": nil}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("creation times %v, want %v", got, want)
	}
}
