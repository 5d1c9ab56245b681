package crd

import (
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
)

// CEL rules of the experimental XBackend and XBackendTrafficPolicy.

func xBackendRules() map[string]celImpl {
	return map[string]celImpl{
		// spec
		`self.type == 'ExternalHostname' ? has(self.externalHostname) : !has(self.externalHostname)`: {eval: presentExactlyWhen("type", "ExternalHostname", "externalHostname")},
		// v1.7.0
		`self.type == 'EndpointSelector' ? has(self.endpointSelector) : !has(self.endpointSelector)`: {eval: presentExactlyWhen("type", "EndpointSelector", "endpointSelector")},
		`has(self.sessionPersistence) ? self.type == 'EndpointSelector' : true`:                      {eval: configNeedsProtocolField("sessionPersistence", "type", "EndpointSelector")},
		// tls is defaulted ({mode: None}).
		`!has(self.protocol) || self.protocol != 'H2C' || !has(self.tls) || self.tls.mode == 'None'`: {eval: func(self any) cbool {
			return or(cb(!has(self, "protocol")), not(strIs(self, "protocol", "H2C")), cb(!has(self, "tls")), tlsModeNone(self))
		}},
		`!has(self.protocol) || self.protocol != 'HTTP2' || (has(self.tls) && self.tls.mode != 'None')`: {eval: protocolNeedsTLS("HTTP2")},
		`!has(self.protocol) || self.protocol != 'WSS' || (has(self.tls) && self.tls.mode != 'None')`:   {eval: protocolNeedsTLS("WSS")},
		// spec.endpointSelector.matchLabels (v1.7.0)
		`self.all(key, !format.qualifiedName().validate(key).hasValue())`: {eval: func(self any) cbool {
			keys, err := celMapKeys(self)
			if err != nil {
				return errCBool(err)
			}
			return all(keys, func(k any) cbool { return cb(len(utilvalidation.IsQualifiedName(k.(string))) == 0) })
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
		`self.mode == 'ClientAndServer' ? has(self.clientCertificateRef) : !has(self.clientCertificateRef)`: {eval: presentExactlyWhen("mode", "ClientAndServer", "clientCertificateRef")},
		// v1.7.0
		`self.mode == 'None' ? !has(self.validation) : has(self.validation)`: {eval: func(self any) cbool {
			return not(presentExactlyWhen("mode", "None", "validation")(self))
		}},
	}
}

// tlsModeNone is self.tls.mode == 'None'.
func tlsModeNone(self any) cbool {
	tls, err := get(self, "tls")
	if err != nil {
		return errCBool(err)
	}
	return strIs(tls, "mode", "None")
}

// protocolNeedsTLS is
// !has(self.protocol) || self.protocol != '<protocol>' || (has(self.tls) && self.tls.mode != 'None').
func protocolNeedsTLS(protocol string) func(any) cbool {
	return func(self any) cbool {
		return or(cb(!has(self, "protocol")), not(strIs(self, "protocol", protocol)), and(cb(has(self, "tls")), not(tlsModeNone(self))))
	}
}

func xBackendTrafficPolicyRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.retryConstraint.budget.interval (defaulted to 10s)
		`!(duration(self) < duration('1s') || duration(self) > duration('1h'))`: {eval: durationRule(func(d int64) bool { return !(d < second || d > hour) })},
		// spec.retryConstraint.minRetryRate.interval (defaulted to 1s)
		`!(duration(self) == duration('0s') || duration(self) > duration('1h'))`: {eval: durationRule(func(d int64) bool { return !(d == 0 || d > hour) })},
	}
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
