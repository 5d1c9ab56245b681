package resolve

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Tracing: where one request goes. Trace walks the graph the way a
// conformant data plane would: the Gateway and listener the request arrives
// on (port, protocol, then the most specific hostname), the routes accepted
// on that listener that serve the request's host, every match of theirs
// that the request satisfies ranked by the spec's precedence
// (precedence.go), and what the winning rule does: a redirect answers at
// the Gateway, otherwise the request is split among the rule's backends
// (an invalid backend's share is answered with HTTP 500). A TLS, TCP or UDP
// connection is walked the same way with what its routes match on: the SNI
// for TLSRoutes, nothing but the listener for TCPRoutes and UDPRoutes
// (trace_stream.go).

// Request is a request to trace.
type Request struct {
	// Scheme is http, https, grpc (gRPC over cleartext HTTP/2), grpcs,
	// or, for a connection that no HTTP route sees, tls, tcp or udp.
	Scheme string
	// Host is the request's host (the Host header, and for https and tls
	// the SNI), without a port. TCP and UDP routing ignores it.
	Host string
	// Port is the port the request is sent to; 0 means the scheme's (tcp
	// and udp have none).
	Port int32
	// Method is the HTTP method; empty means GET.
	Method string
	// Path is the URL path, without the query.
	Path    string
	Query   []NameValue
	Headers []NameValue
	// GRPCService and GRPCMethod name the gRPC method called (grpc, grpcs).
	GRPCService, GRPCMethod string
	// Gateway is the Gateway the request is sent to; nil means the one
	// Gateway with a listener that takes it.
	Gateway *ObjectRef
	// Service, for a mesh request (GEP-1426), is the Service the request is
	// sent to; Gateway is then ignored.
	Service *ObjectRef
}

// NameValue is a header or a query parameter.
type NameValue struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// Request schemes.
const (
	SchemeHTTP  = "http"
	SchemeHTTPS = "https"
	SchemeGRPC  = "grpc"
	SchemeGRPCS = "grpcs"
	// SchemeTLS is a TLS connection whose SNI is Host (TLS listeners).
	SchemeTLS = "tls"
	SchemeTCP = "tcp"
	SchemeUDP = "udp"
)

// ParseRequestURL reads a request from a URL: http://host[:port]/path?query,
// https://..., grpc://host[:port]/package.Service/Method (grpcs:// over
// TLS), tls://sni[:port] (443 by default), tcp://host:port or
// udp://host:port.
func ParseRequestURL(raw string) (Request, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return Request{}, err
	}
	req := Request{Scheme: strings.ToLower(u.Scheme), Host: strings.ToLower(u.Hostname()), Path: u.EscapedPath()}
	switch req.Scheme {
	case SchemeHTTP, SchemeHTTPS, SchemeGRPC, SchemeGRPCS, SchemeTLS, SchemeTCP, SchemeUDP:
	case "":
		return Request{}, fmt.Errorf("%q has no scheme: use http://, https://, grpc://, grpcs://, tls://, tcp:// or udp://", raw)
	default:
		return Request{}, fmt.Errorf("scheme %q is not supported: use http, https, grpc, grpcs, tls, tcp or udp", u.Scheme)
	}
	if req.Host == "" {
		return Request{}, fmt.Errorf("%q has no host", raw)
	}
	if p := u.Port(); p != "" {
		n, err := strconv.ParseUint(p, 10, 16)
		if err != nil || n == 0 {
			return Request{}, fmt.Errorf("port %q is not a port number", p)
		}
		req.Port = int32(n)
	}
	if req.Stream() {
		return req, req.checkStream(u)
	}
	if req.Path == "" {
		req.Path = "/"
	}
	if req.gRPC() {
		service, method, ok := strings.Cut(strings.TrimPrefix(req.Path, "/"), "/")
		if !ok || service == "" || method == "" || strings.Contains(method, "/") {
			return Request{}, fmt.Errorf("a gRPC URL names a method: grpc://host/package.Service/Method, not %q", req.Path)
		}
		req.GRPCService, req.GRPCMethod, req.Method = service, method, "POST"
		return req, nil
	}
	for _, kv := range strings.Split(u.RawQuery, "&") {
		if kv == "" {
			continue
		}
		k, v, _ := strings.Cut(kv, "=")
		k, _ = url.QueryUnescape(k)
		v, _ = url.QueryUnescape(v)
		req.Query = append(req.Query, NameValue{k, v})
	}
	return req, nil
}

func (r *Request) gRPC() bool { return r.Scheme == SchemeGRPC || r.Scheme == SchemeGRPCS }

func (r *Request) tls() bool { return r.Scheme == SchemeHTTPS || r.Scheme == SchemeGRPCS }

// EffectiveMethod is the HTTP method, GET by default.
func (r *Request) EffectiveMethod() string {
	if r.Method == "" {
		return "GET"
	}
	return strings.ToUpper(r.Method)
}

// EffectivePort is the port the request is sent to: Port, else the
// scheme's (80 for http and grpc, 443 for https, grpcs and tls).
func (r *Request) EffectivePort() int32 {
	switch {
	case r.Port != 0:
		return r.Port
	case r.tls() || r.Scheme == SchemeTLS:
		return 443
	}
	return 80
}

// routeKindMatches reports whether routes of kind can match the request:
// "Merging MUST not be done between GRPCRoutes and HTTPRoutes"; a TLS
// listener carries TLSRoutes, and TCPRoutes when it terminates TLS.
func (r *Request) routeKindMatches(kind string) bool {
	switch r.Scheme {
	case SchemeGRPC, SchemeGRPCS:
		return kind == KindGRPCRoute
	case SchemeTLS:
		return kind == KindTLSRoute || kind == KindTCPRoute
	case SchemeTCP:
		return kind == KindTCPRoute
	case SchemeUDP:
		return kind == KindUDPRoute
	}
	return kind == KindHTTPRoute
}

// TraceOutcome is what happens to a traced request.
type TraceOutcome string

const (
	// TraceForwarded: the winning rule sends the request to its backends.
	TraceForwarded TraceOutcome = "Forwarded"
	// TraceRedirected: a RequestRedirect filter answers at the Gateway.
	TraceRedirected TraceOutcome = "Redirected"
	// TraceBackendError: the winning rule has no backend that can take the
	// request (all invalid, none listed, all weight 0): HTTP 500.
	TraceBackendError TraceOutcome = "BackendError"
	// TraceNotMatched: a listener takes the request but no route accepted
	// there matches it: HTTP 404 ("When no rules matching a request have
	// been successfully attached to the parent a request is coming from, a
	// HTTP 404 status code MUST be returned"); for gRPC, Unimplemented.
	TraceNotMatched TraceOutcome = "NotMatched"
	// TraceNoListener: the Gateway has no valid listener for the request's
	// port, protocol and host.
	TraceNoListener TraceOutcome = "NoListener"
	// TraceNoGateway: no Gateway among the inputs takes the request.
	TraceNoGateway TraceOutcome = "NoGateway"
	// TraceAmbiguousGateway: several Gateways could take the request and
	// none was named.
	TraceAmbiguousGateway TraceOutcome = "AmbiguousGateway"
	// TraceToService: a mesh request that no route matches goes to the
	// Service itself.
	TraceToService TraceOutcome = "ToService"
	// TraceNoService: the mesh Service is not among the inputs, or has no
	// such port.
	TraceNoService TraceOutcome = "NoService"
	// TraceImplementationSpecific: the winning rule answers with a filter
	// whose effect the API does not define (ExtensionRef).
	TraceImplementationSpecific TraceOutcome = "ImplementationSpecific"
	// TraceRejected: a TLS, TCP or UDP connection whose winning rule has no
	// backend that can take it is rejected ("the underlying implementation
	// MUST actively reject connection attempts to this backend").
	TraceRejected TraceOutcome = "Rejected"
)

// TraceResult is where a request goes, and why.
type TraceResult struct {
	Request Request
	// Port is the port the request arrives on.
	Port int32

	// Gateway and Listener took the request (Gateway traffic).
	Gateway  *GatewayResult
	Listener *Listener
	// ListenerReason says why that listener among those on the port.
	ListenerReason string
	// Gateways are the Gateways that could take the request, when none was
	// named and more than one can (TraceAmbiguousGateway).
	Gateways []*GatewayResult

	// Service and MeshPort took a mesh request.
	Service  *ServiceResult
	MeshPort *MeshPort

	// Matches are the matches the request satisfies, winner first, each
	// runner-up with the criterion it lost by.
	Matches []*TraceMatch
	// Misses are the routes accepted where the request arrived that it
	// does not match, with the first reason.
	Misses []*TraceMiss
	// Ignored are routes bound there that do not apply to the request: the
	// other route kind, or consumer routes of other namespaces.
	Ignored []IgnoredRoute

	Outcome TraceOutcome
	// StatusCode is the status the Gateway answers with itself (a
	// redirect, 404, 500); 0 when the request is forwarded.
	StatusCode int
	// Message explains the outcome.
	Message string
	// Rule is the winning rule.
	Rule *RuleResult
	// ErrorShare is the part of forwarded requests answered with HTTP 500
	// because their backend is invalid (0–1); for a TLS, TCP or UDP
	// connection, the part rejected.
	ErrorShare float64
	// Redirect is where a redirect sends the client.
	Redirect *RedirectTarget
	// Rewrite is the request as the backends see it after URLRewrite;
	// nil when the rule does not rewrite.
	Rewrite *RewrittenRequest
}

// Winner is the match that takes the request, nil when none does.
func (t *TraceResult) Winner() *TraceMatch {
	if len(t.Matches) == 0 {
		return nil
	}
	return t.Matches[0]
}

// TraceMatch is one match that the request satisfies.
type TraceMatch struct {
	MatchRef
	// Hostname is the route hostname the request's host matched; empty when
	// the route serves any host on the listener.
	Hostname string
	rank     matchRank
	// Reason is, for the winner, the criterion that put it before the first
	// runner-up (PrecedenceOnlyMatch when alone); for a runner-up, the
	// criterion it lost by to the match before it.
	Reason TraceReason
	// Message says it in words: "Exact path /cart beats PathPrefix /".
	Message string
}

// TraceMiss is a route the request could have reached but does not match.
type TraceMiss struct {
	Route  *RouteResult
	Reason TraceReason
	// Message names the condition that failed, for the match that came
	// closest (the first, when none passed any condition).
	Message string
}

// IgnoredRoute is a route bound where the request arrived that cannot apply
// to it, and why.
type IgnoredRoute struct {
	Route   *RouteResult
	Message string
}

// RedirectTarget is the Location of a redirect, in parts.
type RedirectTarget struct {
	Scheme   string
	Hostname string
	// Port is 0 when the Location carries none (80 for http, 443 for
	// https: "Implementations SHOULD NOT add the port number in the
	// 'Location' header" then).
	Port int32
	Path string
}

// String is the Location header.
func (r *RedirectTarget) String() string {
	host := r.Hostname
	if r.Port != 0 {
		host += ":" + strconv.Itoa(int(r.Port))
	}
	return r.Scheme + "://" + host + r.Path
}

// RewrittenRequest is the request a backend receives after URLRewrite.
type RewrittenRequest struct {
	Host string
	Path string
}

// Trace follows req through the graph.
func (g *Graph) Trace(req Request) *TraceResult {
	return g.trace(req, func(l *Listener, _ *Request) []*ParentResult { return l.Attached })
}

// Destination is where req goes, as Trace finds it, for callers that trace
// many requests and use only that (gwctl diff): it checks only the routes
// on the listener that the request can reach (routesFor), not every route
// attached there, and so leaves Misses and Ignored empty.
func (g *Graph) Destination(req Request) *TraceResult {
	t := g.trace(req, g.routesFor)
	t.Misses, t.Ignored = nil, nil
	return t
}

// trace follows req through the graph, matching it against the routes
// candidates returns for the listener that takes it.
func (g *Graph) trace(req Request, candidates func(*Listener, *Request) []*ParentResult) *TraceResult {
	t := &TraceResult{Request: req, Port: req.EffectivePort()}
	if req.Service != nil {
		g.traceMesh(t)
		return t
	}
	gw, ok := g.traceGateway(t)
	if !ok {
		return t
	}
	t.Gateway = gw
	if !t.pickListener(gw) {
		return t
	}
	t.matchRoutes(g, candidates(t.Listener, &t.Request), func(p *ParentResult) []string { return hostnamesOn(p, t.Listener) })
	t.decide()
	return t
}

// serves reports whether a listener takes requests of req's protocol on
// its port (listenerProtocol). Only a programmed listener serves.
func serves(l *Listener, req *Request, port int32) bool {
	return l.Port == port && string(l.Protocol) == listenerProtocol(req) && l.Valid()
}

// listenerTakes reports whether l takes the request's host. A TCP or UDP
// listener has no hostname: "This field is ignored for protocols that
// don't require hostname based matching."
func listenerTakes(l *Listener, host string) bool {
	return l.Protocol == "TCP" || l.Protocol == "UDP" ||
		l.Hostname == nil || *l.Hostname == "" || hostnameMatches(string(*l.Hostname), host)
}

// traceGateway finds the Gateway the request is sent to: the named one,
// else the only one with a listener that takes it.
func (g *Graph) traceGateway(t *TraceResult) (*GatewayResult, bool) {
	req := &t.Request
	if req.Gateway != nil {
		gw := g.Gateway(req.Gateway.Namespace, req.Gateway.Name)
		if gw == nil {
			t.Outcome = TraceNoGateway
			t.Message = fmt.Sprintf("Gateway %s is not among the inputs", req.Gateway.NamespacedName())
			return nil, false
		}
		return gw, true
	}
	for _, gw := range g.Gateways {
		if slices.ContainsFunc(gw.AllListeners(), func(l *Listener) bool {
			return serves(l, req, t.Port) && listenerTakes(l, req.Host)
		}) {
			t.Gateways = append(t.Gateways, gw)
		}
	}
	forHost := " for host " + req.Host
	if req.Scheme == SchemeTCP || req.Scheme == SchemeUDP {
		forHost = ""
	}
	switch len(t.Gateways) {
	case 1:
		gw := t.Gateways[0]
		t.Gateways = nil
		return gw, true
	case 0:
		t.Outcome = TraceNoGateway
		t.Message = fmt.Sprintf("no Gateway has a valid %s listener on port %d%s", listenerProtocol(req), t.Port, forHost)
	default:
		t.Outcome = TraceAmbiguousGateway
		t.Message = fmt.Sprintf("%d Gateways have a %s listener on port %d%s: name one", len(t.Gateways), listenerProtocol(req), t.Port, forHost)
	}
	return nil, false
}

// listenerProtocol is the listener protocol that takes the request: HTTP
// for http and grpc, HTTPS for https and grpcs, TLS, TCP or UDP for the
// others.
func listenerProtocol(req *Request) string {
	switch {
	case req.tls():
		return "HTTPS"
	case req.Stream():
		return strings.ToUpper(req.Scheme)
	}
	return "HTTP"
}

// pickListener chooses among the Gateway's listeners (its own and its
// ListenerSets') those on the port with the request's protocol whose
// hostname takes the host, the most specific first.
func (t *TraceResult) pickListener(gw *GatewayResult) bool {
	req := &t.Request
	var onPort, taking []*Listener
	for _, l := range gw.AllListeners() {
		if serves(l, req, t.Port) {
			onPort = append(onPort, l)
			if listenerTakes(l, req.Host) {
				taking = append(taking, l)
			}
		}
	}
	if len(taking) == 0 {
		t.Outcome = TraceNoListener
		if len(onPort) == 0 {
			t.Message = fmt.Sprintf("Gateway %s has no valid %s listener on port %d: the connection is refused",
				gw.Ref.NamespacedName(), listenerProtocol(req), t.Port)
			return false
		}
		hosts := make([]string, len(onPort))
		for i, l := range onPort {
			hosts[i] = l.HostnameString()
		}
		t.Message = fmt.Sprintf("no listener of Gateway %s on port %d takes host %s (hostnames: %s)",
			gw.Ref.NamespacedName(), t.Port, req.Host, strings.Join(hosts, ", "))
		if req.Stream() {
			t.Message += ": the TLS handshake is refused"
		} else {
			t.StatusCode = 404
		}
		return false
	}
	slices.SortStableFunc(taking, compareListeners)
	t.Listener = taking[0]
	switch {
	case len(taking) == 1 && (req.Scheme == SchemeTCP || req.Scheme == SchemeUDP):
		t.ListenerReason = fmt.Sprintf("the only %s listener on port %d", listenerProtocol(req), t.Port)
	case len(taking) == 1:
		t.ListenerReason = fmt.Sprintf("the only %s listener on port %d that takes host %s", listenerProtocol(req), t.Port, req.Host)
	default:
		others := make([]string, len(taking)-1)
		for i, l := range taking[1:] {
			others[i] = l.Name + " (" + l.HostnameString() + ")"
		}
		t.ListenerReason = fmt.Sprintf("hostname %s is more specific than %s", t.Listener.HostnameString(), strings.Join(others, ", "))
	}
	return true
}

// traceMesh follows a request sent to a Service (GEP-1426): the routes of
// the request's kind bound to the Service port, producer routes only (a
// consumer route applies only to clients in its own namespace).
func (g *Graph) traceMesh(t *TraceResult) {
	ref := t.Request.Service
	s := g.Service(ref.Namespace, ref.Name)
	if s == nil {
		t.Outcome = TraceNoService
		t.Message = fmt.Sprintf("Service %s is not among the inputs", ref.NamespacedName())
		return
	}
	t.Service = s
	for _, mp := range s.Ports {
		if mp.Port.Port == t.Port && (mp.Port.Protocol == "" || mp.Port.Protocol == "TCP") {
			t.MeshPort = mp
		}
	}
	if t.MeshPort == nil {
		t.Outcome = TraceNoService
		t.Message = fmt.Sprintf("Service %s has no TCP port %d (ports: %s)", ref.NamespacedName(), t.Port, portList(s.Spec.Ports))
		return
	}
	for _, p := range t.MeshPort.Consumers {
		t.Ignored = append(t.Ignored, IgnoredRoute{p.Route,
			fmt.Sprintf("consumer route: applies only to clients in namespace %s", p.Route.Ref.Namespace)})
	}
	t.matchRoutes(g, t.MeshPort.Producers, func(*ParentResult) []string { return nil })
	t.decide()
}

// matchRoutes finds every match of the routes bound where the request
// arrived; hostsOf gives a binding's effective hostnames (none: any).
func (t *TraceResult) matchRoutes(g *Graph, bound []*ParentResult, hostsOf func(*ParentResult) []string) {
	req := &t.Request
	seen := map[*RouteResult]bool{}
	for _, p := range bound {
		r := p.Route
		if seen[r] {
			continue
		}
		seen[r] = true
		if !req.routeKindMatches(r.Kind()) {
			if r.Kind() == KindHTTPRoute || r.Kind() == KindGRPCRoute {
				t.Ignored = append(t.Ignored, IgnoredRoute{r, fmt.Sprintf("%ss do not match %s requests", r.Kind(), req.Scheme)})
			}
			continue
		}
		hostname, hostOK := bestHostname(hostsOf(p), req.Host)
		if !hostOK {
			t.Misses = append(t.Misses, &TraceMiss{Route: r, Reason: MissHostname,
				Message: fmt.Sprintf("serves %s here, not %s", strings.Join(hostsOf(p), ", "), req.Host)})
			continue
		}
		matched, miss := g.matchRoute(r, req)
		if len(matched) == 0 {
			t.Misses = append(t.Misses, miss)
			continue
		}
		for _, m := range matched {
			m.Hostname = hostname
			if !strings.HasPrefix(hostname, "*.") {
				m.rank.hostExact = len(hostname)
			}
			m.rank.hostChars = len(hostname)
			t.Matches = append(t.Matches, m)
		}
	}
	criteria := httpCriteria
	switch {
	case req.gRPC():
		criteria = grpcCriteria
	case req.Stream():
		criteria = hostCriteria
	}
	compare := func(a, b *TraceMatch) (int, TraceReason) {
		if d, why := compareRanks(criteria, &a.rank, &b.rank); d != 0 {
			return d, why
		}
		if d, why := compareRoutes(a.Route, b.Route); d != 0 {
			return d, why
		}
		return compareMatchRefs(a.MatchRef, b.MatchRef)
	}
	slices.SortStableFunc(t.Matches, func(a, b *TraceMatch) int { d, _ := compare(a, b); return d })
	for i, m := range t.Matches {
		if i == 0 {
			continue
		}
		_, m.Reason = compare(t.Matches[i-1], m)
		m.Message = lostBecause(m.Reason, t.Matches[i-1], m)
	}
	if w := t.Winner(); w != nil {
		if len(t.Matches) == 1 {
			w.Reason, w.Message = PrecedenceOnlyMatch, "the only match"
		} else {
			w.Reason, w.Message = t.Matches[1].Reason, t.Matches[1].Message
		}
	}
}

// bestHostname is the most specific of a route's effective hostnames that
// the host matches; "" when the route serves any host.
func bestHostname(hostnames []string, host string) (string, bool) {
	if len(hostnames) == 0 {
		return "", true
	}
	best, found := "", false
	for _, h := range hostnames {
		if !hostnameMatches(h, host) {
			continue
		}
		exact := !strings.HasPrefix(h, "*.")
		if !found || exact && strings.HasPrefix(best, "*.") || exact == !strings.HasPrefix(best, "*.") && len(h) > len(best) {
			best, found = h, true
		}
	}
	return best, found
}

// lostBecause says why winner comes before loser, by criterion why.
func lostBecause(why TraceReason, winner, loser *TraceMatch) string {
	switch why {
	case PrecedenceHostname:
		return fmt.Sprintf("hostname %s is more specific than %s", orAnyHost(winner.Hostname), orAnyHost(loser.Hostname))
	case PrecedenceCreationTime:
		return fmt.Sprintf("%s is older than %s", winner.Route.Ref, loser.Route.Ref) + conflictNote(loser)
	case PrecedenceName:
		return fmt.Sprintf("equal precedence and age: %s comes first by namespace/name", winner.Route.Ref.NamespacedName()) + conflictNote(loser)
	case PrecedenceRuleOrder:
		return fmt.Sprintf("same route: %s comes first", winner.Path)
	}
	return fmt.Sprintf("%s beats %s", winner.describe(), loser.describe())
}

func orAnyHost(h string) string {
	if h == "" {
		return "(any)"
	}
	return h
}

// traceLimit caps the matches a trace keeps as runners-up: a catch-all
// route on a busy listener matches everything.
const traceLimit = 20

// decide applies the winning rule: its redirect, or its backends.
func (t *TraceResult) decide() {
	if len(t.Matches) > traceLimit {
		t.Matches = t.Matches[:traceLimit]
	}
	w := t.Winner()
	if t.Request.Stream() {
		t.decideStream(w)
		return
	}
	if w == nil {
		if t.Service != nil {
			t.Outcome = TraceToService
			t.Message = fmt.Sprintf("no route matches: the request goes to Service %s itself", t.Service.Ref.NamespacedName())
			return
		}
		t.Outcome, t.StatusCode = TraceNotMatched, 404
		t.Message = fmt.Sprintf("no route accepted on listener %s matches the request", t.Listener.Name)
		if t.Request.gRPC() {
			t.Message += " (gRPC status Unimplemented)"
		}
		return
	}
	route := w.Route
	t.Rule = route.Rules[w.Rule]
	for _, f := range route.RuleFilters(w.Rule) {
		switch {
		case f.RequestRedirect != nil:
			t.Outcome, t.StatusCode = TraceRedirected, *f.RequestRedirect.StatusCode
			t.Redirect = t.redirectTarget(w, f.RequestRedirect)
			t.Message = fmt.Sprintf("redirected with %d to %s", t.StatusCode, t.Redirect)
			return
		case f.URLRewrite != nil:
			t.Rewrite = t.rewrite(w, f.URLRewrite)
		case f.ExtensionRef != nil && len(t.Rule.Backends) == 0:
			t.Outcome = TraceImplementationSpecific
			t.Message = fmt.Sprintf("the rule has no backends and its ExtensionRef filter %s %s decides the response", f.ExtensionRef.Kind, f.ExtensionRef.Name)
			return
		}
	}
	switch outcome := t.Rule.Outcome(route.Route); outcome {
	case Forwarded:
		t.Outcome = TraceForwarded
		t.Message = "forwarded to the rule's backends"
		t.ErrorShare = t.errorShare()
	case NoBackends:
		if t.Service != nil {
			t.Outcome = TraceToService
			t.Message = fmt.Sprintf("the rule has no backendRefs: the request goes to Service %s itself", t.Service.Ref.NamespacedName())
			return
		}
		t.Outcome, t.StatusCode = TraceBackendError, 500
		t.Message = "the rule has no backendRefs: HTTP 500"
	case ZeroWeight:
		t.Outcome, t.StatusCode = TraceBackendError, 500
		t.Message = "every backend has weight 0: HTTP 500"
	default: // AllErrors500, FiltersOnly without a redirect
		t.Outcome, t.StatusCode = TraceBackendError, 500
		t.Message = "no backend of the rule is valid: HTTP 500"
	}
}

// errorShare is the part of the rule's traffic answered with HTTP 500:
// the shares of invalid backends and of backends whose BackendTLSPolicy
// is not accepted.
func (t *TraceResult) errorShare() float64 {
	share := 0.0
	for _, b := range t.Rule.Backends {
		if b.Fails() {
			share += b.Share
		}
	}
	return share
}
