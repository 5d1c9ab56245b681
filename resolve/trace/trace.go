package trace

import (
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gwlint/gwlint/resolve"
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
// (stream.go).

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
	Gateway *resolve.ObjectRef
	// Service, for a mesh request (GEP-1426), is the Service the request is
	// sent to; Gateway is then ignored.
	Service *resolve.ObjectRef
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
		return kind == resolve.KindGRPCRoute
	case SchemeTLS:
		return kind == resolve.KindTLSRoute || kind == resolve.KindTCPRoute
	case SchemeTCP:
		return kind == resolve.KindTCPRoute
	case SchemeUDP:
		return kind == resolve.KindUDPRoute
	}
	return kind == resolve.KindHTTPRoute
}

// Outcome is what happens to a traced request.
type Outcome string

const (
	// Forwarded: the winning rule sends the request to its backends.
	Forwarded Outcome = "Forwarded"
	// Redirected: a RequestRedirect filter answers at the Gateway.
	Redirected Outcome = "Redirected"
	// BackendError: the winning rule has no backend that can take the
	// request (all invalid, none listed, all weight 0): HTTP 500.
	BackendError Outcome = "BackendError"
	// NotMatched: a listener takes the request but no route accepted
	// there matches it: HTTP 404 ("When no rules matching a request have
	// been successfully attached to the parent a request is coming from, a
	// HTTP 404 status code MUST be returned"); for gRPC, Unimplemented.
	NotMatched Outcome = "NotMatched"
	// NoListener: the Gateway has no valid listener for the request's
	// port, protocol and host.
	NoListener Outcome = "NoListener"
	// NoGateway: no Gateway among the inputs takes the request.
	NoGateway Outcome = "NoGateway"
	// AmbiguousGateway: several Gateways could take the request and
	// none was named.
	AmbiguousGateway Outcome = "AmbiguousGateway"
	// ToService: a mesh request that no route matches goes to the
	// Service itself.
	ToService Outcome = "ToService"
	// NoService: the mesh Service is not among the inputs, or has no
	// such port.
	NoService Outcome = "NoService"
	// ImplementationSpecific: the winning rule answers with a filter
	// whose effect the API does not define (ExtensionRef).
	ImplementationSpecific Outcome = "ImplementationSpecific"
	// Rejected: a TLS, TCP or UDP connection whose winning rule has no
	// backend that can take it is rejected ("the underlying implementation
	// MUST actively reject connection attempts to this backend").
	Rejected Outcome = "Rejected"
)

// Result is where a request goes, and why.
type Result struct {
	Request Request
	// Port is the port the request arrives on.
	Port int32

	// Gateway and Listener took the request (Gateway traffic).
	Gateway  *resolve.GatewayResult
	Listener *resolve.Listener
	// ListenerReason says why that listener among those on the port.
	ListenerReason string
	// Gateways are the Gateways that could take the request, when none was
	// named and more than one can (AmbiguousGateway).
	Gateways []*resolve.GatewayResult

	// Service and MeshPort took a mesh request.
	Service  *resolve.ServiceResult
	MeshPort *resolve.MeshPort

	// Matches are the matches the request satisfies, winner first, each
	// runner-up with the criterion it lost by.
	Matches []*Match
	// Misses are the routes accepted where the request arrived that it
	// does not match, with the first reason.
	Misses []*Miss
	// Ignored are routes bound there that do not apply to the request: the
	// other route kind, or consumer routes of other namespaces.
	Ignored []IgnoredRoute

	Outcome Outcome
	// StatusCode is the status the Gateway answers with itself (a
	// redirect, 404, 500); 0 when the request is forwarded.
	StatusCode int
	// Message explains the outcome.
	Message string
	// Rule is the winning rule.
	Rule *resolve.RuleResult
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
func (t *Result) Winner() *Match {
	if len(t.Matches) == 0 {
		return nil
	}
	return t.Matches[0]
}

// Match is one match that the request satisfies.
type Match struct {
	resolve.MatchRef
	// Hostname is the route hostname the request's host matched; empty when
	// the route serves any host on the listener.
	Hostname string
	rank     matchRank
	// Reason is, for the winner, the criterion that put it before the first
	// runner-up (PrecedenceOnlyMatch when alone); for a runner-up, the
	// criterion it lost by to the match before it.
	Reason Reason
	// Message says it in words: "Exact path /cart beats PathPrefix /".
	Message string
}

// Miss is a route the request could have reached but does not match.
type Miss struct {
	Route  *resolve.RouteResult
	Reason Reason
	// Message names the condition that failed, for the match that came
	// closest (the first, when none passed any condition).
	Message string
}

// IgnoredRoute is a route bound where the request arrived that cannot apply
// to it, and why.
type IgnoredRoute struct {
	Route   *resolve.RouteResult
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

// Tracer traces requests through one resolved graph. It only reads the
// graph: what it builds to trace many requests fast (each listener's
// routes by hostname and path, the regular expressions compiled) it keeps
// itself, on first use. A Tracer may be used by several goroutines.
type Tracer struct {
	graph *resolve.Graph
	// regexps are the expressions traces match, compiled (fullRegexp).
	regexps sync.Map // string → *regexp.Regexp
	// indexes are the listeners' routeIndexes (indexOf).
	indexes sync.Map // *resolve.Listener → *lazyIndex
}

// New returns a Tracer of g.
func New(g *resolve.Graph) *Tracer { return &Tracer{graph: g} }

// Trace follows req through the graph.
func (tr *Tracer) Trace(req Request) *Result {
	return tr.trace(req, func(l *resolve.Listener, _ *Request) []*resolve.ParentResult { return l.Attached })
}

// Destination is where req goes, as Trace finds it, for callers that trace
// many requests and use only that (gwctl diff): it checks only the routes
// on the listener that the request can reach (routesFor), not every route
// attached there, and so leaves Misses and Ignored empty.
func (tr *Tracer) Destination(req Request) *Result {
	t := tr.trace(req, tr.routesFor)
	t.Misses, t.Ignored = nil, nil
	return t
}

// trace follows req through the graph, matching it against the routes
// candidates returns for the listener that takes it.
func (tr *Tracer) trace(req Request, candidates func(*resolve.Listener, *Request) []*resolve.ParentResult) *Result {
	t := &Result{Request: req, Port: req.EffectivePort()}
	if req.Service != nil {
		tr.traceMesh(t)
		return t
	}
	gw, ok := tr.traceGateway(t)
	if !ok {
		return t
	}
	t.Gateway = gw
	if !t.pickListener(gw) {
		return t
	}
	t.matchRoutes(tr, candidates(t.Listener, &t.Request), func(p *resolve.ParentResult) []string { return hostnamesOn(p, t.Listener) })
	t.decide()
	return t
}

// serves reports whether a listener takes requests of req's protocol on
// its port (listenerProtocol). Only a programmed listener serves.
func serves(l *resolve.Listener, req *Request, port int32) bool {
	return l.Port == port && string(l.Protocol) == listenerProtocol(req) && l.Valid()
}

// listenerTakes reports whether l takes the request's host. A TCP or UDP
// listener has no hostname: "This field is ignored for protocols that
// don't require hostname based matching."
func listenerTakes(l *resolve.Listener, host string) bool {
	return l.Protocol == "TCP" || l.Protocol == "UDP" ||
		l.Hostname == nil || *l.Hostname == "" || resolve.HostnameMatches(string(*l.Hostname), host)
}

// traceGateway finds the Gateway the request is sent to: the named one,
// else the only one with a listener that takes it.
func (tr *Tracer) traceGateway(t *Result) (*resolve.GatewayResult, bool) {
	req := &t.Request
	if req.Gateway != nil {
		gw := tr.graph.Gateway(req.Gateway.Namespace, req.Gateway.Name)
		if gw == nil {
			t.Outcome = NoGateway
			t.Message = fmt.Sprintf("Gateway %s is not among the inputs", req.Gateway.NamespacedName())
			return nil, false
		}
		return gw, true
	}
	for _, gw := range tr.graph.Gateways {
		if slices.ContainsFunc(gw.AllListeners(), func(l *resolve.Listener) bool {
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
		t.Outcome = NoGateway
		t.Message = fmt.Sprintf("no Gateway has a valid %s listener on port %d%s", listenerProtocol(req), t.Port, forHost)
	default:
		t.Outcome = AmbiguousGateway
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
func (t *Result) pickListener(gw *resolve.GatewayResult) bool {
	req := &t.Request
	var onPort, taking []*resolve.Listener
	for _, l := range gw.AllListeners() {
		if serves(l, req, t.Port) {
			onPort = append(onPort, l)
			if listenerTakes(l, req.Host) {
				taking = append(taking, l)
			}
		}
	}
	if len(taking) == 0 {
		t.Outcome = NoListener
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
func (tr *Tracer) traceMesh(t *Result) {
	ref := t.Request.Service
	s := tr.graph.Service(ref.Namespace, ref.Name)
	if s == nil {
		t.Outcome = NoService
		t.Message = fmt.Sprintf("Service %s is not among the inputs", ref.NamespacedName())
		return
	}
	t.Service = s
	for _, mp := range s.Ports() {
		if mp.Port.Port == t.Port && (mp.Port.Protocol == "" || mp.Port.Protocol == "TCP") {
			t.MeshPort = mp
		}
	}
	if t.MeshPort == nil {
		t.Outcome = NoService
		t.Message = fmt.Sprintf("Service %s has no TCP port %d (ports: %s)", ref.NamespacedName(), t.Port, resolve.PortList(s.Spec.Ports))
		return
	}
	for _, p := range t.MeshPort.Consumers {
		t.Ignored = append(t.Ignored, IgnoredRoute{p.Route,
			fmt.Sprintf("consumer route: applies only to clients in namespace %s", p.Route.Ref.Namespace)})
	}
	t.matchRoutes(tr, t.MeshPort.Producers, func(*resolve.ParentResult) []string { return nil })
	t.decide()
}

// matchRoutes finds every match of the routes bound where the request
// arrived; hostsOf gives a binding's effective hostnames (none: any).
func (t *Result) matchRoutes(tr *Tracer, bound []*resolve.ParentResult, hostsOf func(*resolve.ParentResult) []string) {
	req := &t.Request
	seen := map[*resolve.RouteResult]bool{}
	for _, p := range bound {
		r := p.Route
		if seen[r] {
			continue
		}
		seen[r] = true
		if !req.routeKindMatches(r.Kind()) {
			if r.Kind() == resolve.KindHTTPRoute || r.Kind() == resolve.KindGRPCRoute {
				t.Ignored = append(t.Ignored, IgnoredRoute{r, fmt.Sprintf("%ss do not match %s requests", r.Kind(), req.Scheme)})
			}
			continue
		}
		hostname, hostOK := bestHostname(hostsOf(p), req.Host)
		if !hostOK {
			t.Misses = append(t.Misses, &Miss{Route: r, Reason: MissHostname,
				Message: fmt.Sprintf("serves %s here, not %s", strings.Join(hostsOf(p), ", "), req.Host)})
			continue
		}
		matched, miss := tr.matchRoute(r, req)
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
	compare := func(a, b *Match) (int, Reason) {
		if d, why := compareRanks(criteria, &a.rank, &b.rank); d != 0 {
			return d, why
		}
		if d, why := compareRoutes(a.Route, b.Route); d != 0 {
			return d, why
		}
		return compareMatchRefs(a.MatchRef, b.MatchRef)
	}
	slices.SortStableFunc(t.Matches, func(a, b *Match) int { d, _ := compare(a, b); return d })
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
		if !resolve.HostnameMatches(h, host) {
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
func lostBecause(why Reason, winner, loser *Match) string {
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
func (t *Result) decide() {
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
			t.Outcome = ToService
			t.Message = fmt.Sprintf("no route matches: the request goes to Service %s itself", t.Service.Ref.NamespacedName())
			return
		}
		t.Outcome, t.StatusCode = NotMatched, 404
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
			t.Outcome, t.StatusCode = Redirected, *f.RequestRedirect.StatusCode
			t.Redirect = t.redirectTarget(w, f.RequestRedirect)
			t.Message = fmt.Sprintf("redirected with %d to %s", t.StatusCode, t.Redirect)
			return
		case f.URLRewrite != nil:
			t.Rewrite = t.rewrite(w, f.URLRewrite)
		case f.ExtensionRef != nil && len(t.Rule.Backends) == 0:
			t.Outcome = ImplementationSpecific
			t.Message = fmt.Sprintf("the rule has no backends and its ExtensionRef filter %s %s decides the response", f.ExtensionRef.Kind, f.ExtensionRef.Name)
			return
		}
	}
	switch outcome := t.Rule.Outcome(route.Route); outcome {
	case resolve.Forwarded:
		t.Outcome = Forwarded
		t.Message = "forwarded to the rule's backends"
		t.ErrorShare = t.errorShare()
	case resolve.NoBackends:
		if t.Service != nil {
			t.Outcome = ToService
			t.Message = fmt.Sprintf("the rule has no backendRefs: the request goes to Service %s itself", t.Service.Ref.NamespacedName())
			return
		}
		t.Outcome, t.StatusCode = BackendError, 500
		t.Message = "the rule has no backendRefs: HTTP 500"
	case resolve.ZeroWeight:
		t.Outcome, t.StatusCode = BackendError, 500
		t.Message = "every backend has weight 0: HTTP 500"
	default: // AllErrors500, FiltersOnly without a redirect
		t.Outcome, t.StatusCode = BackendError, 500
		t.Message = "no backend of the rule is valid: HTTP 500"
	}
}

// errorShare is the part of the rule's traffic answered with HTTP 500:
// the shares of invalid backends and of backends whose BackendTLSPolicy
// is not accepted.
func (t *Result) errorShare() float64 {
	share := 0.0
	for _, b := range t.Rule.Backends {
		if b.Fails() {
			share += b.Share
		}
	}
	return share
}
