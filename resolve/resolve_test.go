package resolve

import (
	"math"
	"os"
	"slices"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/resolve/crd"
)

// world is a small cluster the cases below add routes and objects to: a
// GatewayClass, a Gateway "gw" in infra with an HTTP listener on 80, an
// HTTPS listener for *.example.com on 443 and a TCP listener on 9000, and
// Services in the app namespace. resolvetest.World is the same, for the
// tests of other packages.
var world = func() string {
	data, err := os.ReadFile("resolvetest/world.yaml")
	if err != nil {
		panic(err)
	}
	return string(data)
}()

// owned holds the namespaces the cases declare (world's infra, app and
// other, and edge) whole, as a repository that keeps every object of them
// does: an object they lack there does not exist.
var owned = Options{OwnedNamespaces: []string{"infra", "app", "other", "edge"}}

func resolveYAML(t *testing.T, opts Options, docs ...string) *Graph {
	t.Helper()
	in := Load([]string{"-"}, strings.NewReader(strings.Join(docs, "\n---\n")), opts)
	for _, err := range in.Errors {
		t.Fatalf("unexpected read error: %v", err)
	}
	return Resolve(in, opts)
}

func mustRoute(t *testing.T, g *Graph, kind, ns, name string) *RouteResult {
	t.Helper()
	rs := g.FindRoutes(kind, ns, name)
	if len(rs) != 1 {
		t.Fatalf("want one %s %s/%s, found %d", kind, ns, name, len(rs))
	}
	return rs[0]
}

func TestParentRefAttachment(t *testing.T) {
	cases := []struct {
		name, route string
		// reason is the Accepted reason of spec.parentRefs[0]; listeners
		// the names of the listeners it attached to.
		reason    Reason
		listeners []string
	}{{
		// ParentReference.SectionName: "When unspecified (empty string),
		// this will reference the entire resource."
		name: "whole gateway attaches to every listener that allows it",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra}], hostnames: [shop.example.com]}`,
		reason: "Accepted", listeners: []string{"http", "https"},
	}, {
		name: "sectionName selects one listener",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: https}]}`,
		reason: "Accepted", listeners: []string{"https"},
	}, {
		// RouteReasonNoMatchingParent: "when a Route ParentRef specifies a
		// Port and/or SectionName that does not match any Listeners".
		name: "unknown sectionName",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: htps}]}`,
		reason: "NoMatchingParent",
	}, {
		// GEP-957: "When both Port and SectionName are specified, the name
		// and port of the selected listener must match both specified values."
		name: "port and sectionName name different listeners",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: http, port: 443}]}`,
		reason: "NoMatchingParent",
	}, {
		name: "port selects the listeners on it",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, port: 443}]}`,
		reason: "Accepted", listeners: []string{"https"},
	}, {
		name: "port no listener has",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, port: 8443}]}`,
		reason: "NoMatchingParent",
	}, {
		// AllowedRoutes.Kinds defaults from the protocol: a TCP listener
		// carries TCPRoutes only.
		name: "kind not allowed by the listener",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: tcp}]}`,
		reason: "NotAllowedByListeners",
	}, {
		name: "namespace selector does not match",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: other}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: https}]}`,
		reason: "NotAllowedByListeners",
	}, {
		// HTTPRoute.Hostnames: "If a hostname is specified by both the
		// Listener and HTTPRoute, there must be at least one intersecting
		// hostname for the HTTPRoute to be attached to the Listener."
		name: "no hostname intersection",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra, sectionName: https}], hostnames: [example.com]}`,
		reason: "NoMatchingListenerHostname",
	}, {
		name: "TCPRoute ignores hostnames and attaches to the TCP listener",
		route: `
kind: TCPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra}], rules: [{backendRefs: [{name: web, port: 8080}]}]}`,
		reason: "Accepted", listeners: []string{"tcp"},
	}, {
		name: "parentRef kind the API does not know",
		route: `
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec: {parentRefs: [{group: example.com, kind: Proxy, name: p}]}`,
		reason: "UnsupportedValue",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			route := "apiVersion: gateway.networking.k8s.io/v1\n" + strings.TrimSpace(tc.route)
			g := resolveYAML(t, Options{}, world, route)
			r := g.Routes[0]
			p := r.Parents[0]
			if p.Accepted.Reason != tc.reason {
				t.Fatalf("Accepted reason = %s (%s), want %s", p.Accepted.Reason, p.Accepted.Message, tc.reason)
			}
			var got []string
			for _, o := range p.Listeners {
				if o.Accepted() {
					got = append(got, o.Listener.Name)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.listeners, ",") {
				t.Errorf("attached to %v, want %v", got, tc.listeners)
			}
		})
	}
}

func TestHostnameIntersection(t *testing.T) {
	cases := []struct {
		listener string
		route    []string
		want     []string
		ok       bool
		maybe    string // a hostname holding a placeholder that may intersect
	}{
		{"", nil, nil, true, ""},
		{"", []string{"a.example.com"}, []string{"a.example.com"}, true, ""},
		{"*.example.com", nil, []string{"*.example.com"}, true, ""},
		{"*.example.com", []string{"a.example.com", "a.b.example.com"}, []string{"a.example.com", "a.b.example.com"}, true, ""},
		// "*.example.com would match both test.example.com, and
		// foo.test.example.com, but not example.com".
		{"*.example.com", []string{"example.com"}, nil, false, ""},
		{"*.example.com", []string{"*.com"}, []string{"*.example.com"}, true, ""},
		{"a.example.com", []string{"*.example.com"}, []string{"a.example.com"}, true, ""},
		{"*.example.com", []string{"*.example.com"}, []string{"*.example.com"}, true, ""},
		{"a.example.com", []string{"b.example.com"}, nil, false, ""},
		// Placeholders: the same text on both sides is the same value.
		{"", []string{"radarr.${SECRET_DOMAIN}"}, []string{"radarr.${SECRET_DOMAIN}"}, true, ""},
		{"*.${SECRET_DOMAIN}", []string{"radarr.${SECRET_DOMAIN}"}, []string{"radarr.${SECRET_DOMAIN}"}, true, ""},
		{"radarr.${SECRET_DOMAIN}", []string{"radarr.${SECRET_DOMAIN}"}, []string{"radarr.${SECRET_DOMAIN}"}, true, ""},
		// The literal text allows an intersection: unknown.
		{"*.example.com", []string{"radarr.${SECRET_DOMAIN}"}, nil, false, "radarr.${SECRET_DOMAIN}"},
		{"*.${SECRET_DOMAIN}", []string{"radarr.example.com"}, nil, false, "*.${SECRET_DOMAIN}"},
		{"*.${A}", []string{"radarr.${B}"}, nil, false, "radarr.${B}"},
		{"radarr.example.com", []string{"${APP}.example.com"}, nil, false, "${APP}.example.com"},
		{"*.example.com", []string{"<path:kv/data/gw#host>"}, nil, false, "<path:kv/data/gw#host>"},
		// The literal text rules it out: refused as before.
		{"*.example.org", []string{"radarr.${DOMAIN}.com"}, nil, false, ""},
		{"web.example.com", []string{"app.${DOMAIN}"}, nil, false, ""},
		{"*.${DOMAIN}.org", []string{"radarr.example.com"}, nil, false, ""},
		// A certain match wins over a possible one.
		{"*.example.com", []string{"radarr.${D}", "a.example.com"}, []string{"a.example.com"}, true, "radarr.${D}"},
		{"*.example.com", []string{"${APP}.other.org"}, nil, false, ""},
	}
	for _, tc := range cases {
		got, ok, maybe := intersectHostnames(tc.listener, tc.route)
		if ok != tc.ok || strings.Join(got, ",") != strings.Join(tc.want, ",") || maybe != tc.maybe {
			t.Errorf("intersect(%q, %v) = %v, %v, %q; want %v, %v, %q", tc.listener, tc.route, got, ok, maybe, tc.want, tc.ok, tc.maybe)
		}
	}
}

func TestAttachedRoutes(t *testing.T) {
	// ListenerStatus.AttachedRoutes: "The AttachedRoutes number represents
	// the number of Routes with the Accepted condition set to True that
	// have been attached to this Listener."
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: a, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra}, {name: gw, namespace: infra, sectionName: http}], hostnames: [a.example.com]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: b, namespace: app}
spec: {parentRefs: [{name: gw, namespace: infra}], hostnames: [example.org]}`)
	want := map[string]int32{"http": 2, "https": 1, "tcp": 0}
	for _, l := range g.Gateways[0].Listeners {
		if l.AttachedRoutes != want[l.Name] {
			t.Errorf("listener %s attachedRoutes = %d, want %d", l.Name, l.AttachedRoutes, want[l.Name])
		}
	}
}

// otherSecret is a TLS Secret of infra that no listener of the cases
// names.
const otherSecret = `
apiVersion: v1
kind: Secret
metadata: {name: other, namespace: infra}
type: kubernetes.io/tls`

func TestListenerConditions(t *testing.T) {
	gateway := func(listeners string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: l, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:` + listeners
	}
	type want struct{ accepted, resolvedRefs, conflicted Reason }
	cases := []struct {
		name, listeners, extra string
		want                   map[string]want
		kinds                  map[string]string
		// opts are Options{} unless a case needs the namespace owned.
		opts Options
	}{{
		name: "HTTP and HTTPS on one port conflict",
		listeners: `
  - {name: a, protocol: HTTP, port: 8080}
  - {name: b, protocol: HTTPS, port: 8080, tls: {certificateRefs: [{name: cert}]}}`,
		want: map[string]want{
			"a": {"ProtocolConflict", "ResolvedRefs", "ProtocolConflict"},
			"b": {"ProtocolConflict", "ResolvedRefs", "ProtocolConflict"},
		},
		kinds: map[string]string{"a": "", "b": ""},
	}, {
		name: "same port, protocol and hostname conflict",
		listeners: `
  - {name: a, protocol: HTTP, port: 80, hostname: a.example.com}
  - {name: b, protocol: HTTP, port: 80, hostname: a.example.com}
  - {name: c, protocol: HTTP, port: 80, hostname: c.example.com}`,
		want: map[string]want{
			"a": {"HostnameConflict", "ResolvedRefs", "HostnameConflict"},
			"b": {"HostnameConflict", "ResolvedRefs", "HostnameConflict"},
			"c": {"Accepted", "ResolvedRefs", "NoConflicts"},
		},
	}, {
		name: "HTTPS and TLS share a port by SNI",
		listeners: `
  - {name: a, protocol: HTTPS, port: 443, hostname: a.example.com, tls: {certificateRefs: [{name: cert}]}}
  - {name: b, protocol: TLS, port: 443, hostname: b.example.com, tls: {mode: Passthrough}}`,
		want: map[string]want{
			"a": {"Accepted", "ResolvedRefs", "NoConflicts"},
			"b": {"Accepted", "ResolvedRefs", "NoConflicts"},
		},
		kinds: map[string]string{"a": "HTTPRoute,GRPCRoute", "b": "TLSRoute"},
	}, {
		name:      "unsupported protocol",
		listeners: "\n  - {name: a, protocol: example.com/quic, port: 443}",
		want:      map[string]want{"a": {"UnsupportedProtocol", "ResolvedRefs", "NoConflicts"}},
		kinds:     map[string]string{"a": ""},
	}, {
		// ListenerStatus.SupportedKinds: "If both valid and invalid Route
		// kinds are specified, the implementation MUST reference the valid
		// Route kinds that have been specified."
		name:      "invalid route kinds",
		listeners: "\n  - {name: a, protocol: HTTP, port: 80, allowedRoutes: {kinds: [{kind: HTTPRoute}, {kind: TCPRoute}]}}",
		want:      map[string]want{"a": {"Accepted", "InvalidRouteKinds", "NoConflicts"}},
		kinds:     map[string]string{"a": "HTTPRoute"},
	}, {
		name:      "certificate Secret missing",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: nope}]}}",
		extra:     otherSecret,
		opts:      owned,
		want:      map[string]want{"a": {"Accepted", "InvalidCertificateRef", "NoConflicts"}},
	}, {
		// Not owned, the namespace may hold Secrets elsewhere, but not one
		// a slip away from the name given.
		name:      "certificate Secret misspelt",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: ohter}]}}",
		extra:     otherSecret,
		want:      map[string]want{"a": {"Accepted", "InvalidCertificateRef", "NoConflicts"}},
	}, {
		name:      "certificate Secret outside the inputs",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: nope}]}}",
		extra:     otherSecret,
		want:      map[string]want{"a": {"Accepted", "ResolvedRefs", "NoConflicts"}},
	}, {
		name:      "cross-namespace certificate without ReferenceGrant",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: c, namespace: certs}]}}",
		extra: `
apiVersion: v1
kind: Secret
metadata: {name: c, namespace: certs}
type: kubernetes.io/tls`,
		want: map[string]want{"a": {"Accepted", "RefNotPermitted", "NoConflicts"}},
	}, {
		// Neither the Secret nor any grant of its namespace is among the
		// inputs: that namespace was not shown, so the ref is assumed fine.
		name:      "cross-namespace certificate outside the inputs",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: c, namespace: certs}]}}",
		want:      map[string]want{"a": {"Accepted", "ResolvedRefs", "NoConflicts"}},
	}, {
		name:      "cross-namespace certificate with ReferenceGrant",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: c, namespace: certs}]}}",
		extra: `
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: certs, namespace: certs}
spec:
  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: infra}]
  to: [{group: "", kind: Secret}]`,
		want: map[string]want{"a": {"Accepted", "ResolvedRefs", "NoConflicts"}},
	}, {
		name:      "certificate of the wrong kind",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{kind: ConfigMap, name: c}]}}",
		want:      map[string]want{"a": {"Accepted", "InvalidCertificateRef", "NoConflicts"}},
	}, {
		name:      "malformed certificate",
		listeners: "\n  - {name: a, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: bad}]}}",
		extra: `
apiVersion: v1
kind: Secret
metadata: {name: bad, namespace: infra}
type: kubernetes.io/tls
stringData: {tls.crt: not a certificate, tls.key: not a key}`,
		want: map[string]want{"a": {"Accepted", "InvalidCertificateRef", "NoConflicts"}},
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs := []string{world, gateway(tc.listeners)}
			if tc.extra != "" {
				docs = append(docs, tc.extra)
			}
			g := resolveYAML(t, tc.opts, docs...)
			gw := g.Gateway("infra", "l")
			for _, l := range gw.Listeners {
				w := tc.want[l.Name]
				got := want{l.Accepted.Reason, l.ResolvedRefs.Reason, l.Conflicted.Reason}
				if got != w {
					t.Errorf("listener %s: got %+v, want %+v (%s %s)", l.Name, got, w, l.Accepted.Message, l.ResolvedRefs.Message)
				}
				if kinds, ok := tc.kinds[l.Name]; ok {
					var names []string
					for _, k := range l.SupportedKinds {
						names = append(names, string(k.Kind))
					}
					if strings.Join(names, ",") != kinds {
						t.Errorf("listener %s supportedKinds = %v, want %q", l.Name, names, kinds)
					}
				}
			}
		})
	}
}

func TestGatewayAccepted(t *testing.T) {
	// GatewayReasonListenersNotValid: "This can be the reason when
	// "Accepted" is "True" or "False", depending on whether the listener
	// being invalid causes the entire Gateway to not be accepted."
	cases := []struct {
		listeners, status string
		reason            Reason
	}{
		{"\n  - {name: a, protocol: HTTP, port: 80}", "True", "Accepted"},
		{"\n  - {name: a, protocol: HTTP, port: 80}\n  - {name: b, protocol: FOO, port: 81}", "True", "ListenersNotValid"},
		{"\n  - {name: b, protocol: FOO, port: 81}", "False", "ListenersNotValid"},
	}
	for _, tc := range cases {
		g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: l, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:`+tc.listeners)
		gw := g.Gateway("infra", "l")
		if string(gw.Accepted.Status) != tc.status || gw.Accepted.Reason != tc.reason {
			t.Errorf("%s: Accepted = %s/%s, want %s/%s", tc.listeners, gw.Accepted.Status, gw.Accepted.Reason, tc.status, tc.reason)
		}
	}
}

func TestBackendRefs(t *testing.T) {
	cases := []struct {
		name, backend, extra string
		opts                 Options
		problem              BackendProblem
		reason               Reason
		presence             Presence
	}{
		{name: "service and port exist", backend: "{name: web, port: 8080}", presence: Present},
		// RouteReasonBackendNotFound: "a reference to a resource that does not exist".
		{name: "service missing from a namespace the inputs own", backend: "{name: gone, port: 80}",
			opts: owned, problem: NotFound, reason: "BackendNotFound", presence: Missing},
		// A Namespace object is no evidence that the inputs hold every
		// Service of it.
		{name: "service missing from a namespace the inputs define is unlisted", backend: "{name: gone, port: 80}",
			presence: Unlisted},
		// A slip of the name of a Service beside it is evidence.
		{name: "service misspelt", backend: "{name: wbe-v2, port: 8080}",
			problem: NotFound, reason: "BackendNotFound", presence: Missing},
		{name: "a short name is never taken for a slip", backend: "{name: wbe, port: 80}", presence: Unlisted},
		{name: "a numbered sibling is not a slip", backend: "{name: web-v3, port: 80}", presence: Unlisted},
		{name: "service in a namespace the inputs do not define is external", backend: "{name: db, namespace: data, port: 5432}",
			extra: grant("data", ""), presence: External},
		{name: "strict refs make external refs missing", backend: "{name: db, namespace: data, port: 5432}",
			extra: grant("data", ""), opts: Options{StrictRefs: true}, problem: NotFound, reason: "BackendNotFound", presence: Missing},
		{name: "port not on the Service", backend: "{name: web, port: 80}",
			problem: PortNotFound, reason: "BackendNotFound", presence: Present},
		// GEP-718: "Port is required when the referent is a Kubernetes Service."
		{name: "Service without port", backend: "{name: web}", problem: NoPort, reason: "UnsupportedValue", presence: Present},
		// RouteReasonRefNotPermitted, checked before existence as the
		// conformance suite's UDPRoute test expects.
		{name: "cross-namespace without ReferenceGrant", backend: "{name: db, namespace: data, port: 5432}",
			extra:   "apiVersion: v1\nkind: Service\nmetadata: {name: db, namespace: data}\nspec: {ports: [{port: 5432}]}",
			problem: NotPermitted, reason: "RefNotPermitted"},
		{name: "cross-namespace into a namespace outside the inputs", backend: "{name: db, namespace: data, port: 5432}",
			presence: External},
		{name: "strict refs: a namespace outside the inputs permits nothing", backend: "{name: db, namespace: data, port: 5432}",
			opts: Options{StrictRefs: true}, problem: NotPermitted, reason: "RefNotPermitted"},
		{name: "ReferenceGrant for another name", backend: "{name: db, namespace: data, port: 5432}",
			extra: grant("data", "cache"), problem: NotPermitted, reason: "RefNotPermitted"},
		{name: "ReferenceGrant for this name", backend: "{name: db, namespace: data, port: 5432}",
			extra: grant("data", "db"), presence: External},
		// RouteReasonInvalidKind: "a reference to an unknown or unsupported Group and/or Kind".
		{name: "unsupported kind", backend: "{group: example.com, kind: Bucket, name: b}",
			problem: UnsupportedRef, reason: "InvalidKind"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			docs := []string{world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [{backendRefs: [` + tc.backend + `]}]`}
			if tc.extra != "" {
				docs = append(docs, tc.extra)
			}
			r := resolveYAML(t, tc.opts, docs...).Routes[0]
			b := r.Rules[0].Backends[0]
			if b.Problem != tc.problem || b.Reason != tc.reason {
				t.Fatalf("problem=%q reason=%q (%s), want %q %q", b.Problem, b.Reason, b.Message, tc.problem, tc.reason)
			}
			if tc.problem == NoProblem && b.Presence != tc.presence {
				t.Errorf("presence = %v, want %v", b.Presence, tc.presence)
			}
			wantStatus := "True"
			if tc.reason != "" {
				wantStatus = "False"
			}
			if string(r.ResolvedRefs.Status) != wantStatus {
				t.Errorf("route ResolvedRefs = %s, want %s", r.ResolvedRefs.Status, wantStatus)
			}
			if !r.Parents[0].Accepted.True() {
				t.Errorf("unresolved backends must not stop the route from being accepted")
			}
		})
	}
}

func grant(ns, name string) string {
	to := `{group: "", kind: Service}`
	if name != "" {
		to = `{group: "", kind: Service, name: ` + name + `}`
	}
	return `
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: allow-app, namespace: ` + ns + `}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: app}]
  to: [` + to + `]`
}

func TestTrafficSplit(t *testing.T) {
	cases := []struct {
		name, rule string
		shares     []float64
		outcome    Outcome
	}{
		// BackendRef.Weight: "computed as weight/(sum of all weights in
		// this BackendRefs list)".
		{"canary 80/20", "{backendRefs: [{name: web, port: 8080, weight: 80}, {name: web-v2, port: 8080, weight: 20}]}",
			[]float64{0.8, 0.2}, Forwarded},
		{"defaulted weights split evenly", "{backendRefs: [{name: web, port: 8080}, {name: web-v2, port: 8080}, {name: web, port: 9090}]}",
			[]float64{1.0 / 3, 1.0 / 3, 1.0 / 3}, Forwarded},
		// "If weight is set to 0, no traffic should be forwarded for this entry."
		{"weight 0 gets nothing", "{backendRefs: [{name: web, port: 8080, weight: 0}, {name: web-v2, port: 8080}]}",
			[]float64{0, 1}, Forwarded},
		{"all weights 0", "{backendRefs: [{name: web, port: 8080, weight: 0}]}", []float64{0}, ZeroWeight},
		// "the proportion of requests that would otherwise have been routed
		// to an invalid backend MUST receive a 500 status code."
		{"missing canary backend keeps its share", "{backendRefs: [{name: web, port: 8080, weight: 80}, {name: gone, port: 8080, weight: 20}]}",
			[]float64{0.8, 0.2}, Forwarded},
		// "If all entries in BackendRefs are invalid, and there are also no
		// filters specified in this route rule, all traffic which matches
		// this rule MUST receive a 500 status code."
		{"all backends invalid", "{backendRefs: [{name: gone, port: 8080}]}", []float64{1}, AllErrors500},
		{"all backends invalid behind a filter", "{filters: [{type: RequestHeaderModifier, requestHeaderModifier: {add: [{name: x, value: y}]}}], backendRefs: [{name: gone, port: 8080}]}",
			[]float64{1}, FiltersOnly},
		{"redirect only", "{filters: [{type: RequestRedirect, requestRedirect: {hostname: example.org}}]}", nil, FiltersOnly},
		{"no backends", "{matches: [{path: {value: /x}}]}", nil, NoBackends},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := resolveYAML(t, owned, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules: [`+tc.rule+`]`).Routes[0]
			rule := r.Rules[0]
			if len(rule.Backends) != len(tc.shares) {
				t.Fatalf("%d backends, want %d", len(rule.Backends), len(tc.shares))
			}
			for i, b := range rule.Backends {
				if math.Abs(b.Share-tc.shares[i]) > 1e-9 {
					t.Errorf("backend %d share = %v, want %v", i, b.Share, tc.shares[i])
				}
			}
			if got := rule.Outcome(r.Route); got != tc.outcome {
				t.Errorf("outcome = %s, want %s", got, tc.outcome)
			}
		})
	}
}

func TestDefaults(t *testing.T) {
	g := resolveYAML(t, Options{DefaultNamespace: "app"}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: bare}
spec:
  parentRefs: [{name: gw, namespace: infra}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw, namespace: infra}]
  rules:
  - matches: [{headers: [{name: x, value: "1"}]}]
    backendRefs: [{name: web, port: 8080}]`)
	bare := mustRoute(t, g, KindHTTPRoute, "app", "bare")
	if !bare.NamespaceDefaulted {
		t.Errorf("metadata.namespace should be defaulted from -n")
	}
	// HTTPRouteSpec.Rules: +kubebuilder:default={{matches: {{path: {type: "PathPrefix", value: "/"}}}}}
	m := bare.HTTP.Rules[0].Matches[0]
	if string(*m.Path.Type) != "PathPrefix" || *m.Path.Value != "/" || !bare.IsDefaulted("spec.rules[0].matches[0].path") {
		t.Errorf("rule-less HTTPRoute should match PathPrefix / by default, got %v %v", *m.Path.Type, *m.Path.Value)
	}
	r := mustRoute(t, g, KindHTTPRoute, "app", "r")
	for _, path := range []string{
		"spec.parentRefs[0].group", "spec.parentRefs[0].kind",
		"spec.rules[0].matches[0].path.type", "spec.rules[0].matches[0].headers[0].type",
		"spec.rules[0].backendRefs[0].group", "spec.rules[0].backendRefs[0].kind",
		"spec.rules[0].backendRefs[0].namespace", "spec.rules[0].backendRefs[0].weight",
	} {
		if !r.IsDefaulted(path) {
			t.Errorf("%s should be recorded as defaulted", path)
		}
	}
	if r.IsDefaulted("spec.parentRefs[0].namespace") {
		t.Errorf("spec.parentRefs[0].namespace was written, not defaulted")
	}
	b := r.Rules[0].Backends[0]
	if b.Target.Kind != KindService || b.Target.Namespace != "app" || b.Weight != 1 || !b.WeightDefaulted {
		t.Errorf("GEP-718 defaults not applied: %+v weight=%d", b.Target, b.Weight)
	}
	gw := g.Gateway("infra", "gw")
	if string(*gw.Listeners[1].TLS.Mode) != "Terminate" || !gw.IsDefaulted("spec.listeners[1].tls.mode") {
		t.Errorf("listener tls.mode should default to Terminate")
	}
	obj, _ := g.Lookup(ObjectRef{Kind: KindNamespace, Name: "app"})
	ns := obj.Metadata()
	if ns.Labels.Get(NamespaceNameLabel) != "app" || ns.Labels.Get("team") != "shop" {
		t.Errorf("Namespace labels = %v, want team=shop plus %s", ns.Labels, NamespaceNameLabel)
	}
}

func TestMeshBinding(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: producer, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web}]
  rules: [{backendRefs: [{name: web-v2, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: consumer, namespace: other}
spec:
  parentRefs: [{group: "", kind: Service, name: web, namespace: app, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: GRPCRoute
metadata: {name: grpc, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web, port: 9090}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: tcp, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web, port: 9090}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: noport, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: web, port: 1234}]
---
apiVersion: v1
kind: Service
metadata: {name: headless, namespace: app}
spec: {clusterIP: None, ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: to-headless, namespace: app}
spec:
  parentRefs: [{group: "", kind: Service, name: headless}]`)
	accepted := func(kind, ns, name string) (bool, Reason) {
		p := mustRoute(t, g, kind, ns, name).Parents[0]
		return p.Accepted.True(), p.Accepted.Reason
	}
	cases := []struct {
		kind, ns, name string
		ok             bool
		reason         Reason
	}{
		// "If port is not set, the implementation MUST associate the route
		// with all ports defined in the Service." It loses 9090 to the
		// GRPCRoute but keeps 8080, so it stays accepted.
		{KindHTTPRoute, "app", "producer", true, "Accepted"},
		{KindHTTPRoute, "other", "consumer", true, "Accepted"},
		{KindGRPCRoute, "app", "grpc", true, "Accepted"},
		// "GRPCRoute > HTTPRoute > TLSRoute > TCPRoute"
		{KindTCPRoute, "app", "tcp", false, ReasonConflicted},
		{KindHTTPRoute, "app", "noport", false, "NoMatchingParent"},
		// "Headless Services SHOULD NOT be supported as a parentRef"
		{KindHTTPRoute, "app", "to-headless", false, "NoMatchingParent"},
	}
	for _, tc := range cases {
		if ok, reason := accepted(tc.kind, tc.ns, tc.name); ok != tc.ok || reason != tc.reason {
			t.Errorf("%s %s/%s: accepted=%v %s, want %v %s", tc.kind, tc.ns, tc.name, ok, reason, tc.ok, tc.reason)
		}
	}
	// No route binds to the headless Service: its port is there, unbound.
	if headless := g.Service("app", "headless"); headless.Bound() || len(headless.Ports()) != 1 || headless.Ports()[0].Winner != "" {
		t.Errorf("headless: bound %v, %d ports; want unbound, 1 port without routes", headless.Bound(), len(headless.Ports()))
	}
	web := g.Service("app", "web")
	if !web.Bound() {
		t.Error("web: not bound, want bound")
	}
	for _, mp := range web.Ports() {
		switch mp.Port.Port {
		case 8080:
			if mp.Winner != KindHTTPRoute || len(mp.Producers) != 1 || len(mp.Consumers) != 1 {
				t.Errorf("port 8080: winner %s, %d producers, %d consumers; want HTTPRoute, 1, 1", mp.Winner, len(mp.Producers), len(mp.Consumers))
			}
		case 9090:
			if mp.Winner != KindGRPCRoute || len(mp.Conflicted) != 2 {
				t.Errorf("port 9090: winner %s, %d conflicted; want GRPCRoute, 2 (HTTPRoute producer, TCPRoute)", mp.Winner, len(mp.Conflicted))
			}
		}
	}
}

func TestListenerSets(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: parent, namespace: infra}
spec:
  gatewayClassName: acme
  allowedListeners: {namespaces: {from: Same}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: infra}
spec:
  parentRef: {name: parent}
  listeners:
  - {name: extra-http, protocol: HTTP, port: 8080, allowedRoutes: {namespaces: {from: All}}}
  - {name: clash, protocol: TCP, port: 80}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: foreign, namespace: app}
spec:
  parentRef: {name: parent, namespace: infra}
  listeners: [{name: x, protocol: HTTP, port: 8081}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: via-ls, namespace: app}
spec:
  parentRefs: [{kind: ListenerSet, name: extra, namespace: infra, sectionName: extra-http}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: via-gw, namespace: infra}
spec:
  parentRefs: [{name: parent, sectionName: extra-http}]`)
	extra := g.ListenerSet("infra", "extra")
	if !extra.Accepted.True() || extra.Accepted.Reason != "ListenersNotValid" {
		t.Errorf("ListenerSet extra: Accepted %s/%s, want True/ListenersNotValid (one listener conflicts)", extra.Accepted.Status, extra.Accepted.Reason)
	}
	// The Gateway's own listener wins the port-80 conflict: only the
	// ListenerSet's listener is marked.
	if c := extra.Listeners[1].Conflicted; !c.True() || c.Reason != "ProtocolConflict" {
		t.Errorf("listener clash: Conflicted %s/%s, want True/ProtocolConflict", c.Status, c.Reason)
	}
	if g.Gateway("infra", "parent").Listeners[0].Conflicted.True() {
		t.Errorf("the Gateway's own listener must win the conflict")
	}
	// AllowedListeners from: Same admits only the Gateway's namespace.
	if f := g.ListenerSet("app", "foreign"); f.Accepted.True() || f.Accepted.Reason != "NotAllowed" || f.Programmed.Reason != "NotAllowed" {
		t.Errorf("ListenerSet foreign: %s/%s, want False/NotAllowed", f.Accepted.Status, f.Accepted.Reason)
	}
	if p := mustRoute(t, g, KindHTTPRoute, "app", "via-ls").Parents[0]; !p.Accepted.True() {
		t.Errorf("route via ListenerSet: %s %s", p.Accepted.Reason, p.Accepted.Message)
	}
	// A Gateway parentRef never reaches a ListenerSet's listeners.
	if p := mustRoute(t, g, KindHTTPRoute, "infra", "via-gw").Parents[0]; p.Accepted.Reason != "NoMatchingParent" {
		t.Errorf("route via Gateway to a ListenerSet listener: %s, want NoMatchingParent", p.Accepted.Reason)
	}
	if extra.Listeners[0].AttachedRoutes != 1 {
		t.Errorf("extra-http attachedRoutes = %d, want 1", extra.Listeners[0].AttachedRoutes)
	}
}

func TestPresenceModel(t *testing.T) {
	// world declares Namespaces infra, app and other. Namespace shop is not
	// declared; the inputs hold a Gateway and a Service there.
	const shop = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: shop-gw, namespace: shop}
spec:
  gatewayClassName: acme
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: shop}
spec:
  parentRefs:
  - {name: gone, namespace: infra}
  - {name: edge, namespace: edge}
  - {name: shop-edge}
  - {name: other-gw, namespace: other}
  rules:
  - backendRefs:
    - {name: checkout, port: 80}
    - {name: web-v3, namespace: app, port: 8080}
    - {name: pg, namespace: data, port: 5432}`
	for _, tc := range []struct {
		name    string
		opts    Options
		parents []Presence // of the parentRefs, in order
		backend []Presence // of the backendRefs, in order
	}{
		// A declared namespace is no evidence: infra holds Gateways and is
		// declared, and gone is unlisted, as in shop, which is not
		// declared. edge and other hold no Gateway: external. A
		// cross-namespace backend whose absence is unknown is assumed
		// permitted, like its grant; one whose absence is certain is
		// refused for want of a grant before it is looked up (NotLookedUp).
		{"no evidence", Options{}, []Presence{Unlisted, External, Unlisted, External}, []Presence{Unlisted, Unlisted, External}},
		{"owned namespaces", Options{OwnedNamespaces: []string{"sh*", "data"}},
			[]Presence{Unlisted, External, Missing, External}, []Presence{Missing, Unlisted, NotLookedUp}},
		{"strict", Options{StrictRefs: true}, []Presence{Missing, Missing, Missing, Missing}, []Presence{Missing, NotLookedUp, NotLookedUp}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := mustRoute(t, resolveYAML(t, tc.opts, world, shop), KindHTTPRoute, "shop", "r")
			for i, want := range tc.parents {
				p := r.Parents[i]
				if p.Presence != want {
					t.Errorf("%s: presence %v, want %v", p.Parent(), p.Presence, want)
				}
				// Only a certain absence refuses; an unknown one leaves the
				// outcome undecided, and no controller writes a status.
				wantStatus := map[bool]metav1.ConditionStatus{true: metav1.ConditionFalse, false: metav1.ConditionUnknown}[want == Missing]
				if p.Accepted.Status != wantStatus || p.HasStatus() {
					t.Errorf("%s: Accepted %s (%s), status entry %v; want %s, none", p.Parent(), p.Accepted.Status, p.Accepted.Message, p.HasStatus(), wantStatus)
				}
			}
			for i, want := range tc.backend {
				b := r.Rules[0].Backends[i]
				if b.Presence != want || (b.Problem == NotFound) != (want == Missing) {
					t.Errorf("%s: presence %v, problem %q; want %v", b.Target, b.Presence, b.Problem, want)
				}
			}
		})
	}
}

// A cross-namespace backend the inputs cannot show is assumed permitted,
// like the backend itself; one they show needs a grant among them.
func TestGrantsOutsideTheInputs(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: v1
kind: Service
metadata: {name: cart, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules:
  - backendRefs:
    - {name: cart, namespace: shop, port: 80}
    - {name: orders, namespace: shop, port: 80}`)
	r := mustRoute(t, g, KindHTTPRoute, "app", "r")
	if b := r.Rules[0].Backends[0]; b.Problem != NotPermitted {
		t.Errorf("shop/cart (present, no grant): problem %q, want not permitted", b.Problem)
	}
	if b := r.Rules[0].Backends[1]; !b.Valid() || b.Presence != Unlisted {
		t.Errorf("shop/orders (unlisted): problem %q, presence %v; want valid, unlisted", b.Problem, b.Presence)
	}
}

// A listener that selects namespaces by label cannot decide for a route
// whose Namespace the inputs do not hold, unless it selects by name only.
func TestNamespaceLabelsUnknown(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: store}
spec:
  hostnames: [a.example.com]
  parentRefs: [{name: gw, namespace: infra, sectionName: https}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: wrong-host, namespace: store}
spec:
  hostnames: [a.example.org]
  parentRefs: [{name: gw, namespace: infra, sectionName: https}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: by-name, namespace: infra}
spec:
  gatewayClassName: acme
  listeners:
  - name: http
    protocol: HTTP
    port: 8080
    allowedRoutes:
      namespaces:
        from: Selector
        selector: {matchLabels: {kubernetes.io/metadata.name: billing}}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: by-name, namespace: store}
spec:
  parentRefs: [{name: by-name, namespace: infra}]`)
	p := mustRoute(t, g, KindHTTPRoute, "store", "r").Parents[0]
	if p.Accepted.Status != metav1.ConditionUnknown || p.Accepted.Reason != ReasonPending ||
		!strings.Contains(p.Accepted.Message, "Namespace store is not among the inputs") {
		t.Errorf("store/r: %+v; want Unknown, Pending, naming the Namespace", p.Accepted)
	}
	if l := g.Gateway("infra", "gw").Listeners[1]; len(l.Undecided) != 1 || len(l.Refused) != 1 || l.AttachedRoutes != 0 {
		t.Errorf("listener https: undecided %d, refused %d, attached %d; want 1 (r), 1 (wrong-host), 0", len(l.Undecided), len(l.Refused), l.AttachedRoutes)
	}
	// The hostname refuses it whatever the labels are.
	if p := mustRoute(t, g, KindHTTPRoute, "store", "wrong-host").Parents[0]; p.Accepted.Reason != ReasonNoMatchingListenerHostname {
		t.Errorf("store/wrong-host: %+v; want NoMatchingListenerHostname", p.Accepted)
	}
	// The name label is known without the Namespace object.
	if p := mustRoute(t, g, KindHTTPRoute, "store", "by-name").Parents[0]; p.Accepted.Reason != ReasonNotAllowedByListeners {
		t.Errorf("store/by-name: %+v; want NotAllowedByListeners", p.Accepted)
	}
}

func TestDuplicates(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: v1
kind: Service
metadata: {name: web, namespace: app}
spec: {ports: [{port: 1}]}`)
	if len(g.Duplicates) != 1 || g.Duplicates[0].Again.Metadata().Ref.Name != "web" {
		t.Fatalf("want the second Service app/web reported as a duplicate, got %v", g.Duplicates)
	}
	// Applied in order, the last definition is the one a cluster keeps.
	if _, ok := g.Service("app", "web").Port(1); !ok || g.Duplicates[0].Resolved != g.Duplicates[0].Again {
		t.Errorf("the last definition must be the one resolved")
	}
}

// A Service may list one port number once per protocol (DNS: 53/UDP and
// 53/TCP); each entry is a port of its own, and a route binding both is
// recorded on both.
func TestMeshPortPerProtocol(t *testing.T) {
	g := resolveYAML(t, Options{}, `
apiVersion: v1
kind: Service
metadata: {name: dns, namespace: kube-system}
spec: {ports: [{name: dns, port: 53, protocol: UDP}, {name: dns-tcp, port: 53, protocol: TCP}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: TCPRoute
metadata: {name: dns-tcp, namespace: kube-system}
spec:
  parentRefs: [{group: "", kind: Service, name: dns, port: 53}]
  rules: [{backendRefs: [{name: dns, port: 53}]}]`)
	ports := g.Service("kube-system", "dns").Ports()
	if len(ports) != 2 {
		t.Fatalf("%d mesh ports, want 2", len(ports))
	}
	for _, mp := range ports {
		if mp.Winner != KindTCPRoute || len(mp.Producers) != 1 {
			t.Errorf("port %s: winner %q, %d producers; want TCPRoute, 1", mp.Port.Name, mp.Winner, len(mp.Producers))
		}
	}
}

func TestMeshBackendsNeedNoGrant(t *testing.T) {
	// GEP-1426: mesh routes may send traffic to backendRefs in any namespace
	// without a ReferenceGrant; a route that also has a Gateway parent still
	// needs one for the Gateway.
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: consumer, namespace: other}
spec:
  parentRefs: [{group: "", kind: Service, name: web, namespace: app}]
  rules: [{backendRefs: [{name: web, namespace: app, port: 8080}]}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: both, namespace: other}
spec:
  parentRefs: [{group: "", kind: Service, name: web, namespace: app}, {name: gw, namespace: infra}]
  rules: [{backendRefs: [{name: web, namespace: app, port: 8080}]}]`)
	if b := mustRoute(t, g, KindHTTPRoute, "other", "consumer").Rules[0].Backends[0]; !b.Valid() {
		t.Errorf("mesh-only route: %s %s, want the cross-namespace backend permitted", b.Reason, b.Message)
	}
	if b := mustRoute(t, g, KindHTTPRoute, "other", "both").Rules[0].Backends[0]; b.Reason != "RefNotPermitted" {
		t.Errorf("route with a Gateway parent: %q, want RefNotPermitted", b.Reason)
	}
}

func TestExperimentalKindsAreValidated(t *testing.T) {
	// Experimental-only kinds have no meaning for the resolver, but are
	// loaded so that they are checked against their CRDs; under the
	// standard channel they are not served, and nothing else is checked.
	doc := "apiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XBackend\nmetadata: {name: ext, namespace: app}\nspec: {bogus: 1}\n"
	for _, tc := range []struct {
		channel    crd.Channel
		state      VersionState
		violations string
	}{
		{crd.Experimental, VersionServed, `spec.bogus Unknown field "bogus"`},
		{crd.Standard, VersionExperimentalOnly, ""},
	} {
		in := Load([]string{"-"}, strings.NewReader(doc), Options{Validate: true, Channel: tc.channel})
		if len(in.Objects) != 1 {
			t.Fatalf("channel %d: %d objects loaded, want the XBackend", tc.channel, len(in.Objects))
		}
		m := in.Objects[0].Metadata()
		var got []string
		for _, v := range m.Violations {
			got = append(got, v.Path+" "+v.Message)
		}
		if joined := strings.Join(got, "; "); !strings.Contains(joined, tc.violations) || (joined == "") != (tc.violations == "") {
			t.Errorf("channel %d: violations %q, want %q among them", tc.channel, joined, tc.violations)
		}
		if m.Version().State != tc.state {
			t.Errorf("channel %d: version %+v, want state %d", tc.channel, m.Version(), tc.state)
		}
	}
}

// A ListenerSet whose acceptance the inputs cannot decide is Unknown, and
// so is the attachment of a route through it.
func TestListenerSetUndecided(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: shared, namespace: infra}
spec:
  gatewayClassName: acme
  allowedListeners:
    namespaces:
      from: Selector
      selector: {matchLabels: {team: shop}}
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: by-label, namespace: store}
spec:
  parentRef: {name: shared, namespace: infra}
  listeners: [{name: extra, protocol: HTTP, port: 8081}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: elsewhere, namespace: store}
spec:
  parentRef: {name: edge, namespace: edge}
  listeners: [{name: extra, protocol: HTTP, port: 8082}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: store}
spec:
  parentRefs: [{name: by-label, kind: ListenerSet}]`)
	for _, name := range []string{"by-label", "elsewhere"} {
		ls := g.ListenerSet("store", name)
		if ls.Accepted.Status != metav1.ConditionUnknown || ls.Programmed.Status != metav1.ConditionUnknown {
			t.Errorf("ListenerSet store/%s: Accepted %+v, Programmed %+v; want both Unknown", name, ls.Accepted, ls.Programmed)
		}
	}
	if p := mustRoute(t, g, KindHTTPRoute, "store", "r").Parents[0]; p.Accepted.Status != metav1.ConditionUnknown {
		t.Errorf("route through store/by-label: %+v; want Unknown", p.Accepted)
	}
}

// Condition messages say what happened in words, not the reason again.
func TestConditionMessages(t *testing.T) {
	g := resolveYAML(t, Options{OwnedNamespaces: []string{"app"}}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs: [{name: gw, namespace: infra, sectionName: http}]
  rules: [{backendRefs: [{name: web-v3, port: 8080}]}]`)
	r := mustRoute(t, g, KindHTTPRoute, "app", "r")
	for _, tc := range []struct{ got, want string }{
		{r.Parents[0].Accepted.Message, "Route attached to listener http of Gateway infra/gw"},
		{r.ResolvedRefs.Message, "spec.rules[0].backendRefs[0]: Service app/web-v3 not found"},
		{g.Gateway("infra", "gw").Accepted.Message, "Gateway accepted by example.com/acme"},
		{g.Gateway("infra", "gw").Listeners[0].Programmed.Message, "Listener http serves HTTP on port 80"},
	} {
		if tc.got != tc.want {
			t.Errorf("message %q, want %q", tc.got, tc.want)
		}
	}
}

// A GatewayClass is Accepted, unless its parametersRef names an object the
// inputs show does not exist; one they do not show is assumed valid.
func TestGatewayClassStatus(t *testing.T) {
	g := resolveYAML(t, owned, world, `
apiVersion: v1
kind: ConfigMap
metadata: {name: acme-defaults, namespace: infra}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: broken}
spec:
  controllerName: example.com/acme
  parametersRef: {group: "", kind: ConfigMap, name: acme-params, namespace: infra}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: elsewhere}
spec:
  controllerName: example.com/acme
  parametersRef: {group: example.com, kind: AcmeParameters, name: p}`)
	want := map[string]Reason{"acme": ReasonAccepted, "broken": ReasonInvalidParameters, "elsewhere": ReasonAccepted}
	for _, c := range g.GatewayClasses {
		if c.Accepted.Reason != want[c.Ref.Name] || c.SupportedVersion.Reason != ReasonSupportedVersion {
			t.Errorf("GatewayClass %s: Accepted %+v, SupportedVersion %+v; want %s", c.Ref.Name, c.Accepted, c.SupportedVersion, want[c.Ref.Name])
		}
	}
}

// A kind or version that a Gateway API group does not have is an error at
// its kind or object, never silently skipped: the API server refuses it.
// Kinds of other groups are counted and skipped.
func TestUnknownGatewayAPIKinds(t *testing.T) {
	const kinds = "; its kinds: BackendTLSPolicy, GRPCRoute, Gateway, GatewayClass, HTTPRoute, ListenerSet, ReferenceGrant, TCPRoute, TLSRoute, UDPRoute"
	for _, tc := range []struct{ doc, want string }{
		{"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoutez\nmetadata: {name: r}\n",
			"<stdin>:2:1: HTTPRoutez is not a kind of gateway.networking.k8s.io in Gateway API v1.6.3 (did you mean HTTPRoute?)" + kinds},
		{"apiVersion: gateway.networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: r}\n",
			"<stdin>:2:1: Ingress is not a kind of gateway.networking.k8s.io in Gateway API v1.6.3" + kinds},
		{"apiVersion: gateway.networking.x-k8s.io/v1alpha1\nkind: XMeshh\nmetadata: {name: m}\n",
			"<stdin>:2:1: XMeshh is not a kind of gateway.networking.x-k8s.io in Gateway API v1.6.3 (did you mean XMesh?); its kinds: XBackend, XBackendTrafficPolicy, XMesh"},
		{"apiVersion: gateway.networking.x-k8s.io/v1\nkind: XMesh\nmetadata: {name: m}\n",
			"<stdin>:1:1: XMesh gateway.networking.x-k8s.io/v1 is not served by Gateway API v1.6.3 (served: v1alpha1)"},
		{"apiVersion: gateway.networking.k8s.io/v2\nkind: HTTPRoute\nmetadata: {name: r}\n",
			"<stdin>:1:1: HTTPRoute gateway.networking.k8s.io/v2 is not served by Gateway API v1.6.3 (served: v1, v1beta1)"},
	} {
		in := Load([]string{"-"}, strings.NewReader(tc.doc), Options{})
		if len(in.Errors) != 1 || in.Errors[0].Error() != tc.want || len(in.Objects) != 0 || len(in.Skipped) != 0 {
			t.Errorf("%q: errors %v, %d objects, skipped %v\nwant %s", tc.doc, in.Errors, len(in.Objects), in.Skipped, tc.want)
		}
	}
	in := Load([]string{"-"}, strings.NewReader("apiVersion: example.com/v1\nkind: HTTPRoutez\nmetadata: {name: r}\n"), Options{})
	if len(in.Errors) != 0 || in.Skipped["example.com/v1 HTTPRoutez"] != 1 {
		t.Errorf("other group: errors %v, skipped %v", in.Errors, in.Skipped)
	}
}

// A field of the wrong type is reported once, at the field: by the CRD
// validation when it runs, else as a read error. The rest of the spec is
// still decoded.
func TestWrongTypeReportedOnceAtTheField(t *testing.T) {
	const doc = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: x}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRefs:
    - name: svc
      port: "80"
`
	in := Load([]string{"-"}, strings.NewReader(doc), Options{})
	want := `<stdin>:9:7: HTTPRoute x/r: spec.rules[0].backendRefs[0].port must be int32, not string`
	if len(in.Errors) != 1 || in.Errors[0].Error() != want || len(in.Objects) != 1 {
		t.Fatalf("without validation: errors %v, %d objects; want %s", in.Errors, len(in.Objects), want)
	}
	if r := in.Objects[0].(*Route); len(r.HTTP.ParentRefs) != 1 || r.HTTP.Rules[0].BackendRefs[0].Name != "svc" {
		t.Errorf("the rest of the spec was lost: %+v", r.HTTP)
	}
	for _, tc := range []struct {
		name, doc string
		paths     []string
	}{
		{"a string for an integer", doc, []string{"spec.rules[0].backendRefs[0].port"}},
		// encoding/json names a list element by its list ("spec.hostnames").
		{"a number in a list of strings", `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: x}
spec:
  hostnames: [shop.example.com, 123]
  rules:
  - matches: [{queryParams: [{name: page, value: 123}]}]
`, []string{"spec.hostnames[1]", "spec.rules[0].matches[0].queryParams[0].value"}},
		{"numbers for a listener's name and hostname", `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: g, namespace: x}
spec:
  gatewayClassName: acme
  listeners: [{name: 80, hostname: 123, port: 80, protocol: HTTP}]
`, []string{"spec.listeners[0].hostname", "spec.listeners[0].name"}},
	} {
		in := Load([]string{"-"}, strings.NewReader(tc.doc), Options{Validate: true})
		if len(in.Errors) != 0 || len(in.Objects) != 1 {
			t.Errorf("%s: with validation: errors %v, %d objects; want the violations alone", tc.name, in.Errors, len(in.Objects))
			continue
		}
		var paths []string
		for _, v := range in.Objects[0].Metadata().Violations {
			paths = append(paths, v.Path)
		}
		slices.Sort(paths)
		if !slices.Equal(paths, tc.paths) {
			t.Errorf("%s: violations at %q, want %q", tc.name, paths, tc.paths)
		}
	}
}

// A negative weight is the CRDs' finding; it takes no share of the rule.
func TestNegativeWeightTakesNoShare(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  rules: [{backendRefs: [{name: web, port: 8080, weight: -1}, {name: web, port: 8080, weight: 3}]}]`)
	bs := mustRoute(t, g, KindHTTPRoute, "app", "r").Rules[0].Backends
	if bs[0].Share != 0 || bs[1].Share != 1 {
		t.Errorf("shares %v, %v; want 0 and 1", bs[0].Share, bs[1].Share)
	}
}
