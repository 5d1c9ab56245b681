package trace

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// Tracing a TLS, TCP or UDP connection. What differs from a request:
//
//   - The listener: a TLS listener is chosen by port and SNI, the most
//     specific hostname first, as an HTTPS listener is (GEP-2643: "the most
//     specific hostname MUST be chosen"); TCP and UDP listeners have no
//     hostname, so the port alone decides.
//   - The routes: a TLSRoute matches by its hostnames intersected with the
//     listener's (TLSRouteSpec.Hostnames: "any TLSRoute hostnames that do
//     not match any Listener hostname MUST be ignored"); TCPRoute and
//     UDPRoute rules have no matches at all, so every route bound to the
//     listener takes every connection. Among several, AllowedRoutes
//     orders them: "The most specific match as defined by the Route type"
//     (for TLSRoute the hostname, compared as HTTPRoute's: exact before
//     wildcard, then the longer), then "The oldest Route based on creation
//     timestamp", then "the Route appearing first in alphabetical order
//     (namespace/name)". Where the routes tie on the hostname, or have
//     none, they conflict: the API's conflict rule (the oldest, then the
//     first by name, wins) binds the winner and no traffic reaches the
//     others, as the conformance suite's TCPRouteMultipleRoutesAttachment
//     requires.
//   - The rule's outcome: no filters, no status codes; an invalid backend's
//     share of connections is rejected ("Connection rejections must respect
//     weight").

// Stream reports whether the request is a TLS, TCP or UDP connection
// rather than an HTTP or gRPC request.
func (r *Request) Stream() bool {
	return r.Scheme == SchemeTLS || r.Scheme == SchemeTCP || r.Scheme == SchemeUDP
}

// checkStream rejects what a connection URL cannot carry: a path or query
// (no route of these kinds sees them), and for tcp and udp a missing port
// (no scheme default exists).
func (r *Request) checkStream(u *url.URL) error {
	if u.RawQuery != "" || r.Path != "" && r.Path != "/" {
		return fmt.Errorf("a %s:// URL names a host and port only: %s routes see no path or query", r.Scheme, strings.ToUpper(r.Scheme))
	}
	r.Path = ""
	if r.Port == 0 && r.Scheme != SchemeTLS {
		return fmt.Errorf("a %s:// URL needs a port: %s://host:port", r.Scheme, r.Scheme)
	}
	return nil
}

// conflictNote adds, for a route of a kind whose rules have no matches,
// that losing a tie means not being bound at all.
func conflictNote(loser *Match) string {
	if loser.Route.HTTP != nil || loser.Route.GRPC != nil {
		return ""
	}
	return ": the routes conflict, and only the first is bound"
}

// decideStream applies the winning rule to a connection: it goes to the
// rule's backends by weight, or is rejected.
func (t *Result) decideStream(w *Match) {
	if w == nil {
		if t.Service != nil {
			t.Outcome = ToService
			t.Message = fmt.Sprintf("no route matches: the connection goes to Service %s itself", t.Service.Ref.NamespacedName())
			return
		}
		t.Outcome = NotMatched
		t.Message = fmt.Sprintf("no route accepted on listener %s takes the connection: it is rejected", t.Listener.Name)
		return
	}
	t.Rule = w.Route.Rules[w.Rule]
	switch t.Rule.Outcome(w.Route.Route) {
	case resolve.Forwarded:
		t.Outcome = Forwarded
		t.Message = "forwarded to the rule's backends"
		t.ErrorShare = t.errorShare()
	case resolve.ZeroWeight:
		t.Outcome = Rejected
		t.Message = "every backend has weight 0: the connection is rejected"
	default: // Dropped, NoBackends
		t.Outcome = Rejected
		t.Message = "no backend of the rule is valid: the connection is rejected"
	}
}
