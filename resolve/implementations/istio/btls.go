package istio

import (
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// A BackendTLSPolicy opts out of Istio by an annotation:
// https://github.com/istio/istio/blob/86c9f01fd735fb01d8192f5bcaf0d424afb7f14c/pilot/pkg/config/kube/gateway/backend_policies.go,
// BackendTLSPolicyCollection: a policy with IgnorePolicyAttachment
// ("istio.io/ignore-policy-attachment") "true" is left out of
// filteredTLSPolicies, the index conflicts are decided on, and gets
// ignoredPolicyStatus: Accepted=False, PolicyIgnoredStatusReason
// ("IgnoredByIstio"), one ancestor per targetRef under the mesh controller
// (testdata/backend-tls-policy-ignored.status.yaml.golden).
const (
	ignorePolicyAttachment = "istio.io/ignore-policy-attachment"
	reasonIgnoredByIstio   = resolve.Reason("IgnoredByIstio")
)

// IgnoresBackendTLSPolicy ignores a policy annotated
// istio.io/ignore-policy-attachment "true", in any case.
func (Implementation) IgnoresBackendTLSPolicy(p *resolve.BackendTLSPolicyResult) (resolve.Reason, string) {
	if !strings.EqualFold(p.Annotations.Get(ignorePolicyAttachment), "true") {
		return "", ""
	}
	return reasonIgnoredByIstio, "for its annotation " + ignorePolicyAttachment + "=true"
}
