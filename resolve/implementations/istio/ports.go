package istio

import "github.com/gwlint/gwlint/resolve"

// ReportsMissingPort: Istio does not check a backendRef's port:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// buildDestination: a Service backendRef is BackendNotFound only when the
// Service does not exist; its port is copied into the destination
// unchecked (ServiceImports are looked up as Services).
func (Implementation) ReportsMissingPort() (resolve.Reason, bool) { return "", true }
