package envoygateway_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// A BackendTLSPolicy reached through more Gateways than its 16 ancestor
// entries allow: cut at 16 everywhere; Envoy Gateway says so on the last.
func TestTruncatedPolicyAncestors(t *testing.T) {
	aggregated := func(a resolve.PolicyAncestor) bool {
		for _, c := range a.OwnConditions {
			if c.Type == envoygateway.ConditionAggregated && c.True() && c.Reason == envoygateway.ReasonAggregated {
				return true
			}
		}
		return false
	}
	for _, c := range []struct {
		impl, class string
		aggregated  bool
	}{{"", "acme", false}, {"envoy-gateway", "eg", true}} {
		// inlineCert is a CA certificate too (basicConstraints CA:TRUE).
		docs := []string{resolvetest.World, egClass, fmt.Sprintf(`
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: app}
data: {ca.crt: %q}`, inlineCert), `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {hostname: web.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`}
		var parents []string
		for i := range 17 {
			docs = append(docs, fmt.Sprintf(`
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge-%02d, namespace: infra}
spec: {gatewayClassName: %s, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`, i, c.class))
			parents = append(parents, fmt.Sprintf("{name: edge-%02d, namespace: infra}", i))
		}
		docs = append(docs, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [`+strings.Join(parents, ", ")+`]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`)
		p := resolvetest.Resolve(t, judgedBy(t, c.impl), docs...).TLSPolicies[0]
		if len(p.Ancestors) != 16 || aggregated(p.Ancestors[15]) != c.aggregated || aggregated(p.Ancestors[14]) {
			t.Errorf("class %s: %d ancestors, the last Aggregated %v; want 16, %v", c.class, len(p.Ancestors), aggregated(p.Ancestors[len(p.Ancestors)-1]), c.aggregated)
		}
	}
}
