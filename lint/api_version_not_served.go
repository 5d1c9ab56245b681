package lint

var apiVersionNotServed = &Rule{
	ID: "api-version-not-served", Severity: Error,
	Summary: "the CRDs in effect do not serve this API version",
	Doc: Doc{
		Text: `The API server refuses an object in a version its CRDs do not serve: one that
an earlier Gateway API release served (GRPCRoute and ReferenceGrant v1alpha2,
...), or one only the experimental channel serves when the cluster runs the
standard channel (--channel, or channel in .gwlint.yaml; when neither names
it, api-version-experimental says so instead). gwlint still reads the object as the version
that replaces it, so the rest of it is checked and resolved, and reports the
version once, here.

Fix: write the version the message names (or install the experimental
channel CRDs, and lint with --channel experimental):`,
		Example: `apiVersion: gateway.networking.k8s.io/v1alpha2   # before
apiVersion: gateway.networking.k8s.io/v1         # after`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			if m := obj.Metadata(); m.Version.NotServed() && !m.Version.ChannelAssumed {
				p.Report(m, "apiVersion", nil, "%s", m.Version.Message)
			}
		}
	},
}

var apiVersionExperimental = &Rule{
	ID: "api-version-experimental", Severity: Warning,
	Summary: "only the experimental channel serves this API version",
	Doc: Doc{
		Text: `Only the experimental channel's CRDs serve this apiVersion (TCPRoute
v1alpha2, XBackend, ...), and neither --channel nor the configuration says
which channel the cluster runs: the CRDs are outside the inputs. On the
standard channel, gwlint's default, the API server refuses the object; the
implementations' guides for these kinds install the experimental channel.
Naming the channel makes this certain: api-version-not-served under
standard, nothing under experimental.

Fix: write the version the message names, or say which CRDs the cluster
runs:`,
		Example: `# .gwlint.yaml
channel: experimental`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			if m := obj.Metadata(); m.Version.ChannelAssumed {
				p.Report(m, "apiVersion", nil, "%s", m.Version.Message)
			}
		}
	},
}
