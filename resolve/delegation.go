package resolve

import (
	"cmp"
	"fmt"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve/profile"
)

// HTTPRoute delegation (profile.Implementation.RouteDelegation, kgateway):
// a parent HTTPRoute's backendRef of kind HTTPRoute hands the rule to
// child routes, and a child may name its parent by a parentRef of kind
// HTTPRoute. The rules followed are kgateway's
// internal/kgateway/query/httproute.go and
// internal/kgateway/translator/httproute/delegation*.go.

// delegating reports whether the route is an HTTPRoute and every
// implementation judging it takes a backendRef of kind HTTPRoute as
// delegation to child routes.
func (g *Graph) delegating(route *Route) bool {
	return route.HTTP != nil && g.judgedAllWith(route, func(p *profile.Profile) bool { return p.Implementation.RouteDelegation })
}

// isDelegationRef reports whether a backendRef names HTTPRoutes.
func isDelegationRef(ref gwv1.BackendObjectReference) bool {
	return string(*ref.Group) == GroupGateway && string(*ref.Kind) == KindHTTPRoute
}

// delegatesTo reports whether a rule of parent delegates to child: a
// backendRef of kind HTTPRoute that names it, or names "*" (or nothing)
// in its namespace (fetchChildRoutes).
func delegatesTo(parent, child *Route) bool {
	if parent.HTTP == nil || child.HTTP == nil {
		return false
	}
	for _, rule := range parent.Rules {
		for _, b := range rule.BackendRefs {
			ref := b.BackendObjectReference
			name := string(ref.Name)
			if isDelegationRef(ref) && string(*ref.Namespace) == child.Ref.Namespace &&
				(name == child.Ref.Name || name == "*" || name == "") {
				return true
			}
		}
	}
	return false
}

// DelegatedBy returns the routes among the inputs that delegate to route
// under implementations that delegate: a child route needs no parentRef
// of its own ("No parentRefs" in kgateway's
// test/kubernetes/e2e/features/route_delegation/testdata/basic.yaml).
func (g *Graph) DelegatedBy(route *Route) []*RouteResult {
	var out []*RouteResult
	for _, r := range g.Routes {
		if r.Route != route && delegatesTo(r.Route, route) && g.delegating(r.Route) {
			out = append(out, r)
		}
	}
	return out
}

// resolveDelegation resolves a backendRef of kind HTTPRoute of a
// delegating route. It needs no port and no ReferenceGrant
// (fetchChildRoutes looks children up in the namespace the ref names); a
// named child that does not exist, or a namespace with no HTTPRoute for
// "*", is BackendNotFound (query/utils.go, ProcessBackendError).
func (g *Graph) resolveDelegation(b *BackendResult) {
	if name := b.Target.Name; name == "*" || name == "" {
		if g.seen[kindNS{KindHTTPRoute, b.Target.Namespace}] {
			b.Presence = Present
			return
		}
		// No route is named "*": the lookup says whether the inputs
		// hold all the namespace's routes, so that it has none.
		if _, b.Presence = g.Lookup(b.Target); b.Presence == Missing {
			b.Problem, b.Reason = NotFound, ReasonBackendNotFound
			b.Message = fmt.Sprintf("namespace %q holds no HTTPRoute to delegate to", b.Target.Namespace)
		}
		return
	}
	_, b.Presence = g.Lookup(b.Target)
	switch b.Presence {
	case Missing:
		b.Problem, b.Reason, b.Message = NotFound, ReasonBackendNotFound, g.describeAbsence(b.Target, b.Presence)
	case Unlisted:
		b.Message = g.describeAbsence(b.Target, b.Presence)
	}
}

// attachToParentRoute decides a child route's parentRef of kind HTTPRoute.
// kgateway writes the child's status only when the parent route delegates
// to it, for that parentRef (flattenDelegatedRoutes); a parent that does
// not delegate to it leaves it unprogrammed and without status.
func (g *Graph) attachToParentRoute(p *ParentResult) {
	target := p.Parent()
	if !g.lookupParent(p, target) {
		return
	}
	typ := string(gwv1.RouteConditionAccepted)
	parent, _ := g.byRef[target].(*Route)
	if parent == nil || !delegatesTo(parent, p.Route.Route) {
		p.Accepted = condition(typ, false, ReasonNoMatchingParent,
			fmt.Sprintf("%s does not delegate to %s: no backendRef of kind HTTPRoute in it names the route, or \"*\" in namespace %q",
				target, p.Route.Ref, p.Route.Ref.Namespace))
		return
	}
	p.ControllerName = g.delegatorController(parent)
	if len(p.Route.Hostnames) > 0 {
		// delegation.go, validateChildRoute.
		p.Accepted = condition(typ, false, ReasonUnsupportedValue,
			"spec.hostnames must be unset on a delegatee route as they are inherited from the parent route")
		return
	}
	p.Accepted = condition(typ, true, ReasonAccepted, fmt.Sprintf("Route delegated by %s", target))
}

// delegatorController is the controller that programs a parent route, and
// so writes its children's status: that of the first managed Gateway it
// reaches, else the one gwlint stands for.
func (g *Graph) delegatorController(parent *Route) string {
	for _, gw := range g.routeGateways(parent, nil, nil) {
		if gw.Managed {
			return gw.ControllerName
		}
	}
	return cmp.Or(g.opts.ControllerName, DefaultControllerName)
}
