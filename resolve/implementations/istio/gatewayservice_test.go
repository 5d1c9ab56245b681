package istio_test

import (
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
	"github.com/gwlint/gwlint/resolve/resolvetest"
)

// Istio serves a Gateway whose addresses are Hostnames by the Services
// they name, and needs every listener's port on them; a Gateway it deploys
// itself gets a Service with every port. The API names no Service.
func TestGatewayService(t *testing.T) {
	const ingress = `
apiVersion: v1
kind: Service
metadata: {name: ingress, namespace: infra}
spec: {ports: [{name: http, port: 80, targetPort: 8080}, {name: https, port: 443}]}`
	gateway := func(class, addresses, listeners string) string {
		return `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: edge, namespace: infra}
spec:
  gatewayClassName: ` + class + `
  addresses: [` + addresses + `]
  listeners: [` + listeners + `]`
	}
	const (
		http      = `{name: http, protocol: HTTP, port: 80}`
		http8080  = `{name: alt, protocol: HTTP, port: 8080}`
		short     = `{type: Hostname, value: ingress}`
		fqdn      = `{type: Hostname, value: ingress.infra.svc.cluster.local}`
		elsewhere = `{type: Hostname, value: ingress.other.svc.cluster.local}`
		outside   = `{type: Hostname, value: gateway.example.com}`
		missing   = `{type: Hostname, value: nowhere}`
	)
	cases := []struct {
		name, addresses, listeners string
		// services are the Services among the inputs; strict is
		// --strict-refs.
		services string
		strict   bool
		istio    resolve.Reason // the API's reading is always Programmed
	}{
		{"the named Service has the port", short, http, ingress, false, resolve.ReasonProgrammed},
		{"by its cluster hostname", fqdn, http, ingress, false, resolve.ReasonProgrammed},
		{"a listener's port is the Service's targetPort", short, http + ", " + http8080, ingress, false, resolve.ReasonAddressNotUsable},
		{"a Service of another namespace", elsewhere, http, ingress, false, resolve.ReasonAddressNotUsable},
		{"a Service the inputs lack, all shown", missing, http, ingress, true, resolve.ReasonAddressNotUsable},
		{"a Service the inputs may not show", missing, http, "", false, resolve.ReasonPending},
		{"a hostname that is no Service", outside, http, ingress, true, resolve.ReasonPending},
		{"deployed by Istio", "", http8080, "", true, resolve.ReasonProgrammed},
	}
	for _, c := range cases {
		for _, run := range []struct {
			impl, class string
			want        resolve.Reason
		}{{"", "acme", resolve.ReasonProgrammed}, {"istio", "istio", c.istio}} {
			opts := resolvetest.JudgedBy(t, judges[run.impl])
			opts.StrictRefs = c.strict
			gw := resolvetest.Resolve(t, opts, resolvetest.World, classes, c.services, gateway(run.class, c.addresses, c.listeners)).Gateway("infra", "edge")
			if gw.Programmed.Reason != run.want {
				t.Errorf("%s under %s: Programmed %s (%s); want %s", c.name, gw.Judge, gw.Programmed.Reason, gw.Programmed.Message, run.want)
			}
		}
	}
	// The Service Istio deploys for a Gateway (edge-istio) is checked only
	// when it exists without Istio's label: Istio leaves it as it is.
	for _, c := range []struct {
		labels string
		want   resolve.Reason
	}{{"{}", resolve.ReasonAddressNotUsable}, {"{gateway.istio.io/managed: istio.io-gateway-controller}", resolve.ReasonProgrammed}} {
		g := resolvetest.Resolve(t, resolvetest.JudgedBy(t, istio.Implementation{}), resolvetest.World, classes, gateway("istio", "", http8080), `
apiVersion: v1
kind: Service
metadata: {name: edge-istio, namespace: infra, labels: `+c.labels+`}
spec: {ports: [{name: http, port: 80}]}`)
		if gw := g.Gateway("infra", "edge"); gw.Programmed.Reason != c.want {
			t.Errorf("deployed Service labelled %s: Programmed %s (%s); want %s", c.labels, gw.Programmed.Reason, gw.Programmed.Message, c.want)
		}
	}
}
