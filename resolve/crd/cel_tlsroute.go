package crd

import (
	"net/netip"
	"strings"
)

// CEL rules of TLSRoute (v1, v1alpha3) on spec.hostnames.

func tlsRouteRules() map[string]celImpl {
	return map[string]celImpl{
		`self.all(h, !isIP(h))`: {eval: forAllHostnames(func(h string) cbool { return cb(!celIsIP(h)) })},
		`self.all(h, !h.contains('*') ? h.matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$') : true)`: {eval: forAllHostnames(func(h string) cbool {
			return cb(strings.Contains(h, "*") || isSubdomainish(h))
		})},
		`self.all(h, h.contains('*') ? (h.startsWith('*.') && h.substring(2).matches('^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*)$')) : true)`: {eval: forAllHostnames(func(h string) cbool {
			// substring(2) is safe: it only runs after startsWith('*.').
			return cb(!strings.Contains(h, "*") || strings.HasPrefix(h, "*.") && isSubdomainish(h[2:]))
		})},
	}
}

// forAllHostnames is self.all(h, pred(h)) over a list of strings.
func forAllHostnames(pred func(h string) cbool) func(any) cbool {
	return func(self any) cbool {
		hs, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(hs, func(h any) cbool {
			s, err := celStr(h)
			if err != nil {
				return errCBool(err)
			}
			return pred(s)
		})
	}
}

// celIsIP is the Kubernetes CEL library's isIP: netip.ParseAddr without
// zones or IPv4-mapped IPv6 addresses.
func celIsIP(s string) bool {
	a, err := netip.ParseAddr(s)
	return err == nil && a.Zone() == "" && !a.Is4In6()
}
