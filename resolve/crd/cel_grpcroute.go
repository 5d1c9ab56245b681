package crd

// CEL rules of GRPCRoute beyond the ones it shares with HTTPRoute and the
// other routes.

func grpcRouteRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.rules: matches are not defaulted here, hence the has() guards.
		`(self.size() > 0 ? (has(self[0].matches) ? self[0].matches.size() : 0) : 0) + (self.size() > 1 ? (has(self[1].matches) ? self[1].matches.size() : 0) : 0) + (self.size() > 2 ? (has(self[2].matches) ? self[2].matches.size() : 0) : 0) + (self.size() > 3 ? (has(self[3].matches) ? self[3].matches.size() : 0) : 0) + (self.size() > 4 ? (has(self[4].matches) ? self[4].matches.size() : 0) : 0) + (self.size() > 5 ? (has(self[5].matches) ? self[5].matches.size() : 0) : 0) + (self.size() > 6 ? (has(self[6].matches) ? self[6].matches.size() : 0) : 0) + (self.size() > 7 ? (has(self[7].matches) ? self[7].matches.size() : 0) : 0) + (self.size() > 8 ? (has(self[8].matches) ? self[8].matches.size() : 0) : 0) + (self.size() > 9 ? (has(self[9].matches) ? self[9].matches.size() : 0) : 0) + (self.size() > 10 ? (has(self[10].matches) ? self[10].matches.size() : 0) : 0) + (self.size() > 11 ? (has(self[11].matches) ? self[11].matches.size() : 0) : 0) + (self.size() > 12 ? (has(self[12].matches) ? self[12].matches.size() : 0) : 0) + (self.size() > 13 ? (has(self[13].matches) ? self[13].matches.size() : 0) : 0) + (self.size() > 14 ? (has(self[14].matches) ? self[14].matches.size() : 0) : 0) + (self.size() > 15 ? (has(self[15].matches) ? self[15].matches.size() : 0) : 0) <= 128`: {eval: func(self any) cbool {
			return totalMatchesAtMost128(self, true)
		}},
		// spec.rules[].matches[].method: type is defaulted to Exact.
		`has(self.type) ? has(self.service) || has(self.method) : true`: {eval: func(self any) cbool {
			return implies(cb(has(self, "type")), func() cbool {
				return cb(has(self, "service") || has(self, "method"))
			})
		}},
		`(!has(self.type) || self.type == 'Exact') && has(self.service) ? self.service.matches(r"""^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$"""): true`: {eval: exactMethodMatch("service", isGRPCService)},
		`(!has(self.type) || self.type == 'Exact') && has(self.method) ? self.method.matches(r"""^[A-Za-z_][A-Za-z_0-9]*$"""): true`:                         {eval: exactMethodMatch("method", isGRPCMethod)},
	}
}

// exactMethodMatch is (!has(self.type) || self.type == 'Exact') && has(self.<field>) ? valid(self.<field>) : true.
func exactMethodMatch(field string, valid func(string) bool) func(any) cbool {
	return func(self any) cbool {
		exact := celTrue
		if has(self, "type") {
			exact = strIs(self, "type", "Exact")
		}
		return implies(and(exact, cb(has(self, field))), func() cbool {
			v, err := getStr(self, field)
			if err != nil {
				return errCBool(err)
			}
			return cb(valid(v))
		})
	}
}
