package lint

import "github.com/gwlint/gwlint/resolve"

var deprecatedAPIVersion = &Rule{
	ID: "deprecated-api-version", Severity: Warning,
	Summary: "the CRD marks this API version deprecated",
	Doc: Doc{
		Text: `The pinned Gateway API CRDs mark some versions deprecated (deprecated: true):
the API server still serves them, sends their deprecationWarning with every
request, and a later release stops serving them, so manifests written in them
break on upgrade. The finding quotes the CRD's warning. Versions the CRDs serve
without deprecating them (ReferenceGrant v1beta1, HTTPRoute v1beta1...) are
not reported; versions they do not serve at all are api-version-not-served's.

Fix:`,
		Example: `apiVersion: gateway.networking.k8s.io/v1alpha2   # before
apiVersion: gateway.networking.k8s.io/v1         # after`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			m := obj.Metadata()
			if m.Version().State == resolve.VersionDeprecated {
				p.Report(m, "apiVersion", nil, "%s %s is deprecated: %q", m.APIVersion, m.Ref.Kind, m.Version().Message)
			}
		}
	},
}
