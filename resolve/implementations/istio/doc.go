// Package istio is where Istio (https://istio.io) reads the Gateway API
// otherwise than the API does, as its controller in
// pilot/pkg/config/kube/gateway does: the steps of resolve.Implementation
// it takes part in, its own kind (ServiceEntry), and the facts only it
// has. Facts several implementations share stay in package profile.
package istio
