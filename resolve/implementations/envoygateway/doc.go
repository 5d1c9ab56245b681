// Package envoygateway is where Envoy Gateway (https://gateway.envoyproxy.io)
// reads the Gateway API otherwise than the API does, as its translator in
// internal/gatewayapi does: the steps of resolve.Implementation it takes
// part in, its own kinds and reasons, and the facts only it has. Facts
// several implementations share stay in package profile.
package envoygateway
