package lint

import "github.com/gwlint/gwlint/resolve/implementations/envoygateway"

var backendRefused = &Rule{
	ID: "backend-refused", Severity: Error,
	Summary: "the implementation refuses the Backend a backendRef names",
	Doc: Doc{
		Text: `Envoy Gateway's own Backend kind (gateway.envoyproxy.io) is checked as its
translator checks it, for routes its Gateways judge: a DynamicResolver Backend
with endpoints, or tls that verifies the backend without CA certificates (from
the Backend or from a BackendTLSPolicy naming it), is InvalidBackendRef; an
invalid or loopback IP, or a hostname that is not a dotted domain, is
InvalidAddress; a Unix socket endpoint, or FQDN endpoints beside IP ones, is
UnsupportedAddressType; a DynamicResolver Backend beside other backendRefs of a
rule (of an HTTPRoute; of any rule of a TLSRoute) fails them all with
InvalidBackendRef, and so does one whose rule's HTTPRouteFilter rewrites the
Host from the path (hostname type PathRegex), with UnsupportedValue. The
route's ResolvedRefs is False with that reason and the backend's share gets
HTTP 500.

Fix: split mixed endpoints into one Backend per address type, give a
DynamicResolver a rule of its own, use a resolvable address, and name the CA
certificates (or set insecureSkipVerify).`,
		Example: `apiVersion: gateway.envoyproxy.io/v1alpha1
kind: Backend
metadata: {name: payments, namespace: app}
spec:
  endpoints:
  - fqdn: {hostname: api.payments.example.com, port: 443}
  - ip: {address: 10.0.0.7, port: 443}   # before: FQDN beside IP
# after: one Backend with the FQDN endpoint, another with the IP one`,
	},
	Run: reportBackendsWith(envoygateway.BackendProblems, ".name"),
}
