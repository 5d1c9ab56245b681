package lint

var apiVersionNotServed = &Rule{
	ID: "api-version-not-served", Severity: Error,
	Summary: "the CRDs in effect do not serve this API version",
	Doc: Doc{
		Text: `The API server refuses an object in a version its CRDs do not serve: one that
an earlier Gateway API release served (GRPCRoute and ReferenceGrant v1alpha2,
...), or one only the experimental channel serves when the cluster runs the
standard channel (--channel, or channel in .gwlint.yaml; when neither names
it, experimental-channel-only says so instead). gwlint still reads the object as the version
that replaces it, so the rest of it is checked and resolved, and reports the
version once, here.

Fix: write the version the message names (or install the experimental
channel CRDs, and lint with --channel experimental):`,
		Example: `apiVersion: gateway.networking.k8s.io/v1alpha2   # before
apiVersion: gateway.networking.k8s.io/v1         # after`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			if m := obj.Metadata(); m.Version().NotServed() && !m.Version().ChannelAssumed {
				p.Report(m, "apiVersion", nil, "%s", m.Version().Message)
			}
		}
	},
}
