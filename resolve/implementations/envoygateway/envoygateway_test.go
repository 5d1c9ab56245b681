package envoygateway_test

import (
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
)

// egClass is Envoy Gateway's GatewayClass.
const egClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}`

// byClass are Options that let each Gateway's class choose its profile,
// with Envoy Gateway's reading of the world for those of class eg.
var byClass = resolve.Options{Implementations: []resolve.Implementation{envoygateway.Implementation{}}}
