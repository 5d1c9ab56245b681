package lint

import "github.com/gwlint/gwlint/resolve"

var policyTargetKindUnsupported = &Rule{
	ID: "policy-target-kind-unsupported", Severity: Error,
	Summary: "policy targets a kind its implementation does not take",
	Doc: Doc{
		Text: `Each policy kind attaches to certain kinds only: an Envoy Gateway
ClientTrafficPolicy to Gateways and ListenerSets, an NGINX Gateway Fabric
UpstreamSettingsPolicy to Services, ... (docs/implementations.md lists
them, with their sources). Some take a target only whole, without a
sectionName. The API server refuses such a policy when its CRD validates
the kinds; otherwise the implementation writes it Accepted=False/Invalid
and applies it to nothing.

Fix: target a kind the policy takes (the finding lists them), or use the
implementation's policy kind made for that target.`,
		Example: `kind: ClientTrafficPolicy
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: Gateway, name: gw}   # before: kind: HTTPRoute`,
	},
	Run: func(p *Pass) {
		reportPolicyTargets(p, func(t *resolve.PolicyTargetResult) string {
			if t.Problem == resolve.PolicySectionUnsupported {
				return "sectionName"
			}
			return "kind"
		}, resolve.PolicyKindUnsupported, resolve.PolicySectionUnsupported)
	},
}
