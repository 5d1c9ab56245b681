package envoygateway_test

import (
	"encoding/base64"
	"reflect"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/resolvetest"
	"github.com/gwlint/gwlint/resolve/trace"
)

// judgedBy returns the Options of --implementation impl ("": none, each
// Gateway's class chooses its profile).
func judgedBy(t *testing.T, impl string) resolve.Options {
	if impl == "" {
		return resolvetest.JudgedBy(t, nil)
	}
	return resolvetest.JudgedBy(t, envoygateway.Implementation{})
}

// inlineSecret is a kubernetes.io/tls Secret infra/inline of a
// certificate for inline.example.com, valid until 2191.
var inlineSecret = `
apiVersion: v1
kind: Secret
metadata: {name: inline, namespace: infra}
type: kubernetes.io/tls
data: {tls.crt: ` + base64.StdEncoding.EncodeToString([]byte(inlineCert)) + `, tls.key: ` + base64.StdEncoding.EncodeToString([]byte(inlineKey)) + `}`

const inlineCert = `-----BEGIN CERTIFICATE-----
MIIBsDCCAVagAwIBAgIUW0oiH6t67lp+w7d7QaG6oIJGiz4wCgYIKoZIzj0EAwIw
HTEbMBkGA1UEAwwSaW5saW5lLmV4YW1wbGUuY29tMCAXDTI2MTEyNzExNDEzMFoY
DzIxOTEwMzA3MTE0MTMwWjAdMRswGQYDVQQDDBJpbmxpbmUuZXhhbXBsZS5jb20w
WTATBgcqhkjOPQIBBggqhkjOPQMBBwNCAAT0hkfuiQanK52KGY65VO5qPXLmZVDn
knda/lMl06pzUNSVd82DWKFpMr7AF24KlT7PTcnVEl3BJMqRmwKjA6oxo3IwcDAd
BgNVHQ4EFgQUYuCuBDQ+FEWzR8JHWyNbeFRcOsUwHwYDVR0jBBgwFoAUYuCuBDQ+
FEWzR8JHWyNbeFRcOsUwDwYDVR0TAQH/BAUwAwEB/zAdBgNVHREEFjAUghJpbmxp
bmUuZXhhbXBsZS5jb20wCgYIKoZIzj0EAwIDSAAwRQIgNZOHhRrjAnLa7mdvN4tf
kbaQ/auJx6iHvmCY+SLWU2MCIQCm/g+g2QHvpTFHYcwqITgg+7SFpckq+rTgpe/+
O01mIg==
-----END CERTIFICATE-----
`

const inlineKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg8C3UG3tg/k5h8Qp8
2ggXi+kBcP04OOeqTRXNG6URxa6hRANCAAT0hkfuiQanK52KGY65VO5qPXLmZVDn
knda/lMl06pzUNSVd82DWKFpMr7AF24KlT7PTcnVEl3BJMqRmwKjA6ox
-----END PRIVATE KEY-----
`

func TestRoutesOnConflictedListeners(t *testing.T) {
	// Two listeners on port 80 of one Gateway conflict (HTTP and HTTPS:
	// ProtocolConflict; two HTTP without hostnames: HostnameConflict), and a
	// ListenerSet's listener loses to the Gateway's on port 80.
	gateway := func(class string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: conflicts, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  allowedListeners: {namespaces: {from: Same}}
  listeners:
  - {name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}
  - name: https
    protocol: HTTPS
    port: 80
    allowedRoutes: {namespaces: {from: All}}
    tls: {certificateRefs: [{name: cert}]}
  - {name: a, protocol: HTTP, port: 8080, allowedRoutes: {namespaces: {from: All}}}
  - {name: b, protocol: HTTP, port: 8080, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: infra}
spec:
  parentRef: {name: conflicts}
  listeners:
  - {name: clash, protocol: TCP, port: 8080, allowedRoutes: {namespaces: {from: All}}}
  - {name: spare, protocol: TCP, port: 9000, allowedRoutes: {namespaces: {from: All}}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  parentRefs: [{name: conflicts, namespace: infra}]
  rules: [{backendRefs: [{name: web, port: 8080}]}, {backendRefs: [{name: web, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1alpha2
kind: TCPRoute
metadata: {name: db, namespace: app}
spec:
  parentRefs: [{kind: ListenerSet, name: extra, namespace: infra, sectionName: clash}]
  rules: [{backendRefs: [{name: web, port: 8080}]}]`
	}
	for _, c := range []struct {
		name, class string
		// web is the HTTPRoute's Accepted reason, attached the
		// attachedRoutes of every Gateway listener, kinds the number of
		// kinds of https; db is the TCPRoute's reason (always refused: a
		// ListenerSet's conflicted listener takes no route).
		web, db  resolve.Reason
		attached int32
		kinds    int
	}{
		{"every feature", "acme", resolve.ReasonNotAllowedByListeners, resolve.ReasonNotAllowedByListeners, 0, 0},
		{"envoy-gateway", "eg", resolve.ReasonAccepted, resolve.ReasonNotAllowedByListeners, 1, 2},
	} {
		g := resolvetest.Resolve(t, byClass, resolvetest.World, egClass, gateway(c.class))
		gw := g.Gateway("infra", "conflicts")
		for _, l := range gw.Listeners {
			if !l.Conflicted.True() || l.Programmed.True() {
				t.Errorf("%s: listener %s: Conflicted %s, Programmed %s; want conflicted, not programmed", c.name, l.Name, l.Conflicted.Status, l.Programmed.Status)
			}
			if l.AttachedRoutes != c.attached {
				t.Errorf("%s: listener %s: attachedRoutes %d, want %d", c.name, l.Name, l.AttachedRoutes, c.attached)
			}
		}
		if got := len(gw.Listeners[1].SupportedKinds); got != c.kinds {
			t.Errorf("%s: listener https: %d supported kinds, want %d", c.name, got, c.kinds)
		}
		web := resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "web").Parents[0].Accepted
		if web.Reason != c.web {
			t.Errorf("%s: HTTPRoute web: %s (%s), want %s", c.name, web.Reason, web.Message, c.web)
		}
		if db := resolvetest.Route(t, g, resolve.KindTCPRoute, "app", "db").Parents[0].Accepted; db.Reason != c.db {
			t.Errorf("%s: TCPRoute db: %s (%s), want %s", c.name, db.Reason, db.Message, c.db)
		}
		// Attached or not, a conflicted listener serves nothing: no
		// request reaches the route, and its two identical rules shadow
		// nothing.
		if tr := trace.New(g).Trace(trace.Request{Scheme: trace.SchemeHTTP, Host: "conflicts.example.com", Port: 8080, Path: "/"}); tr.Listener != nil {
			t.Errorf("%s: a request on port 8080 is taken by listener %s", c.name, tr.Listener.Name)
		}
		if len(g.Shadows) != 0 {
			t.Errorf("%s: shadows on conflicted listeners: %+v", c.name, g.Shadows)
		}
	}
}

// Routes to ListenerSets that are not accepted: the API's reading refuses
// them (NoMatchingParent); Envoy Gateway lets an admitted ListenerSet's
// listeners judge the route and writes nothing for one it did not admit.
func TestRoutesOnRefusedListenerSets(t *testing.T) {
	for _, c := range []struct {
		impl, class     string
		invalid, denied string // "Accepted reason" or "no status"
	}{
		{"", "acme", "NoMatchingParent", "NoMatchingParent"},
		{"envoy-gateway", "eg", "NotAllowedByListeners", "no status"},
	} {
		g := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  allowedListeners: {namespaces: {from: Same}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: invalid, namespace: infra}
spec:
  parentRef: {name: edge}
  listeners: [{name: odd, protocol: example.com/odd, port: 8085, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: denied, namespace: app}
spec:
  parentRef: {name: edge, namespace: infra}
  listeners: [{name: http, protocol: HTTP, port: 8086, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs:
  - {group: gateway.networking.k8s.io, kind: ListenerSet, name: invalid, namespace: infra}
  - {group: gateway.networking.k8s.io, kind: ListenerSet, name: denied}`)
		var got []string
		for _, p := range resolvetest.Route(t, g, resolve.KindHTTPRoute, "app", "r").Parents {
			if p.HasStatus() {
				got = append(got, string(p.Accepted.Reason))
			} else {
				got = append(got, "no status")
			}
		}
		if want := []string{c.invalid, c.denied}; !reflect.DeepEqual(got, want) {
			t.Errorf("class %s: route parents %v; want %v", c.class, got, want)
		}
	}
}

// A listener of a protocol nobody serves beside a valid one on its port:
// the API's reading conflicts them, Envoy Gateway leaves the invalid one out
// of conflict detection and serves the other.
func TestConflictsWithInvalidListeners(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		conflicted  resolve.Reason // the HTTP listener's
	}{{"", "acme", resolve.ReasonProtocolConflict}, {"envoy-gateway", "eg", resolve.ReasonNoConflicts}} {
		ls := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, egClass, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners:
  - {name: sctp, protocol: SCTP, port: 81}
  - {name: http, protocol: HTTP, port: 81}`).Gateway("infra", "edge").Listeners
		if ls[1].Conflicted.Reason != c.conflicted {
			t.Errorf("class %s: http Conflicted %s; want %s", c.class, ls[1].Conflicted.Reason, c.conflicted)
		}
	}
}

// An HTTPS listener served over SDS beside another on its port: Envoy
// Gateway cannot inspect the SDS certificates and marks them overlapping.
func TestSDSCertificateOpaque(t *testing.T) {
	for _, c := range []struct {
		impl, class string
		sds         resolve.Reason
	}{
		// A Secret without tls.crt: the listener is not programmed.
		{"", "acme", ""},
		{"envoy-gateway", "eg", envoygateway.ReasonSDSCertificateOpaque},
	} {
		g := resolvetest.Resolve(t, judgedBy(t, c.impl), resolvetest.World, egClass, inlineSecret, `
apiVersion: v1
kind: Secret
metadata: {name: spiffe, namespace: infra}
type: gateway.envoyproxy.io/sds
stringData: {secretName: default, url: "unix:///var/run/secrets/workload-spiffe-uds/socket"}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: `+c.class+`
  listeners:
  - {name: sds, hostname: sds.example.com, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: spiffe}]}}
  - {name: inline, hostname: inline.example.com, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: inline}]}}
  - {name: alone, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: spiffe}]}}`)
		ls := g.Gateway("infra", "edge").Listeners
		if got := [3]resolve.Reason{ls[0].OverlappingTLS.Reason, ls[1].OverlappingTLS.Reason, ls[2].OverlappingTLS.Reason}; got != [3]resolve.Reason{c.sds, "", ""} {
			t.Errorf("class %s: OverlappingTLSConfig reasons %v; want %q on the SDS listener alone", c.class, got, c.sds)
		}
	}
}
