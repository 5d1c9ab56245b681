package lint

import "github.com/gwlint/gwlint/resolve"

var listenerConflict = &Rule{
	ID: "listener-conflict", Severity: Error,
	Summary: "listeners share a port incompatibly",
	Doc: Doc{
		Text: `Listeners on one port must be distinct: compatible protocols (HTTPS and TLS
share a port by SNI, UDP sits beside TCP-based protocols) and, for the same
protocol, different hostnames. Conflicted listeners are not accepted — within
one Gateway all of them, since the spec forbids picking a winner; a
ListenerSet's listener loses to the Gateway's.

Fix: move one listener to another port, or give each a distinct hostname.`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			if l.Conflicted.True() {
				p.Report(l.Owner(), l.Path+".port", nil, "%s: %s (%s)", l, l.Conflicted.Message, l.Conflicted.Reason)
			}
		}
	},
}

// reportListeners reports every listener whose condition (picked by cond)
// has reason, at the field that causes it: field is appended to the
// listener's path.
func reportListeners(cond func(*resolve.Listener) resolve.Condition, reason resolve.Reason, field string) func(*Pass) {
	return func(p *Pass) {
		for l := range p.Graph.Listeners() {
			if c := cond(l); c.Reason == reason {
				p.Report(l.Owner(), l.Path+field, nil, "%s: %s", l, c.Message)
			}
		}
	}
}

// listenerAccepted and listenerResolvedRefs pick the condition
// reportListeners looks at.
func listenerAccepted(l *resolve.Listener) resolve.Condition     { return l.Accepted }
func listenerResolvedRefs(l *resolve.Listener) resolve.Condition { return l.ResolvedRefs }

var listenerUnsupportedProtocol = &Rule{
	ID: "listener-unsupported-protocol", Severity: Error,
	Summary: "listener protocol is not one the implementation serves",
	Doc: Doc{
		Text: `Core protocols are HTTP, HTTPS, TLS, TCP and UDP; anything else is
implementation-specific, and controllers without it set
Accepted=False/UnsupportedProtocol. Some implementations also leave out a
core protocol (Istio serves no UDP listeners): see docs/implementations.md.

Fix: use a protocol the implementation serves.`,
	},
	Run: reportListeners(listenerAccepted, resolve.ReasonUnsupportedProtocol, ".protocol"),
}

var listenerInvalidRouteKinds = &Rule{
	ID: "listener-invalid-route-kinds", Severity: Error,
	Summary: "allowedRoutes.kinds lists kinds the protocol cannot carry",
	Doc: Doc{
		Text: `A listener may only allow route kinds its protocol carries (HTTP/HTTPS:
HTTPRoute, GRPCRoute; TLS: TLSRoute; TCP: TCPRoute; UDP: UDPRoute). Others are
dropped from supportedKinds and ResolvedRefs=False/InvalidRouteKinds.

Fix: remove the kind, or leave kinds empty to take the protocol's.`,
	},
	Run: reportListeners(listenerResolvedRefs, resolve.ReasonInvalidRouteKinds, ".allowedRoutes.kinds"),
}

var listenerCertificateInvalid = &Rule{
	ID: "listener-certificate-invalid", Severity: Error,
	Summary: "listener certificateRef does not resolve",
	Doc: Doc{
		Text: `A listener that terminates TLS needs certificateRefs to core Secrets of type
kubernetes.io/tls holding a PEM certificate and key; a Secret in another
namespace needs a ReferenceGrant there. Otherwise ResolvedRefs is False
(InvalidCertificateRef or RefNotPermitted) and the listener is not programmed.
An HTTPS listener without tls is not programmed either, nor, under Envoy
Gateway, a Passthrough listener with certificateRefs (the API ignores them).

Fix: correct the reference, add the Secret, or add a ReferenceGrant:`,
		Example: `kind: ReferenceGrant
metadata: {name: allow-gateway-certs, namespace: certs}
spec:
  from: [{group: gateway.networking.k8s.io, kind: Gateway, namespace: infra}]
  to: [{group: "", kind: Secret}]`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			for _, ref := range l.CertRefs {
				if !ref.OK() {
					reportRef(p, l.Owner(), l.String()+": ", ref)
				}
			}
			// An empty tls is the CRD's own rule ("certificateRefs or
			// options must be specified"), reported by crd-validation.
			if l.TLSProblem != "" {
				p.Report(l.Owner(), l.Path+".tls", nil, "%s: %s", l, l.TLSProblem)
			}
		}
	},
}

var listenerNoRoutes = &Rule{
	ID: "listener-no-routes", Severity: Info,
	Summary: "no route attaches to this listener",
	Doc: Doc{
		Text: `The listener is valid but no route among the inputs attaches to it, so it
serves nothing (HTTP 404 for every request). Often a leftover, or a sign that
routes target another sectionName. Not reported when a Helm release that
gwlint does not render (a HelmRelease whose chart is not in the repository)
is in a namespace the listener admits routes from: its chart may create them.

Fix: attach a route, or remove the listener.`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			// Port 0 is a missing port, crd-validation's finding; a
			// remote Gateway's routes are in its own cluster; a refused
			// Gateway serves nothing, its refusal is the finding. Istio
			// writes a listener it refuses Programmed all the same. A
			// release gwlint does not render may make the routes.
			if l.Programmed.True() && l.Accepted.True() && l.Port != 0 && l.AttachedRoutes == 0 && len(l.Undecided) == 0 && (l.ListenerSet == nil || l.ListenerSet.Accepted.True()) &&
				(l.Gateway == nil || l.Gateway.Accepted.True() && !l.Gateway.Remote()) && p.Graph.UnrenderedRelease(l) == nil {
				p.Report(l.Owner(), l.Path, nil, "%s (%d/%s) has no attached routes", l, l.Port, l.Protocol)
			}
		}
	},
}
