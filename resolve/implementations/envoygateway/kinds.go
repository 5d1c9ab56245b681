package envoygateway

import (
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Group is Envoy Gateway's API group, whose kinds it reads in version
// v1alpha1 (api/v1alpha1/groupversion_info.go).
const Group = "gateway.envoyproxy.io"

// kinds are the kinds of Group that gwlint reads: the inputs hold them
// (resolve.KindReader).
var kinds = []profile.GroupKind{{Group: Group, Kind: KindBackend}, {Group: Group, Kind: KindHTTPRouteFilter}, {Group: Group, Kind: KindEnvoyProxy}}

// Kinds are the kinds of Envoy Gateway that gwlint reads.
func (Implementation) Kinds() []profile.GroupKind { return kinds }

// NewObject returns an empty object of one of its kinds in v1alpha1, and
// its spec.
func (Implementation) NewObject(group, version, kind string) (resolve.Object, any) {
	if group != Group || version != "v1alpha1" {
		return nil, nil
	}
	switch kind {
	case KindBackend:
		b := &Backend{}
		return b, &b.Spec
	case KindHTTPRouteFilter:
		f := &HTTPRouteFilter{}
		return f, &f.Spec
	case KindEnvoyProxy:
		p := &EnvoyProxy{}
		return p, &p.Spec
	case KindEnvoyExtensionPolicy, KindSecurityPolicy, KindBackendTrafficPolicy, KindClientTrafficPolicy:
		// Read only in part, so not among kinds: the lack of one says
		// nothing.
		p := &Policy{}
		return p, &p.Spec
	}
	return nil, nil
}
