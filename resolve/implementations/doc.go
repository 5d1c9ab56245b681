// Package implementations lists the implementations of the Gateway API whose
// reading of the world gwlint knows (All), each in a package of its own
// below this one: envoygateway, gke, istio, kgateway, nginx. The core (package resolve)
// resolves the API's reading and imports none of them; each adjusts that
// reading through the steps of resolve.Implementation. A new
// implementation is one new package here and one line in All (see
// docs/implementations.md).
package implementations
