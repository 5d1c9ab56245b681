package lint

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/resolve"
)

var namespaceLabelsUnknown = &Rule{
	ID: "namespace-labels-unknown", Severity: Info,
	Summary: "attachment depends on Namespace labels not in the inputs",
	Doc: Doc{
		Text: `A listener's allowedRoutes (or a Gateway's allowedListeners) selects namespaces
by label, and the Namespace of the route (or ListenerSet) is not among the
inputs, so its labels are unknown: only kubernetes.io/metadata.name, which the
API server sets, is. Whether the route attaches cannot be decided offline;
gwctl shows it as Accepted=Unknown (Pending).

Fix: add the Namespace object, with its labels, to the inputs.`,
		Example: `apiVersion: v1
kind: Namespace
metadata:
  name: store
  labels:
    shared-gateway-access: "true"`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, pr := range r.Parents {
				if pr.Accepted.Status != metav1.ConditionUnknown || pr.Presence != resolve.Present || pr.Gateway != nil && pr.Gateway.Remote() || pr.Unknown != "" {
					continue // decided, the parent itself is unknown, it is another cluster's, or a placeholder leaves it unknown
				}
				var related []Related
				for _, o := range pr.Listeners {
					if o.Undecided() && o.Unknown == "" {
						l := o.Listener
						related = append(related, Relate(l.Owner(), l.Path+".allowedRoutes.namespaces", "%s selects namespaces by label", l))
					}
				}
				p.Report(&r.Meta, pr.Path, related, "%s", pr.Accepted.Message)
			}
		}
		for _, ls := range p.Graph.ListenerSets {
			if ls.Accepted.Status == metav1.ConditionUnknown && ls.ParentPresence == resolve.Present {
				p.Report(&ls.Meta, "spec.parentRef", nil, "%s", ls.Accepted.Message)
			}
		}
	},
}
