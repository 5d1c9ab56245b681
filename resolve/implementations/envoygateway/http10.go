package envoygateway

import (
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// http10Errors: clienttrafficpolicy.go translateHTTP1Settings, for each
// HTTP listener a ClientTrafficPolicy with http1.http10.useDefaultHost
// covers, the refusal when the listener has no default host to give
// HTTP/1.0 requests, none when the policy does not ask for one.
func http10Errors(p *Policy, listeners []*resolve.Listener) []string {
	h := p.Spec.HTTP1
	if h == nil || h.HTTP10 == nil || h.HTTP10.UseDefaultHost == nil || !*h.HTTP10.UseDefaultHost {
		return nil
	}
	var out []string
	for _, l := range listeners {
		if !l.Valid() || (l.Protocol != gwv1.HTTPProtocolType && l.Protocol != gwv1.HTTPSProtocolType) {
			continue
		}
		if problem := defaultHostError(l); problem != "" {
			out = append(out, problem)
		}
	}
	return out
}

// defaultHostError: the default host is the listener's hostname when it
// has no wildcard, else the one hostname without a wildcard among its
// internal routes, of which the translator makes one per hostname of a
// route on the listener, per rule, per match.
func defaultHostError(l *resolve.Listener) string {
	if l.Hostname != nil && !strings.Contains(string(*l.Hostname), "*") {
		return ""
	}
	routes := 0
	for _, p := range l.Attached {
		if p.Route.HTTP == nil && p.Route.GRPC == nil {
			continue
		}
		concrete := 0
		for _, o := range p.Listeners {
			if o.Listener != l {
				continue
			}
			// No effective hostnames means any: the route's hostname is "*".
			for _, h := range o.Hostnames {
				if !strings.Contains(h, "*") {
					concrete++
				}
			}
		}
		routes += concrete * internalRoutes(p)
	}
	switch {
	case routes == 0:
		return "cannot set http10 default host on listener with only wildcard hostnames"
	case routes > 1:
		return "cannot set http10 default host on listener with only wildcard hostnames and more than one possible default route"
	}
	return ""
}

// internalRoutes counts the routes the translator makes of a route's
// rules for one hostname on parent p: one per match, one for a rule
// without matches, none for a rule it drops.
func internalRoutes(p *resolve.ParentResult) int {
	var perRule []int
	if r := p.Route.HTTP; r != nil {
		for _, rule := range r.Rules {
			perRule = append(perRule, max(len(rule.Matches), 1))
		}
	}
	if r := p.Route.GRPC; r != nil {
		for _, rule := range r.Rules {
			perRule = append(perRule, max(len(rule.Matches), 1))
		}
	}
	for _, d := range p.Dropped {
		perRule[d.Rule.Index] = 0
	}
	n := 0
	for _, m := range perRule {
		n += m
	}
	return n
}
