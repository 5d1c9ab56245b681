package envoygateway_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Envoy Gateway refuses a policy whose own fields it cannot translate (a
// backend, Secret or ConfigMap that does not exist, a value out of range):
// the policy's ancestor is Accepted=False/Invalid, with its translator's
// message. An object the inputs may merely lack refuses nothing.
func TestPolicyInvalid(t *testing.T) {
	base := []string{egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: eg, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}
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
metadata: {name: web, namespace: app}
spec: {ports: [{name: http, port: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: authz, namespace: app}
spec: {ports: [{name: grpc, port: 9000}]}`}
	onRoute := `targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: shop}]`
	onGateway := `targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge}]`
	policy := func(kind, ns, spec string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ` + kind + `
metadata: {name: p, namespace: ` + ns + `}
spec:
  ` + spec
	}
	for _, c := range []struct {
		name   string
		kind   string
		docs   []string
		strict bool
		config envoygateway.Config
		want   string // Accepted's message, "" for Accepted=True
	}{{
		name: "extAuth to a Service that exists", kind: envoygateway.KindSecurityPolicy, strict: true,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  extAuth: {grpc: {backendRefs: [{name: authz, port: 9000}]}}")},
	}, {
		name: "extAuth to a Service that does not exist", kind: envoygateway.KindSecurityPolicy, strict: true,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  extAuth: {grpc: {backendRefs: [{name: authn, port: 9000}]}}")},
		want: "ExtAuth: service app/authn not found.",
	}, {
		name: "extAuth to a Service the inputs may lack", kind: envoygateway.KindSecurityPolicy,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  extAuth: {grpc: {backendRefs: [{name: checker, port: 9000}]}}")},
	}, {
		// A slip of the name of a Service beside it is evidence enough.
		name: "extAuth to a misspelt Service", kind: envoygateway.KindSecurityPolicy,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  extAuth: {grpc: {backendRefs: [{name: authn, port: 9000}]}}")},
		want: "ExtAuth: service app/authn not found.",
	}, {
		name: "extAuth to a port the Service lacks", kind: envoygateway.KindSecurityPolicy,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  extAuth: {http: {backendRefs: [{name: authz, port: 9001}]}}")},
		want: "ExtAuth: TCP Port 9001 not found on service app/authz.",
	}, {
		name: "extAuth to another namespace without a ReferenceGrant", kind: envoygateway.KindSecurityPolicy,
		docs: []string{policy("SecurityPolicy", "infra", onGateway+"\n  extAuth: {grpc: {backendRefs: [{name: authz, namespace: app, port: 9000}]}}")},
		want: "ExtAuth: backend ref to Service app/authz not permitted by any ReferenceGrant.",
	}, {
		name: "basicAuth users Secret that does not exist, and extAuth", kind: envoygateway.KindSecurityPolicy, strict: true,
		docs: []string{policy("SecurityPolicy", "app", onRoute+"\n  basicAuth: {users: {name: users}}\n  extAuth: {grpc: {backendRefs: [{name: authn, port: 9000}]}}")},
		want: "BasicAuth: secret app/users does not exist\nExtAuth: service app/authn not found.",
	}, {
		name: "OIDC client Secret without its key", kind: envoygateway.KindSecurityPolicy,
		docs: []string{policy("SecurityPolicy", "app", onRoute+`
  oidc: {provider: {issuer: "https://idp.example.com"}, clientID: shop, clientSecret: {name: oidc}}`), `
apiVersion: v1
kind: Secret
metadata: {name: oidc, namespace: app}
data: {secret: c2VjcmV0}`},
		want: "OIDC: client secret not found in secret app/oidc.",
	}, {
		name: "Lua from a ConfigMap that does not exist", kind: envoygateway.KindEnvoyExtensionPolicy, strict: true,
		docs: []string{policy("EnvoyExtensionPolicy", "app", onRoute+"\n  lua: [{type: ValueRef, valueRef: {group: v1, kind: ConfigMap, name: script}}]")},
		want: "Lua: can't find the referenced configmap script in namespace app.",
	}, {
		name: "Lua where its configuration disables it", kind: envoygateway.KindEnvoyExtensionPolicy, config: envoygateway.Config{LuaDisabled: true},
		docs: []string{policy("EnvoyExtensionPolicy", "app", onRoute+"\n  lua: [{type: Inline, inline: 'function envoy_on_request(h) end'}]")},
		want: "Lua: Skipping Lua EnvoyExtensionPolicy as feature is disabled in the Gateway.",
	}, {
		name: "circuit breaker limit below 0", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+"\n  circuitBreaker: {maxConnections: -1}")},
		want: "CircuitBreaker: invalid MaxConnections value -1.",
	}, {
		name: "timeout that is no duration, consistent hash table size no prime", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  loadBalancer: {type: ConsistentHash, consistentHash: {type: SourceIP, tableSize: 1024}}
  timeout: {tcp: {connectTimeout: 20kib}}`)},
		want: "LoadBalancer: ConsistentHash: invalid TableSize value 1024\nTimeout: invalid ConnectTimeout value 20kib.",
	}, {
		name: "retry backoff below its base", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "app", onRoute+"\n  retry: {perRetry: {backOff: {baseInterval: 1s, maxInterval: 100ms}}}")},
		want: "Retry: maxInterval cannot be less than baseInterval.",
	}, {
		name: "local rate limits, one rule without selectors", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  rateLimit:
    local:
      rules:
      - limit: {requests: 100, unit: Minute}
      - clientSelectors: [{headers: [{name: x-user, type: Distinct}]}]
        limit: {requests: 10, unit: Hour}`)},
	}, {
		name: "local rate limits, two rules without selectors", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  rateLimit:
    type: Local
    local: {rules: [{limit: {requests: 10, unit: Minute}}, {limit: {requests: 20, unit: Minute}}]}`)},
		want: "RateLimit: local rateLimit can not have more than one rule without clientSelectors.",
	}, {
		name: "local rate limit whose unit is no multiple of the default's", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  rateLimit:
    local:
      rules:
      - limit: {requests: 1000, unit: Hour}
      - clientSelectors: [{sourceCIDR: {value: 192.168.0.0/16}}]
        limit: {requests: 10, unit: Minute}`)},
		want: "RateLimit: local rateLimit rule limit unit must be a multiple of the default limit unit.",
	}, {
		name: "global rate limit on an inverted distinct header", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  rateLimit:
    global: {rules: [{clientSelectors: [{headers: [{name: x-org, type: Distinct, invert: true}]}], limit: {requests: 10, unit: Hour}}]}`)},
		want: "RateLimit: unable to translate rateLimit.Invert is not applicable for distinct header match type.",
	}, {
		name: "global rate limit on a regex that does not compile", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+`
  rateLimit:
    global: {rules: [{clientSelectors: [{path: {type: RegularExpression, value: "*.x"}}], limit: {requests: 10, unit: Hour}}]}`)},
		want: "RateLimit: regex \"*.x\" is invalid: error parsing regexp: missing argument to repetition operator: `*`.",
	}, {
		name: "bandwidth limit below 1 KiB/s", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+"\n  bandwidthLimit: {request: {limit: {value: 1023, unit: Second}}}")},
		want: "BandwidthLimit: request: bandwidth limit of 1023 bytes per Second is below the minimum of 1 KiB/s.",
	}, {
		name: "bandwidth limit of 1 KiB/s", kind: envoygateway.KindBackendTrafficPolicy,
		docs: []string{policy("BackendTrafficPolicy", "infra", onGateway+"\n  bandwidthLimit: {response: {limit: {value: 60Ki, unit: Minute}}}")},
	}, {
		name: "client buffer limit out of range", kind: envoygateway.KindClientTrafficPolicy,
		docs: []string{policy("ClientTrafficPolicy", "infra", onGateway+"\n  connection: {bufferLimit: 100G}")},
		want: "Connection: BufferLimit value 100G is out of range, must be between 0 and 4294967295.",
	}, {
		name: "request header limit below 1Ki, HTTP/2 window too small", kind: envoygateway.KindClientTrafficPolicy,
		docs: []string{policy("ClientTrafficPolicy", "infra", onGateway+"\n  headers: {maxRequestHeaderLimit: 512}\n  http2: {initialStreamWindowSize: 1Ki}")},
		want: "Headers: MaxRequestHeaderLimit value 512 must be at least 1Ki\nHTTP2: InitialStreamWindowSize value 1Ki is out of range, must be between 65535 and 2147483647.",
	}, {
		name: "client timeouts that are durations", kind: envoygateway.KindClientTrafficPolicy,
		docs: []string{policy("ClientTrafficPolicy", "infra", onGateway+"\n  timeout: {http: {requestReceivedTimeout: 5s, idleTimeout: 1m}}")},
	}} {
		t.Run(c.name, func(t *testing.T) {
			opts := resolve.Options{StrictRefs: c.strict, Implementations: []resolve.Implementation{envoygateway.Implementation{Config: c.config}}}
			g := resolvetest.Resolve(t, opts, append(base, c.docs...)...)
			ns := "app"
			if g.Policy(resolve.ObjectRef{Kind: c.kind + "." + envoygateway.Group, Namespace: ns, Name: "p"}) == nil {
				ns = "infra"
			}
			p := g.Policy(resolve.ObjectRef{Kind: c.kind + "." + envoygateway.Group, Namespace: ns, Name: "p"})
			if p == nil || len(p.Ancestors) != 1 {
				t.Fatalf("want one ancestor of %s %s/p, policy %v", c.kind, ns, p)
			}
			checkInvalid(t, p.Ancestors[0].Accepted, c.want)
		})
	}
}

// A ClientTrafficPolicy on one plain HTTP listener that shares its port
// with another would change both: Envoy Gateway refuses it. On an HTTPS
// listener, or on the whole Gateway, it is accepted.
func TestClientTrafficPolicySamePort(t *testing.T) {
	gateway := egClass + `
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: eg
  listeners:
  - {name: shop, protocol: HTTP, port: 80, hostname: shop.example.com}
  - {name: blog, protocol: HTTP, port: 80, hostname: blog.example.com}
  - {name: admin, protocol: HTTP, port: 8080}`
	for _, c := range []struct{ name, target, want string }{
		{"a listener sharing its port", `sectionName: shop`,
			"ClientTrafficPolicy is being applied to multiple http (non https) listeners (infra/edge/blog) on the same port, which is not allowed."},
		{"a listener alone on its port", `sectionName: admin`, ""},
		{"the whole Gateway", ``, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := resolvetest.Resolve(t, byClass, gateway, `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: p, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge, `+c.target+`}]`)
			p := g.Policy(resolve.ObjectRef{Kind: envoygateway.KindClientTrafficPolicy + "." + envoygateway.Group, Namespace: "infra", Name: "p"})
			if p == nil || len(p.Ancestors) != 1 {
				t.Fatalf("want one ancestor, policy %v", p)
			}
			got := p.Ancestors[0].Accepted
			if (c.want == "") != (got.Status == "True") || (c.want != "" && got.Message != c.want) {
				t.Errorf("Accepted %s/%s %q, want %q", got.Status, got.Reason, got.Message, c.want)
			}
		})
	}
}

// checkInvalid checks an entry's Accepted: True when want is "", else
// False/Invalid with want as its message.
func checkInvalid(t *testing.T, got resolve.Condition, want string) {
	t.Helper()
	switch {
	case want == "" && got.Status != "True":
		t.Errorf("Accepted %s/%s %q, want True", got.Status, got.Reason, got.Message)
	case want != "" && (got.Status != "False" || got.Reason != envoygateway.ReasonInvalid || got.Message != want):
		t.Errorf("Accepted %s/%s %q, want False/Invalid %q", got.Status, got.Reason, got.Message, want)
	}
}

// A SecurityPolicy whose authorization matches client IP geolocations
// needs, on each HTTP listener it covers, the client IP detection of a
// ClientTrafficPolicy and the GeoIP provider of the Gateway's EnvoyProxy;
// where either is missing Envoy Gateway refuses it.
func TestSecurityPolicyGeoIP(t *testing.T) {
	const class = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec:
  controllerName: gateway.envoyproxy.io/gatewayclass-controller
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: proxy, namespace: infra}`
	withProxy := func(geoIP string) string {
		return class + `
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: EnvoyProxy
metadata: {name: proxy, namespace: infra}
spec: {` + geoIP + `}`
	}
	const cityDB = `geoIP: {provider: {type: MaxMind, maxMind: {cityDbSource: {local: {path: /db/city.mmdb}}}}}`
	detection := func(target, mode string) string {
		return `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: client-ip, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge` + target + `}]
  clientIPDetection: ` + mode
	}
	for _, c := range []struct {
		name string
		docs []string
		want string
	}{{
		name: "client IP from a header, a city database",
		docs: []string{withProxy(cityDB), detection("", "{customHeader: {name: x-client-ip}}")},
	}, {
		name: "no client IP detection",
		docs: []string{withProxy(cityDB)},
		want: "Authorization: authorization clientIPGeoLocations requires ClientTrafficPolicy.spec.clientIPDetection to be configured.",
	}, {
		name: "client IP detection on the other listener only",
		docs: []string{withProxy(cityDB), detection(", sectionName: admin", "{customHeader: {name: x-client-ip}}")},
		want: "Authorization: authorization clientIPGeoLocations requires ClientTrafficPolicy.spec.clientIPDetection to be configured.",
	}, {
		name: "X-Forwarded-For with trusted CIDRs",
		docs: []string{withProxy(cityDB), detection("", "{xForwardedFor: {trustedCIDRs: [10.0.0.0/8]}}")},
		want: "Authorization: authorization clientIPGeoLocations does not support ClientIPDetection.XForwardedFor.TrustedCIDRs.",
	}, {
		name: "no GeoIP provider",
		docs: []string{withProxy(""), detection("", "{customHeader: {name: x-client-ip}}")},
		want: "Authorization: authorization clientIPGeoLocations requires EnvoyProxy.spec.geoIP.provider to be configured.",
	}, {
		name: "a provider without the city database",
		docs: []string{withProxy(`geoIP: {provider: {type: MaxMind, maxMind: {countryDbSource: {local: {path: /db/country.mmdb}}}}}`), detection("", "{customHeader: {name: x-client-ip}}")},
		want: "Authorization: authorization clientIPGeoLocations.city requires EnvoyProxy.spec.geoIP.provider.maxMind.cityDbSource.",
	}, {
		// The EnvoyProxy may exist where the inputs do not show it.
		name: "an EnvoyProxy the inputs lack",
		docs: []string{class, detection("", "{customHeader: {name: x-client-ip}}")},
	}} {
		t.Run(c.name, func(t *testing.T) {
			g := resolvetest.Resolve(t, byClass, append(c.docs, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: eg
  listeners: [{name: http, protocol: HTTP, port: 80}, {name: admin, protocol: HTTP, port: 8080}]
---
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: p, namespace: infra}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: Gateway, name: edge, sectionName: http}]
  authorization:
    defaultAction: Deny
    rules: [{action: Allow, principal: {clientIPGeoLocations: [{country: US, city: Seattle}]}}]`)...)
			p := g.Policy(resolve.ObjectRef{Kind: envoygateway.KindSecurityPolicy + "." + envoygateway.Group, Namespace: "infra", Name: "p"})
			if p == nil || len(p.Ancestors) != 1 {
				t.Fatalf("want one ancestor, policy %v", p)
			}
			checkInvalid(t, p.Ancestors[0].Accepted, c.want)
		})
	}
}
