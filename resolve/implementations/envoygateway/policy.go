package envoygateway

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// Its policy kinds whose backendRefs send traffic that a BackendTLSPolicy
// secures. gwlint reads only what decides where such a BackendTLSPolicy's
// status is written, as its translator has it
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/,
// ext_service.go translateExtServiceBackendRefs and
// processExtServiceDestination, validate.go
// validateExtServiceBackendReference, envoyextensionpolicy.go buildExtProc,
// securitypolicy.go buildExtAuth, buildOIDCProvider and buildRemoteJWKS).
const (
	KindEnvoyExtensionPolicy = "EnvoyExtensionPolicy"
	KindSecurityPolicy       = "SecurityPolicy"
)

// Policy is the part of one of its policies (gateway.envoyproxy.io/v1alpha1,
// api/v1alpha1/*policy_types.go) that names its targets and the backends it
// calls (an EnvoyExtensionPolicy fills only ExtProc, a SecurityPolicy the
// others), and the deprecated fields whose use it warns of in status
// (deprecatedFields). Its Ref's kind is qualified
// (EnvoyExtensionPolicy.gateway.envoyproxy.io).
type Policy struct {
	resolve.Meta
	Spec struct {
		// PolicySpec holds its targetRefs and the deprecated single
		// targetRef.
		resolve.PolicySpec
		// TargetSelectors pick targets by their labels (targetselectors.go).
		TargetSelectors []targetSelector `json:"targetSelectors,omitempty"`
		// policyFields are the fields its translator checks
		// (policyinvalid.go).
		policyFields
		ExtProc []struct {
			BackendRefs []policyBackendRef `json:"backendRefs,omitempty"`
		} `json:"extProc,omitempty"`
		ExtAuth *struct {
			GRPC *extAuthService `json:"grpc,omitempty"`
			HTTP *extAuthService `json:"http,omitempty"`
		} `json:"extAuth,omitempty"`
		// MergeType: a route's policy is merged into its parent's.
		MergeType *string `json:"mergeType,omitempty"`
		// Deprecated fields of a BackendTrafficPolicy and a
		// ClientTrafficPolicy.
		Compression         []json.RawMessage `json:"compression,omitempty"`
		EnableProxyProtocol *bool             `json:"enableProxyProtocol,omitempty"`
		Headers             *struct {
			PreserveXRequestID *bool `json:"preserveXRequestID,omitempty"`
			// MaxRequestHeaderLimit: checked (policyinvalid.go).
			MaxRequestHeaderLimit *resource.Quantity `json:"maxRequestHeaderLimit,omitempty"`
		} `json:"headers,omitempty"`
		// TLS: a ClientTrafficPolicy's, checked on the TLS listeners it
		// applies to (clienttls.go).
		TLS *clientTLS `json:"tls,omitempty"`
		// HTTP1: a ClientTrafficPolicy's; http10.useDefaultHost needs a
		// default host on each listener it applies to (http10.go).
		HTTP1 *struct {
			HTTP10 *struct {
				UseDefaultHost *bool `json:"useDefaultHost,omitempty"`
			} `json:"http10,omitempty"`
		} `json:"http1,omitempty"`
		OIDC *struct {
			Provider struct {
				BackendRefs []policyBackendRef `json:"backendRefs,omitempty"`
			} `json:"provider"`
			ClientSecret gwv1.SecretObjectReference `json:"clientSecret"`
		} `json:"oidc,omitempty"`
		JWT *struct {
			Providers []struct {
				RemoteJWKS *struct {
					BackendRefs []policyBackendRef `json:"backendRefs,omitempty"`
				} `json:"remoteJWKS,omitempty"`
				LocalJWKS *struct {
					Type     *string                    `json:"type,omitempty"`
					ValueRef *gwv1.LocalObjectReference `json:"valueRef,omitempty"`
				} `json:"localJWKS,omitempty"`
			} `json:"providers,omitempty"`
		} `json:"jwt,omitempty"`
	}
}

// policyBackendRef is a policy's backendRef: an object and a weight.
type policyBackendRef struct {
	gwv1.BackendObjectReference `json:",inline"`
	Weight                      *int32 `json:"weight,omitempty"`
}

// extAuthService is an external authorization service: its backendRefs,
// or the deprecated single backendRef when they are none.
type extAuthService struct {
	BackendRef  *gwv1.BackendObjectReference `json:"backendRef,omitempty"`
	BackendRefs []policyBackendRef           `json:"backendRefs,omitempty"`
}

func (s *extAuthService) refs() []policyBackendRef {
	if len(s.BackendRefs) == 0 && s.BackendRef != nil {
		return []policyBackendRef{{BackendObjectReference: *s.BackendRef}}
	}
	return s.BackendRefs
}

// backendRefLists are the policy's lists of backendRefs, each translated
// as one destination.
func (p *Policy) backendRefLists() [][]policyBackendRef {
	var out [][]policyBackendRef
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

// PolicyTargetRefs are the policy's targetRefs, the deprecated one first
// (resolve.PolicyObject).
func (p *Policy) PolicyTargetRefs() []resolve.PolicyTargetRef { return p.Spec.Refs() }

// JudgeBackendCallers names its policies that call a backend (an
// EnvoyExtensionPolicy's extProc, a SecurityPolicy's extAuth, OIDC
// provider or remote JWKS), each written as an ancestor of the
// BackendTLSPolicy that secures the backend, named by the policy itself
// (group gateway.envoyproxy.io, no sectionName), by the Gateway that
// translates it: ext_service.go, processExtServiceDestination: for a
// policy's backendRef, "the owner policy of the BackendRef is used as the
// parent reference" of the BackendTLSPolicy's status. It takes its
// policies oldest first, as the API orders policies.
func (impl Implementation) JudgeBackendCallers(b *resolve.Builder, reach func(caller resolve.BackendCaller, backend resolve.ObjectRef, section string)) {
	g := b.Graph()
	var byAge []*Policy
	for _, obj := range g.Objects {
		if p, ok := obj.(*Policy); ok {
			// The graph holds the last definition of a name.
			if held, _ := g.Lookup(p.Ref); held == obj {
				byAge = append(byAge, p)
			}
		}
	}
	sort.SliceStable(byAge, func(i, j int) bool { return resolve.OlderOrFirst(&byAge[i].Meta, &byAge[j].Meta) })
	attached := map[policyTarget]bool{}
	for _, p := range byAge {
		gw := impl.policyGateway(g, p, attached)
		if gw == nil {
			continue
		}
		group, kind, ns := gwv1.Group(Group), gwv1.Kind(policyKind(p.Ref)), gwv1.Namespace(p.Ref.Namespace)
		caller := resolve.BackendCaller{Ref: p.Ref, Gateway: gw,
			Ancestor: gwv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gwv1.ObjectName(p.Ref.Name)}}
		impl.policyBackends(g, p, func(backend resolve.ObjectRef, section string) { reach(caller, backend, section) })
	}
}

// policyKind is the kind of a policy ref, unqualified.
func policyKind(ref resolve.ObjectRef) string {
	return strings.TrimSuffix(ref.Kind, "."+Group)
}

// policyTarget is what two policies of a kind conflict on: a target and
// its sectionName.
type policyTarget struct {
	policyKind, kind, namespace, name, section string
}

// policyGateway is a managed Gateway of Envoy Gateway's that translates the
// policy: one the policy targets, or a parent of a route it targets; nil
// when there is none. Its translator builds the policy's destinations only
// for a target it holds, and only for the first policy of a kind, oldest
// first, to target it with a sectionName: a later one is Conflicted
// there. attached records the targets taken.
func (impl Implementation) policyGateway(g *resolve.Graph, p *Policy, attached map[policyTarget]bool) *resolve.GatewayResult {
	writes := func(gw *resolve.GatewayResult) bool {
		return gw != nil && gw.Managed && gw.Judge.Name == impl.Name()
	}
	var out *resolve.GatewayResult
	for _, t := range p.PolicyTargetRefs() {
		if string(t.Group) != resolve.GroupGateway {
			continue
		}
		var held *resolve.GatewayResult
		if t.Kind == resolve.KindGateway {
			if gw := g.Gateway(p.Ref.Namespace, string(t.Name)); writes(gw) {
				held = gw
			}
		} else {
			for _, r := range g.FindRoutes(string(t.Kind), p.Ref.Namespace, string(t.Name)) {
				for _, parent := range r.Parents {
					if gw := parent.ManagedGateway(); writes(gw) && held == nil {
						held = gw
					}
				}
			}
		}
		if held == nil {
			continue
		}
		key := policyTarget{p.Ref.Kind, string(t.Kind), p.Ref.Namespace, string(t.Name), ""}
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

// policyBackends calls reach with every backend the policy sends traffic
// to and the sectionName a BackendTLSPolicy would select it by, as Envoy
// Gateway's translator walks each list: it stops at the first backendRef
// it refuses (policyBackend) and skips those of weight 0. A backendRef
// whose object the inputs may lack stops the walk too: whether it would
// be refused is unknown.
func (impl Implementation) policyBackends(g *resolve.Graph, p *Policy, reach func(backend resolve.ObjectRef, section string)) {
	for _, refs := range p.backendRefLists() {
		impl.walkBackendRefs(g, p, refs, reach)
	}
}

// walkBackendRefs calls reach with the backends of one list of a policy's
// backendRefs until the first it refuses (translateExtServiceBackendRefs),
// and returns that refusal, "" when there is none or it is unknown.
func (impl Implementation) walkBackendRefs(g *resolve.Graph, p *Policy, refs []policyBackendRef, reach func(backend resolve.ObjectRef, section string)) string {
	kind := policyKind(p.Ref)
	for _, ref := range refs {
		target, section, refusal, unknown := impl.policyBackend(g, p, kind, ref.BackendObjectReference)
		if refusal != "" || unknown {
			return refusal
		}
		if ref.Weight != nil && *ref.Weight == 0 {
			continue
		}
		reach(target, section)
	}
	return ""
}

// policyBackend is the object a policy's backendRef names and the
// sectionName a BackendTLSPolicy would select it by (a Service port's
// name, a Backend's port number), as getTargetBackendReference has it.
// refusal is why the translator refuses the ref, in its words
// (validate.go validateExtServiceBackendReference, ext_service.go
// processExtServiceDestination): a ref without a port, a missing object, a
// Service without that TCP port, a cross-namespace ref no ReferenceGrant
// permits, a Backend its configuration does not serve or of a dynamic
// resolver, an ExternalName Service. unknown: the inputs may lack the
// object, so whether it is refused is not known.
func (impl Implementation) policyBackend(g *resolve.Graph, p *Policy, policyKind string, ref gwv1.BackendObjectReference) (target resolve.ObjectRef, section, refusal string, unknown bool) {
	group, kind := resolve.GroupCore, resolve.KindService
	ns := namespaceOr((*string)(ref.Namespace), p.Ref.Namespace)
	if ref.Group != nil {
		group = string(*ref.Group)
	}
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	target = resolve.ObjectRef{Kind: kind, Namespace: ns, Name: string(ref.Name)}
	backend := group == Group && kind == KindBackend
	if !backend && ref.Port == nil {
		return target, "", "a valid port number corresponding to a port on the Service must be specified", false
	}
	obj, presence := g.Lookup(resolve.ObjectRef{Kind: resolve.QualifiedKind(group, kind), Namespace: ns, Name: target.Name})
	var ports []resolve.ServicePort
	switch o := obj.(type) {
	case *resolve.Service:
		ports = o.Spec.Ports
	case *resolve.ServiceImport:
		ports = o.Spec.Ports
	case *Backend:
		if o.DynamicResolver() {
			return target, "", fmt.Sprintf("dynamic resolver backend %s is not supported", target.NamespacedName()), false
		}
		if ref.Port != nil {
			section = strconv.Itoa(int(*ref.Port))
		}
	default:
		if presence != resolve.Missing {
			return target, "", "", true
		}
		return target, "", fmt.Sprintf("%s %s not found", strings.ToLower(kind), target.NamespacedName()), false
	}
	if !backend {
		i := slices.IndexFunc(ports, func(port resolve.ServicePort) bool { return port.Port == *ref.Port && port.Transport() == "TCP" })
		if i < 0 {
			return target, "", fmt.Sprintf("TCP Port %d not found on service %s", *ref.Port, target.NamespacedName()), false
		}
		section = ports[i].Name
	}
	if ns != p.Ref.Namespace && !g.Granted(Group, policyKind, p.Ref.Namespace, group, kind, ns, target.Name) {
		return target, section, fmt.Sprintf("backend ref to %s %s not permitted by any ReferenceGrant", kind, target.NamespacedName()), false
	}
	switch o := obj.(type) {
	case *Backend:
		if impl.Config.Backend.Disabled {
			return target, section, fmt.Sprintf("resource %s of type Backend cannot be used since Backend is disabled in Envoy Gateway configuration", target.Name), false
		}
	case *resolve.Service:
		if o.ExternalName() {
			return target, section, fmt.Sprintf("Service %s is of type ExternalName, which is not supported as a backend; "+
				"use an Envoy Gateway Backend resource with an FQDN endpoint instead", target.NamespacedName()), false
		}
	}
	return target, section, "", false
}
