package resolve

import (
	"net/url"
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Sample requests: one concrete request for every way a Gateway's routes
// can be reached, so that two versions of a tree can be compared by where
// the same requests go (gwctl diff). For every programmed listener, every
// route accepted there, every effective hostname of the route on that
// listener and every match of its rules, the request is one the match
// selects: its Exact or PathPrefix path, its method, its Exact headers and
// query parameters, or its gRPC method; a TLS connection with the hostname
// as the SNI; a TCP or UDP connection to the listener's port. A wildcard
// hostname becomes its "any." host, a route that serves any host gets
// anyHost. A match with a RegularExpression condition is left out: no
// request can be derived from an expression in general. Mesh routes are
// not sampled: their requests are sent to Services, not Gateways.

// anyHost is the host of a sample request for a route and listener with no
// hostname: the reserved example domain, which no route names.
const anyHost = "any-host.example"

// SampleRequests returns the sample requests of g's Gateways, each sent to
// its Gateway and port, sorted and without duplicates.
func (g *Graph) SampleRequests() []Request {
	var out []Request
	for _, gw := range g.Gateways {
		for _, l := range gw.AllListeners() {
			if !l.Valid() {
				continue
			}
			for _, p := range l.Attached {
				for _, o := range p.Listeners {
					if o.Listener == l && o.Accepted() {
						out = append(out, sampleRoute(gw.Ref, l, p.Route, o.Hostnames)...)
					}
				}
			}
		}
	}
	// Each rendered once: rendering in every comparison was most of the
	// cost on large trees.
	type keyed struct {
		key string
		req Request
	}
	byKey := make([]keyed, len(out))
	for i, r := range out {
		byKey[i] = keyed{r.String(), r}
	}
	slices.SortFunc(byKey, func(a, b keyed) int { return strings.Compare(a.key, b.key) })
	byKey = slices.CompactFunc(byKey, func(a, b keyed) bool { return a.key == b.key })
	out = out[:len(byKey)]
	for i, k := range byKey {
		out[i] = k.req
	}
	return out
}

// sampleRoute is the sample requests of route r on listener l, where its
// effective hostnames are hosts (none: any).
func sampleRoute(gw ObjectRef, l *Listener, r *RouteResult, hosts []string) []Request {
	if len(hosts) == 0 {
		hosts = []string{anyHost}
	}
	base := Request{Port: l.Port, Gateway: &gw}
	var out []Request
	for _, h := range hosts {
		base.Host = strings.Replace(h, "*", "any", 1)
		switch {
		case r.HTTP != nil:
			base.Scheme = map[gwv1.ProtocolType]string{"HTTP": SchemeHTTP, "HTTPS": SchemeHTTPS}[l.Protocol]
			for _, rule := range r.HTTP.Rules {
				if len(rule.Matches) == 0 {
					out = append(out, withPath(base, "/"))
				}
				for _, m := range rule.Matches {
					if req, ok := sampleHTTP(base, m); ok {
						out = append(out, req)
					}
				}
			}
		case r.GRPC != nil:
			base.Scheme = map[gwv1.ProtocolType]string{"HTTP": SchemeGRPC, "HTTPS": SchemeGRPCS}[l.Protocol]
			for _, rule := range r.GRPC.Rules {
				if len(rule.Matches) == 0 {
					out = append(out, withGRPCMethod(base, nil))
				}
				for _, m := range rule.Matches {
					if req, ok := sampleGRPC(base, m); ok {
						out = append(out, req)
					}
				}
			}
		default: // TLSRoute, TCPRoute, UDPRoute: the connection itself
			base.Scheme = strings.ToLower(string(l.Protocol))
			if base.Scheme != SchemeTLS {
				base.Host = gw.Name
			}
			out = append(out, base)
		}
	}
	return out
}

func withPath(r Request, path string) Request {
	r.Path = path
	return r
}

// sampleHTTP is a request match m selects, unless a condition of m is a
// regular expression.
func sampleHTTP(base Request, m gwv1.HTTPRouteMatch) (Request, bool) {
	req := withPath(base, "/")
	if p := m.Path; p != nil {
		if *p.Type == gwv1.PathMatchRegularExpression {
			return req, false
		}
		req.Path = *p.Value
	}
	if m.Method != nil {
		req.Method = string(*m.Method)
	}
	for _, h := range m.Headers {
		if *h.Type != gwv1.HeaderMatchExact {
			return req, false
		}
		req.Headers = append(req.Headers, NameValue{string(h.Name), h.Value})
	}
	for _, q := range m.QueryParams {
		if *q.Type != gwv1.QueryParamMatchExact {
			return req, false
		}
		req.Query = append(req.Query, NameValue{string(q.Name), q.Value})
	}
	return req, true
}

// sampleGRPC is a call match m selects, unless a condition of m is a
// regular expression.
func sampleGRPC(base Request, m gwv1.GRPCRouteMatch) (Request, bool) {
	if m.Method != nil && *m.Method.Type != gwv1.GRPCMethodMatchExact {
		return base, false
	}
	req := withGRPCMethod(base, m.Method)
	for _, h := range m.Headers {
		if *h.Type != gwv1.GRPCHeaderMatchExact {
			return req, false
		}
		req.Headers = append(req.Headers, NameValue{string(h.Name), h.Value})
	}
	return req, true
}

// withGRPCMethod calls the method mm names; a part it leaves out is any,
// and the sample names one.
func withGRPCMethod(r Request, mm *gwv1.GRPCMethodMatch) Request {
	r.GRPCService, r.GRPCMethod, r.Method = "sample.Service", "Call", "POST"
	if mm != nil && mm.Service != nil {
		r.GRPCService = *mm.Service
	}
	if mm != nil && mm.Method != nil {
		r.GRPCMethod = *mm.Method
	}
	r.Path = "/" + r.GRPCService + "/" + r.GRPCMethod
	return r
}

// String renders the request as `gwctl explain request` takes it: the
// method (for HTTP), the URL with its port (unless the scheme's) and query,
// the headers as -H flags, and the Gateway it is sent to.
func (r Request) String() string {
	var b strings.Builder
	if !r.Stream() && !r.gRPC() {
		b.WriteString(r.EffectiveMethod() + " ")
	}
	b.WriteString(r.Scheme + "://" + r.Host)
	if r.Port != 0 && r.Port != (&Request{Scheme: r.Scheme}).EffectivePort() {
		b.WriteString(":" + strconv.Itoa(int(r.Port)))
	}
	b.WriteString(r.Path)
	sep := "?"
	// Escaped so that the string reads back as the same request, and two
	// requests never render alike (gwctl diff keys requests on it).
	for _, q := range r.Query {
		b.WriteString(sep + url.QueryEscape(q.Name) + "=" + url.QueryEscape(q.Value))
		sep = "&"
	}
	for _, h := range r.Headers {
		b.WriteString(" -H " + shellQuote(h.Name+": "+h.Value))
	}
	if r.Gateway != nil {
		b.WriteString(" (Gateway " + r.Gateway.NamespacedName() + ")")
	}
	return b.String()
}

// shellQuote quotes s for a POSIX shell: in single quotes, each single
// quote in s closing the quotes, escaped, and opening them again.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
