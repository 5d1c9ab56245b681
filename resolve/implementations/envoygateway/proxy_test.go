package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// An EnvoyProxy that breaks Envoy Gateway's validation refuses the
// GatewayClass that names it and the Gateways that take it, their own or
// else their class's, with no listener status; so does one of its own
// beside a class's that merges Gateways, and a class's that merges both
// Gateways and backends. The API leaves what parameters hold to each
// implementation.
func TestProxyParameters(t *testing.T) {
	class := func(proxy string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: ` + proxy + `}`
	}
	gateway := func(infra string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  infrastructure: ` + infra + `
  listeners: [{name: http, protocol: HTTP, port: 80}]`
	}
	proxy := func(name, spec string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: ` + name + `, namespace: infra}
spec: ` + spec
	}
	proxies := proxy("plain", "{}") + "\n---\n" +
		proxy("no-file", "{telemetry: {accessLog: {settings: [{sinks: [{type: File}]}]}}}") + "\n---\n" +
		proxy("clusterip-lb-ip", "{provider: {type: Kubernetes, kubernetes: {envoyService: {type: ClusterIP, loadBalancerIP: 10.0.0.9}}}}") + "\n---\n" +
		proxy("host-without-host", "{provider: {type: Host}}") + "\n---\n" +
		proxy("merged", "{mergeGateways: true}") + "\n---\n" +
		proxy("merged-backends", "{mergeGateways: true, mergeBackends: {}}")
	own := func(name string) string {
		return "{parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: " + name + "}}"
	}
	for _, c := range []struct {
		name, classProxy, infra string
		class, gateway          resolve.Reason // Accepted reasons under Envoy Gateway; the default profile accepts both
	}{
		{"valid class EnvoyProxy", "plain", "null", resolve.ReasonAccepted, resolve.ReasonAccepted},
		{"class EnvoyProxy with a File sink without file", "no-file", "null", resolve.ReasonInvalidParameters, resolve.ReasonInvalidParameters},
		{"valid own EnvoyProxy beside an invalid class one", "no-file", own("plain"), resolve.ReasonInvalidParameters, resolve.ReasonAccepted},
		{"own EnvoyProxy with loadBalancerIP on a ClusterIP Service", "plain", own("clusterip-lb-ip"), resolve.ReasonAccepted, resolve.ReasonInvalidParameters},
		{"own EnvoyProxy on the host without host", "plain", own("host-without-host"), resolve.ReasonAccepted, resolve.ReasonInvalidParameters},
		{"own EnvoyProxy beside a class one merging Gateways", "merged", own("plain"), resolve.ReasonAccepted, resolve.ReasonInvalidParameters},
		{"class EnvoyProxy merging both Gateways and backends", "merged-backends", "null", resolve.ReasonAccepted, resolve.ReasonInvalidParameters},
	} {
		t.Run(c.name, func(t *testing.T) {
			for _, run := range []struct {
				impl           string
				class, gateway resolve.Reason
			}{{"", resolve.ReasonAccepted, resolve.ReasonAccepted}, {"envoy-gateway", c.class, c.gateway}} {
				g := resolvetest.Resolve(t, judgedBy(t, run.impl), class(c.classProxy), gateway(c.infra), proxies)
				gc, gw := g.GatewayClasses[0], g.Gateway("infra", "edge")
				if gc.Accepted.Reason != run.class || gw.Accepted.Reason != run.gateway {
					t.Errorf("%q: GatewayClass Accepted %s (%s), Gateway Accepted %s (%s); want %s, %s", run.impl,
						gc.Accepted.Reason, gc.Accepted.Message, gw.Accepted.Reason, gw.Accepted.Message, run.class, run.gateway)
				}
				if listeners := resolvetest.GatewayStatus(t, g, "infra", "edge").Listeners; run.gateway == resolve.ReasonInvalidParameters && len(listeners) > 0 {
					t.Errorf("%q: a refused Gateway has listener status %v", run.impl, listeners)
				}
			}
		})
	}
}

// Envoy Gateway's configuration may give every EnvoyProxy mergeBackends
// (Config.ProxyDefaults), which a class merging its Gateways refuses.
func TestProxyDefaultsByConfiguration(t *testing.T) {
	docs := `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: merged}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: merged, namespace: infra}
spec: {mergeGateways: true}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: edge, listeners: [{name: http, protocol: HTTP, port: 80}]}`
	for _, mergeBackends := range []bool{false, true} {
		impl := envoygateway.Implementation{Config: envoygateway.Config{ProxyDefaults: envoygateway.ProxyDefaults{MergeBackends: mergeBackends}}}
		want := resolve.ReasonAccepted
		if mergeBackends {
			want = resolve.ReasonInvalidParameters
		}
		gw := resolvetest.Resolve(t, resolvetest.JudgedBy(t, impl), docs).Gateway("infra", "edge")
		if gw.Accepted.Reason != want {
			t.Errorf("configuration merging backends %v: Gateway Accepted %s (%s), want %s", mergeBackends, gw.Accepted.Reason, gw.Accepted.Message, want)
		}
	}
}

// The client certificate a Gateway's EnvoyProxy offers backends over TLS:
// under Envoy Gateway one in another namespace, or one that does not
// exist, fails the route's backendRefs that a BackendTLSPolicy verifies
// (InvalidBackendTLS). The API does not know the field.
func TestProxyClientCertificate(t *testing.T) {
	docs := func(ref string) []string {
		return []string{resolvetest.World, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec: {backendTLS: {clientCertificateRef: ` + ref + `}}
---
apiVersion: v1
kind: Secret
metadata: {name: client, namespace: infra}
type: kubernetes.io/tls
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: web, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web}]
  validation: {wellKnownCACertificates: System, hostname: web.example.com}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`}
	}
	for _, c := range []struct {
		name, ref string
		reason    resolve.Reason // the route's ResolvedRefs reason under Envoy Gateway
	}{
		{"in the EnvoyProxy's namespace", "{name: client}", resolve.ReasonResolvedRefs},
		{"in another namespace", "{name: client, namespace: app}", envoygateway.ReasonInvalidBackendTLS},
		{"missing", "{name: absent}", envoygateway.ReasonInvalidBackendTLS},
	} {
		t.Run(c.name, func(t *testing.T) {
			againstEnvoyGateway(t, resolve.ReasonResolvedRefs, c.reason, func(opts resolve.Options) resolve.Condition {
				return resolvetest.Route(t, resolvetest.Resolve(t, opts, docs(c.ref)...), resolve.KindHTTPRoute, "app", "r").ResolvedRefs
			})
		})
	}
}

// Where an EnvoyProxy sends telemetry: under Envoy Gateway a Service
// backendRef to a missing Service, or to one without the port, refuses
// the Gateway (InvalidParameters) after its listeners are translated,
// whose status stays.
func TestProxyTelemetry(t *testing.T) {
	docs := func(backendRef string) []string {
		return []string{resolvetest.World, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: edge}
spec:
  controllerName: example.com/gateway
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, namespace: infra, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec:
  telemetry:
    tracing:
      provider: {type: OpenTelemetry, backendRefs: [` + backendRef + `]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: edge
  listeners: [{name: http, protocol: HTTP, port: 80}]`}
	}
	for _, c := range []struct {
		name, ref string
		reason    resolve.Reason // the Gateway's Accepted reason under Envoy Gateway
	}{
		{"a Service with the port", "{name: web, namespace: app, port: 8080}", resolve.ReasonAccepted},
		{"a Service without the port", "{name: web, namespace: app, port: 4317}", resolve.ReasonInvalidParameters},
		{"a missing Service", "{name: collector, namespace: app, port: 4317}", resolve.ReasonInvalidParameters},
	} {
		t.Run(c.name, func(t *testing.T) {
			againstEnvoyGateway(t, resolve.ReasonAccepted, c.reason, func(opts resolve.Options) resolve.Condition {
				g := resolvetest.Resolve(t, opts, docs(c.ref)...)
				if listeners := resolvetest.GatewayStatus(t, g, "infra", "edge").Listeners; len(listeners) != 1 {
					t.Errorf("listener status %v, want the listener's", listeners)
				}
				return g.Gateway("infra", "edge").Accepted
			})
		})
	}
}

// againstEnvoyGateway wants the condition judge returns to have reason
// want under the default profile and eg under Envoy Gateway's, with
// --strict-refs.
func againstEnvoyGateway(t *testing.T, want, eg resolve.Reason, judge func(resolve.Options) resolve.Condition) {
	t.Helper()
	for _, run := range []struct {
		impl   string
		reason resolve.Reason
	}{{"", want}, {"envoy-gateway", eg}} {
		opts := judgedBy(t, run.impl)
		opts.StrictRefs = true
		if got := judge(opts); got.Reason != run.reason {
			t.Errorf("%q: %s %s (%s), want %s", run.impl, got.Type, got.Reason, got.Message, run.reason)
		}
	}
}

// A GatewayClass's parametersRef without a namespace: Envoy Gateway looks
// its EnvoyProxy up in "default", so it is found there and judged.
func TestProxyOfClassWithoutNamespace(t *testing.T) {
	opts := byClass
	opts.StrictRefs = true
	g := resolvetest.Resolve(t, opts, resolvetest.World, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: proxy}
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: default}
spec: {provider: {type: Host}}`)
	for _, c := range g.GatewayClasses {
		if proxy := envoygateway.ClassProxy(g, c); c.Ref.Name == "eg" && (proxy == nil || c.Accepted.Reason != resolve.ReasonInvalidParameters) {
			t.Errorf("GatewayClass eg: Proxy %v, Accepted %s (%s); want EnvoyProxy default/proxy, InvalidParameters", proxy, c.Accepted.Reason, c.Accepted.Message)
		}
	}
}

// A Gateway's EnvoyProxy that the inputs do not hold is external, unless
// --strict-refs says they hold every object: Envoy Gateway's kinds are
// read (resolve.KindReader), so its absence is then known.
func TestProxyMissing(t *testing.T) {
	for _, c := range []struct {
		strict bool
		want   resolve.Reason // the Gateway's Accepted reason
	}{{false, resolve.ReasonAccepted}, {true, resolve.ReasonInvalidParameters}} {
		opts := byClass
		opts.StrictRefs = c.strict
		g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: p, namespace: infra}
spec:
  gatewayClassName: eg
  infrastructure: {parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: proxy}}
  listeners: [{name: http, protocol: HTTP, port: 80}]`)
		if gw := g.Gateway("infra", "p"); gw.Accepted.Reason != c.want {
			t.Errorf("--strict-refs %v: Accepted %s (%s), want %s", c.strict, gw.Accepted.Reason, gw.Accepted.Message, c.want)
		}
	}
}
