package lint

import (
	"strings"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
)

var policySelectorOnGateway = &Rule{
	ID: "policy-selector-on-gateway", Severity: Warning,
	Summary: "Istio policy selects Gateway pods instead of targeting it",
	Doc: Doc{
		Text: `An Istio AuthorizationPolicy, RequestAuthentication, Telemetry or
WasmPlugin whose spec.selector matches the label gateway.networking.k8s.io/gateway-name
selects the pods Istio deploys for a Gateway API Gateway. Istio's
documentation says to attach such policies by targetRefs instead
(https://istio.io/latest/docs/reference/config/type/workload-selector/#PolicyTargetReference):
the label is how Istio names the deployment today, not part of the API; a
policy by selector gets no status on the Gateway, and gwlint cannot show
which routes it reaches.

Fix: replace spec.selector with a targetRefs entry naming the Gateway.`,
		Example: `spec:
  targetRefs:   # before: selector: {matchLabels: {gateway.networking.k8s.io/gateway-name: gw}}
  - {group: gateway.networking.k8s.io, kind: Gateway, name: gw}`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			pol, ok := obj.(*istio.Policy)
			if !ok || len(pol.PolicyTargetRefs()) > 0 {
				continue
			}
			name := pol.SelectedGateway()
			if name == "" {
				continue
			}
			gw := "Gateway " + pol.Ref.Namespace + "/" + name
			if _, presence := p.Graph.Lookup(resolve.ObjectRef{Kind: resolve.KindGateway, Namespace: pol.Ref.Namespace, Name: name}); presence != resolve.Present {
				gw += " (not among the inputs)"
			}
			kind, _, _ := strings.Cut(pol.Ref.Kind, ".")
			p.Report(&pol.Meta, "spec.selector", nil, "%s %s selects the pods of %s by label: use targetRefs to name the Gateway", kind, pol.Ref.NamespacedName(), gw)
		}
	},
}
