package crd

import "strings"

// Native matchers for the regular expressions of the CRDs: the schema
// patterns (kube-openapi matches them with Go's regexp, unanchored
// MatchString) and the ones CEL rules pass to matches() (RE2, the same).
// A regexp match costs about a microsecond; these cost a few nanoseconds
// per byte. TestNativePatterns proves each equal to its regexp on crafted
// and random strings, and TestSchemaPatternsNative that every pattern of
// the generated schemas has one.

// nativePatterns maps a schema pattern's source to its matcher.
var nativePatterns = map[string]func(string) bool{
	`^$|^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`: func(s string) bool {
		return s == "" || isSubdomainish(s)
	},
	`^[a-zA-Z]([-a-zA-Z0-9]*[a-zA-Z0-9])?$`: func(s string) bool {
		return s != "" && isAlpha(s[0]) && isAlnum(s[len(s)-1]) && allBytes(s, isLabelMixedChar)
	},
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`:        isSubdomainish,
	`^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`: isWildcardHostnameish,
	`^(([^:/?#]+):)(//([^/?#]*))([^?#]*)(\?([^#]*))?(#(.*))?`: func(s string) bool {
		// Unanchored at the end: a scheme, then "://".
		i := strings.IndexAny(s, ":/?#")
		return i > 0 && s[i] == ':' && strings.HasPrefix(s[i+1:], "//")
	},
	`^(System|([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]))$`: func(s string) bool {
		if s == "System" {
			return true
		}
		prefix, name, ok := strings.Cut(s, "/")
		return ok && isSubdomainish(prefix) && len(name) <= 63 && isQualifiedNamePart(name)
	},
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`: isLabelish,
	`^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$`: func(s string) bool {
		return s != "" && isAlpha(s[0]) && (isAlnum(s[len(s)-1]) || s[len(s)-1] == '_') &&
			allBytes(s, func(c byte) bool { return isAlnum(c) || c == '_' || c == ',' || c == ':' })
	},
	`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`: func(s string) bool {
		prefix, name, ok := strings.Cut(s, "/")
		if !ok {
			return isQualifiedNamePart(s)
		}
		return isSubdomainish(prefix) && isQualifiedNamePart(name)
	},
	`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`: func(s string) bool {
		prefix, rest, ok := strings.Cut(s, "/")
		return ok && isSubdomainish(prefix) && rest != "" && allBytes(rest, isKindPathChar)
	},
	`^Hostname|IPAddress|NamedAddress|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9\/\-._~%!$&'()*+,;=:]+$`: func(s string) bool {
		// The alternation binds looser than the anchors: a "Hostname"
		// prefix, "IPAddress" or "NamedAddress" anywhere, or a suffix
		// "<subdomain>/<chars>". The shortest subdomain is one [a-z0-9].
		if strings.HasPrefix(s, "Hostname") || strings.Contains(s, "IPAddress") || strings.Contains(s, "NamedAddress") {
			return true
		}
		for k := 1; k < len(s)-1; k++ {
			if s[k] == '/' && isLowerAlnum(s[k-1]) && allBytes(s[k+1:], isKindPathChar) {
				return true
			}
		}
		return false
	},
	`^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$`: func(s string) bool {
		return s == "" || isQualifiedNamePart(s)
	},
	"^[A-Za-z0-9!#$%&'*+\\-.^_\\x60|~]+$": func(s string) bool {
		return s != "" && allBytes(s, isTokenChar)
	},
	"^[!-~]+([\\t ]?[!-~]+)*$":      isHeaderValueish,
	"^([0-9]{1,5}(h|m|s|ms)){1,4}$": isGatewayDuration,
	`(^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$)`:                                isCORSOrigin,
	`^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$`: isListenerProtocolish,
	// v1.0.0 to v1.1.0: the same, S being in A-Z already.
	`^[a-zA-Z0-9]([-a-zSA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$`: isListenerProtocolish,
	// v1.2.0 to v1.3.0 (experimental).
	`(^\*$)|(^([a-zA-Z][a-zA-Z0-9+\-.]+):\/\/([^:/?#]+)(:([0-9]{1,5}))?$)`: isSchemeCORSOrigin,
	`^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$`:               isPathish,
	// v1.7.0 (experimental XTelemetryPolicy): attribute keys, attribute
	// names, and span names (such names separated by single spaces).
	`^[a-z0-9_.-]+$`: func(s string) bool {
		return s != "" && allBytes(s, func(c byte) bool { return isLowerAlnum(c) || c == '_' || c == '.' || c == '-' })
	},
	`^[a-zA-Z0-9_.:/-]+$`: func(s string) bool { return s != "" && allBytes(s, isAttributeNameChar) },
	`^[a-zA-Z0-9_.:/-]+( [a-zA-Z0-9_.:/-]+)*$`: func(s string) bool {
		for word := range strings.SplitSeq(s, " ") {
			if word == "" || !allBytes(word, isAttributeNameChar) {
				return false
			}
		}
		return true
	},
}

// isAttributeNameChar is [a-zA-Z0-9_.:/-].
func isAttributeNameChar(c byte) bool {
	return isAlnum(c) || c == '_' || c == '.' || c == ':' || c == '/' || c == '-'
}

func allBytes(s string, ok func(byte) bool) bool {
	for i := 0; i < len(s); i++ {
		if !ok(s[i]) {
			return false
		}
	}
	return true
}

func isLowerAlnum(c byte) bool { return 'a' <= c && c <= 'z' || '0' <= c && c <= '9' }
func isAlpha(c byte) bool      { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }
func isAlnum(c byte) bool      { return isAlpha(c) || '0' <= c && c <= '9' }
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}
func isLabelMixedChar(c byte) bool { return isAlnum(c) || c == '-' }

// isLabelish is ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$ (a DNS label without its
// length limit).
func isLabelish(s string) bool {
	return s != "" && isLowerAlnum(s[0]) && isLowerAlnum(s[len(s)-1]) &&
		allBytes(s, func(c byte) bool { return isLowerAlnum(c) || c == '-' })
}

// isSubdomainish is ^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$:
// dot-separated labels, without length limits.
func isSubdomainish(s string) bool {
	for {
		label, rest, more := strings.Cut(s, ".")
		if !isLabelish(label) {
			return false
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isWildcardHostnameish is ^(\*\.)?<subdomain>$.
func isWildcardHostnameish(s string) bool {
	return isSubdomainish(strings.TrimPrefix(s, "*."))
}

// isQualifiedNamePart is ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9] anchored.
func isQualifiedNamePart(s string) bool {
	return s != "" && isAlnum(s[0]) && isAlnum(s[len(s)-1]) &&
		allBytes(s, func(c byte) bool { return isAlnum(c) || c == '-' || c == '_' || c == '.' })
}

// isKindPathChar is [A-Za-z0-9\/\-._~%!$&'()*+,;=:].
func isKindPathChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte(`/-._~%!$&'()*+,;=:`, c) >= 0
}

// isTokenChar is an HTTP token character: [A-Za-z0-9!#$%&'*+\-.^_`|~].
func isTokenChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

// isHeaderValueish is ^[!-~]+([\t ]?[!-~]+)*$: visible ASCII, single spaces
// or tabs between runs, none at the ends.
func isHeaderValueish(s string) bool {
	if s == "" {
		return false
	}
	prevSep := true // no separator at the start
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ' || c == '\t':
			if prevSep {
				return false
			}
			prevSep = true
		case '!' <= c && c <= '~':
			prevSep = false
		default:
			return false
		}
	}
	return !prevSep
}

// isGatewayDuration is ^([0-9]{1,5}(h|m|s|ms)){1,4}$. After the digits the
// unit is unambiguous: "ms" cannot be "m" then a group, which would need a
// digit.
func isGatewayDuration(s string) bool {
	groups := 0
	for s != "" {
		d := 0
		for d < len(s) && isDigit(s[d]) {
			d++
		}
		if d == 0 || d > 5 || d == len(s) {
			return false
		}
		s = s[d:]
		switch {
		case strings.HasPrefix(s, "ms"):
			s = s[2:]
		case s[0] == 'h' || s[0] == 'm' || s[0] == 's':
			s = s[1:]
		default:
			return false
		}
		groups++
	}
	return groups >= 1 && groups <= 4
}

// isListenerProtocolish is
// ^[a-zA-Z0-9]([-a-zA-Z0-9]*[a-zA-Z0-9])?$|[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/[A-Za-z0-9]+$.
func isListenerProtocolish(s string) bool {
	if s != "" && isAlnum(s[0]) && isAlnum(s[len(s)-1]) && allBytes(s, isLabelMixedChar) {
		return true
	}
	// Unanchored at the start: a suffix "<subdomain>/<alnum>+".
	k := strings.LastIndexByte(s, '/')
	return k > 0 && k < len(s)-1 && isLowerAlnum(s[k-1]) && allBytes(s[k+1:], isAlnum)
}

// isSchemeCORSOrigin is
// (^\*$)|(^([a-zA-Z][a-zA-Z0-9+\-.]+):\/\/([^:/?#]+)(:([0-9]{1,5}))?$): any
// scheme of two characters or more, a host without ":/?#", a port.
func isSchemeCORSOrigin(s string) bool {
	if s == "*" {
		return true
	}
	// The scheme has no ':', so it ends at the first "://".
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || len(scheme) < 2 || !isAlpha(scheme[0]) || !allBytes(scheme[1:], isSchemeChar) {
		return false
	}
	host, port, hasPort := strings.Cut(rest, ":")
	if host == "" || strings.ContainsAny(host, "/?#") {
		return false
	}
	return !hasPort || port != "" && len(port) <= 5 && allBytes(port, isDigit)
}

func isSchemeChar(c byte) bool { return isAlnum(c) || c == '+' || c == '-' || c == '.' }

// isCORSOrigin is (^\*$)|(^(http(s)?):\/\/(((\*\.)?([a-zA-Z0-9\-]+\.)*[a-zA-Z0-9-]+|\*)(:([0-9]{1,5}))?)$).
func isCORSOrigin(s string) bool {
	if s == "*" {
		return true
	}
	rest, ok := strings.CutPrefix(s, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(s, "https://"); !ok {
			return false
		}
	}
	host := rest
	if i := strings.IndexByte(rest, ':'); i >= 0 {
		host = rest[:i]
		port := rest[i+1:]
		if port == "" || len(port) > 5 || !allBytes(port, isDigit) {
			return false
		}
	}
	if host == "*" {
		return true
	}
	host = strings.TrimPrefix(host, "*.")
	for label := range strings.SplitSeq(host, ".") {
		if label == "" || !allBytes(label, isLabelMixedChar) {
			return false
		}
	}
	return true
}

// isPathish is ^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$.
func isPathish(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case isAlnum(c) || strings.IndexByte("-/._~!$&'()*+,;=:@", c) >= 0:
		case c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			i += 2
		default:
			return false
		}
	}
	return true
}

// isLabelKeyish is the CEL rule's label/annotation key regexp
// ^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$.
func isLabelKeyish(s string) bool {
	prefix, name, ok := strings.Cut(s, "/")
	if !ok {
		name = s
	} else if !isSubdomainish(prefix) {
		return false
	}
	return len(name) <= 63 && isQualifiedNamePart(name)
}

// isGRPCService is ^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$. Go's
// case folding also matches ſ (U+017F) for s and the Kelvin sign (U+212A)
// for k.
func isGRPCService(s string) bool {
	s = strings.TrimPrefix(s, ".")
	for {
		part, rest, more := strings.Cut(s, ".")
		if part == "" {
			return false
		}
		for i, r := range part {
			letter := r < 0x80 && (isAlpha(byte(r)) || r == '_') || r == 'ſ' || r == 'K'
			if !letter && (i == 0 || r >= 0x80 || !isDigit(byte(r))) {
				return false
			}
		}
		if !more {
			return true
		}
		s = rest
	}
}

// isGRPCMethod is ^[A-Za-z_][A-Za-z_0-9]*$.
func isGRPCMethod(s string) bool {
	return s != "" && (isAlpha(s[0]) || s[0] == '_') && allBytes(s, func(c byte) bool { return isAlnum(c) || c == '_' })
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }
