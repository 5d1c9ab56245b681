package lint

import "github.com/gwlint/gwlint/resolve"

var deprecatedAPIVersion = &Rule{
	ID: "deprecated-api-version", Severity: Warning,
	Summary: "served API version has a v1 replacement",
	Doc: Doc{
		Text: `Gateway API keeps serving older versions (v1beta1, v1alpha2, v1alpha3) of kinds
that have graduated to v1, but they are deprecated and dropped from the
standard channel over time; manifests pinned to them break on upgrade.
The v1 types have the same fields.

Fix:`,
		Example: `apiVersion: gateway.networking.k8s.io/v1beta1   # before
apiVersion: gateway.networking.k8s.io/v1        # after`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			m := obj.Metadata()
			if m.APIVersion == resolve.GroupGateway+"/v1" || !isGatewayAPI(m.APIVersion) {
				continue
			}
			p.Report(m, "apiVersion", nil, "%s %s is deprecated; use %s/v1, which has the same fields", m.APIVersion, m.Ref.Kind, resolve.GroupGateway)
		}
	},
}

func isGatewayAPI(apiVersion string) bool {
	return len(apiVersion) > len(resolve.GroupGateway) && apiVersion[:len(resolve.GroupGateway)+1] == resolve.GroupGateway+"/"
}
