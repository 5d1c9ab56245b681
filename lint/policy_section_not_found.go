package lint

import "github.com/gwlint/gwlint/resolve"

var policySectionNotFound = &Rule{
	ID: "policy-section-not-found", Severity: Error,
	Summary: "policy's sectionName names no part of its target",
	Doc: Doc{
		Text: `A target reference's sectionName narrows a policy to a part of its target:
a listener of a Gateway or ListenerSet, a named rule of a route, a port of a
Service. The target has none of that name, so the implementation writes the
policy Accepted=False/TargetNotFound (Envoy Gateway) or ignores it there,
and the settings meant for that listener or rule apply nowhere.

Fix: use a name the target has (the finding lists them), or drop
sectionName to target the whole object.`,
		Example: `targetRefs:
- group: gateway.networking.k8s.io
  kind: Gateway
  name: gw
  sectionName: https   # a listener of gw; before: htps`,
	},
	Run: func(p *Pass) { reportPolicyTargets(p, targetField("sectionName"), resolve.PolicySectionNotFound) },
}
