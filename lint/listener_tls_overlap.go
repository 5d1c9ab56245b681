package lint

var listenerTLSOverlap = &Rule{
	ID: "listener-tls-overlap", Severity: Info,
	Summary: "TLS listeners on one port overlap (OverlappingTLSConfig)",
	Doc: Doc{
		Text: `Two listeners of a Gateway (with its ListenerSets) terminate TLS on the same
port, and their hostnames overlap (*.example.com and shop.example.com, or a
listener without a hostname) or their certificates name a common host.
Controllers set OverlappingTLSConfig=True (OverlappingHostnames, or
OverlappingCertificates) on both listeners, and traffic is still served.
It matters when a certificate covers the other listener's hosts too: HTTP/2
clients reuse a connection for every host its certificate covers
(connection coalescing), so a request for one listener can arrive on the
other's connection and get its TLS settings, or a 421 Misdirected Request.
A wildcard or catch-all listener beside specific ones, each with its own
certificate, is a common and sound layout: hence info, not a warning. Envoy
Gateway, which cannot inspect certificates served over SDS, also sets it
(SDSCertificateOpaque) on a port where one listener uses an SDS reference, and
turns HTTP/2 off there.

Fix: give the listeners disjoint hostnames and certificates, or put them on
different ports; or accept it knowingly.`,
		Example: `- name: shop
  protocol: HTTPS
  port: 443
  hostname: shop.example.com
- name: rest
  protocol: HTTPS
  port: 8443          # was 443, beside shop
  hostname: "*.example.com"`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			if c := l.OverlappingTLS; c.True() {
				p.Report(l.Owner(), l.Path+".port", nil, "%s: %s (%s)", l, c.Message, c.Reason)
			}
		}
	},
}
