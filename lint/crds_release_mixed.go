package lint

import "github.com/gwlint/gwlint/resolve"

var crdsReleaseMixed = &Rule{
	ID: "crds-release-mixed", Severity: Warning,
	Summary: "CRDs of several Gateway API releases installed",
	Doc: Doc{
		Text: `The inputs install Gateway API CRDs of more than one release, or one kind's
CRD twice from different releases or channels: a CRD upgraded by hand, a
second copy of the install file, an overlay that patches in another release.
A cluster serves each kind by its CRD, the one applied last: its Gateways may
follow one release and its HTTPRoutes another (which controllers are not
tested against), and a kind installed twice depends on the order of a sync.
gwlint judges each kind by its own CRD, and the rest by the release most of
the CRDs name (or the one --gateway-api-version or the configuration names).

Kinds of one release from both channels are not reported: the standard
channel's install file with a few experimental CRDs beside it (TLSRoute,
say) is a common, consistent setup.

Fix: install one release's CRDs, and each kind's once.`,
		Example: `# kustomization.yaml
resources:
- https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.4.1/standard-install.yaml`,
	},
	Run: func(p *Pass) {
		main, chosen, ok := p.Graph.InstalledCRDs()
		if !ok {
			return
		}
		first := map[string]resolve.CRDBundle{} // by kind
		for _, b := range p.Graph.CRDBundles {
			crds, known := b.CRDs()
			if !known {
				continue
			}
			if f, seen := first[b.Kind]; seen && b.Kind != "" {
				if fc, _ := f.CRDs(); fc != crds {
					p.ReportAt(b.At.File, b.At.Pos, "%s installs %s from Gateway API %s, and %s:%d from %s: the cluster keeps whichever is applied last",
						b.Via, b.Kind, b, f.At.File, f.At.Pos.Line, f)
				}
				continue
			}
			first[b.Kind] = b
			if crds.Release != chosen.Release {
				p.ReportAt(b.At.File, b.At.Pos, "%s installs Gateway API %s, while most of the inputs' Gateway API CRDs are %s (%s:%d): the cluster runs a mix of releases",
					b.Via, b, main, main.At.File, main.At.Pos.Line)
			}
		}
	},
}
