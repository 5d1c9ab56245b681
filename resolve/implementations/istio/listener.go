package istio

import (
	"fmt"
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// listenerShape is the listeners one of Istio's controllers takes: one of
// forms. Another is refused with message.
type listenerShape struct {
	controllerName string
	forms          []listenerForm
	message        string
}

// listenerForm is a listener's port (0: any port no other form of its
// shape names), protocol and TLS mode ("": any, tls or none).
type listenerForm struct {
	port     int32
	protocol gwv1.ProtocolType
	tlsMode  gwv1.TLSModeType
}

// listenerShapes are the only listeners its waypoint and east-west
// controllers take:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// unexpectedWaypointListener and unexpectedEastWestWaypointListener.
// buildListener sets Accepted False without making the listener invalid
// (testdata/waypoint.status.yaml.golden, invalid: the Gateway Accepted, its
// listener Programmed).
var listenerShapes = []listenerShape{{
	controllerName: "istio.io/mesh-controller",
	forms:          []listenerForm{{port: 15008, protocol: "HBONE"}},
	message:        `expected a single listener on port 15008 with protocol "HBONE"`,
}, {
	controllerName: "istio.io/eastwest-controller",
	forms:          []listenerForm{{port: 15008, protocol: "HBONE", tlsMode: gwv1.TLSModeTerminate}, {protocol: gwv1.TLSProtocolType, tlsMode: gwv1.TLSModePassthrough}},
	message:        `east-west gateway listeners must be either port 15008 with protocol "HBONE" and TLS mode Terminate, or TLS with mode Passthrough`,
}}

// JudgeListener writes whether the listener is programmed (programForTLS),
// then refuses an accepted listener of a form its controller does not
// take, as a warning: the listener still counts as valid.
func (Implementation) JudgeListener(b *resolve.Builder, l *resolve.Listener) {
	programForTLS(b, l)
	if !l.Accepted.True() {
		return
	}
	for _, shape := range listenerShapes {
		if shape.controllerName != l.Gateway.ControllerName || slices.ContainsFunc(shape.forms, hasForm(l, shape.forms)) {
			continue
		}
		b.RefuseListener(l, resolve.ReasonUnsupportedProtocol, fmt.Sprintf("%s: %s", l.Gateway.Judge, shape.message))
	}
}

// hasForm returns whether the listener has a form, among forms.
func hasForm(l *resolve.Listener, forms []listenerForm) func(listenerForm) bool {
	return func(f listenerForm) bool {
		named := slices.ContainsFunc(forms, func(o listenerForm) bool { return o.port == l.Port })
		if f.port != l.Port && (f.port != 0 || named) || f.protocol != l.Protocol {
			return false
		}
		return f.tlsMode == "" || l.TLS != nil && l.TLS.Mode != nil && *l.TLS.Mode == f.tlsMode
	}
}
