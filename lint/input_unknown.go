package lint

import "github.com/gwlint/gwlint/resolve/manifest"

// InputUnknown reports a part of the inputs that cannot be known offline.
var InputUnknown = &Rule{
	ID: "input-unknown", Severity: Info,
	Summary: "part of the inputs cannot be known offline",
	Doc: Doc{
		Text: `The inputs name something gwlint cannot read without a cluster or the
network: a remote kustomize base or resource, a Helm chart that is not in the
repository (a HelmRelease's chart from a Helm or OCI repository, kustomize's
helmCharts), a Flux Kustomization or Argo CD Application whose source is
another repository. What it would create is unknown, not wrong: no
reference to it is reported as missing, and the rest is still checked.

Fix: nothing is wrong. To have it checked, vendor it into the repository
(a chart in a directory that a GitRepository source of the repository
holds, a base as a local directory).`,
	},
	Run: func(*Pass) {},
}

// InputUnknowns turns what the inputs cannot show into input-unknown
// findings.
func InputUnknowns(unknowns []*manifest.ReadError) []Finding {
	return readFindings(InputUnknown, unknowns)
}
