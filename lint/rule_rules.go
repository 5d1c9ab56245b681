package lint

import (
	"github.com/gwlint/gwlint/resolve"
)

var ruleAllWeightsZero = &Rule{
	ID: "rule-all-weights-zero", Severity: Warning,
	Summary: "every backend of the rule has weight 0",
	Doc: Doc{
		Text: `"If weight is set to 0, no traffic should be forwarded for this entry." With
every weight 0, the rule forwards nothing: a canary rolled back too far, or a
rule left switched off.

Fix: give at least one backend a positive weight (the default is 1).`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				if rule.Outcome(r.Route) == resolve.ZeroWeight {
					p.Report(&r.Meta, rule.Path+".backendRefs", nil, "every backendRef of %s has weight 0: it forwards no traffic", rule.Label())
				}
			}
		}
	},
}

var ruleNameDuplicate = &Rule{
	ID: "rule-name-duplicate", Severity: Error,
	Summary: "two rules of one route share a name (GEP-995)",
	Doc: Doc{
		Text: `GEP-995: rule names must be unique within a route, so that policies and status
can refer to a rule by name.

Fix: rename one rule.`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			first := map[string]*resolve.RuleResult{}
			for _, rule := range r.Rules {
				if rule.Name == "" {
					continue
				}
				if prev, dup := first[rule.Name]; dup {
					p.Report(&r.Meta, rule.Path+".name", []Related{Relate(&r.Meta, prev.Path+".name", "first used here")},
						"rule name %q is already used by %s", rule.Name, prev.Path)
					continue
				}
				first[rule.Name] = rule
			}
		}
	},
}
