package resolve

import (
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Envoy Gateway's policy kinds whose backendRefs send traffic that a
// BackendTLSPolicy secures. resolve reads only what decides where such a
// BackendTLSPolicy's status is written (profile.PolicyAncestors.OwnPolicies),
// as its translator has it
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/,
// ext_service.go translateExtServiceBackendRefs and
// processExtServiceDestination, validate.go
// validateExtServiceBackendReference, envoyextensionpolicy.go buildExtProc,
// securitypolicy.go buildExtAuth, buildOIDCProvider and buildRemoteJWKS).
// GroupEnvoyGateway is Envoy Gateway's API group, and KindEnvoyBackend its
// Backend kind, which its policies' backendRefs may name.
const (
	GroupEnvoyGateway = "gateway.envoyproxy.io"
	KindEnvoyBackend  = "Backend"
)

const (
	KindEnvoyExtensionPolicy = "EnvoyExtensionPolicy"
	KindSecurityPolicy       = "SecurityPolicy"
)

// ownPolicyKind is the kind of a policy ref, unqualified.
func ownPolicyKind(ref ObjectRef) string {
	return strings.TrimSuffix(ref.Kind, "."+GroupEnvoyGateway)
}

// EnvoyGatewayPolicy is the part of an Envoy Gateway EnvoyExtensionPolicy or
// SecurityPolicy (gateway.envoyproxy.io/v1alpha1,
// api/v1alpha1/envoyextensionypolicy_types.go, securitypolicy_types.go)
// that names its targets and the backends it calls: an EnvoyExtensionPolicy
// fills only ExtProc, a SecurityPolicy the others. Its Ref's kind is
// qualified (EnvoyExtensionPolicy.gateway.envoyproxy.io).
type EnvoyGatewayPolicy struct {
	Meta
	Spec struct {
		// TargetRef is the deprecated single target, beside TargetRefs.
		TargetRef  *gwv1.LocalPolicyTargetReferenceWithSectionName  `json:"targetRef,omitempty"`
		TargetRefs []gwv1.LocalPolicyTargetReferenceWithSectionName `json:"targetRefs,omitempty"`
		ExtProc    []struct {
			BackendRefs []egPolicyBackendRef `json:"backendRefs,omitempty"`
		} `json:"extProc,omitempty"`
		ExtAuth *struct {
			GRPC *egExtAuthService `json:"grpc,omitempty"`
			HTTP *egExtAuthService `json:"http,omitempty"`
		} `json:"extAuth,omitempty"`
		OIDC *struct {
			Provider struct {
				BackendRefs []egPolicyBackendRef `json:"backendRefs,omitempty"`
			} `json:"provider"`
		} `json:"oidc,omitempty"`
		JWT *struct {
			Providers []struct {
				RemoteJWKS *struct {
					BackendRefs []egPolicyBackendRef `json:"backendRefs,omitempty"`
				} `json:"remoteJWKS,omitempty"`
			} `json:"providers,omitempty"`
		} `json:"jwt,omitempty"`
	}
}

// egPolicyBackendRef is a policy's backendRef: an object and a weight.
type egPolicyBackendRef struct {
	gwv1.BackendObjectReference `json:",inline"`
	Weight                      *int32 `json:"weight,omitempty"`
}

// egExtAuthService is an external authorization service: its backendRefs,
// or the deprecated single backendRef when they are none.
type egExtAuthService struct {
	BackendRef  *gwv1.BackendObjectReference `json:"backendRef,omitempty"`
	BackendRefs []egPolicyBackendRef         `json:"backendRefs,omitempty"`
}

func (s *egExtAuthService) refs() []egPolicyBackendRef {
	if len(s.BackendRefs) == 0 && s.BackendRef != nil {
		return []egPolicyBackendRef{{BackendObjectReference: *s.BackendRef}}
	}
	return s.BackendRefs
}

// backendRefLists are the policy's lists of backendRefs, each translated
// as one destination.
func (p *EnvoyGatewayPolicy) backendRefLists() [][]egPolicyBackendRef {
	var out [][]egPolicyBackendRef
	for _, ep := range p.Spec.ExtProc {
		out = append(out, ep.BackendRefs)
	}
	if a := p.Spec.ExtAuth; a != nil {
		// Envoy Gateway refuses an extAuth with both or neither.
		switch {
		case a.GRPC != nil && a.HTTP == nil:
			out = append(out, a.GRPC.refs())
		case a.HTTP != nil && a.GRPC == nil:
			out = append(out, a.HTTP.refs())
		}
	}
	if o := p.Spec.OIDC; o != nil {
		out = append(out, o.Provider.BackendRefs)
	}
	if j := p.Spec.JWT; j != nil {
		for _, pr := range j.Providers {
			if pr.RemoteJWKS != nil {
				out = append(out, pr.RemoteJWKS.BackendRefs)
			}
		}
	}
	return out
}

// policyTargets are the policy's targetRefs, the deprecated one first.
func (p *EnvoyGatewayPolicy) policyTargets() []gwv1.LocalPolicyTargetReferenceWithSectionName {
	if p.Spec.TargetRef == nil {
		return p.Spec.TargetRefs
	}
	return append([]gwv1.LocalPolicyTargetReferenceWithSectionName{*p.Spec.TargetRef}, p.Spec.TargetRefs...)
}

// ownPolicyTarget is what two policies of a kind conflict on: a target
// and its sectionName.
type ownPolicyTarget struct {
	policyKind, kind, namespace, name, section string
}

// ownPolicyGateway is a managed Gateway whose implementation translates the
// policy and writes it as an ancestor of BackendTLSPolicies
// (profile.PolicyAncestors.OwnPolicies): one the policy targets, or a parent
// of a route it targets; nil when there is none. Its translator builds the
// policy's destinations only for a target it holds, and only for the
// first policy of a kind, oldest first, to target it with a sectionName:
// a later one is Conflicted there. attached records the targets taken.
func (g *Graph) ownPolicyGateway(p *EnvoyGatewayPolicy, attached map[ownPolicyTarget]bool) *GatewayResult {
	writes := func(gw *GatewayResult) bool {
		return gw != nil && gw.Managed && gw.Profile.Implementation.PolicyAncestors.OwnPolicies
	}
	var out *GatewayResult
	for _, t := range p.policyTargets() {
		if string(t.Group) != GroupGateway {
			continue
		}
		var held *GatewayResult
		if t.Kind == KindGateway {
			if gw := g.gateways[ObjectRef{Kind: KindGateway, Namespace: p.Ref.Namespace, Name: string(t.Name)}]; writes(gw) {
				held = gw
			}
		} else {
			for _, r := range g.FindRoutes(string(t.Kind), p.Ref.Namespace, string(t.Name)) {
				for _, parent := range r.Parents {
					if gw := gatewayOf(parent); writes(gw) && held == nil {
						held = gw
					}
				}
			}
		}
		if held == nil {
			continue
		}
		key := ownPolicyTarget{p.Ref.Kind, string(t.Kind), p.Ref.Namespace, string(t.Name), ""}
		if t.SectionName != nil {
			key.section = string(*t.SectionName)
		}
		if !attached[key] && out == nil {
			out = held
		}
		attached[key] = true
	}
	return out
}

// ownPolicyBackends calls reach with the BackendTLSPolicy key of every
// backend the policy sends traffic to, as Envoy Gateway's translator walks
// each list: it stops at the first backendRef it refuses (a kind it does
// not take, a Service without that TCP port, a missing object, a
// cross-namespace ref no ReferenceGrant permits, a dynamic resolver
// Backend) and skips those of weight 0. A backendRef whose object the
// inputs do not hold stops the walk too: whether it would be refused is
// unknown.
func (g *Graph) ownPolicyBackends(p *EnvoyGatewayPolicy, reach func(key policyKey)) {
	kind := ownPolicyKind(p.Ref)
	for _, refs := range p.backendRefLists() {
		for _, ref := range refs {
			target, section, ok := g.ownPolicyBackend(p, kind, ref.BackendObjectReference)
			if !ok {
				break
			}
			if ref.Weight != nil && *ref.Weight == 0 {
				continue
			}
			reach(policyKey{target, ""})
			if section != "" {
				reach(policyKey{target, section})
			}
		}
	}
}

// ownPolicyBackend is the object a policy's backendRef names and the
// sectionName a BackendTLSPolicy would select it by (a Service port's
// name, a Backend's port number), as getTargetBackendReference has it; ok
// is false when the translator refuses the ref, or may.
func (g *Graph) ownPolicyBackend(p *EnvoyGatewayPolicy, policyKind string, ref gwv1.BackendObjectReference) (target ObjectRef, section string, ok bool) {
	group, kind, ns := GroupCore, KindService, refNamespace(ref.Namespace, p.Ref.Namespace)
	if ref.Group != nil {
		group = string(*ref.Group)
	}
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	target = ObjectRef{Kind: kind, Namespace: ns, Name: string(ref.Name)}
	backend := group == GroupEnvoyGateway && kind == KindEnvoyBackend
	if !backend && ref.Port == nil {
		return target, "", false
	}
	obj, _ := g.Lookup(ObjectRef{Kind: qualifiedKind(group, kind), Namespace: ns, Name: target.Name})
	var ports []ServicePort
	switch o := obj.(type) {
	case *Service:
		ports = o.Spec.Ports
	case *ServiceImport:
		ports = o.Spec.Ports
	case interface{ DynamicResolver() bool }: // the implementation's Backend
		if o.DynamicResolver() {
			return target, "", false
		}
		if ref.Port != nil {
			section = strconv.Itoa(int(*ref.Port))
		}
	default:
		return target, "", false
	}
	if !backend {
		found := false
		for _, port := range ports {
			if port.Port == *ref.Port && port.Transport() == "TCP" {
				section, found = port.Name, true
				break
			}
		}
		if !found {
			return target, "", false
		}
	}
	if ns != p.Ref.Namespace {
		return target, section, slices.ContainsFunc(g.grantsIn[ns], func(grant *ReferenceGrant) bool {
			return grantAdmits(grant, GroupEnvoyGateway, policyKind, p.Ref.Namespace, group, kind, target.Name)
		})
	}
	return target, section, true
}
