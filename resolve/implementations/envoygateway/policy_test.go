package envoygateway_test

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Envoy Gateway writes its own policy that calls a backend (a
// SecurityPolicy's extAuth, an EnvoyExtensionPolicy's extProc) as an
// ancestor of that backend's BackendTLSPolicy, when it translates the
// policy: its target is held, the backendRef is one it takes. The API's
// reading knows only routes' parents.
func TestPolicyAncestors(t *testing.T) {
	base := func(class string) []string {
		return []string{resolvetest.World, egClass, `
apiVersion: v1
kind: ConfigMap
metadata: {name: ca, namespace: app}
data: {ca.crt: ` + strconv.Quote(inlineCert) + `}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: shop, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: app}
spec: {ports: [{name: grpc, port: 9000}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: authz-tls, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: authz, sectionName: grpc}]
  validation: {hostname: authz.app, caCertificateRefs: [{group: "", kind: ConfigMap, name: ca}]}`}
	}
	securityPolicy := func(target, backendRef string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: authn, namespace: app}
spec:
  targetRefs: [` + target + `]
  extAuth: {grpc: {backendRefs: [` + backendRef + `]}}`
	}
	extensionPolicy := `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyExtensionPolicy
metadata: {name: processor, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]
  extProc: [{backendRefs: [{name: authz, namespace: app, port: 9000}]}]`
	grant := `
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: processors, namespace: app}
spec:
  from: [{group: gateway.envoyproxy.io, kind: EnvoyExtensionPolicy, namespace: infra}]
  to: [{group: "", kind: Service}]`
	onRoute := `{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}`
	for _, c := range []struct {
		name      string
		docs      []string
		every, eg []string
	}{{
		name:  "SecurityPolicy on a route",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9000}`)},
		every: nil, eg: []string{"SecurityPolicy app/authn"},
	}, {
		name:  "SecurityPolicy on a route that does not exist",
		docs:  []string{securityPolicy(`{group: gateway.networking.k8s.io, kind: HTTPRoute, name: cart}`, `{name: authz, port: 9000}`)},
		every: nil, eg: nil,
	}, {
		// The later by name is Conflicted on the route: not translated.
		name: "two SecurityPolicies on a route",
		docs: []string{securityPolicy(onRoute, `{name: authz, port: 9000}`),
			strings.Replace(securityPolicy(onRoute, `{name: authz, port: 9000}`), "name: authn,", "name: authz-check,", 1)},
		every: nil, eg: []string{"SecurityPolicy app/authn"},
	}, {
		name:  "backendRef of weight 0",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9000, weight: 0}`)},
		every: nil, eg: nil,
	}, {
		name:  "backendRef to a port the Service lacks",
		docs:  []string{securityPolicy(onRoute, `{name: authz, port: 9001}`)},
		every: nil, eg: nil,
	}, {
		name:  "EnvoyExtensionPolicy on the Gateway, another namespace's backend without a grant",
		docs:  []string{extensionPolicy},
		every: nil, eg: nil,
	}, {
		name:  "EnvoyExtensionPolicy on the Gateway, another namespace's backend with a grant",
		docs:  []string{extensionPolicy, grant},
		every: nil, eg: []string{"EnvoyExtensionPolicy infra/processor"},
	}} {
		for _, run := range []struct {
			impl, class string
			want        []string
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}} {
			g := resolvetest.Resolve(t, judgedBy(t, run.impl), append(base(run.class), c.docs...)...)
			p := g.TLSPolicies[0]
			var got []string
			for _, a := range p.Ancestors {
				if accepted, _ := a.Conditions(p); !accepted.True() {
					t.Errorf("%s under %q: ancestor %s: %s", c.name, run.impl, string(*a.Ref.Namespace)+"/"+string(a.Ref.Name), accepted.Message)
				}
				got = append(got, fmt.Sprintf("%s %s", *a.Ref.Kind, string(*a.Ref.Namespace)+"/"+string(a.Ref.Name)))
			}
			if !reflect.DeepEqual(got, run.want) {
				t.Errorf("%s under %q: ancestors %q, want %q", c.name, run.impl, got, run.want)
			}
		}
	}
}
