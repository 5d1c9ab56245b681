package istio

import (
	"github.com/gwlint/gwlint/resolve"
)

// Istio's policy kinds that attach to Gateway API objects by targetRef(s)
// or, in their older form, by spec.selector.
const (
	GroupSecurity         = "security.istio.io"
	GroupTelemetry        = "telemetry.istio.io"
	GroupExtensions       = "extensions.istio.io"
	KindAuthorization     = "AuthorizationPolicy"
	KindRequestAuthn      = "RequestAuthentication"
	KindTelemetry         = "Telemetry"
	KindWasmPlugin        = "WasmPlugin"
	gatewayNameLabel      = "gateway.networking.k8s.io/gateway-name"
	policyTargetReference = "https://istio.io/latest/docs/reference/config/type/workload-selector/#PolicyTargetReference"
)

// Policy is the part of an AuthorizationPolicy, RequestAuthentication,
// Telemetry or WasmPlugin that says what it applies to: its targetRef(s),
// or its selector of workload labels. Its Ref's kind is qualified
// (AuthorizationPolicy.security.istio.io).
type Policy struct {
	resolve.Meta
	Spec struct {
		resolve.PolicySpec
		Selector *struct {
			MatchLabels map[string]string `json:"matchLabels"`
		} `json:"selector,omitempty"`
	}
}

// PolicyTargetRefs are its targetRef(s) (resolve.PolicyObject).
func (p *Policy) PolicyTargetRefs() []resolve.PolicyTargetRef { return p.Spec.Refs() }

// SelectedGateway is the name of the Gateway whose pods spec.selector
// selects by the label Istio puts on a Gateway's deployment, "" when it
// selects none that way.
func (p *Policy) SelectedGateway() string {
	if p.Spec.Selector == nil {
		return ""
	}
	return p.Spec.Selector.MatchLabels[gatewayNameLabel]
}

// policyKinds are its policy kinds. Each takes, by targetRef(s), a
// Gateway or a Service, a ServiceEntry or (in the root namespace) a
// GatewayClass, never a section of one (PolicyTargetReference has no
// sectionName), in its own namespace
// (https://istio.io/latest/docs/reference/config/type/workload-selector/#PolicyTargetReference;
// https://istio.io/latest/docs/reference/config/security/authorization-policy/,
// "targetRefs"). Several policies on one workload all apply: authorization
// policies combine (DENY before ALLOW), Telemetry and WasmPlugins merge by
// scope and phase
// (https://istio.io/latest/docs/reference/config/security/authorization-policy/,
// https://istio.io/latest/docs/reference/config/telemetry/). A policy on
// a Gateway applies to all the traffic its proxy carries: every route
// attached to it.
var policyKinds = func() []resolve.PolicyKind {
	targets := []resolve.PolicyTargetKind{
		{Group: resolve.GroupGateway, Kind: resolve.KindGateway},
		{Group: resolve.GroupGateway, Kind: resolve.KindGatewayClass},
		{Group: resolve.GroupCore, Kind: resolve.KindService},
		{Group: Group, Kind: KindServiceEntry},
	}
	kind := func(group, kind, doc string) resolve.PolicyKind {
		return resolve.PolicyKind{Group: group, Kind: kind, Implementation: "istio", Targets: targets,
			Inherited: true, Conflicts: resolve.AllApply, Sources: []string{policyTargetReference, doc}}
	}
	return []resolve.PolicyKind{
		kind(GroupSecurity, KindAuthorization, "https://istio.io/latest/docs/reference/config/security/authorization-policy/"),
		kind(GroupSecurity, KindRequestAuthn, "https://istio.io/latest/docs/reference/config/security/request_authentication/"),
		kind(GroupTelemetry, KindTelemetry, "https://istio.io/latest/docs/reference/config/telemetry/"),
		kind(GroupExtensions, KindWasmPlugin, "https://istio.io/latest/docs/reference/config/proxy_extensions/wasm-plugin/"),
	}
}()

// PolicyKinds are Istio's policy kinds (resolve.PolicyKindDeclarer).
func (Implementation) PolicyKinds() []resolve.PolicyKind { return policyKinds }

// isPolicyKind reports whether group and kind are one of its policy kinds.
func isPolicyKind(group, kind string) bool {
	for _, k := range policyKinds {
		if k.Group == group && k.Kind == kind {
			return true
		}
	}
	return false
}
