package lint

import "github.com/gwlint/gwlint/resolve"

var policyTargetNamespace = &Rule{
	ID: "policy-target-namespace", Severity: Error,
	Summary: "policy targets an object in another namespace",
	Doc: Doc{
		Text: `A policy attaches only to objects of its own namespace (GEP-713; Envoy
Gateway: "can only target a Gateway in the same namespace"). A target
reference that names another namespace (Istio's and Envoy Gateway's older
targetRef have a namespace field) leaves the policy Accepted=False/Invalid,
applied to nothing.

Fix: create the policy in the target's namespace and drop namespace from the
reference.`,
		Example: `metadata:
  namespace: infra   # the Gateway's namespace
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: Gateway, name: gw}`,
	},
	Run: func(p *Pass) { reportPolicyTargets(p, targetField("namespace"), resolve.PolicyOtherNamespace) },
}
