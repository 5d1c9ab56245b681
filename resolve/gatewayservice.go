package resolve

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// gatewayService is a Service a Gateway's traffic enters by, as an
// implementation with profile.GatewayService finds it.
type gatewayService struct {
	// Hostname is as the Gateway names it (its address value, or the
	// deployed Service's name).
	Hostname string
	// Ref is the Service; zero when the hostname names none gwlint can
	// look up (a ServiceEntry host, a name outside the cluster).
	Ref ObjectRef
	// OtherNamespace: the hostname names a Service of another namespace,
	// and the implementation looks only in the Gateway's.
	OtherNamespace bool
}

// gatewayServices are the Services whose ports the Gateway's listeners
// need, by its profile's GatewayService fact: those its Hostname
// addresses name or, for a Gateway the implementation deploys itself
// (no address, or one IP address), the deployed one when the inputs hold
// it without the label by which the implementation owns it (one it owns,
// or creates, it gives every listener's port). None when the profile
// checks no Service.
func (g *Graph) gatewayServices(gw *GatewayResult) []gatewayService {
	facts := gw.Profile.Implementation.GatewayService
	if !facts.ByHostnameAddress {
		return nil
	}
	addrs := gw.Spec.Addresses
	if len(addrs) == 0 || len(addrs) == 1 && *addrs[0].Type == gwv1.IPAddressType {
		name := gw.Annotations[facts.NameOverride]
		if name == "" {
			name = gw.Ref.Name
			if !slices.Contains(facts.UnsuffixedControllers, gw.ControllerName) {
				name += "-" + string(gw.Spec.GatewayClassName)
			}
		}
		svc := g.Service(gw.Ref.Namespace, name)
		if svc == nil {
			return nil
		}
		if _, owned := svc.Labels[facts.ManagedLabel]; owned {
			return nil
		}
		return []gatewayService{{Hostname: name, Ref: svc.Ref}}
	}
	var out []gatewayService
	for _, a := range addrs {
		if *a.Type != gwv1.HostnameAddressType {
			continue // the Gateway's Accepted condition says so
		}
		s := gatewayService{Hostname: a.Value}
		if !strings.Contains(a.Value, ".") {
			s.Ref = ObjectRef{Kind: KindService, Namespace: gw.Ref.Namespace, Name: a.Value}
		} else if parts := strings.SplitN(a.Value, ".", 4); len(parts) == 4 && parts[2] == "svc" && parts[3] != "" {
			// <name>.<namespace>.svc.<cluster domain>.
			s.Ref = ObjectRef{Kind: KindService, Namespace: parts[1], Name: parts[0]}
			s.OtherNamespace = parts[1] != gw.Ref.Namespace
		}
		out = append(out, s)
	}
	return out
}

// servicePortsCondition is the Programmed condition of a Gateway or
// ListenerSet served by services, whose listeners need ports: False/
// AddressNotUsable when a Service does not exist or lacks a port, Unknown
// when a Service is not among the inputs or not one gwlint can look up,
// nil when all is well.
func (g *Graph) servicePortsCondition(services []gatewayService, ports []int32) *Condition {
	typ := string(gwv1.GatewayConditionProgrammed)
	var problems, unknown []string
	for _, s := range services {
		if s.OtherNamespace {
			problems = append(problems, fmt.Sprintf("hostname %q is a Service of namespace %s, not of the Gateway's", s.Hostname, s.Ref.Namespace))
			continue
		}
		if s.Ref == (ObjectRef{}) {
			unknown = append(unknown, fmt.Sprintf("hostname %q names no Service gwlint can look up (a ServiceEntry host?)", s.Hostname))
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
