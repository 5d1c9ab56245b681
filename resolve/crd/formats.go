package crd

import (
	"net"
	"regexp"
	"strings"
	"sync"
	"time"
)

// The string formats the CRDs use, as kube-openapi's strfmt.Default
// registry checks them.

// isIPv4Sloppy is strfmt's ipv4: k8s.io/utils/net.ParseIPSloppy (Go's
// pre-1.17 net.ParseIP, which allows leading zeros) and a dot.
func isIPv4Sloppy(s string) bool {
	if !strings.Contains(s, ".") {
		return false
	}
	if strings.Contains(s, ":") {
		return net.ParseIP(s) != nil
	}
	parts := 0
	for part := range strings.SplitSeq(s, ".") {
		parts++
		if part == "" || len(part) > 8 {
			return false
		}
		n := 0
		for _, c := range []byte(part) {
			if c < '0' || c > '9' {
				return false
			}
			n = n*10 + int(c-'0')
		}
		if n > 255 {
			return false
		}
	}
	return parts == 4
}

// isIPv6 is strfmt's ipv6 (govalidator.IsIPv6).
func isIPv6(s string) bool {
	return strings.Contains(s, ":") && net.ParseIP(s) != nil
}

// isDateTime is strfmt.IsDateTime. Only status conditions use date-time,
// so the regexp is compiled on first use, if ever.
func isDateTime(str string) bool {
	if len(str) < 4 {
		return false
	}
	parts := strings.Split(strings.ToLower(str), "t")
	if len(parts) < 2 {
		return false
	}
	if _, err := time.Parse("2006-01-02", parts[0]); err != nil {
		return false
	}
	m := rxDateTime().FindStringSubmatch(parts[1])
	return m != nil && m[1] <= "23" && m[2] <= "59" && m[3] <= "59"
}

var rxDateTime = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]{2}):([0-9]{2}):([0-9]{2})(.[0-9]+)?(z|([+-][0-9]{2}:[0-9]{2}))$`)
})
