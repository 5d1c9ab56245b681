package resolve

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// GatewayService is a Service a Gateway's traffic enters by, as its
// implementation finds it (Builder.EnterBy). The API names none.
type GatewayService struct {
	// Hostname is as the Gateway names it (its address value, or the
	// deployed Service's name).
	Hostname string
	// Ref is the Service; zero when the hostname names none gwlint can
	// look up (a host of an implementation's own kind, a name outside the
	// cluster).
	Ref ObjectRef
	// NotLookedUp says why, when Ref is zero.
	NotLookedUp string
	// OtherNamespace: the hostname names a Service of another namespace,
	// and the implementation looks only in the Gateway's.
	OtherNamespace bool
}

// EnterBy writes the Services the Gateway's traffic enters by, whose ports
// its listeners need: one that does not exist, or lacks the port of a
// listener it serves, leaves the Gateway (and a ListenerSet with that
// listener) Programmed=False/AddressNotUsable; one the inputs may not show
// leaves it Unknown.
func (b *Builder) EnterBy(gw *GatewayResult, services ...GatewayService) {
	gw.services = services
}

// servicePortsCondition is the Programmed condition of a Gateway or
// ListenerSet served by services, whose listeners need ports: False/
// AddressNotUsable when a Service does not exist or lacks a port, Unknown
// when a Service is not among the inputs or not one gwlint can look up,
// nil when all is well.
func (g *Graph) servicePortsCondition(services []GatewayService, ports []int32) *Condition {
	typ := string(gwv1.GatewayConditionProgrammed)
	var problems, unknown []string
	for _, s := range services {
		if s.OtherNamespace {
			problems = append(problems, fmt.Sprintf("hostname %q is a Service of namespace %s, not of the Gateway's", s.Hostname, s.Ref.Namespace))
			continue
		}
		if s.Ref == (ObjectRef{}) {
			unknown = append(unknown, s.NotLookedUp)
			continue
		}
		obj, presence := g.Lookup(s.Ref)
		switch presence {
		case Present:
		case Missing:
			problems = append(problems, fmt.Sprintf("hostname %q not found (%s)", s.Hostname, g.describeAbsence(s.Ref, presence)))
			continue
		default:
			unknown = append(unknown, g.describeAbsence(s.Ref, presence))
			continue
		}
		svc := obj.(*Service)
		for _, port := range ports {
			if !slices.ContainsFunc(svc.Spec.Ports, func(p ServicePort) bool { return p.Port == port }) {
				problems = append(problems, fmt.Sprintf("port %d not found for hostname %q%s", port, s.Hostname, targetPortHint(svc, port)))
			}
		}
	}
	switch {
	case len(problems) > 0:
		c := condition(typ, false, ReasonAddressNotUsable, "Failed to assign to all requested addresses: "+strings.Join(problems, "; "))
		return &c
	case len(unknown) > 0:
		c := undecidedCondition(typ, "whether its Service has every listener's port cannot be decided: "+strings.Join(unknown, "; "))
		return &c
	}
	return nil
}

// targetPortHint names the Service ports whose targetPort is port: a
// listener names the Service's port, not the workload's.
func targetPortHint(svc *Service, port int32) string {
	var hints []string
	for _, p := range svc.Spec.Ports {
		if p.TargetPort.IntValue() == int(port) {
			hints = append(hints, fmt.Sprint(p.Port))
		}
	}
	if len(hints) == 0 {
		return ""
	}
	return fmt.Sprintf(" (the Service's port is needed, not the workload's: did you mean %s?)", strings.Join(hints, ", "))
}

// servedPorts are the ports of the listeners an implementation that
// serves Gateways behind a Service sets up: all but conflicted ones and
// HTTPS or TLS placeholders without tls, which it skips.
func servedPorts(listeners []*Listener) []int32 {
	var ports []int32
	for _, l := range listeners {
		if l.Conflicted.True() || (l.Protocol == gwv1.HTTPSProtocolType || l.Protocol == gwv1.TLSProtocolType) && l.TLS == nil {
			continue
		}
		if !slices.Contains(ports, l.Port) {
			ports = append(ports, l.Port)
		}
	}
	return ports
}

// gatewayPorts are the ports a Gateway's Service needs: its own
// listeners', and those of the valid listeners of the ListenerSets it
// accepted.
func gatewayPorts(gw *GatewayResult) []int32 {
	listeners := slices.Clone(gw.Listeners)
	for _, ls := range gw.ListenerSets {
		if ls.Accepted.Status != metav1.ConditionTrue {
			continue
		}
		for _, l := range ls.Listeners {
			if l.Valid() {
				listeners = append(listeners, l)
			}
		}
	}
	return servedPorts(listeners)
}
