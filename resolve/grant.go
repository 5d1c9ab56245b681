package resolve

// findGrant returns the first ReferenceGrant in the target namespace that
// lets objects of fromKind in fromNS refer to toGroup/toKind name there.
//
// ReferenceGrant (spec): "From describes the trusted namespaces and kinds
// that can reference the resources described in To"; a To entry without a
// name matches every object of its group and kind. Every From entry of
// this API is in the gateway.networking.k8s.io group.
func (g *Graph) findGrant(fromKind, fromNS, toGroup, toKind, toNS, name string) *ReferenceGrant {
	for _, grant := range g.grantsIn[toNS] {
		if grantAdmits(grant, GroupGateway, fromKind, fromNS, toGroup, toKind, name) {
			return grant
		}
	}
	return nil
}

// permitted decides a cross-namespace reference: the grant that permits it,
// and whether it is permitted. When the inputs hold neither the target nor
// any ReferenceGrant in its namespace, nor the namespace whole, the grant
// may be where the target is, outside what gwlint was shown (a pre-commit
// run sees only the changed files, say), so the reference is assumed
// permitted — unless StrictRefs.
func (g *Graph) permitted(fromKind, fromNS, toGroup, toKind, toNS, name string) (*ReferenceGrant, bool) {
	if grant := g.findGrant(fromKind, fromNS, toGroup, toKind, toNS, name); grant != nil {
		return grant, true
	}
	_, presence := g.Lookup(ObjectRef{Kind: qualifiedKind(toGroup, toKind), Namespace: toNS, Name: name})
	if presence == Unresolved || holdsPlaceholder(fromNS) {
		// Which grant admits it is as unknown as the names: assumed.
		return nil, true
	}
	return nil, !presence.Known() && !g.holdsAny(KindReferenceGrant, toNS)
}

// Evaluated reports whether the resolver decides every reference the grant
// can admit: from the routes, Gateways and ListenerSets it resolves, to
// Services, ServiceImports and Secrets. A grant that also admits references
// from or to other kinds (an implementation's policies, filters or backends)
// may serve references gwlint does not see.
func (grant *ReferenceGrant) Evaluated() bool {
	for _, f := range grant.Spec.From {
		if string(f.Group) != GroupGateway || !grantFromKinds[string(f.Kind)] {
			return false
		}
	}
	for _, t := range grant.Spec.To {
		switch {
		case string(t.Group) == GroupCore && (string(t.Kind) == KindService || string(t.Kind) == KindSecret):
		case string(t.Group) == GroupMultiCluster && string(t.Kind) == KindServiceImport:
		default:
			return false
		}
	}
	return true
}

// grantFromKinds are the kinds whose cross-namespace references the resolver
// checks against ReferenceGrants.
var grantFromKinds = map[string]bool{
	KindGateway: true, KindListenerSet: true,
	KindHTTPRoute: true, KindGRPCRoute: true, KindTLSRoute: true, KindTCPRoute: true, KindUDPRoute: true,
}

func grantAdmits(grant *ReferenceGrant, fromGroup, fromKind, fromNS, toGroup, toKind, name string) bool {
	from := false
	for _, f := range grant.Spec.From {
		if string(f.Group) == fromGroup && string(f.Kind) == fromKind && string(f.Namespace) == fromNS {
			from = true
			break
		}
	}
	if !from {
		return false
	}
	for _, t := range grant.Spec.To {
		if string(t.Group) == toGroup && string(t.Kind) == toKind && (t.Name == nil || *t.Name == "" || string(*t.Name) == name) {
			return true
		}
	}
	return false
}
