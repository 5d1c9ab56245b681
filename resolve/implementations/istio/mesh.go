package istio

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// How Istio binds mesh routes:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// referenceAllowed: a Service (or ServiceEntry) parent is checked for
// existence and its waypoint label only, not its port or sectionName;
// conditions.go, createRouteStatus, has no Conflicted reason for routes, so
// every kind bound to a Service stays Accepted
// (testdata/mesh.status.yaml.golden: multi-service's echo-1 port 8080, and
// the TCPRoute beside HTTPRoutes on echo-1).

// ChecksMeshPorts: Istio binds a route whatever port its Service parentRef
// names.
func (Implementation) ChecksMeshPorts() bool { return false }

// RanksMeshKinds: every route kind bound to a Service port applies.
func (Implementation) RanksMeshKinds() bool { return false }

// A Service or ServiceEntry chooses its waypoint by a label, on it or else
// on its namespace, naming a Gateway (in the namespace the second label
// names, else the parent's). conversion.go, waypointManagedByAnotherController:
// a parent whose waypoint is a Gateway of a class of neither the mesh nor
// the gateway controller is skipped in extractParentReferenceInfo, so
// Istio writes nothing for it (testdata/foreign-waypoint.status.yaml.golden).
const (
	useWaypoint          = "istio.io/use-waypoint"
	useWaypointNamespace = "istio.io/use-waypoint-namespace"
)

// waypointControllers are the controllers whose waypoints Istio binds
// routes for itself.
var waypointControllers = []string{"istio.io/mesh-controller", "istio.io/gateway-controller"}

// LeavesMeshParent leaves a Service or ServiceEntry parent whose waypoint
// is a Gateway of another controller to that controller.
func (Implementation) LeavesMeshParent(b *resolve.Builder, p *resolve.ParentResult) string {
	if !p.Mesh() && !isServiceEntry(string(*p.Ref.Group), string(*p.Ref.Kind)) {
		return ""
	}
	g := b.Graph()
	target := p.Parent()
	lookup := target
	if !p.Mesh() {
		lookup.Kind = qualifiedServiceEntry
	}
	parent, _ := g.Lookup(lookup)
	if parent == nil {
		return ""
	}
	labels := parent.Metadata().Labels
	name, found := labels.Lookup(useWaypoint)
	if !found {
		labels = b.NamespaceLabels(target.Namespace)
		name, found = labels.Lookup(useWaypoint)
	}
	if !found || name == "" || strings.EqualFold(name, "none") {
		return ""
	}
	ns := cmp.Or(labels.Get(useWaypointNamespace), target.Namespace)
	gw := g.Gateway(ns, name)
	if gw == nil || gw.Class == nil || slices.Contains(waypointControllers, string(gw.Class.Spec.ControllerName)) {
		return ""
	}
	return fmt.Sprintf("%s uses waypoint Gateway %s/%s of controller %s, which binds the route; %s writes no status for it",
		target, ns, name, gw.Class.Spec.ControllerName, g.Profile())
}
