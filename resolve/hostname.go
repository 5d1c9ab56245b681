package resolve

import "strings"

// Hostname matching, as Listener.Hostname and HTTPRoute.Hostnames define it:
// "Hostnames that are prefixed with a wildcard label (`*.`) are interpreted
// as a suffix match. That means that a match for `*.example.com` would match
// both `test.example.com`, and `foo.test.example.com`, but not `example.com`."

// hostnameMatches reports whether the concrete or wildcard hostname h is
// covered by pattern p.
func hostnameMatches(p, h string) bool {
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
func intersectHostnames(listener string, route []string) (effective []string, ok bool) {
	if listener == "" {
		return route, true
	}
	if len(route) == 0 {
		return []string{listener}, true
	}
	for _, h := range route {
		switch {
		case hostnameMatches(listener, h):
			effective = append(effective, h)
		case hostnameMatches(h, listener):
			effective = append(effective, listener)
		}
	}
	return dedupe(effective), len(effective) > 0
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
