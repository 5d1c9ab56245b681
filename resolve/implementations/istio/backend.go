package istio

import "github.com/gwlint/gwlint/resolve"

// LookUpBackend looks a ServiceImport up as the Service of its namespace
// and name:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/conversion.go,
// buildDestination, "currently we are always looking for Service" for a
// ServiceImport backendRef (testdata/mcs.status.yaml.golden).
func (Implementation) LookUpBackend(group string, target resolve.ObjectRef) resolve.ObjectRef {
	if group == resolve.GroupMultiCluster && target.Kind == resolve.KindServiceImport {
		target.Kind = resolve.KindService
	}
	return target
}
