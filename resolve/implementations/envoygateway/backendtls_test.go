package envoygateway_test

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// BackendTLSPolicy under Envoy Gateway: one status entry per route
// parentRef, CA certificates read as its translator reads them, and a
// route that reports a backend whose policy fails.
func TestBackendTLSPolicy(t *testing.T) {
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
	tlsCrtOnly := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: ca-tls, namespace: app}\ndata: {tls.crt: %q}", inlineCert)
	type verdict struct {
		accepted resolve.Reason // the policy's Accepted reason
		route    resolve.Reason // the route's ResolvedRefs reason
		// ancestors are the status.ancestors entries, each
		// "controller Kind ns/name[/section][:port] AcceptedReason".
		ancestors []string
	}
	ancestors := func(accepted resolve.Reason) []string {
		return []string{eg + " Gateway infra/edge/http " + string(accepted), eg + " Gateway infra/edge:80 " + string(accepted)}
	}
	cases := []struct {
		name, policy string
		want         verdict
	}{{
		name: "valid policy", policy: policy(web, goodCA),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		name: "missing CA ConfigMap", policy: policy(web, missingCA),
		want: verdict{resolve.ReasonNoValidCACertificate, envoygateway.ReasonInvalidBackendTLS, ancestors(resolve.ReasonNoValidCACertificate)},
	}, {
		// The API accepts the policy while one CA is usable; Envoy Gateway
		// fails it on any unusable one.
		name: "one usable CA of two", policy: policy(web, goodCA+", "+missingCA),
		want: verdict{resolve.ReasonNoValidCACertificate, envoygateway.ReasonInvalidBackendTLS, ancestors(resolve.ReasonNoValidCACertificate)},
	}, {
		name: "CA under tls.crt", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-tls}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		// Envoy Gateway passes the bundle to Envoy unparsed.
		name: "CA that is not PEM", policy: policy(web, `{group: "", kind: ConfigMap, name: ca-garbled}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		name: "ClusterTrustBundle CA", policy: policy(web, `{group: certificates.k8s.io, kind: ClusterTrustBundle, name: bundle}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		// Envoy Gateway reads the kind alone.
		name: "ClusterTrustBundle CA of group core", policy: policy(web, `{group: "", kind: ClusterTrustBundle, name: bundle}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		// An SDS reference: Envoy Gateway fetches the CA from the socket.
		name: "SDS reference CA", policy: policy(web, `{group: "", kind: Secret, name: ca-sds}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		// The API accepts the policy while one CA is usable and reports the
		// other kind; Envoy Gateway ignores a kind it does not take
		// beside one it takes (SkipsOtherKinds).
		name: "a CA of another kind beside a usable one", policy: policy(web, goodCA+`, {group: example.com, kind: Vault, name: ca}`),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, ancestors(resolve.ReasonAccepted)},
	}, {
		name: "missing Service", policy: policy(`{group: "", kind: Service, name: web-v9}`, goodCA),
		want: verdict{resolve.ReasonTargetNotFound, resolve.ReasonResolvedRefs, nil},
	}, {
		name: "Envoy Gateway Backend target", policy: policy(`{group: gateway.envoyproxy.io, kind: Backend, name: web}`, goodCA),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, nil},
	}, {
		name: "ServiceImport target", policy: policy(`{group: multicluster.x-k8s.io, kind: ServiceImport, name: web}`, goodCA),
		want: verdict{resolve.ReasonAccepted, resolve.ReasonResolvedRefs, nil},
	}}
	for _, c := range cases {
		opts := judgedBy(t, "envoy-gateway")
		opts.OwnedNamespaces = owned
		g := resolvetest.Resolve(t, opts, resolvetest.World, egClass, edge("eg"), route,
			caConfigMap("app", "ca", inlineCert), caConfigMap("app", "ca-garbled", caNotPEM), tlsCrtOnly, c.policy, `
apiVersion: v1
kind: Secret
metadata: {name: ca-sds, namespace: app}
type: gateway.envoyproxy.io/sds
stringData: {secretName: ROOTCA, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"}`)
		p := g.TLSPolicies[0]
		var got []string
		for i := range p.Ancestors {
			a := &p.Ancestors[i]
			accepted, _ := a.Conditions(p)
			name := string(*a.Ref.Namespace) + "/" + string(a.Ref.Name)
			if a.Ref.SectionName != nil {
				name += "/" + string(*a.Ref.SectionName)
			}
			if a.Ref.Port != nil {
				name += fmt.Sprintf(":%d", *a.Ref.Port)
			}
			got = append(got, fmt.Sprintf("%s %s %s %s", a.ControllerName, *a.Ref.Kind, name, accepted.Reason))
		}
		r := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r")
		if v := (verdict{p.Accepted.Reason, r.ResolvedRefs.Reason, got}); !reflect.DeepEqual(v, c.want) {
			t.Errorf("%s:\n got %+v (%s)\nwant %+v", c.name, v, p.Accepted.Message, c.want)
		}
	}
}
