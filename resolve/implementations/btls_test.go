package implementations_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// caCert is a self-signed CA certificate, valid until 2191.
const caCert = `-----BEGIN CERTIFICATE-----
MIIBejCCASGgAwIBAgIUFDy2CeWi6/pJTH0jgk72acqGLZAwCgYIKoZIzj0EAwIw
EjEQMA4GA1UEAwwHdGVzdC1jYTAgFw0yNjExMjcxMjE1NTJaGA8yMTkxMDMwNzEy
MTU1MlowEjEQMA4GA1UEAwwHdGVzdC1jYTBZMBMGByqGSM49AgEGCCqGSM49AwEH
A0IABDWmW257s66EJ4k7qtRkfWe7y99q5RhKz4CINsXey8aUGVEQ/fSH/whT9asW
cCiAKA775jDOfQ4wT8BBw21L6CSjUzBRMB0GA1UdDgQWBBRTjAFjkbtHu+5+gdo/
/GbPG8nRbDAfBgNVHSMEGDAWgBRTjAFjkbtHu+5+gdo//GbPG8nRbDAPBgNVHRMB
Af8EBTADAQH/MAoGCCqGSM49BAMCA0cAMEQCIF7tzdXk/s8vp/G5u4Asab6MxJ2m
rjZ6LJZ4BlcH3xP6AiB3AlGJMyTkrzSGudriA42GusN2uiIYTfYR1Jg7PVqvVg==
-----END CERTIFICATE-----
`

// caNotPEM is a ca.crt that looks like a PEM certificate and is not one.
const caNotPEM = "-----BEGIN CERTIFICATE-----\nMIIDUDCC\n-----END CERTIFICATE-----\n"

// caConfigMap is ConfigMap app/name with caCrt under ca.crt.
func caConfigMap(name, caCrt string) string {
	return fmt.Sprintf(`
apiVersion: v1
kind: ConfigMap
metadata: {name: %s, namespace: app}
data: {ca.crt: %q}`, name, caCrt)
}

// BackendTLSPolicy: where each implementation writes the policy's status,
// how it reads CA certificates, and whether a route reports a backend whose
// policy fails.
func TestBackendTLSPolicy(t *testing.T) {
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec: {gatewayClassName: ` + class + `, listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]}`
	}
	const route = `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: edge, namespace: infra, sectionName: http}, {name: edge, namespace: infra, port: 80}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	policy := func(target, cas string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [` + target + `]
  validation: {hostname: web.app, caCertificateRefs: [` + cas + `]}`
	}
	const (
		web       = `{group: "", kind: Service, name: web}`
		goodCA    = `{group: "", kind: ConfigMap, name: ca}`
		missingCA = `{group: "", kind: ConfigMap, name: nope}`
		eg        = "gateway.envoyproxy.io/gatewayclass-controller"
	)
	// The bundle under tls.crt, where the API names ca.crt.
	tlsCrtOnly := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca-tls, namespace: app}\ndata: {tls.crt: %q}", caCert)
	type verdict struct {
		accepted resolve.Reason // the policy's Accepted reason
		route    resolve.Reason // the route's ResolvedRefs reason
		// ancestors are the status.ancestors entries, each
		// "controller Kind ns/name[/section][:port] AcceptedReason".
		ancestors []string
	}
	gatewayAncestor := func(controller string, accepted resolve.Reason) []string {
		return []string{controller + " Gateway infra/edge " + string(accepted)}
	}
	egAncestors := func(accepted resolve.Reason) []string {
		return []string{eg + " Gateway infra/edge/http " + string(accepted), eg + " Gateway infra/edge:80 " + string(accepted)}
	}
	istioAncestors := func(accepted resolve.Reason) []string {
		return []string{"istio.io/mesh-controller Service /web " + string(accepted), "istio.io/gateway-controller Gateway infra/edge " + string(accepted)}
	}
	cases := []struct {
		name, policy     string
		every, eg, istio verdict
	}{{
		name: "valid policy", policy: policy(web, goodCA),
		every: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonAccepted)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonAccepted)},
	}, {
		name: "missing CA ConfigMap", policy: policy(web, missingCA),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonNoValidCACertificate, envoygateway.ReasonInvalidBackendTLS, egAncestors(resolve.ReasonNoValidCACertificate)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// The API accepts the policy while one CA is usable; Envoy Gateway
		// fails it on any unusable one.
		name: "one usable CA of two", policy: policy(web, goodCA+", "+missingCA),
		every: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonAccepted)},
		eg:    verdict{resolve.ReasonNoValidCACertificate, envoygateway.ReasonInvalidBackendTLS, egAncestors(resolve.ReasonNoValidCACertificate)},
		istio: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonAccepted)},
	}, {
		name: "CA under tls.crt", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-tls}`),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// Envoy Gateway passes the bundle to Envoy unparsed.
		name: "CA that is not PEM", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-garbled}`),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		name: "ClusterTrustBundle CA", policy: policy(web, `{group: certificates.k8s.io, kind: ClusterTrustBundle, name: bundle}`),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// Envoy Gateway reads the kind alone.
		name: "ClusterTrustBundle CA of group core", policy: policy(web, `{group: "", kind: ClusterTrustBundle, name: bundle}`),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// An SDS reference: Envoy Gateway fetches the CA from the socket.
		name: "SDS reference CA", policy: policy(web, `{group: "", kind: Secret, name: ca-sds}`),
		every: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonNoValidCACertificate)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonNoValidCACertificate, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// The API accepts the policy while one CA is usable and reports the
		// other kind; Envoy Gateway ignores a kind it does not take
		// beside one it takes (SkipsOtherKinds).
		name: "a CA of another kind beside a usable one", policy: policy(web, goodCA+`, {group: example.com, kind: Vault, name: ca}`),
		every: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, gatewayAncestor("example.com/acme", resolve.ReasonAccepted)},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, egAncestors(resolve.ReasonAccepted)},
		istio: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, istioAncestors(resolve.ReasonAccepted)},
	}, {
		// No route reaches the target: only Istio's per-target entry.
		name: "missing Service", policy: policy(`{group: "", kind: Service, name: web-v9}`, goodCA),
		every: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, nil},
		eg:    verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, nil},
		istio: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, []string{"istio.io/mesh-controller Service /web-v9 TargetNotFound"}},
	}, {
		name: "Envoy Gateway Backend target", policy: policy(`{group: gateway.envoyproxy.io, kind: Backend, name: web}`, goodCA),
		every: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, nil},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, nil},
		istio: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, []string{"istio.io/mesh-controller Backend /web TargetNotFound"}},
	}, {
		name: "ServiceImport target", policy: policy(`{group: multicluster.x-k8s.io, kind: ServiceImport, name: web}`, goodCA),
		every: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, nil},
		eg:    verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, nil},
		istio: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, []string{"istio.io/mesh-controller ServiceImport /web TargetNotFound"}},
	}}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        verdict
		}{{"", "acme", c.every}, {"envoy-gateway", "eg", c.eg}, {"istio", "istio", c.istio}} {
			opts := resolvetest.JudgedBy(t, judges[run.impl])
			opts.OwnedNamespaces = []string{"infra", "app", "other", "edge"}
			g := resolvetest.Resolve(t, opts, resolvetest.World, classes, gateway(run.class), route,
				caConfigMap("ca", caCert), caConfigMap("ca-garbled", caNotPEM), tlsCrtOnly, c.policy, `
apiVersion: v1
kind: Secret
metadata: {name: ca-sds, namespace: app}
type: gateway.envoyproxy.io/sds
stringData: {secretName: ROOTCA, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"}`)
			p := g.TLSPolicies[0]
			var ancestors []string
			for i := range p.Ancestors {
				a := &p.Ancestors[i]
				accepted, _ := a.Conditions(p)
				ancestors = append(ancestors, fmt.Sprintf("%s %s %s %s", a.ControllerName, *a.Ref.Kind, resolvetest.ParentRefName(a.Ref), accepted.Reason))
			}
			r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
			got := verdict{p.Accepted.Reason, r.ResolvedRefs.Reason, ancestors}
			if !reflect.DeepEqual(got, run.want) {
				t.Errorf("%s under %s:\n got %+v (%s)\nwant %+v", c.name, run.class, got, p.Accepted.Message, run.want)
			}
		}
	}
}
