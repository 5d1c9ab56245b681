package resolve

import (
	"slices"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// BackendCallerJudge names the objects of its own kinds (its policies)
// that send traffic to backends and that it writes as ancestors of the
// BackendTLSPolicies that secure those backends, beside the parents of the
// routes that reach them. The core asks it once it has collected the
// routes reaching each BackendTLSPolicy's targets, before it writes their
// ancestors.
type BackendCallerJudge interface {
	Implementation
	// JudgeBackendCallers calls reach for each backend one of its objects
	// sends traffic to: the object, the backend, and the sectionName by
	// which a BackendTLSPolicy selects the port it reaches ("" for none).
	JudgeBackendCallers(b *Builder, reach func(caller BackendCaller, backend ObjectRef, section string))
}

// BackendCaller is an object of an implementation's own kinds that sends
// traffic to a backend, written as an ancestor of the BackendTLSPolicies
// that secure it (BackendCallerJudge).
type BackendCaller struct {
	// Ref is the object, its kind qualified; its entries follow those of
	// routes' parents, ordered by it.
	Ref ObjectRef
	// Ancestor is the entry's reference to the object.
	Ancestor gwv1.ParentReference
	// Gateway is the managed Gateway that translates the object, whose
	// controller writes the entry.
	Gateway *GatewayResult
}

// ManagedGateway is the managed Gateway the parentRef names, itself or
// through a ListenerSet; nil for any other parent.
func (p *ParentResult) ManagedGateway() *GatewayResult { return gatewayOf(p) }

// OlderOrFirst orders policies as the API's precedence does: the older
// first, then the first by namespace/name.
func OlderOrFirst(a, b *Meta) bool { return olderOrFirst(a, b) }

// QualifiedKind is the kind under which the graph holds objects of group
// (Graph.Lookup): the kind itself for the API's groups, else
// "Kind.group".
func QualifiedKind(group, kind string) string { return qualifiedKind(group, kind) }

// Granted reports whether a ReferenceGrant among the inputs in namespace
// toNS lets objects of fromGroup and fromKind in fromNS refer to the
// object of toGroup and toKind named name there. Unlike the core's own
// checks, it assumes no grant the inputs may lack.
func (g *Graph) Granted(fromGroup, fromKind, fromNS, toGroup, toKind, toNS, name string) bool {
	return slices.ContainsFunc(g.grantsIn[toNS], func(grant *ReferenceGrant) bool {
		return grantAdmits(grant, fromGroup, fromKind, fromNS, toGroup, toKind, name)
	})
}
