package lint

import (
	"github.com/gwlint/gwlint/resolve/crd"
)

var crdsReleaseUnknown = &Rule{
	ID: "crds-release-unknown", Severity: Info,
	Summary: "CRDs of a Gateway API release gwlint lacks installed",
	Doc: Doc{
		Text: `The inputs install the CRDs of a Gateway API release gwlint does not
know (one older than v1.0.0, or newer than this build of gwlint), so they
cannot judge the inputs: gwlint judges them by the release
--gateway-api-version or the configuration names, the other Gateway API
CRDs among the inputs, or its own. What the cluster's API server accepts
may differ.

Fix: upgrade the CRDs to a release gwlint knows (gwlint releases lists
them), or gwlint to one that knows yours; name the nearest release with
--gateway-api-version to silence this:`,
		Example: `# .gwlint.yaml
gatewayAPIVersion: v1.6`,
	},
	Run: func(p *Pass) {
		releases := crd.Releases()
		for _, b := range p.Graph.CRDBundles {
			if _, known := b.CRDs(); !known {
				p.ReportAt(b.At.File, b.At.Pos, "%s installs Gateway API %s, a release gwlint has no CRDs of (it knows %s to %s)",
					b.Via, b, releases[0], releases[len(releases)-1])
			}
		}
	},
}
