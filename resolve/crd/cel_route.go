package crd

// CEL rules on the parentRefs of every route kind.

func routeRules() map[string]celImpl {
	return map[string]celImpl{
		// Two refs to the same parent must both name a section (or a port), or
		// both not...
		`self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__)) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '') && (!has(p1.port) || p1.port == 0) == (!has(p2.port) || p2.port == 0)): true))`: {eval: forAllPairs(func(p1, p2 any) cbool {
			return implies(sameParent(p1, p2), func() cbool {
				return and(sameEmptiness(p1, p2, "sectionName"), sameEmptiness(p1, p2, "port"))
			})
		})},
		`self.all(p1, self.all(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) ? ((!has(p1.sectionName) || p1.sectionName == '') == (!has(p2.sectionName) || p2.sectionName == '')) : true))`: {eval: forAllPairs(func(p1, p2 any) cbool {
			return implies(sameParent(p1, p2), func() cbool { return sameEmptiness(p1, p2, "sectionName") })
		})},
		// ...and must differ.
		`self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || ( has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName)) && (((!has(p1.port) || p1.port == 0) && (!has(p2.port) || p2.port == 0)) || (has(p1.port) && has(p2.port) && p1.port == p2.port))))`: {eval: eachExactlyOnce(func(p1, p2 any) cbool {
			return and(sameParent(p1, p2), optionalEqual(p1, p2, "sectionName"), optionalEqual(p1, p2, "port"))
		})},
		`self.all(p1, self.exists_one(p2, p1.group == p2.group && p1.kind == p2.kind && p1.name == p2.name && (((!has(p1.__namespace__) || p1.__namespace__ == '') && (!has(p2.__namespace__) || p2.__namespace__ == '')) || (has(p1.__namespace__) && has(p2.__namespace__) && p1.__namespace__ == p2.__namespace__ )) && (((!has(p1.sectionName) || p1.sectionName == '') && (!has(p2.sectionName) || p2.sectionName == '')) || (has(p1.sectionName) && has(p2.sectionName) && p1.sectionName == p2.sectionName))))`: {eval: eachExactlyOnce(func(p1, p2 any) cbool {
			return and(sameParent(p1, p2), optionalEqual(p1, p2, "sectionName"))
		})},
	}
}

// sameParent is sameRef and the same namespace (absent and "" alike).
func sameParent(p1, p2 any) cbool {
	return and(sameRef(p1, p2), optionalEqual(p1, p2, "namespace"))
}

// forAllPairs is self.all(p1, self.all(p2, pred)).
func forAllPairs(pred func(p1, p2 any) cbool) func(any) cbool {
	return func(self any) cbool {
		ps, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(ps, func(p1 any) cbool {
			return all(ps, func(p2 any) cbool { return pred(p1, p2) })
		})
	}
}

// eachExactlyOnce is self.all(p1, self.exists_one(p2, pred)).
func eachExactlyOnce(pred func(p1, p2 any) cbool) func(any) cbool {
	return func(self any) cbool {
		ps, err := celList(self)
		if err != nil {
			return errCBool(err)
		}
		return all(ps, func(p1 any) cbool {
			return existsOne(ps, func(p2 any) cbool { return pred(p1, p2) })
		})
	}
}
