package crd

// CEL rules shared by several kinds: backend and parent references,
// filters common to HTTPRoute and GRPCRoute, session persistence, TLS
// validation of backends, listeners.

func commonRules() map[string]celImpl {
	return map[string]celImpl{
		// BackendRef (every route kind, and mirror / external auth backends):
		// group and kind are defaulted ("" and Service).
		`(size(self.group) == 0 && self.kind == 'Service') ? has(self.port) : true`: {eval: func(self any) cbool {
			noGroup := celFalse
			if group, err := getStr(self, "group"); err != nil {
				noGroup = errCBool(err)
			} else {
				noGroup = cb(runeLen(group) == 0)
			}
			return implies(and(noGroup, strIs(self, "kind", "Service")), func() cbool {
				return celHas(self, "port")
			})
		}},

		// v1.7.0, experimental: an XBackend names its own port.
		`(self.group == 'gateway.networking.x-k8s.io' && self.kind == 'XBackend') ? !has(self.port) : true`: {eval: func(self any) cbool {
			return implies(and(strIs(self, "group", "gateway.networking.x-k8s.io"), strIs(self, "kind", "XBackend")), func() cbool {
				return not(celHas(self, "port"))
			})
		}},

		// HTTPRoute and GRPCRoute filters.
		`self.filter(f, f.type == 'RequestHeaderModifier').size() <= 1`:                 {eval: filterAtMostOnce("RequestHeaderModifier")},
		`self.filter(f, f.type == 'ResponseHeaderModifier').size() <= 1`:                {eval: filterAtMostOnce("ResponseHeaderModifier")},
		`!(has(self.requestHeaderModifier) && self.type != 'RequestHeaderModifier')`:    {eval: filterFieldOnlyForType("requestHeaderModifier", "RequestHeaderModifier")},
		`!(!has(self.requestHeaderModifier) && self.type == 'RequestHeaderModifier')`:   {eval: filterFieldRequiredForType("requestHeaderModifier", "RequestHeaderModifier")},
		`!(has(self.responseHeaderModifier) && self.type != 'ResponseHeaderModifier')`:  {eval: filterFieldOnlyForType("responseHeaderModifier", "ResponseHeaderModifier")},
		`!(!has(self.responseHeaderModifier) && self.type == 'ResponseHeaderModifier')`: {eval: filterFieldRequiredForType("responseHeaderModifier", "ResponseHeaderModifier")},
		`!(has(self.requestMirror) && self.type != 'RequestMirror')`:                    {eval: filterFieldOnlyForType("requestMirror", "RequestMirror")},
		`!(!has(self.requestMirror) && self.type == 'RequestMirror')`:                   {eval: filterFieldRequiredForType("requestMirror", "RequestMirror")},
		`!(has(self.extensionRef) && self.type != 'ExtensionRef')`:                      {eval: filterFieldOnlyForType("extensionRef", "ExtensionRef")},
		`!(!has(self.extensionRef) && self.type == 'ExtensionRef')`:                     {eval: filterFieldRequiredForType("extensionRef", "ExtensionRef")},
		`!(has(self.percent) && has(self.fraction))`: {eval: func(self any) cbool {
			return not(and(celHas(self, "percent"), cb(has(self, "fraction"))))
		}},
		`self.numerator <= self.denominator`: {eval: func(self any) cbool {
			num, err := getInt(self, "numerator")
			if err != nil {
				return errCBool(err)
			}
			den, err := getInt(self, "denominator") // defaulted to 100
			if err != nil {
				return errCBool(err)
			}
			return cb(num <= den)
		}},

		// Session persistence (routes, XBackendTrafficPolicy, and from v1.7.0
		// XBackend, where the cookie's settings are in cookie).
		`!has(self.cookieConfig) || !has(self.cookieConfig.lifetimeType) || self.cookieConfig.lifetimeType != 'Permanent' || has(self.absoluteTimeout)`: {eval: permanentCookieNeedsTimeout("cookieConfig")},
		`!has(self.cookie) || !has(self.cookie.lifetimeType) || self.cookie.lifetimeType != 'Permanent' || has(self.absoluteTimeout)`:                   {eval: permanentCookieNeedsTimeout("cookie")},
		// BackendLBPolicy (v1.1.0 to v1.3.0, experimental), where selecting
		// the absent cookieConfig is an error only has(self.absoluteTimeout)
		// absorbs.
		`!has(self.cookieConfig.lifetimeType) || self.cookieConfig.lifetimeType != 'Permanent' || has(self.absoluteTimeout)`: {eval: func(self any) cbool {
			cc, err := get(self, "cookieConfig")
			if err != nil {
				return or(errCBool(err), cb(has(self, "absoluteTimeout")))
			}
			if !has(cc, "lifetimeType") {
				return celTrue
			}
			return or(not(strIs(cc, "lifetimeType", "Permanent")), cb(has(self, "absoluteTimeout")))
		}},
		// !has(x) || c is has(x) ? c : true: both yield c's error.
		`!has(self.cookieConfig) || self.type == 'Cookie'`: {eval: configNeedsProtocolField("cookieConfig", "type", "Cookie")},
		`!has(self.cookie) || self.type == 'Cookie'`:       {eval: configNeedsProtocolField("cookie", "type", "Cookie")},
		`!has(self.header) || self.type == 'Header'`:       {eval: configNeedsProtocolField("header", "type", "Header")},
		`self.type != 'Cookie' || has(self.cookie)`:        {eval: valueNeedsField("type", "Cookie", "cookie")},
		`self.type != 'Header' || has(self.header)`:        {eval: valueNeedsField("type", "Header", "header")},

		// Rule names (routes).
		`self.all(l1, !has(l1.name) || self.exists_one(l2, has(l2.name) && l1.name == l2.name))`: {eval: func(self any) cbool {
			rules, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			return all(rules, func(l1 any) cbool {
				if !has(l1, "name") {
					return celTrue
				}
				return existsOne(rules, func(l2 any) cbool {
					return and(cb(has(l2, "name")), fieldsEqual(l1, l2, "name"))
				})
			})
		}},

		// Backend TLS validation (BackendTLSPolicy, XBackend).
		`!(has(self.caCertificateRefs) && size(self.caCertificateRefs) > 0 && has(self.wellKnownCACertificates) && self.wellKnownCACertificates != "")`: {eval: caSourcesExclusive("caCertificateRefs", "wellKnownCACertificates")},
		`(has(self.caCertificateRefs) && size(self.caCertificateRefs) > 0 || has(self.wellKnownCACertificates) && self.wellKnownCACertificates != "")`:  {eval: caSourceRequired("caCertificateRefs", "wellKnownCACertificates")},
		// BackendTLSPolicy v1alpha2 (v1.0.0, experimental): the same, by the
		// fields' first names.
		`!(has(self.caCertRefs) && size(self.caCertRefs) > 0 && has(self.wellKnownCACerts) && self.wellKnownCACerts != "")`: {eval: caSourcesExclusive("caCertRefs", "wellKnownCACerts")},
		`(has(self.caCertRefs) && size(self.caCertRefs) > 0 || has(self.wellKnownCACerts) && self.wellKnownCACerts != "")`:  {eval: caSourceRequired("caCertRefs", "wellKnownCACerts")},
		// v1.7.0, experimental: exactly one of them.
		`(has(self.caCertificateRefs)?1:0)+(has(self.wellKnownCACertificates)?1:0) == 1`: {eval: func(self any) cbool {
			return cb(has(self, "caCertificateRefs") != has(self, "wellKnownCACertificates"))
		}},
		`!(self.type == "Hostname" && (!has(self.hostname) || self.hostname == ""))`: {eval: subjectAltNameRequires("Hostname", "hostname")},
		`!(self.type != "Hostname" && has(self.hostname) && self.hostname != "")`:    {eval: subjectAltNameForbids("Hostname", "hostname")},
		`!(self.type == "URI" && (!has(self.uri) || self.uri == ""))`:                {eval: subjectAltNameRequires("URI", "uri")},
		`!(self.type != "URI" && has(self.uri) && self.uri != "")`:                   {eval: subjectAltNameForbids("URI", "uri")},

		// Listeners (Gateway, ListenerSet).
		`self.all(l, l.protocol in ['HTTP', 'TCP', 'UDP'] ? !has(l.tls) : true)`: {eval: forAllListeners(func(l any) cbool {
			return implies(strIn(l, "protocol", "HTTP", "TCP", "UDP"), func() cbool { return cb(!has(l, "tls")) })
		})},
		// v1.0.0: HTTPS and TLS listeners need a tls block (v1.1.0 dropped
		// the rule; v1.6.0 made it the next one but for TLS alone).
		`self.all(l, l.protocol in ['HTTPS', 'TLS'] ? has(l.tls) : true)`: {eval: forAllListeners(func(l any) cbool {
			return implies(strIn(l, "protocol", "HTTPS", "TLS"), func() cbool { return cb(has(l, "tls")) })
		})},
		`self.all(l, (l.protocol == 'HTTPS' && has(l.tls)) ? (l.tls.mode == '' || l.tls.mode == 'Terminate') : true)`: {eval: forAllListeners(func(l any) cbool {
			return implies(and(strIs(l, "protocol", "HTTPS"), cb(has(l, "tls"))), func() cbool {
				tls, _ := get(l, "tls")
				return or(strIs(tls, "mode", ""), strIs(tls, "mode", "Terminate"))
			})
		})},
		`self.all(l, (l.protocol == 'TLS' ? has(l.tls) && has(l.tls.mode) && l.tls.mode != '' : true))`: {eval: forAllListeners(func(l any) cbool {
			return implies(strIs(l, "protocol", "TLS"), func() cbool {
				if !has(l, "tls") {
					return celFalse
				}
				tls, _ := get(l, "tls")
				return and(cb(has(tls, "mode")), not(strIs(tls, "mode", "")))
			})
		})},
		`self.all(l, l.protocol in ['TCP', 'UDP']  ? (!has(l.hostname) || l.hostname == '') : true)`: {eval: forAllListeners(func(l any) cbool {
			return implies(strIn(l, "protocol", "TCP", "UDP"), func() cbool { return emptyOrAbsent(l, "hostname") })
		})},
		`self.all(l1, self.exists_one(l2, l1.name == l2.name))`: {eval: uniqueField("name")},
		`self.mode == 'Terminate' ? size(self.certificateRefs) > 0 || size(self.options) > 0 : true`: {eval: func(self any) cbool {
			return implies(strIs(self, "mode", "Terminate"), func() cbool {
				return or(sizeAbove0(self, "certificateRefs"), sizeAbove0(self, "options"))
			})
		}},
		// v1.0.0: options did not stand in for certificates yet.
		`self.mode == 'Terminate' ? size(self.certificateRefs) > 0 : true`: {eval: func(self any) cbool {
			return implies(strIs(self, "mode", "Terminate"), func() cbool { return sizeAbove0(self, "certificateRefs") })
		}},
	}
}

// permanentCookieNeedsTimeout is
// !has(self.<cookie>) || !has(self.<cookie>.lifetimeType) || self.<cookie>.lifetimeType != 'Permanent' || has(self.absoluteTimeout).
func permanentCookieNeedsTimeout(cookie string) func(any) cbool {
	return func(self any) cbool {
		if !has(self, cookie) {
			return celTrue
		}
		cc, _ := get(self, cookie)
		if !has(cc, "lifetimeType") {
			return celTrue
		}
		return or(not(strIs(cc, "lifetimeType", "Permanent")), cb(has(self, "absoluteTimeout")))
	}
}

// presentExactlyWhen is self.<field> == '<value>' ? has(self.<config>) : !has(self.<config>).
func presentExactlyWhen(field, value, config string) func(any) cbool {
	return func(self any) cbool {
		return cond(strIs(self, field, value),
			func() cbool { return cb(has(self, config)) },
			func() cbool { return cb(!has(self, config)) })
	}
}

// valueNeedsField is self.<field> != '<value>' || has(self.<config>):
// unlike protocolNeedsConfigField's ternary, true despite an error in the
// comparison when the field is there.
func valueNeedsField(field, value, config string) func(any) cbool {
	return func(self any) cbool {
		return or(not(strIs(self, field, value)), cb(has(self, config)))
	}
}

// filterAtMostOnce is self.filter(f, f.type == '<typ>').size() <= 1.
func filterAtMostOnce(typ string) func(any) cbool {
	return func(self any) cbool {
		fs, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		n, err := count(fs, func(f any) cbool { return strIs(f, "type", typ) })
		if err != nil {
			return errCBool(err)
		}
		return cb(n <= 1)
	}
}

// filterFieldOnlyForType is !(has(self.<field>) && self.type != '<typ>').
func filterFieldOnlyForType(field, typ string) func(any) cbool {
	return func(self any) cbool {
		return not(and(cb(has(self, field)), not(strIs(self, "type", typ))))
	}
}

// filterFieldRequiredForType is !(!has(self.<field>) && self.type == '<typ>').
func filterFieldRequiredForType(field, typ string) func(any) cbool {
	return func(self any) cbool {
		return not(and(cb(!has(self, field)), strIs(self, "type", typ)))
	}
}

// subjectAltNameRequires is !(self.type == "<typ>" && (!has(self.<field>) || self.<field> == "")).
func subjectAltNameRequires(typ, field string) func(any) cbool {
	return func(self any) cbool {
		return not(and(strIs(self, "type", typ), emptyOrAbsent(self, field)))
	}
}

// subjectAltNameForbids is !(self.type != "<typ>" && has(self.<field>) && self.<field> != "").
func subjectAltNameForbids(typ, field string) func(any) cbool {
	return func(self any) cbool {
		return not(and(not(strIs(self, "type", typ)), cb(hasNonEmptyString(self, field))))
	}
}

// caSourcesExclusive is
// !(has(self.<refs>) && size(self.<refs>) > 0 && has(self.<wellKnown>) && self.<wellKnown> != "").
func caSourcesExclusive(refs, wellKnown string) func(any) cbool {
	return func(self any) cbool {
		return cb(!(hasNonEmptyList(self, refs) && hasNonEmptyString(self, wellKnown)))
	}
}

// caSourceRequired is
// (has(self.<refs>) && size(self.<refs>) > 0 || has(self.<wellKnown>) && self.<wellKnown> != "").
func caSourceRequired(refs, wellKnown string) func(any) cbool {
	return func(self any) cbool {
		return cb(hasNonEmptyList(self, refs) || hasNonEmptyString(self, wellKnown))
	}
}

// forAllListeners is self.all(l, pred).
func forAllListeners(pred func(l any) cbool) func(any) cbool {
	return func(self any) cbool {
		ls, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(ls, pred)
	}
}

// hasNonEmptyList is has(x.k) && size(x.k) > 0.
func hasNonEmptyList(x any, k string) bool {
	l, err := getList(x, k)
	return err == nil && len(l) > 0
}

// hasNonEmptyString is has(x.k) && x.k != "".
func hasNonEmptyString(x any, k string) bool {
	s, err := getStr(x, k)
	return err == nil && s != ""
}

// sizeAbove0 is size(x.k) > 0 for a list or map field.
func sizeAbove0(x any, k string) cbool {
	v, err := get(x, k)
	if err != nil {
		return errCBool(err)
	}
	switch v := v.(type) {
	case []any:
		return cb(len(v) > 0)
	case map[string]any:
		return cb(len(v) > 0)
	}
	return errCBool(errNoOverload)
}

// sameRef is p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name.
func sameRef(p1, p2 any) cbool {
	return and(fieldsEqual(p1, p2, "group"), fieldsEqual(p1, p2, "kind"), fieldsEqual(p1, p2, "name"))
}
