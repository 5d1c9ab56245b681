package main

import (
	"fmt"
	"strings"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/trace"
)

// requestTrace is the schema of `gwctl explain request -o json|yaml`.
type requestTrace struct {
	typeMeta
	Request requestView `json:"request"`
	// Gateways are the candidates when several could take the request.
	Gateways []refView     `json:"gateways,omitempty"`
	Gateway  *refView      `json:"gateway,omitempty"`
	Listener *listenerPick `json:"listener,omitempty"`
	Service  *refView      `json:"service,omitempty"`
	// Outcome is Forwarded, Redirected, BackendError, NotMatched,
	// NoListener, NoGateway, AmbiguousGateway, ToService, NoService or
	// ImplementationSpecific.
	Outcome    trace.Outcome `json:"outcome"`
	StatusCode int           `json:"statusCode,omitempty"`
	Message    string        `json:"message"`
	Winner     *tracedMatch  `json:"winner,omitempty"`
	Rule       *tracedRule   `json:"rule,omitempty"`
	Redirect   *redirectView `json:"redirect,omitempty"`
	Rewrite    *rewriteView  `json:"rewrite,omitempty"`
	RunnersUp  []tracedMatch `json:"runnersUp,omitempty"`
	NotMatched []missView    `json:"notMatched,omitempty"`
	Ignored    []missView    `json:"ignored,omitempty"`

	// stream is a TLS, TCP or UDP connection: its text speaks of
	// connections rejected, not of HTTP 500.
	stream bool
}

type requestView struct {
	URL string `json:"url"`
	// Method is empty for a TLS, TCP or UDP connection.
	Method      string            `json:"method,omitempty"`
	Port        int32             `json:"port"`
	Headers     []trace.NameValue `json:"headers,omitempty"`
	GRPCService string            `json:"grpcService,omitempty"`
	GRPCMethod  string            `json:"grpcMethod,omitempty"`
}

type listenerPick struct {
	Name     string `json:"name"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
	Hostname string `json:"hostname"`
	// Owner is the ListenerSet the listener is written in, when not the
	// Gateway.
	Owner *refView `json:"owner,omitempty"`
	Why   string   `json:"why"`
}

// tracedMatch is one match the request satisfies.
type tracedMatch struct {
	Route refView `json:"route"`
	Rule  string  `json:"rule"`
	// Path is spec.rules[i].matches[j] (spec.rules[i] for a rule without
	// matches).
	Path string `json:"path"`
	// Match is the match's conditions; none means every request.
	Match matchView `json:"match"`
	// Hostname is the route hostname the request's host matched; empty
	// when the route serves any host there.
	Hostname string `json:"hostname,omitempty"`
	// Reason is the precedence criterion that decided: for the winner, the
	// one that put it before the first runner-up; for a runner-up, the one
	// it lost by to the match before it.
	Reason  trace.Reason `json:"reason"`
	Message string       `json:"message"`
}

type tracedRule struct {
	Name       string        `json:"name,omitempty"`
	Path       string        `json:"path"`
	Filters    []filterView  `json:"filters,omitempty"`
	Backends   []backendView `json:"backends,omitempty"`
	ErrorShare float64       `json:"errorShare,omitempty"`
}

type redirectView struct {
	Location string `json:"location"`
	Scheme   string `json:"scheme"`
	Hostname string `json:"hostname"`
	Port     int32  `json:"port,omitempty"`
	Path     string `json:"path"`
}

type rewriteView struct {
	Host string `json:"host"`
	Path string `json:"path"`
}

type missView struct {
	Route   refView      `json:"route"`
	Reason  trace.Reason `json:"reason,omitempty"`
	Message string       `json:"message"`
}

func newRequestTrace(url string, tr *trace.Result) *requestTrace {
	req := tr.Request
	v := &requestTrace{
		typeMeta: explanationMeta("RequestTrace"),
		Request: requestView{URL: url, Method: req.EffectiveMethod(), Port: tr.Port, Headers: req.Headers,
			GRPCService: req.GRPCService, GRPCMethod: req.GRPCMethod},
		Outcome: tr.Outcome, StatusCode: tr.StatusCode, Message: tr.Message,
		stream: req.Stream(),
	}
	if v.stream {
		v.Request.Method = ""
	}
	for _, gw := range tr.Gateways {
		v.Gateways = append(v.Gateways, refOf(gw.Ref))
	}
	if tr.Gateway != nil {
		ref := refOf(tr.Gateway.Ref)
		v.Gateway = &ref
	}
	if l := tr.Listener; l != nil {
		v.Listener = &listenerPick{Name: l.Name, Port: l.Port, Protocol: string(l.Protocol), Hostname: l.HostnameString(), Why: tr.ListenerReason}
		if l.ListenerSet != nil {
			owner := refOf(l.ListenerSet.Ref)
			v.Listener.Owner = &owner
		}
	}
	if tr.Service != nil {
		ref := refOf(tr.Service.Ref)
		v.Service = &ref
	}
	for i, m := range tr.Matches {
		tm := tracedMatchOf(m)
		if i == 0 {
			v.Winner = &tm
		} else {
			v.RunnersUp = append(v.RunnersUp, tm)
		}
	}
	if rr := tr.Rule; rr != nil {
		route := tr.Winner().Route
		v.Rule = &tracedRule{Name: rr.Name, Path: rr.Path, Filters: filtersOf(route.Route, rr.Index), ErrorShare: tr.ErrorShare}
		if tr.Outcome != trace.Redirected {
			for _, b := range rr.Backends {
				v.Rule.Backends = append(v.Rule.Backends, backendViewOf(route.Route, b))
			}
		}
	}
	if r := tr.Redirect; r != nil {
		v.Redirect = &redirectView{Location: r.String(), Scheme: r.Scheme, Hostname: r.Hostname, Port: r.Port, Path: r.Path}
	}
	if r := tr.Rewrite; r != nil {
		v.Rewrite = &rewriteView{Host: r.Host, Path: r.Path}
	}
	for _, m := range tr.Misses {
		v.NotMatched = append(v.NotMatched, missView{Route: refOf(m.Route.Ref), Reason: m.Reason, Message: m.Message})
	}
	for _, m := range tr.Ignored {
		v.Ignored = append(v.Ignored, missView{Route: refOf(m.Route.Ref), Message: m.Message})
	}
	return v
}

func tracedMatchOf(m *trace.Match) tracedMatch {
	route := m.Route.Route
	tm := tracedMatch{
		Route: refOf(route.Ref), Rule: route.Rules[m.Rule].Label(), Path: m.Path,
		Hostname: m.Hostname, Reason: m.Reason, Message: m.Message,
	}
	if m.Match >= 0 {
		tm.Match = matchesOf(route, m.Rule)[m.Match]
	}
	return tm
}

func (v *requestTrace) writeText(p *printer) {
	pal := p.pal
	r := v.Request
	p.line(0, "%s %s", pal.heading.Sprint("Request"), strings.TrimSpace(r.Method+" "+r.URL))
	for _, h := range r.Headers {
		p.line(1, "%s: %s", h.Name, h.Value)
	}
	switch {
	case v.Gateway != nil:
		p.line(0, "%s %s", pal.heading.Sprint("Gateway"), v.Gateway.Namespace+"/"+v.Gateway.Name)
	case v.Service != nil:
		p.line(0, "%s %s port %d (mesh)", pal.heading.Sprint("Service"), v.Service.Namespace+"/"+v.Service.Name, r.Port)
	}
	for _, gw := range v.Gateways {
		p.line(1, "could be %s", gw)
	}
	if l := v.Listener; l != nil {
		owner := ""
		if l.Owner != nil {
			owner = " of " + l.Owner.String()
		}
		p.line(0, "%s %s%s  %d/%s  hostname %s", pal.heading.Sprint("Listener"), l.Name, owner, l.Port, l.Protocol, l.Hostname)
		p.line(1, "why: %s", l.Why)
	}
	p.blank()
	verdict := string(v.Outcome)
	if v.StatusCode != 0 {
		verdict += fmt.Sprintf(" (%d)", v.StatusCode)
	}
	ok := v.Outcome == trace.Forwarded || v.Outcome == trace.Redirected || v.Outcome == trace.ToService
	p.line(0, "%s %s: %s", pal.heading.Sprint("Outcome"), pal.verdict(ok && v.Rule.errorFree(), verdict), v.Message)
	if w := v.Winner; w != nil {
		p.blank()
		p.heading("Winner")
		w.writeText(p, "why")
	}
	if rule := v.Rule; rule != nil {
		for _, f := range rule.Filters {
			p.line(1, "filter: %s", strings.TrimSpace(f.Type+" "+f.Description))
		}
		if v.Redirect != nil {
			p.line(1, "Location: %s", v.Redirect.Location)
		}
		if v.Rewrite != nil {
			p.line(1, "the backends see: host %s, path %s", v.Rewrite.Host, v.Rewrite.Path)
		}
		var rows [][]string
		for _, b := range rule.Backends {
			rows = append(rows, b.row(pal))
		}
		p.table(1, []string{"BACKEND", "WEIGHT", "SHARE", "STATE", "TRAFFIC"}, rows)
		switch {
		case rule.ErrorShare == 0:
		case v.stream:
			p.line(1, "%s", pal.bad.Sprintf("%s of these connections are rejected (invalid backends)", percent(rule.ErrorShare)))
		default:
			p.line(1, "%s", pal.bad.Sprintf("%s of these requests get HTTP 500 (invalid backends)", percent(rule.ErrorShare)))
		}
	}
	if len(v.RunnersUp) > 0 {
		p.blank()
		p.heading("Runners-up")
		for _, m := range v.RunnersUp {
			m.writeText(p, "lost")
		}
	}
	// Routes for other hosts are many on a busy listener: text counts
	// them, the machine formats list them.
	otherHosts := 0
	var misses []missView
	for _, m := range v.NotMatched {
		if m.Reason == trace.MissHostname {
			otherHosts++
		} else {
			misses = append(misses, m)
		}
	}
	if len(misses) > 0 || otherHosts > 0 {
		p.blank()
		p.heading("Not matched")
		for _, m := range misses {
			p.line(1, "%s  %s: %s", m.Route, m.Reason, m.Message)
		}
		if otherHosts > 0 {
			what := "routes serve"
			if otherHosts == 1 {
				what = "route serves"
			}
			p.line(1, "%d %s other hostnames here (-o json lists them)", otherHosts, what)
		}
	}
	if len(v.Ignored) > 0 {
		p.blank()
		p.heading("Not applicable")
		for _, m := range v.Ignored {
			p.line(1, "%s: %s", m.Route, m.Message)
		}
	}
}

// errorFree reports whether no part of the rule's traffic gets an error.
func (r *tracedRule) errorFree() bool { return r == nil || r.ErrorShare == 0 }

// writeText prints a match: the route, rule and match, its conditions and
// host, and the precedence note introduced by label ("why", "lost").
func (m tracedMatch) writeText(p *printer, label string) {
	p.line(1, "%s  %s  (%s)", m.Route, m.Path, m.Rule)
	host := ""
	if m.Hostname != "" {
		host = "  hostname " + m.Hostname
	}
	match := m.Match.text()
	switch m.Route.Kind {
	case resolve.KindTLSRoute, resolve.KindTCPRoute, resolve.KindUDPRoute:
		match = "every connection" // their rules have no matches
	}
	p.line(2, "match: %s%s", match, host)
	p.line(2, "%s: %s (%s)", label, m.Message, m.Reason)
}
