package kgateway

import (
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// HTTPRoute delegation
// (https://kgateway.dev/docs/traffic-management/route-delegation/): a
// parent HTTPRoute's backendRef of kind HTTPRoute hands the rule to child
// routes (name "*": all of its namespace) instead of sending traffic to a
// backend, and a child may name its parent by a parentRef of kind
// HTTPRoute. The rules followed are kgateway's
// internal/kgateway/query/httproute.go (getDelegatedChildren,
// fetchChildRoutes) and
// internal/kgateway/translator/httproute/delegation.go,
// delegation_helpers.go (isDelegatedRouteMatch).

// namesRoutes reports whether a reference of group and kind names
// HTTPRoutes.
func namesRoutes(group *gwv1.Group, kind *gwv1.Kind) bool {
	return string(*group) == resolve.GroupGateway && string(*kind) == resolve.KindHTTPRoute
}

// TakesBackend: an HTTPRoute's backendRef of kind HTTPRoute delegates.
func (Implementation) TakesBackend(route *resolve.Route, r *resolve.BackendResult) bool {
	return route.HTTP != nil && namesRoutes(r.Ref.Group, r.Ref.Kind)
}

// TakesParent: an HTTPRoute's parentRef of kind HTTPRoute names the route
// that delegates to it.
func (Implementation) TakesParent(route *resolve.Route, ref gwv1.ParentReference) bool {
	return route.HTTP != nil && namesRoutes(ref.Group, ref.Kind)
}

// delegatesTo reports whether a rule of parent delegates to child: a
// backendRef of kind HTTPRoute that names it, or names "*" (or nothing)
// in its namespace (fetchChildRoutes).
func delegatesTo(parent, child *resolve.Route) bool {
	if parent.HTTP == nil || child.HTTP == nil {
		return false
	}
	for _, rule := range parent.Rules {
		for _, b := range rule.BackendRefs {
			if namesChild(b.BackendObjectReference, child) {
				return true
			}
		}
	}
	return false
}

// namesChild reports whether a backendRef of kind HTTPRoute names child.
func namesChild(ref gwv1.BackendObjectReference, child *resolve.Route) bool {
	name := string(ref.Name)
	return namesRoutes(ref.Group, ref.Kind) && string(*ref.Namespace) == child.Ref.Namespace &&
		(name == child.Ref.Name || name == "*" || name == "")
}

// JudgeBackend resolves a backendRef of kind HTTPRoute. It needs no port
// and no ReferenceGrant (fetchChildRoutes looks children up in the
// namespace the ref names); a named child that does not exist, or a
// namespace with no HTTPRoute for "*", is BackendNotFound
// (query/utils.go, ProcessBackendError). The children it names take the
// route's traffic: they need no parentRef of their own ("No parentRefs" in
// kgateway's test/kubernetes/e2e/features/route_delegation/testdata/basic.yaml);
// a filter's (a mirror's) backendRef hands them nothing.
func (Implementation) JudgeBackend(b *resolve.Builder, route *resolve.Route, result *resolve.BackendResult) {
	g := b.Graph()
	// A child is an HTTPRoute in the namespace the ref names (namesChild).
	for _, child := range g.RoutesIn(resolve.KindHTTPRoute, result.Target.Namespace) {
		if child.Route != route && namesChild(*result.Ref, child.Route) && !result.Filter {
			b.HandTo(route, child.Route)
		}
	}
	if name := result.Target.Name; name == "*" || name == "" {
		if b.HoldsAny(resolve.KindHTTPRoute, result.Target.Namespace) {
			result.Presence = resolve.Present
			return
		}
		// No route is named "*": the lookup says whether the inputs
		// hold all the namespace's routes, so that it has none.
		if _, result.Presence = g.Lookup(result.Target); result.Presence == resolve.Missing {
			result.Problem, result.Reason = resolve.NotFound, resolve.ReasonBackendNotFound
			result.Message = fmt.Sprintf("namespace %q holds no HTTPRoute to delegate to", result.Target.Namespace)
		}
		return
	}
	_, result.Presence = g.Lookup(result.Target)
	switch result.Presence {
	case resolve.Missing:
		result.Problem, result.Reason, result.Message = resolve.NotFound, resolve.ReasonBackendNotFound, b.DescribeAbsence(result.Target, result.Presence)
	case resolve.Unlisted:
		result.Message = b.DescribeAbsence(result.Target, result.Presence)
	}
}

// JudgeParent decides a child route's parentRef of kind HTTPRoute.
// kgateway writes the child's status only when the parent route delegates
// to it, for that parentRef (flattenDelegatedRoutes), with the controller
// that programs the parent; a parent that does not delegate to it leaves
// it unprogrammed and without status.
func (Implementation) JudgeParent(b *resolve.Builder, p *resolve.ParentResult) {
	target := p.Parent()
	if !b.LookupParent(p) {
		return
	}
	obj, _ := b.Graph().Lookup(target)
	parent, _ := obj.(*resolve.Route)
	if parent == nil || !delegatesTo(parent, p.Route.Route) {
		b.SetParentAccepted(p, false, resolve.ReasonNoMatchingParent,
			fmt.Sprintf("%s does not delegate to %s: no backendRef of kind HTTPRoute in it names the route, or \"*\" in namespace %q",
				target, p.Route.Ref, p.Route.Ref.Namespace))
		return
	}
	p.ControllerName = b.ControllerOf(parent)
	if len(p.Route.Hostnames) > 0 {
		// delegation.go, validateChildRoute.
		b.SetParentAccepted(p, false, resolve.ReasonUnsupportedValue,
			"spec.hostnames must be unset on a delegatee route as they are inherited from the parent route")
		return
	}
	b.SetParentAccepted(p, true, resolve.ReasonAccepted, fmt.Sprintf("Route delegated by %s", target))
}
