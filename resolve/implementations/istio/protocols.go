package istio

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// hboneControllers are the only controllers that serve HBONE listeners:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go
// listenerProtocolToIstio: HBONE "is only supported for waypoint
// proxies", the mesh and east-west controllers
// (constants.ManagedGatewayMeshController,
// ManagedGatewayEastWestController); any other controller's listener gets
// Accepted=False/UnsupportedProtocol.
var hboneControllers = []string{"istio.io/eastwest-controller", "istio.io/mesh-controller"}

// judgeProtocols writes the listener protocols the Gateway serves
// otherwise than the API's reading: HBONE on its waypoints and east-west
// gateways (hboneControllers), and not UDP.
//
// HBONE is refused only on a Gateway known to be of another of its
// controllers: when the controller is not one of Istio's (its GatewayClass
// is not among the inputs), which one runs the Gateway is unknown, and
// gwlint does not guess against the user.
//
// UDP: the same function, "the k8s.UDPProtocolType is explicitly left to
// hit this path", `protocol "UDP" is unsupported`
// (Accepted=False/UnsupportedProtocol, testdata/invalid.yaml's
// udp-protocol Gateway). No conformance report runs GATEWAY-UDP, so only
// this says Istio lacks it.
func judgeProtocols(b *resolve.Builder, gw *resolve.GatewayResult) {
	const hbone gwv1.ProtocolType = "HBONE"
	if slices.Contains(hboneControllers, gw.ControllerName) || !slices.Contains(gw.Judge.Implementation.ControllerNames, gw.ControllerName) {
		b.ServeProtocol(gw, hbone)
	} else {
		b.RefuseProtocol(gw, hbone, fmt.Sprintf("protocol %q is served only by Gateways of %s, not of %s", hbone,
			strings.Join(hboneControllers, " or "), gw.ControllerName))
	}
	b.RefuseProtocol(gw, gwv1.UDPProtocolType, fmt.Sprintf("protocol %q is not supported by %s", gwv1.UDPProtocolType, gw.Judge))
}
