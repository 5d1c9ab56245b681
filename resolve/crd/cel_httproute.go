package crd

import (
	"strings"
	"time"
)

// CEL rules of HTTPRoute (v1, v1beta1) beyond the ones it shares with
// other routes (cel_common.go, cel_route.go).

func httpRouteRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.rules: matches are defaulted, so rules without any count one.
		`(self.size() > 0 ? self[0].matches.size() : 0) + (self.size() > 1 ? self[1].matches.size() : 0) + (self.size() > 2 ? self[2].matches.size() : 0) + (self.size() > 3 ? self[3].matches.size() : 0) + (self.size() > 4 ? self[4].matches.size() : 0) + (self.size() > 5 ? self[5].matches.size() : 0) + (self.size() > 6 ? self[6].matches.size() : 0) + (self.size() > 7 ? self[7].matches.size() : 0) + (self.size() > 8 ? self[8].matches.size() : 0) + (self.size() > 9 ? self[9].matches.size() : 0) + (self.size() > 10 ? self[10].matches.size() : 0) + (self.size() > 11 ? self[11].matches.size() : 0) + (self.size() > 12 ? self[12].matches.size() : 0) + (self.size() > 13 ? self[13].matches.size() : 0) + (self.size() > 14 ? self[14].matches.size() : 0) + (self.size() > 15 ? self[15].matches.size() : 0) <= 128`: {eval: func(self any) cbool {
			return totalMatchesAtMost128(self, false)
		}},
		// spec.rules[]
		`(has(self.backendRefs) && size(self.backendRefs) > 0) ? (!has(self.filters) || self.filters.all(f, !has(f.requestRedirect))): true`: {eval: func(self any) cbool {
			return implies(cb(hasNonEmptyList(self, "backendRefs")), func() cbool {
				if !has(self, "filters") {
					return celTrue
				}
				fs, err := getList(self, "filters")
				if err != nil {
					return errCBool(err)
				}
				return all(fs, func(f any) cbool { return cb(!has(f, "requestRedirect")) })
			})
		}},
		`(has(self.filters) && self.filters.exists_one(f, has(f.requestRedirect) && has(f.requestRedirect.path) && f.requestRedirect.path.type == 'ReplacePrefixMatch' && has(f.requestRedirect.path.replacePrefixMatch))) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true`:                                                       {eval: prefixRewriteNeedsOnePrefixMatch("requestRedirect", false)},
		`(has(self.filters) && self.filters.exists_one(f, has(f.urlRewrite) && has(f.urlRewrite.path) && f.urlRewrite.path.type == 'ReplacePrefixMatch' && has(f.urlRewrite.path.replacePrefixMatch))) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true`:                                                                           {eval: prefixRewriteNeedsOnePrefixMatch("urlRewrite", false)},
		`(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, has(f.requestRedirect) && has(f.requestRedirect.path) && f.requestRedirect.path.type == 'ReplacePrefixMatch' && has(f.requestRedirect.path.replacePrefixMatch))) )) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true`: {eval: prefixRewriteNeedsOnePrefixMatch("requestRedirect", true)},
		`(has(self.backendRefs) && self.backendRefs.exists_one(b, (has(b.filters) && b.filters.exists_one(f, has(f.urlRewrite) && has(f.urlRewrite.path) && f.urlRewrite.path.type == 'ReplacePrefixMatch' && has(f.urlRewrite.path.replacePrefixMatch))) )) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true`:                     {eval: prefixRewriteNeedsOnePrefixMatch("urlRewrite", true)},
		// spec.rules[].filters and spec.rules[].backendRefs[].filters
		`!(self.exists(f, f.type == 'RequestRedirect') && self.exists(f, f.type == 'URLRewrite'))`: {eval: func(self any) cbool {
			fs, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			isType := func(t string) func(any) cbool { return func(f any) cbool { return strIs(f, "type", t) } }
			return not(and(exists(fs, isType("RequestRedirect")), exists(fs, isType("URLRewrite"))))
		}},
		`self.filter(f, f.type == 'CORS').size() <= 1`:            {eval: filterAtMostOnce("CORS")},
		`self.filter(f, f.type == 'RequestRedirect').size() <= 1`: {eval: filterAtMostOnce("RequestRedirect")},
		`self.filter(f, f.type == 'URLRewrite').size() <= 1`:      {eval: filterAtMostOnce("URLRewrite")},
		// spec.rules[].filters[] and spec.rules[].backendRefs[].filters[]
		`!(has(self.cors) && self.type != 'CORS')`:                        {eval: filterFieldOnlyForType("cors", "CORS")},
		`!(!has(self.cors) && self.type == 'CORS')`:                       {eval: filterFieldRequiredForType("cors", "CORS")},
		`!(has(self.requestRedirect) && self.type != 'RequestRedirect')`:  {eval: filterFieldOnlyForType("requestRedirect", "RequestRedirect")},
		`!(!has(self.requestRedirect) && self.type == 'RequestRedirect')`: {eval: filterFieldRequiredForType("requestRedirect", "RequestRedirect")},
		`!(has(self.urlRewrite) && self.type != 'URLRewrite')`:            {eval: filterFieldOnlyForType("urlRewrite", "URLRewrite")},
		`!(!has(self.urlRewrite) && self.type == 'URLRewrite')`:           {eval: filterFieldRequiredForType("urlRewrite", "URLRewrite")},
		`!(has(self.externalAuth) && self.type != 'ExternalAuth')`:        {eval: filterFieldOnlyForType("externalAuth", "ExternalAuth")},
		`!(!has(self.externalAuth) && self.type == 'ExternalAuth')`:       {eval: filterFieldRequiredForType("externalAuth", "ExternalAuth")},
		// cors.allowOrigins, allowMethods, allowHeaders
		`!('*' in self && self.size() > 1)`: {eval: func(self any) cbool {
			xs, err := celList(self)
			if err != nil {
				return errCBool(err)
			}
			star := false
			for _, x := range xs {
				star = star || x == "*"
			}
			return cb(!(star && len(xs) > 1))
		}},
		// externalAuth: protocol is required.
		`self.protocol == 'GRPC' ? has(self.grpc) : true`: {eval: protocolNeedsConfig("GRPC", "grpc")},
		`has(self.grpc) ? self.protocol == 'GRPC' : true`: {eval: configNeedsProtocol("grpc", "GRPC")},
		`self.protocol == 'HTTP' ? has(self.http) : true`: {eval: protocolNeedsConfig("HTTP", "http")},
		`has(self.http) ? self.protocol == 'HTTP' : true`: {eval: configNeedsProtocol("http", "HTTP")},
		// requestRedirect.path and urlRewrite.path: type is required.
		`self.type == 'ReplaceFullPath' ? has(self.replaceFullPath) : true`:       {eval: protocolNeedsConfigField("type", "ReplaceFullPath", "replaceFullPath")},
		`has(self.replaceFullPath) ? self.type == 'ReplaceFullPath' : true`:       {eval: configNeedsProtocolField("replaceFullPath", "type", "ReplaceFullPath")},
		`self.type == 'ReplacePrefixMatch' ? has(self.replacePrefixMatch) : true`: {eval: protocolNeedsConfigField("type", "ReplacePrefixMatch", "replacePrefixMatch")},
		`has(self.replacePrefixMatch) ? self.type == 'ReplacePrefixMatch' : true`: {eval: configNeedsProtocolField("replacePrefixMatch", "type", "ReplacePrefixMatch")},
		// spec.rules[].matches[].path: type and value are defaulted
		// (PathPrefix, "/").
		`(self.type in ['Exact','PathPrefix']) ? self.value.startsWith('/') : true`:   {eval: exactOrPrefixPath(func(v string) bool { return strings.HasPrefix(v, "/") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('//') : true`:   {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "//") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('/./') : true`:  {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "/./") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('/../') : true`: {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "/../") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('%2f') : true`:  {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "%2f") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('%2F') : true`:  {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "%2F") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.contains('#') : true`:    {eval: exactOrPrefixPath(func(v string) bool { return !strings.Contains(v, "#") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.endsWith('/..') : true`:  {eval: exactOrPrefixPath(func(v string) bool { return !strings.HasSuffix(v, "/..") })},
		`(self.type in ['Exact','PathPrefix']) ? !self.value.endsWith('/.') : true`:   {eval: exactOrPrefixPath(func(v string) bool { return !strings.HasSuffix(v, "/.") })},
		`self.type in ['Exact','PathPrefix'] || self.type == 'RegularExpression'`: {eval: func(self any) cbool {
			return or(strIn(self, "type", "Exact", "PathPrefix"), strIs(self, "type", "RegularExpression"))
		}},
		`(self.type in ['Exact','PathPrefix']) ? self.value.matches(r"""^(?:[-A-Za-z0-9/._~!$&'()*+,;=:@]|[%][0-9a-fA-F]{2})+$""") : true`: {eval: exactOrPrefixPath(isPathish)},
		// spec.rules[].timeouts
		`!(has(self.request) && has(self.backendRequest) && duration(self.request) != duration('0s') && duration(self.backendRequest) > duration(self.request))`: {eval: func(self any) cbool {
			if !has(self, "request") || !has(self, "backendRequest") {
				return celTrue
			}
			req, reqErr := durationField(self, "request")
			be, beErr := durationField(self, "backendRequest")
			nonZero := cb(req != 0)
			if reqErr != nil {
				nonZero = errCBool(reqErr)
			}
			longer := cb(be > req)
			if reqErr != nil || beErr != nil {
				longer = errCBool(firstErr(beErr, reqErr))
			}
			return not(and(nonZero, longer))
		}},
	}
}

// totalMatchesAtMost128 is the sum over the first 16 rules of their
// matches' sizes (guarded by has() in GRPCRoute's version) <= 128.
func totalMatchesAtMost128(self any, guarded bool) cbool {
	rules, err := celList(self)
	if err != nil {
		return errCBool(err)
	}
	total := 0
	for _, r := range rules[:min(len(rules), 16)] {
		if guarded && !has(r, "matches") {
			continue
		}
		ms, err := getList(r, "matches")
		if err != nil {
			return errCBool(err)
		}
		total += len(ms)
	}
	return cb(total <= 128)
}

// prefixRewriteNeedsOnePrefixMatch is, for filter = requestRedirect or
// urlRewrite, in the rule's filters or (inBackends) its backendRefs' ones:
//
//	(has(self.filters) && self.filters.exists_one(f, has(f.<filter>) && has(f.<filter>.path) && f.<filter>.path.type == 'ReplacePrefixMatch' && has(f.<filter>.path.replacePrefixMatch))) ? ((size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix') ? false : true) : true
//
// with the backendRefs variant wrapping the condition in
// self.backendRefs.exists_one(b, has(b.filters) && b.filters.exists_one(...)).
func prefixRewriteNeedsOnePrefixMatch(filter string, inBackends bool) func(any) cbool {
	isPrefixRewrite := func(f any) cbool {
		if !has(f, filter) {
			return celFalse
		}
		fv, _ := get(f, filter)
		if !has(fv, "path") {
			return celFalse
		}
		path, _ := get(fv, "path")
		return and(strIs(path, "type", "ReplacePrefixMatch"), cb(has(path, "replacePrefixMatch")))
	}
	exactlyOneIn := func(x any) cbool {
		if !has(x, "filters") {
			return celFalse
		}
		fs, err := getList(x, "filters")
		if err != nil {
			return errCBool(err)
		}
		return existsOne(fs, isPrefixRewrite)
	}
	return func(self any) cbool {
		var used cbool
		if !inBackends {
			used = exactlyOneIn(self)
		} else if !has(self, "backendRefs") {
			used = celFalse
		} else if brs, err := getList(self, "backendRefs"); err != nil {
			used = errCBool(err)
		} else {
			used = existsOne(brs, exactlyOneIn)
		}
		return implies(used, func() cbool { return onePrefixMatch(self) })
	}
}

// onePrefixMatch is !(size(self.matches) != 1 || !has(self.matches[0].path) || self.matches[0].path.type != 'PathPrefix').
func onePrefixMatch(self any) cbool {
	ms, err := getList(self, "matches")
	if err != nil {
		return errCBool(err)
	}
	if len(ms) != 1 || !has(ms[0], "path") {
		return celFalse
	}
	path, _ := get(ms[0], "path")
	return strIs(path, "type", "PathPrefix")
}

// protocolNeedsConfig is self.protocol == '<protocol>' ? has(self.<config>) : true.
func protocolNeedsConfig(protocol, config string) func(any) cbool {
	return protocolNeedsConfigField("protocol", protocol, config)
}

// configNeedsProtocol is has(self.<config>) ? self.protocol == '<protocol>' : true.
func configNeedsProtocol(config, protocol string) func(any) cbool {
	return configNeedsProtocolField(config, "protocol", protocol)
}

// protocolNeedsConfigField is self.<field> == '<value>' ? has(self.<config>) : true.
func protocolNeedsConfigField(field, value, config string) func(any) cbool {
	return func(self any) cbool {
		return implies(strIs(self, field, value), func() cbool { return cb(has(self, config)) })
	}
}

// configNeedsProtocolField is has(self.<config>) ? self.<field> == '<value>' : true.
func configNeedsProtocolField(config, field, value string) func(any) cbool {
	return func(self any) cbool {
		return implies(cb(has(self, config)), func() cbool { return strIs(self, field, value) })
	}
}

// exactOrPrefixPath is (self.type in ['Exact','PathPrefix']) ? ok(self.value) : true.
func exactOrPrefixPath(ok func(value string) bool) func(any) cbool {
	return func(self any) cbool {
		return implies(strIn(self, "type", "Exact", "PathPrefix"), func() cbool {
			v, err := getStr(self, "value")
			if err != nil {
				return errCBool(err)
			}
			return cb(ok(v))
		})
	}
}

// errDuration is cel-go's error converting a string that
// time.ParseDuration rejects.
var errDuration = errorString("type conversion error from 'string' to 'google.protobuf.Duration'")

type errorString string

func (e errorString) Error() string { return string(e) }

// celDuration is CEL's duration(s).
func celDuration(s string) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errDuration
	}
	return d, nil
}

// durationField is duration(x.k).
func durationField(x any, k string) (time.Duration, error) {
	s, err := getStr(x, k)
	if err != nil {
		return 0, err
	}
	return celDuration(s)
}

func firstErr(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
