package lint

import "github.com/gwlint/gwlint/resolve"

var experimentalChannelOnly = &Rule{
	ID: "experimental-channel-only", Severity: Warning, ReportsViolations: true,
	Summary: "only the experimental channel's CRDs accept this",
	Doc: Doc{
		Text: `Only the experimental channel's CRDs serve this apiVersion (TCPRoute
v1alpha2, XBackend, ...) or accept this field or value (the ExternalAuth
filter, ...), and neither --channel nor the configuration says which channel
the cluster runs: its CRDs are outside the inputs. On the standard channel,
gwlint's default, the API server refuses it; the implementations' guides for
these features install the experimental channel. Naming the channel makes
this certain: api-version-not-served, crd-validation or unknown-field under
standard, nothing under experimental.

Fix: write what the standard channel serves, or say which CRDs the cluster
runs:`,
		Example: `# .gwlint.yaml
channel: experimental`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			m := obj.Metadata()
			if m.Version().ChannelAssumed {
				p.Report(m, "apiVersion", nil, "%s", m.Version().Message)
			}
			for _, v := range m.Violations {
				if v.StandardOnly {
					p.Report(m, v.Path, nil, "%s: %s, under the standard channel's CRDs; the experimental channel's accept it, and %s", v.Path, v.Message, resolve.ChannelOutsideInputs)
				}
			}
		}
	},
}
