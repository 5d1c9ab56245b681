package lint

import "github.com/gwlint/gwlint/resolve"

var gatewayAddressUnsupported = &Rule{
	ID: "gateway-address-unsupported", Severity: Warning,
	Summary: "spec.addresses has a type the implementation lacks",
	Doc: Doc{
		Text: `Besides the API's own address types (IPAddress, Hostname, NamedAddress, the
last two with implementation-specific support; Envoy Gateway refuses
NamedAddress), an address type is implementation-specific: a domain-prefixed
name. A controller that does not support the type rejects the whole Gateway:
Accepted=False/UnsupportedAddress, and nothing it declares is served. A
warning, since gwlint knows the implementation-specific types of few
implementations (see docs/implementations.md).

Fix: use an address type your implementation supports, or remove the address
and let the implementation assign one.`,
		Example: `addresses:
- type: example.com/pool   # before: implementation-specific
  value: public
- type: IPAddress          # after
  value: 203.0.113.10`,
	},
	Run: func(p *Pass) {
		for _, gw := range p.Graph.Gateways {
			if gw.Accepted.Reason == resolve.ReasonUnsupportedAddress {
				p.Report(&gw.Meta, "spec.addresses", nil, "Gateway %s is not accepted: %s", gw.Ref.NamespacedName(), gw.Accepted.Message)
			}
		}
	},
}
