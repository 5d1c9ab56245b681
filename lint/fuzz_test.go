package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// FuzzResolve resolves arbitrary object graphs and runs every rule on
// them: nothing may panic, two runs must agree, and every finding must be
// placed on a line of its object's file. With graph set, the bytes pick
// objects from a small world of names (graphYAML), so that references
// meet and every resolver path is reached; else they are read as
// manifests. Seeded with the example tree and the rule fixtures.
func FuzzResolve(f *testing.F) {
	files, _ := filepath.Glob("../testdata/examples/*.yaml")
	fixtures, _ := filepath.Glob("testdata/*/*.yaml")
	for _, file := range append(files, fixtures...) {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, false)
		}
	}
	f.Add([]byte("\x01\x00\x00\x00\x00\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x00\x03\x00\x00\x00\x00\x00\x00\x00"), true)
	f.Add([]byte("\x00\x01\x01\x01\x01\x01\x01\x01\x01\x05\x02\x02\x02\x02\x02\x02\x02\x02\x06\x03\x03\x03\x03\x03\x03\x03\x04\x04\x04"), true)
	f.Fuzz(func(t *testing.T, data []byte, graph bool) {
		src := string(data)
		if graph {
			src = graphYAML(data)
		}
		lint := func() ([]Finding, []resolve.StatusObject) {
			opts := resolve.Options{Implementations: implementations.All(), Validate: true, Channel: crd.Experimental, StrictRefs: len(data)%2 == 0}
			in := resolve.Load([]string{"-"}, strings.NewReader(src), opts)
			g := resolve.Resolve(in, opts)
			kept, _ := Suppress(g, Run(g, Rules()), Rules())
			return Sort(kept), g.Statuses()
		}
		findings, statuses := lint()
		again, statusesAgain := lint()
		if !reflect.DeepEqual(findings, again) || !reflect.DeepEqual(statuses, statusesAgain) {
			t.Fatalf("two runs disagree on\n%s", src)
		}
		// Lines as the reader counts them: CR, CRLF and NEL end lines too.
		lines := 1 + strings.Count(strings.NewReplacer("\r\n", "\n", "\r", "\n", "\u0085", "\n").Replace(src), "\n")
		for _, fd := range findings {
			if fd.File != "<stdin>" || fd.Line < 1 || fd.Line > lines {
				t.Fatalf("finding %+v is not on a line of the input\n%s", fd, src)
			}
		}
	})
}

// graphYAML turns bytes into manifests over two namespaces and three names,
// each run of eight bytes one object: its kind, name, namespace, what it
// refers to, a port, a protocol and a hostname.
func graphYAML(data []byte) string {
	names := []string{"a", "b", "c"}
	namespaces := []string{"x", "y"}
	protocols := []string{"HTTP", "HTTPS", "TLS", "TCP", "UDP"}
	hostnames := []string{"", "a.example.com", "*.example.com", "b.example.org"}
	var b strings.Builder
	for len(data) >= 8 && b.Len() < 64<<10 {
		o := data[:8]
		data = data[8:]
		name, ns := names[int(o[1])%3], namespaces[int(o[2])%2]
		ref, refNS := names[int(o[3])%3], namespaces[int(o[3]/3)%2]
		port := 80 + int(o[4])%3
		proto := protocols[int(o[5])%len(protocols)]
		host := hostnames[int(o[6])%len(hostnames)]
		hostField := ""
		if host != "" {
			hostField = ", hostname: " + fmt.Sprintf("%q", host)
		}
		var hostnamesField string
		if host != "" {
			hostnamesField = fmt.Sprintf("\n  hostnames: [%q]", host)
		}
		section := ""
		if o[7]&1 == 1 {
			section = ", sectionName: l" + fmt.Sprint(int(o[7]>>1)%2)
		}
		from := []string{"Same", "All", "Selector"}[int(o[7]>>2)%3]
		selector := ""
		if from == "Selector" {
			selector = ", selector: {matchLabels: {team: " + ref + "}}"
		}
		b.WriteString("---\n")
		switch o[0] % 10 {
		case 0:
			fmt.Fprintf(&b, "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: %s}\nspec: {controllerName: example.com/%s}\n", name, ref)
		case 1:
			fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: %s, namespace: %s}
spec:
  gatewayClassName: %s
  listeners:
  - {name: l0, protocol: %s, port: %d%s, allowedRoutes: {namespaces: {from: %s%s}}, tls: {certificateRefs: [{name: %s}]}}
  - {name: l1, protocol: HTTP, port: %d}
`, name, ns, ref, proto, port, hostField, from, selector, ref, 80+int(o[7])%3)
		case 2, 3:
			kind := []string{"HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute"}[int(o[5])%5]
			parent := []string{"", ", kind: Service, group: \"\"", ", kind: ListenerSet"}[int(o[6]>>2)%3]
			fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: %s
metadata: {name: %s, namespace: %s}
spec:
  parentRefs: [{name: %s, namespace: %s%s%s}]%s
  rules:
  - backendRefs: [{name: %s, namespace: %s, port: %d, weight: %d}, {name: %s, port: %d}]
`, kind, name, ns, ref, refNS, parent, section, hostnamesField, names[int(o[4])%3], namespaces[int(o[5])%2], port, int(o[7])%3, ref, port)
		case 4:
			fmt.Fprintf(&b, "apiVersion: v1\nkind: Service\nmetadata: {name: %s, namespace: %s}\nspec: {ports: [{name: p, port: %d, appProtocol: %s}]}\n", name, ns, port, strings.ToLower(proto))
		case 5:
			fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: ReferenceGrant
metadata: {name: %s, namespace: %s}
spec:
  from: [{group: gateway.networking.k8s.io, kind: %s, namespace: %s}]
  to: [{group: "", kind: %s, name: %s}]
`, name, ns, []string{"HTTPRoute", "Gateway", "GRPCRoute"}[int(o[5])%3], refNS, []string{"Service", "Secret"}[int(o[6])%2], ref)
		case 6:
			fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: %s, namespace: %s}
spec:
  parentRef: {name: %s, namespace: %s}
  listeners:
  - {name: l0, protocol: %s, port: %d%s}
`, name, ns, ref, refNS, proto, port, hostField)
		case 7:
			fmt.Fprintf(&b, "apiVersion: v1\nkind: Namespace\nmetadata: {name: %s, labels: {team: %s}}\n", ns, ref)
		case 8:
			fmt.Fprintf(&b, "apiVersion: v1\nkind: Secret\nmetadata: {name: %s, namespace: %s}\ntype: kubernetes.io/tls\ndata: {tls.crt: eA==, tls.key: eA==}\n", name, ns)
		case 9:
			fmt.Fprintf(&b, `apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: %s, namespace: %s}
spec:
  targetRefs: [{group: "", kind: Service, name: %s}]
  validation: {hostname: %q, wellKnownCACertificates: System}
`, name, ns, ref, strings.TrimPrefix(host, "*."))
		}
	}
	return b.String()
}
