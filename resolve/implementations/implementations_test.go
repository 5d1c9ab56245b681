package implementations_test

import (
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
	"github.com/gwlint/gwlint/resolve/implementations/istio"
)

// The tests of this package compare implementations' readings of one
// world side by side: Envoy Gateway's and Istio's against the API's.

// classes are Envoy Gateway's and Istio's GatewayClasses.
const classes = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: istio}
spec: {controllerName: istio.io/gateway-controller}`

// judges are the implementations a case runs under (--implementation):
// none, which lets each Gateway's class choose its profile, and each's.
var judges = map[string]resolve.Implementation{"": nil, "envoy-gateway": envoygateway.Implementation{}, "istio": istio.Implementation{}}
