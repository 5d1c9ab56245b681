package kgateway

import "github.com/gwlint/gwlint/resolve"

// Group is kgateway's API group.
const Group = "gateway.kgateway.dev"

// docs is kgateway's documentation of policy attachment.
const docs = "https://kgateway.dev/docs/envoy/latest/about/policies/"

// policyKinds are its policy kinds, as its documentation and CRDs
// (api/v1alpha1/kgateway/*_types.go) have them: a TrafficPolicy takes a
// Gateway or its listener, a ListenerSet, an HTTPRoute or its rule, and
// is inherited, a route's policy merging over the Gateway's field by
// field; an HTTPListenerPolicy takes a Gateway or ListenerSet; a
// BackendConfigPolicy a Service (a port by sectionName) or a Backend.
// Several policies on one target merge, the oldest winning a field both
// set ("Policy priority and merging"): gwlint judges no conflict.
var policyKinds = func() []resolve.PolicyKind {
	kind := func(kind string, inherited bool, targets ...resolve.PolicyTargetKind) resolve.PolicyKind {
		return resolve.PolicyKind{Group: Group, Kind: kind, Implementation: "kgateway", Targets: targets,
			Inherited: inherited, Conflicts: resolve.AllApply, Sources: []string{docs}}
	}
	gw := func(kind string, section bool) resolve.PolicyTargetKind {
		return resolve.PolicyTargetKind{Group: resolve.GroupGateway, Kind: kind, SectionName: section}
	}
	return []resolve.PolicyKind{
		kind("BackendConfigPolicy", false,
			resolve.PolicyTargetKind{Group: resolve.GroupCore, Kind: resolve.KindService, SectionName: true},
			resolve.PolicyTargetKind{Group: Group, Kind: "Backend"}),
		kind("HTTPListenerPolicy", true, gw(resolve.KindGateway, false), gw(resolve.KindListenerSet, false)),
		kind("TrafficPolicy", true, gw(resolve.KindGateway, true), gw(resolve.KindListenerSet, true), gw(resolve.KindHTTPRoute, true)),
	}
}()

// PolicyKinds are kgateway's policy kinds (resolve.PolicyKindDeclarer).
func (Implementation) PolicyKinds() []resolve.PolicyKind { return policyKinds }
