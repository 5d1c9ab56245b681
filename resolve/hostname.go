package resolve

import (
	"strings"

	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Hostname matching, as Listener.Hostname and HTTPRoute.Hostnames define it:
// "Hostnames that are prefixed with a wildcard label (`*.`) are interpreted
// as a suffix match. That means that a match for `*.example.com` would match
// both `test.example.com`, and `foo.test.example.com`, but not `example.com`."

// HostnamesOverlap reports whether two concrete or wildcard hostnames
// match some host: one covers the other.
func HostnamesOverlap(a, b string) bool {
	return HostnameMatches(a, b) || HostnameMatches(b, a)
}

// HostnameMatches reports whether the concrete or wildcard hostname h is
// covered by pattern p.
func HostnameMatches(p, h string) bool {
	if p == h {
		return true
	}
	if !strings.HasPrefix(p, "*.") {
		return false
	}
	suffix := p[1:] // ".example.com"
	if strings.HasPrefix(h, "*.") {
		// A wildcard is covered only by a wildcard of a shorter suffix.
		return strings.HasSuffix(h[1:], suffix) && len(h[1:]) > len(suffix)
	}
	return strings.HasSuffix(h, suffix) && len(h) > len(suffix)
}

// intersectHostnames returns the hostnames a route serves on a listener:
// HTTPRoute.Hostnames: "If a hostname is specified by both the Listener and
// HTTPRoute, there must be at least one intersecting hostname for the
// HTTPRoute to be attached to the Listener." A listener without a hostname
// takes the route's; a route without hostnames takes the listener's. The
// more specific of two intersecting names is the effective one. An empty
// result with ok=true means "any hostname".
//
// Hostnames holding a deploy-time placeholder ("radarr.${DOMAIN}") are
// matched as written first: a placeholder stands for the same text on
// both sides, so "*.${DOMAIN}" certainly covers "radarr.${DOMAIN}". When
// that fails, maybe is the first hostname holding a placeholder whose
// literal text still allows an intersection (mayIntersect): the outcome is
// unknown, not a refusal.
func intersectHostnames(listener string, route []string) (effective []string, ok bool, maybe string) {
	if listener == "" {
		return route, true, ""
	}
	if len(route) == 0 {
		return []string{listener}, true, ""
	}
	for _, h := range route {
		switch {
		case HostnameMatches(listener, h):
			effective = append(effective, h)
		case HostnameMatches(h, listener):
			effective = append(effective, listener)
		case maybe == "" && mayIntersect(listener, h):
			maybe = h
			if !holdsPlaceholder(h) {
				maybe = listener
			}
		}
	}
	return dedupe(effective), len(effective) > 0, maybe
}

// mayIntersect reports whether two hostnames, one at least holding a
// placeholder, may match a common host once substituted. It compares what
// substitution keeps: the literal text before the first placeholder (or
// wildcard) and after the last one. Each must be a prefix, respectively a
// suffix, of the other's: "radarr.${DOMAIN}" may meet "*.example.com",
// "radarr.${DOMAIN}.com" cannot meet "*.example.org", nor "app.${DOMAIN}"
// the host "web.example.com". The test is deliberately generous: when in
// doubt, they may.
func mayIntersect(a, b string) bool {
	if !holdsPlaceholder(a) && !holdsPlaceholder(b) {
		return false
	}
	pa, sa := literalEnds(a)
	pb, sb := literalEnds(b)
	return (strings.HasPrefix(pa, pb) || strings.HasPrefix(pb, pa)) &&
		(strings.HasSuffix(sa, sb) || strings.HasSuffix(sb, sa))
}

// literalEnds returns the literal text of hostname h before its first
// placeholder and after its last one; a leading wildcard label counts as a
// placeholder. A hostname without either is all literal: both ends are h.
func literalEnds(h string) (prefix, suffix string) {
	wild := strings.HasPrefix(h, "*.")
	if wild {
		h = h[1:]
	}
	lits := placeholder.All.Literals(h)
	if wild {
		return "", lits[len(lits)-1]
	}
	return lits[0], lits[len(lits)-1]
}

func dedupe(s []string) []string {
	if len(s) < 2 {
		return s
	}
	seen := make(map[string]bool, len(s))
	out := s[:0]
	for _, v := range s {
		if !seen[v] {
			seen[v] = true
			out = append(out, v)
		}
	}
	return out
}
