package resolve

import (
	"strings"
	"testing"
)

// A GitOps repository that installs its controller from a remote chart: no
// GatewayClass among the inputs.
const (
	inferGateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: envoy-external, namespace: network}
spec:
  gatewayClassName: %s
  infrastructure:
    annotations: {external-dns.alpha.kubernetes.io/hostname: external.example.com}
  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]`
	inferRoute = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: app, namespace: default}
spec:
  parentRefs: [{name: envoy-external, namespace: network}]
  rules: [{backendRefs: [%s]}]`
	egPolicy = `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: client, namespace: network}
spec: {targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: envoy-external}]}`
	kgatewayPolicy = `
apiVersion: gateway.kgateway.dev/v1alpha1
kind: TrafficPolicy
metadata: {name: retries, namespace: default}
spec: {}`
	acmeClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: acme}
spec: {controllerName: example.com/acme}`
)

func TestImplementationInference(t *testing.T) {
	sprintf := func(format, arg string) string { return strings.Replace(format, "%s", arg, 1) }
	cases := []struct {
		name string
		docs []string
		// want is the Gateway's Inference as String says it ("" for none).
		want string
		// backend is the problem of the route's backendRef.
		backend BackendProblem
	}{{
		name: "gatewayClassName and the world",
		docs: []string{sprintf(inferGateway, "envoy"), egPolicy,
			sprintf(inferRoute, "{group: gateway.envoyproxy.io, kind: Backend, name: ext}")},
		want: "envoy-gateway@v1.8.0, inferred from gatewayClassName envoy (no GatewayClass among the inputs) and 1 object of gateway.envoyproxy.io and 1 backendRef to kind Backend of gateway.envoyproxy.io",
	}, {
		name: "the world alone",
		docs: []string{sprintf(inferGateway, "internal"), egPolicy, sprintf(inferRoute, "{name: web, port: 80}")},
		want: "envoy-gateway@v1.8.0, inferred from 1 object of gateway.envoyproxy.io",
	}, {
		// The route's reference to its kind is evidence too.
		name: "a backendRef alone",
		docs: []string{sprintf(inferGateway, "internal"), sprintf(inferRoute, "{group: gateway.envoyproxy.io, kind: Backend, name: ext}")},
		want: "envoy-gateway@v1.8.0, inferred from 1 backendRef to kind Backend of gateway.envoyproxy.io",
	}, {
		// Two implementations: none is chosen, and an implementation's
		// kind is unknown, not unsupported.
		name: "ambiguous world",
		docs: []string{sprintf(inferGateway, "internal"), egPolicy, kgatewayPolicy,
			sprintf(inferRoute, "{group: gateway.envoyproxy.io, kind: Backend, name: ext}")},
		want: "none inferred: the evidence names envoy-gateway (1 object of gateway.envoyproxy.io, 1 backendRef to kind Backend of gateway.envoyproxy.io) and kgateway (1 object of gateway.kgateway.dev)",
	}, {
		// The class's name decides before the world.
		name: "class name over the world",
		docs: []string{sprintf(inferGateway, "eg"), kgatewayPolicy, sprintf(inferRoute, "{name: web, port: 80}")},
		want: "envoy-gateway@v1.8.0, inferred from gatewayClassName eg (no GatewayClass among the inputs)",
	}, {
		// No evidence: a backend kind of a group no implementation gwlint
		// knows is unknown, never refused.
		name: "no evidence",
		docs: []string{sprintf(inferGateway, "internal"),
			sprintf(inferRoute, "{group: backends.example.com, kind: McpBackend, name: mcp}")},
	}, {
		// agentgateway's backend kind is evidence of it, which takes it.
		name: "agentgateway's backend",
		docs: []string{sprintf(inferGateway, "internal"),
			sprintf(inferRoute, "{group: agentgateway.dev, kind: AgentgatewayBackend, name: mcp}")},
		want: "agentgateway@v1.1.0, inferred from 1 backendRef to kind AgentgatewayBackend of agentgateway.dev",
	}, {
		// A core kind other than Service is no implementation's backend.
		name:    "no evidence, core kind",
		docs:    []string{sprintf(inferGateway, "internal"), sprintf(inferRoute, "{kind: ConfigMap, name: web}")},
		backend: UnsupportedRef,
	}, {
		// A GatewayClass among the inputs: the Gateway's is one the inputs
		// do not show, and nothing is inferred; its implementation is
		// unknown, and so is whether it takes the kind.
		name: "a GatewayClass among the inputs",
		docs: []string{acmeClass, sprintf(inferGateway, "envoy"), egPolicy, sprintf(inferRoute, "{group: gateway.envoyproxy.io, kind: Backend, name: ext}")},
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := resolveYAML(t, Options{}, c.docs...)
			gw := g.Gateway("network", "envoy-external")
			got := ""
			if gw.Inferred != nil {
				got = gw.Inferred.String()
			}
			if got != c.want {
				t.Errorf("inferred %q\nwant     %q", got, c.want)
			}
			if gw.Inferred != nil && gw.Inferred.Profile != nil && gw.Judge.Name != gw.Inferred.Profile.Name {
				t.Errorf("judged by %s, inferred %s", gw.Judge, gw.Inferred.Profile)
			}
			b := mustRoute(t, g, KindHTTPRoute, "default", "app").Rules[0].Backends[0]
			if b.Problem != c.backend {
				t.Errorf("backend problem %q (%s), want %q", b.Problem, b.Message, c.backend)
			}
		})
	}
	// --implementation decides alone.
	g := resolveYAML(t, judgedBy(t, "istio"), strings.Replace(inferGateway, "%s", "envoy", 1), egPolicy)
	if gw := g.Gateway("network", "envoy-external"); gw.Inferred != nil || g.Inferred != nil || gw.Judge.Name != "istio" {
		t.Errorf("--implementation istio: judged by %s, inferred %v", gw.Judge, gw.Inferred)
	}
}
