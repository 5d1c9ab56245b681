package crd

// CEL rules of BackendTLSPolicy beyond the TLS validation rules it shares
// with XBackend (cel_common.go).

func backendTLSPolicyRules() map[string]celImpl {
	return map[string]celImpl{
		// spec.targetRefs
		`self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '')) : true))`: {eval: forAllPairs(func(p1, p2 any) cbool {
			return implies(sameRef(p1, p2), func() cbool { return sameEmptiness(p1, p2, "sectionName") })
		})},
		`self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))`: {eval: eachExactlyOnce(func(p1, p2 any) cbool {
			return and(sameRef(p1, p2), optionalEqual(p1, p2, "sectionName"))
		})},
	}
}
