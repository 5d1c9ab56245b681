package istio

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// The Service a Gateway's traffic enters by:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// extractGatewayServices: a Gateway that is not IsManaged (its addresses
// are Hostnames) is served by the Services they name, a short name
// expanded in the Gateway's namespace; gatewaycommon/context.go,
// ResolveGatewayInstances, looks each up in the Gateway's namespace
// ("hostname %q not found") and each listener's port on it ("port %d not
// found for hostname %q"), and gatewaycommon/conversion.go,
// SetProgrammedCondition, writes Programmed=False/AddressNotUsable
// (testdata/invalid.status.yaml.golden, target-port-reference;
// listenerset-invalid.status.yaml.golden, port-not-in-service). A managed
// Gateway's Service is the one gatewaycommon's deploymentcontroller.go
// deploys, named by GetDefaultName (<name>-<class>; classinfo.go's
// DisableNameSuffix for the mesh and east-west controllers) or the
// gateway.istio.io/name-override annotation, with every listener's port
// (extractServicePorts); canManage leaves an existing one without the
// gateway.istio.io/managed label as it is.
const (
	nameOverride = "gateway.istio.io/name-override"
	managedLabel = "gateway.istio.io/managed"
)

// unsuffixedControllers name the Service they deploy <gateway>, not
// <gateway>-<gatewayClassName>.
var unsuffixedControllers = []string{"istio.io/mesh-controller", "istio.io/eastwest-controller"}

// gatewayServices are the Services whose ports the Gateway's listeners
// need: those its Hostname addresses name or, for a Gateway Istio deploys
// itself (no address, or one IP address), the deployed one when the
// inputs hold it without the label by which Istio owns it (one it owns, or
// creates, it gives every listener's port).
func gatewayServices(g *resolve.Graph, gw *resolve.GatewayResult) []resolve.GatewayService {
	addrs := gw.Spec.Addresses
	if len(addrs) == 0 || len(addrs) == 1 && *addrs[0].Type == gwv1.IPAddressType {
		name := gw.Annotations.Get(nameOverride)
		if name == "" {
			name = gw.Ref.Name
			if !slices.Contains(unsuffixedControllers, gw.ControllerName) {
				name += "-" + string(gw.Spec.GatewayClassName)
			}
		}
		svc := g.Service(gw.Ref.Namespace, name)
		if svc == nil {
			return nil
		}
		if svc.Labels.Has(managedLabel) {
			return nil
		}
		return []resolve.GatewayService{{Hostname: name, Ref: svc.Ref}}
	}
	var out []resolve.GatewayService
	for _, a := range addrs {
		if *a.Type != gwv1.HostnameAddressType {
			continue // the Gateway's Accepted condition says so
		}
		s := resolve.GatewayService{Hostname: a.Value}
		if !strings.Contains(a.Value, ".") {
			s.Ref = resolve.ObjectRef{Kind: resolve.KindService, Namespace: gw.Ref.Namespace, Name: a.Value}
		} else if parts := strings.SplitN(a.Value, ".", 4); len(parts) == 4 && parts[2] == "svc" && parts[3] != "" {
			// <name>.<namespace>.svc.<cluster domain>.
			s.Ref = resolve.ObjectRef{Kind: resolve.KindService, Namespace: parts[1], Name: parts[0]}
			s.OtherNamespace = parts[1] != gw.Ref.Namespace
		} else {
			s.NotLookedUp = fmt.Sprintf("hostname %q names no Service gwlint can look up (a ServiceEntry host?)", a.Value)
		}
		out = append(out, s)
	}
	return out
}
