package crd

import (
	"strings"

	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
)

// CEL rules of Gateway (v1, v1beta1) and GatewayClass (and XMesh, which
// shares the controllerName rule).

func gatewayClassRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.controllerName: a transition rule.
		`self == oldSelf`: {transition: true},
	}
}

func gatewayRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.addresses
		`self.all(a1, a1.type == 'IPAddress' && has(a1.value) ? self.exists_one(a2, a2.type == a1.type && has(a2.value) && a2.value == a1.value) : true )`: {eval: uniqueAddressValues("IPAddress", false)},
		`self.all(a1, a1.type == 'Hostname'  && has(a1.value) ? self.exists_one(a2, a2.type == a1.type && has(a2.value) && a2.value == a1.value) : true )`: {eval: uniqueAddressValues("Hostname", false)},
		// v1.3.0 and earlier: the value is required, so not tested.
		`self.all(a1, a1.type == 'IPAddress' ? self.exists_one(a2, a2.type == a1.type && a2.value == a1.value) : true )`: {eval: uniqueAddressValues("IPAddress", true)},
		`self.all(a1, a1.type == 'Hostname' ? self.exists_one(a2, a2.type == a1.type && a2.value == a1.value) : true )`:  {eval: uniqueAddressValues("Hostname", true)},
		// spec.addresses[]: type is defaulted to IPAddress.
		`self.type == 'Hostname' ? (!has(self.value) || self.value.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$""")): true`: {eval: func(self any) cbool {
			return implies(strIs(self, "type", "Hostname"), func() cbool {
				if !has(self, "value") {
					return celTrue
				}
				v, err := getStr(self, "value")
				if err != nil {
					return errCBool(err)
				}
				return cb(isWildcardHostnameish(v))
			})
		}},
		// spec.infrastructure.labels and .annotations keys.
		`self.all(key, key.matches(r"""^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?([A-Za-z0-9][-A-Za-z0-9_.]{0,61})?[A-Za-z0-9]$"""))`: {eval: func(self any) cbool {
			keys, err := celMapKeys(self)
			if err != nil {
				return errCBool(err)
			}
			return all(keys, func(k any) cbool { return cb(isLabelKeyish(k.(string))) })
		}},
		`self.all(key, key.split("/")[0].size() < 253)`: {eval: func(self any) cbool {
			keys, err := celMapKeys(self)
			if err != nil {
				return errCBool(err)
			}
			return all(keys, func(k any) cbool {
				prefix, _, _ := strings.Cut(k.(string), "/")
				return cb(runeLen(prefix) < 253)
			})
		}},
		// spec.addresses[].routability (v1.7.0, experimental): a prefixed
		// name's prefix is a DNS subdomain outside k8s.io.
		`size(self) == 0 || self == 'Cluster' || (self.matches('^.*/.+$') && !format.dns1123Subdomain().validate(self.split('/')[0]).hasValue() && self.split('/')[0] != 'k8s.io' && !self.split('/')[0].endsWith('.k8s.io'))`: {eval: func(self any) cbool {
			s, err := celStr(self)
			if err != nil {
				return errCBool(err)
			}
			if s == "" || s == "Cluster" {
				return celTrue
			}
			// ^.*/.+$: no newline (. does not match one), and a slash before
			// the last character.
			slash := strings.IndexByte(s, '/')
			if strings.ContainsRune(s, '\n') || slash < 0 || slash == len(s)-1 {
				return celFalse
			}
			prefix := s[:slash]
			return cb(len(utilvalidation.IsDNS1123Subdomain(prefix)) == 0 && prefix != "k8s.io" && !strings.HasSuffix(prefix, ".k8s.io"))
		}},
		// spec.listeners[] (v1.7.0, experimental)
		`!has(self.filters) || self.protocol in ['HTTP', 'HTTPS']`: {eval: func(self any) cbool {
			return or(cb(!has(self, "filters")), strIn(self, "protocol", "HTTP", "HTTPS"))
		}},
		// spec.tls.frontend.default.validation.caCertificateRefs (v1.7.0,
		// experimental): a ClusterTrustBundle is cluster-scoped.
		`self.all(r, !(r.group == 'certificates.k8s.io' && r.kind == 'ClusterTrustBundle' && has(r.namespace)))`: {eval: func(self any) cbool {
			refs, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			return all(refs, func(r any) cbool {
				return not(and(strIs(r, "group", "certificates.k8s.io"), strIs(r, "kind", "ClusterTrustBundle"), cb(has(r, "namespace"))))
			})
		}},
		// spec.listeners
		`self.all(l1, self.exists_one(l2, l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname))))`: {eval: func(self any) cbool {
			ls, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			return all(ls, func(l1 any) cbool {
				return existsOne(ls, func(l2 any) cbool { return sameListenerEndpoint(l1, l2) })
			})
		}},
		// spec.tls.frontend.perPort
		`self.all(t1, self.exists_one(t2, t1.port == t2.port))`: {eval: uniqueField("port")},
		// status.addresses[]: never evaluated on create, which drops status.
		`self.type == 'Hostname' ? self.value.matches(r"""^(\*\.)?[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"""): true`: {eval: func(self any) cbool {
			return implies(strIs(self, "type", "Hostname"), func() cbool {
				v, err := getStr(self, "value")
				if err != nil {
					return errCBool(err)
				}
				return cb(isWildcardHostnameish(v))
			})
		}},
	}
}

// uniqueAddressValues is
// self.all(a1, a1.type == '<typ>' && has(a1.value) ? self.exists_one(a2, a2.type == a1.type && has(a2.value) && a2.value == a1.value) : true ),
// or, where the value is required (v1.3.0 and earlier), the same without
// the has() tests.
func uniqueAddressValues(typ string, valueRequired bool) func(any) cbool {
	hasValue := func(a any) cbool { return cb(valueRequired || has(a, "value")) }
	return func(self any) cbool {
		as, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(as, func(a1 any) cbool {
			return implies(and(strIs(a1, "type", typ), hasValue(a1)), func() cbool {
				return existsOne(as, func(a2 any) cbool {
					return and(fieldsEqual(a2, a1, "type"), hasValue(a2), fieldsEqual(a2, a1, "value"))
				})
			})
		})
	}
}

// sameListenerEndpoint is
// l1.port == l2.port && l1.protocol == l2.protocol && (has(l1.hostname) && has(l2.hostname) ? l1.hostname == l2.hostname : !has(l1.hostname) && !has(l2.hostname)).
func sameListenerEndpoint(l1, l2 any) cbool {
	host := cb(!has(l1, "hostname") && !has(l2, "hostname"))
	if has(l1, "hostname") && has(l2, "hostname") {
		host = fieldsEqual(l1, l2, "hostname")
	}
	return and(fieldsEqual(l1, l2, "port"), fieldsEqual(l1, l2, "protocol"), host)
}
