package lint

var parentRefUnsupportedKind = &Rule{
	ID: "parentref-unsupported-kind", Severity: Warning,
	Summary: "parentRef kind is not a Gateway, ListenerSet or Service",
	Doc: Doc{
		Text: `Routes attach to Gateways and ListenerSets (group gateway.networking.k8s.io)
and, for mesh traffic, to Services (core group). Other kinds are
implementation-specific: a controller that does not support the kind
refuses the route there
(Accepted=False/UnsupportedValue), so it serves nothing through that
parentRef. XListenerSet, the experimental kind of gateway.networking.x-k8s.io,
became ListenerSet in gateway.networking.k8s.io: no controller of this API
version attaches to it.

Fix:`,
		Example: `parentRefs:
- group: gateway.networking.k8s.io   # was gateway.networking.x-k8s.io
  kind: ListenerSet                  # was XListenerSet
  name: team-listeners`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, pr := range r.Parents {
				if pr.UnsupportedKind {
					p.Report(&r.Meta, pr.Path+".kind", nil, "%s", pr.Accepted.Message)
				}
			}
		}
	},
}
