package lint

import "github.com/gwlint/gwlint/resolve"

var policyTargetNotFound = &Rule{
	ID: "policy-target-not-found", Severity: Error,
	Summary: "policy targets an object that does not exist",
	Doc: Doc{
		Text: `A policy (GEP-713: an Envoy Gateway SecurityPolicy, an Istio
AuthorizationPolicy, ...) applies to the objects its targetRefs name, in its
own namespace. The inputs hold that namespace whole (ownedNamespaces in
.gwlint.yaml, or --strict-refs), or hold an object of the kind a slip of the
keyboard away from the name, but not the target: the implementation writes
the policy Accepted=False/TargetNotFound and applies it to nothing, so the
authentication, rate limit or timeout it carries is silently missing. An
object merely outside the inputs is assumed to exist. A policy of a kind no
implementation gwlint knows declares is never judged.

Fix: correct the name, or add the target.`,
		Example: `targetRefs:
- group: gateway.networking.k8s.io
  kind: HTTPRoute
  name: store   # before: stor`,
	},
	Run: func(p *Pass) { reportPolicyTargets(p, targetField("name"), resolve.PolicyTargetNotFound) },
}
