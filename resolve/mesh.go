package resolve

import (
	"cmp"
	"fmt"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Mesh binding (GEP-1426): a route whose parentRef is a Service configures
// the traffic sent to that Service inside the mesh.

// meshPrecedence: "GRPCRoute > HTTPRoute > TLSRoute > TCPRoute". UDPRoute
// is "orthogonal to these precedence order" and never conflicts with them.
var meshPrecedence = map[string]int{KindGRPCRoute: 4, KindHTTPRoute: 3, KindTLSRoute: 2, KindTCPRoute: 1}

// ServiceResult is a Service with the mesh routes bound to it.
type ServiceResult struct {
	*Service
	// ports are the Service's MeshPorts once a mesh route binds to it, nil
	// for the many no route binds (a repository's Services are half its
	// objects: see Ports).
	ports []*MeshPort
}

// Ports returns the Service's ports, each with the mesh routes bound to
// it; every port is unbound when no mesh route binds to the Service.
func (s *ServiceResult) Ports() []*MeshPort {
	if s.ports != nil {
		return s.ports
	}
	return meshPorts(s.Service)
}

// Bound reports whether any mesh route binds to one of the Service's ports
// (accepted, or lost to another route type).
func (s *ServiceResult) Bound() bool { return s.ports != nil }

// meshPorts returns the unbound MeshPorts of every port of svc, in one
// allocation.
func meshPorts(svc *Service) []*MeshPort {
	all := make([]MeshPort, len(svc.Spec.Ports))
	out := make([]*MeshPort, len(all))
	for i := range svc.Spec.Ports {
		all[i].Port = &svc.Spec.Ports[i]
		out[i] = &all[i]
	}
	return out
}

// MeshPort is one port of a Service and the routes bound to it.
type MeshPort struct {
	// Port is the Service's own port (in Spec.Ports), not a copy.
	Port *ServicePort
	// Winner is the route kind that applies on this port, "" if none
	// (where the implementation does not rank kinds, every bound kind
	// applies, and Winner is the one of highest precedence).
	Winner string
	// Producers are bound parentRefs of routes in the Service's namespace:
	// they apply to requests from every namespace. Consumers are those of
	// routes in other namespaces: they apply only to requests from their
	// own namespace. Both hold routes of the Winner kind and UDPRoutes,
	// which never compete with the TCP-based kinds.
	Producers []*ParentResult
	Consumers []*ParentResult
	// Conflicted are the bindings that lost to the Winner kind.
	Conflicted []*ParentResult
}

// port returns the MeshPort of Service port sp. A port number may appear
// twice, once per protocol (53/UDP and 53/TCP), so the whole port decides.
// A Service has a handful of ports: a scan beats a map per Service.
func (s *ServiceResult) port(sp ServicePort) *MeshPort {
	if s.ports == nil {
		s.ports = meshPorts(s.Service)
	}
	for _, mp := range s.ports {
		if mp.Port.Port == sp.Port && mp.Port.Protocol == sp.Protocol && mp.Port.Name == sp.Name {
			return mp
		}
	}
	return nil
}

// Producer reports whether a mesh parentRef is a producer route (same
// namespace as the Service) rather than a consumer route.
func (p *ParentResult) Producer() bool {
	return string(*p.Ref.Namespace) == p.Route.Ref.Namespace
}

func (g *Graph) bindToService(p *ParentResult) {
	target := p.Parent()
	typ := string(gwv1.RouteConditionAccepted)
	p.ControllerName = g.opts.ControllerName
	if p.ControllerName == "" {
		p.ControllerName = DefaultControllerName
	}
	if !g.lookupParent(p, target) {
		return
	}
	p.Service = g.Service(target.Namespace, target.Name)
	svc := p.Service.Service
	switch {
	case svc.Headless():
		p.Accepted = condition(typ, false, ReasonNoMatchingParent,
			fmt.Sprintf("Service %s is headless (clusterIP: None) and cannot be a parent: it has no frontend to route", target.NamespacedName()))
		return
	case svc.ExternalName():
		p.Accepted = condition(typ, false, ReasonNoMatchingParent,
			fmt.Sprintf("Service %s is of type ExternalName and cannot be a parent", target.NamespacedName()))
		return
	}
	// "If port is set, the implementation MUST associate the route only with
	// that port. If port is not set, [...] with all ports defined in the
	// Service." sectionName names a Service port.
	for _, port := range svc.Spec.Ports {
		if p.Ref.Port != nil && *p.Ref.Port != port.Port {
			continue
		}
		if p.Ref.SectionName != nil && string(*p.Ref.SectionName) != port.Name {
			continue
		}
		p.MeshPorts = append(p.MeshPorts, port)
	}
	if v, ok := unknownPort(svc.Spec.Ports); ok && len(p.MeshPorts) == 0 && p.Ref.Port != nil {
		p.Unknown = v
		p.Accepted = undecidedCondition(typ, fmt.Sprintf("Service %s: port %s %s; whether it is %d is unknown",
			target.NamespacedName(), v, placeholder.All.Why(v), *p.Ref.Port))
		return
	}
	if len(p.MeshPorts) == 0 {
		msg := fmt.Sprintf("Service %s has no port %s (ports: %s)", target.NamespacedName(), describePortSelection(*p.Ref), PortList(svc.Spec.Ports))
		if judge := g.meshJudge(); judge != nil && !judge.ChecksMeshPorts() {
			p.Accepted = condition(typ, true, ReasonAccepted,
				fmt.Sprintf("%s; %s does not check a Service parentRef's port, and the route matches no traffic", msg, g.defaultJudge))
			return
		}
		p.Accepted = condition(typ, false, ReasonNoMatchingParent, msg)
		return
	}
	ports := make([]string, len(p.MeshPorts))
	for i, port := range p.MeshPorts {
		ports[i] = cmp.Or(port.Unknown, strconv.Itoa(int(port.Port)))
	}
	p.Accepted = condition(typ, true, ReasonAccepted,
		fmt.Sprintf("Route bound to %s %s of Service %s", nouns(len(ports), "port"), strings.Join(ports, ", "), target.NamespacedName()))
}

// MeshJudge binds mesh routes (GEP-1426) otherwise than the API does. The
// core asks the implementation judging mesh routes (the graph's profile's)
// about every parentRef before it reads the parentRef's kind, and about
// the Service ports it binds.
type MeshJudge interface {
	Implementation
	// LeavesMeshParent returns why the parentRef's parent is bound by
	// another controller, which writes its status, when it is: the core
	// then writes the parent present and the route's Accepted Unknown
	// (Pending), with no status of the implementation's; "" when it
	// is not.
	LeavesMeshParent(b *Builder, p *ParentResult) string
	// ChecksMeshPorts reports whether it binds a route only to the Service
	// ports its parentRef's port and sectionName select; else the route
	// is bound whatever they say, and matches no traffic on a port the
	// Service lacks.
	ChecksMeshPorts() bool
	// RanksMeshKinds reports whether route kinds bound to one Service port
	// rank (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute), the losers
	// Conflicted; else every kind bound applies.
	RanksMeshKinds() bool
}

// meshJudge is the MeshJudge of the implementation judging mesh routes;
// nil when it binds them as the API does.
func (g *Graph) meshJudge() MeshJudge {
	judge, _ := g.defaultJudge.steps.(MeshJudge)
	return judge
}

// NamespaceLabels returns the labels of namespace ns: its Namespace
// object's when the inputs hold it, else only the label the API server
// always sets.
func (b *Builder) NamespaceLabels(ns string) KeyValues {
	labels, _ := b.g.namespaceLabels(ns)
	return labels
}

// leftToOtherController reports whether the implementation judging mesh
// routes leaves the parentRef's parent to another controller (MeshJudge),
// and if so leaves its verdict to that controller: undecided here, and no
// status of the implementation's.
func (g *Graph) leftToOtherController(b *Builder, p *ParentResult) bool {
	judge := g.meshJudge()
	if judge == nil {
		return false
	}
	why := judge.LeavesMeshParent(b, p)
	if why == "" {
		return false
	}
	p.Presence = Present
	p.Accepted = undecidedCondition(string(gwv1.RouteConditionAccepted), why)
	return true
}

// resolveMesh groups the accepted mesh bindings per Service port and applies
// the route-type precedence; a binding that loses on every port it selected
// is not accepted (reason Conflicted). Where the implementation does not rank
// kinds (MeshJudge), every binding applies and Winner is the kind of highest
// precedence among them.
func (g *Graph) resolveMesh() {
	judge := g.meshJudge()
	ranked := judge == nil || judge.RanksMeshKinds()
	for _, r := range g.Routes {
		for _, p := range r.Parents {
			if p.Service == nil || !p.Accepted.True() {
				continue
			}
			for _, sp := range p.MeshPorts {
				mp := p.Service.port(sp)
				if meshPrecedence[r.Kind()] > meshPrecedence[mp.Winner] || mp.Winner == "" {
					mp.Winner = r.Kind()
				}
			}
		}
	}
	for _, r := range g.Routes {
		for _, p := range r.Parents {
			if p.Service == nil || !p.Accepted.True() {
				continue
			}
			won := 0
			var lostTo []string
			for _, sp := range p.MeshPorts {
				mp := p.Service.port(sp)
				switch {
				case mp.Winner == r.Kind() || !conflicts(mp.Winner, r.Kind()) || !ranked:
					won++
					if p.Producer() {
						mp.Producers = append(mp.Producers, p)
					} else {
						mp.Consumers = append(mp.Consumers, p)
					}
				default:
					mp.Conflicted = append(mp.Conflicted, p)
					lostTo = append(lostTo, fmt.Sprintf("port %d to %s", sp.Port, mp.Winner))
				}
			}
			if won == 0 && len(lostTo) > 0 {
				p.Accepted = condition(string(gwv1.RouteConditionAccepted), false, ReasonConflicted,
					fmt.Sprintf("a route type of higher precedence (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute) is bound to Service %s: lost %s",
						p.Service.Ref.NamespacedName(), strings.Join(lostTo, ", ")))
			}
		}
	}
}

// describePortSelection renders a mesh parentRef's port and sectionName
// (a port name): `8080`, `named "http"`, `8080 named "http"`.
func describePortSelection(ref gwv1.ParentReference) string {
	var parts []string
	if ref.Port != nil {
		parts = append(parts, fmt.Sprint(*ref.Port))
	}
	if ref.SectionName != nil {
		parts = append(parts, fmt.Sprintf("named %q", *ref.SectionName))
	}
	return strings.Join(parts, " ")
}

// conflicts reports whether two route kinds compete for one Service port.
func conflicts(a, b string) bool {
	return a != b && meshPrecedence[a] > 0 && meshPrecedence[b] > 0
}
