package lint

var crdsReleaseMixed = &Rule{
	ID: "crds-release-mixed", Severity: Warning,
	Summary: "CRDs of several Gateway API releases installed",
	Doc: Doc{
		Text: `The inputs install Gateway API CRDs of more than one release or channel:
a CRD upgraded by hand, a second copy of the install file, an overlay that
patches in another release. A cluster keeps, kind by kind, the CRD applied
last, so its Gateways may follow one release and its HTTPRoutes another,
and which one depends on the order of a sync. gwlint judges every object
by the release most of the CRDs name (or the one --gateway-api-version or
the configuration names) and reports each CRD of another one.

Fix: install one release's CRDs, all of one channel: the whole
standard-install.yaml or experimental-install.yaml of one release.`,
		Example: `# kustomization.yaml
resources:
- https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.4.1/standard-install.yaml`,
	},
	Run: func(p *Pass) {
		main, chosen, ok := p.Graph.InstalledCRDs()
		if !ok {
			return
		}
		for _, b := range p.Graph.CRDBundles {
			if crds, known := b.CRDs(); known && crds != chosen {
				p.ReportAt(b.At.File, b.At.Pos, "%s installs Gateway API %s, while most of the inputs' Gateway API CRDs are %s (%s:%d): the cluster runs, kind by kind, whichever is applied last",
					b.Via, b, main, main.At.File, main.At.Pos.Line)
			}
		}
	},
}
