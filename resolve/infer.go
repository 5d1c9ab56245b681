package resolve

import "strings"

// inferWorld hands the world's evidence of the implementation that runs
// the cluster to the profile Choice (profile.Choice: inference), when it
// infers, and sets Graph.Inferred. skipped are the documents of kinds gwlint
// does not model, by "apiVersion Kind" (Inputs.Skipped); charts the Helm
// charts the inputs install (Inputs.HelmCharts).
func (g *Graph) inferWorld(skipped map[string]int, charts []string) {
	defer func() { g.defaultJudge = g.judgeFor(g.choice.Default()) }()
	ev := g.choice.Gather(len(g.GatewayClasses) > 0)
	if ev == nil {
		return
	}
	for key, n := range skipped {
		apiVersion, _, _ := strings.Cut(key, " ")
		ev.Objects(apiVersion, n)
	}
	for _, chart := range charts {
		ev.Chart(chart)
	}
	for _, obj := range g.Objects {
		ev.Objects(obj.Metadata().APIVersion, 1)
		switch o := obj.(type) {
		case *Gateway:
			if infra := o.Spec.Infrastructure; infra != nil && infra.ParametersRef != nil {
				ev.Ref("parametersRef", string(infra.ParametersRef.Group), string(infra.ParametersRef.Kind))
			}
		case *Route:
			for _, rule := range o.Rules {
				for _, b := range rule.BackendRefs {
					ev.Ref("backendRef", string(*b.Group), string(*b.Kind))
				}
			}
			if o.HTTP != nil {
				for _, rule := range o.HTTP.Rules {
					for _, f := range rule.Filters {
						if f.ExtensionRef != nil {
							ev.Ref("extensionRef", string(f.ExtensionRef.Group), string(f.ExtensionRef.Kind))
						}
					}
				}
			}
		case *BackendTLSPolicy:
			for _, t := range o.Spec.TargetRefs {
				ev.Ref("targetRef", string(t.Group), string(t.Kind))
			}
		}
	}
	g.Inferred = g.choice.Infer()
}
