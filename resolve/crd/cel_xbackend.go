package crd

import "strings"

// CEL rules of the experimental XBackend and XBackendTrafficPolicy.

var xBackendRules = map[string]celImpl{
	// spec
	`self.type == 'ExternalHostname' ? has(self.externalHostname) : !has(self.externalHostname)`: {eval: func(self any) cbool {
		return cond(strIs(self, "type", "ExternalHostname"),
			func() cbool { return cb(has(self, "externalHostname")) },
			func() cbool { return cb(!has(self, "externalHostname")) })
	}},
	// spec.externalHostname.hostname
	`!self.endsWith('.cluster.local')`: {eval: func(self any) cbool {
		s, err := celStr(self)
		if err != nil {
			return errCBool(err)
		}
		return cb(!strings.HasSuffix(s, ".cluster.local"))
	}},
	// spec.port.name. format.dns1123Label().validate(self) returns an
	// optional, and an optional never equals null in CEL: the comparison
	// is always false, so only the empty name passes.
	`size(self) == 0 || format.dns1123Label().validate(self) == null`: {eval: func(self any) cbool {
		s, err := celStr(self)
		if err != nil {
			return errCBool(err)
		}
		return cb(runeLen(s) == 0)
	}},
	// spec.tls
	`self.mode == 'ClientAndServer' ? has(self.clientCertificateRef) : !has(self.clientCertificateRef)`: {eval: func(self any) cbool {
		return cond(strIs(self, "mode", "ClientAndServer"),
			func() cbool { return cb(has(self, "clientCertificateRef")) },
			func() cbool { return cb(!has(self, "clientCertificateRef")) })
	}},
}

var xBackendTrafficPolicyRules = map[string]celImpl{
	// spec.retryConstraint.budget.interval (defaulted to 10s)
	`!(duration(self) < duration('1s') || duration(self) > duration('1h'))`: {eval: durationRule(func(d int64) bool { return !(d < second || d > hour) })},
	// spec.retryConstraint.minRetryRate.interval (defaulted to 1s)
	`!(duration(self) == duration('0s') || duration(self) > duration('1h'))`: {eval: durationRule(func(d int64) bool { return !(d == 0 || d > hour) })},
}

const (
	second = int64(1e9)
	hour   = 3600 * second
)

// durationRule is ok(duration(self)) on a string, in nanoseconds.
func durationRule(ok func(d int64) bool) func(any) cbool {
	return func(self any) cbool {
		s, err := celStr(self)
		if err != nil {
			return errCBool(err)
		}
		d, err := celDuration(s)
		if err != nil {
			return errCBool(err)
		}
		return cb(ok(int64(d)))
	}
}
