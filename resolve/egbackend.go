package resolve

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Envoy Gateway's own backend kind, an implementation-specific kind whose
// objects resolve reads (as it does Istio's ServiceEntry): a route may name it only under a profile
// that accepts it (profile.Implementation.BackendKinds), and the checks
// below are its translator's
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/,
// validate.go validateBackendRefBackend, backend.go validateBackend and
// route.go processBackendDestinationSetting, validateDestinationSettings).
const (
	GroupEnvoyGateway = "gateway.envoyproxy.io"
	KindEnvoyBackend  = "Backend"
)

// qualifiedKind is the kind under which the graph holds objects of group:
// the kind itself for the API's groups, else "Kind.group", so that an
// implementation's kind never stands for another's of the same name
// (kgateway's Backend, GKE's ServiceImport).
func qualifiedKind(group, kind string) string {
	switch group {
	case GroupCore, GroupGateway, GroupGatewayExperimental, GroupMultiCluster:
		return kind
	}
	return kind + "." + group
}

// EnvoyGatewayBackend is the part of an Envoy Gateway Backend
// (gateway.envoyproxy.io/v1alpha1, api/v1alpha1/backend_types.go) that
// decides whether a route's reference to it works. Its Ref's kind is
// qualified: Backend.gateway.envoyproxy.io.
type EnvoyGatewayBackend struct {
	Meta
	Spec struct {
		// Type is Endpoints (the default) or DynamicResolver.
		Type      string                 `json:"type,omitempty"`
		Endpoints []EnvoyBackendEndpoint `json:"endpoints,omitempty"`
		// TLS: only whether it names CA certificates counts, not which.
		TLS *struct {
			CACertificateRefs       []struct{} `json:"caCertificateRefs,omitempty"`
			WellKnownCACertificates *string    `json:"wellKnownCACertificates,omitempty"`
			InsecureSkipVerify      *bool      `json:"insecureSkipVerify,omitempty"`
			ClientCertificateRef    *struct {
				Namespace *string `json:"namespace,omitempty"`
			} `json:"clientCertificateRef,omitempty"`
		} `json:"tls,omitempty"`
	}
}

// EnvoyBackendEndpoint is one of a Backend's endpoints: an FQDN, an IP or
// a Unix socket, with an optional hostname.
type EnvoyBackendEndpoint struct {
	Hostname *string `json:"hostname,omitempty"`
	FQDN     *struct {
		Hostname string `json:"hostname"`
		Port     int32  `json:"port"`
	} `json:"fqdn,omitempty"`
	IP *struct {
		Address string `json:"address"`
		Port    int32  `json:"port"`
	} `json:"ip,omitempty"`
	Unix *struct {
		Path string `json:"path"`
	} `json:"unix,omitempty"`
}

// DynamicResolver reports whether the Backend resolves each request's host
// itself rather than naming endpoints.
func (b *EnvoyGatewayBackend) DynamicResolver() bool { return b.Spec.Type == "DynamicResolver" }

// Reasons Envoy Gateway writes on a route's ResolvedRefs for its Backends
// (internal/gatewayapi/status/error.go).
const (
	ReasonInvalidBackendRef      Reason = "InvalidBackendRef"
	ReasonInvalidAddress         Reason = "InvalidAddress"
	ReasonUnsupportedAddressType Reason = "UnsupportedAddressType"
)

// checkEnvoyBackend judges a ref to a Backend as Envoy Gateway's translator
// does, in its order, and records the first problem on b. onHost: its proxy
// runs on the host (profile.BackendAPI.OnHost).
func (g *Graph) checkEnvoyBackend(b *BackendResult, backend *EnvoyGatewayBackend, onHost bool) {
	invalid := func(problem BackendProblem, reason Reason, field, format string, args ...any) {
		b.Problem, b.Reason, b.TargetPath, b.Message = problem, reason, field, fmt.Sprintf(format, args...)
	}
	name := backend.Ref.NamespacedName()
	if backend.DynamicResolver() && len(backend.Spec.Endpoints) > 0 {
		invalid(InvalidImplementationBackend, ReasonInvalidBackendRef, "spec.endpoints", "Backend %s is a DynamicResolver and cannot have endpoints", name)
		return
	}
	if field, msg := g.envoyBackendTLSProblem(backend); msg != "" {
		invalid(InvalidImplementationBackend, ReasonInvalidBackendRef, field, "Backend %s: %s", name, msg)
		return
	}
	for i, ep := range backend.Spec.Endpoints {
		if field, msg := ep.addressProblem(onHost); msg != "" {
			invalid(InvalidBackendAddress, ReasonInvalidAddress, fmt.Sprintf("spec.endpoints[%d].%s", i, field), "Backend %s endpoints[%d]: %s", name, i, msg)
			return
		}
	}
	var fqdn, other bool
	for i, ep := range backend.Spec.Endpoints {
		if ep.Unix != nil {
			invalid(UnsupportedAddressType, ReasonUnsupportedAddressType, fmt.Sprintf("spec.endpoints[%d].unix", i),
				"Backend %s has a Unix socket endpoint, which a route's backendRef cannot use", name)
			return
		}
		fqdn = fqdn || ep.FQDN != nil
		other = other || ep.IP != nil
	}
	if fqdn && other {
		invalid(UnsupportedAddressType, ReasonUnsupportedAddressType, "spec.endpoints",
			"Backend %s mixes FQDN and IP endpoints, which one backendRef cannot use", name)
	}
}

// envoyBackendTLSProblem is backend.go's validateBackendTLSSettings: TLS
// that verifies the backend needs CA certificates, from the Backend or from
// BackendTLSPolicies naming it (by name, in any namespace, as Envoy Gateway
// matches them): one without a sectionName, or one for every endpoint port.
// A client certificate must be in the Backend's namespace. field is where
// the problem is, msg what it is, "" when there is none.
func (g *Graph) envoyBackendTLSProblem(backend *EnvoyGatewayBackend) (field, msg string) {
	tls := backend.Spec.TLS
	if tls == nil {
		return "", ""
	}
	if (tls.InsecureSkipVerify == nil || !*tls.InsecureSkipVerify) && tls.WellKnownCACertificates == nil && len(tls.CACertificateRefs) == 0 &&
		!g.policiesVerify(backend) {
		return "spec.tls", "tls must name caCertificateRefs or wellKnownCACertificates unless insecureSkipVerify is true"
	}
	if ref := tls.ClientCertificateRef; ref != nil && refNamespace(ref.Namespace, backend.Ref.Namespace) != backend.Ref.Namespace {
		return "spec.tls.clientCertificateRef.namespace", fmt.Sprintf("tls.clientCertificateRef is in namespace %q, not the Backend's", *ref.Namespace)
	}
	return "", ""
}

// envoyBackendSection is the sectionName by which a BackendTLSPolicy
// selects a Backend's port, its number (route.go getTargetBackendReference),
// "" for a ref without a port.
func envoyBackendSection(port *gwv1.PortNumber) string {
	if port == nil {
		return ""
	}
	return strconv.Itoa(int(*port))
}

// policiesVerify reports whether BackendTLSPolicies give CA certificates
// for the whole Backend or for each of its endpoint ports.
func (g *Graph) policiesVerify(backend *EnvoyGatewayBackend) bool {
	ports := map[string]bool{}
	for _, ep := range backend.Spec.Endpoints {
		switch {
		case ep.FQDN != nil:
			ports[strconv.Itoa(int(ep.FQDN.Port))] = false
		case ep.IP != nil:
			ports[strconv.Itoa(int(ep.IP.Port))] = false
		}
	}
	for _, p := range g.TLSPolicies {
		for _, t := range p.Spec.TargetRefs {
			if string(t.Group) != GroupEnvoyGateway || string(t.Kind) != KindEnvoyBackend || string(t.Name) != backend.Ref.Name {
				continue
			}
			hasCA := p.Spec.Validation.WellKnownCACertificates != nil || len(p.Spec.Validation.CACertificateRefs) > 0
			switch {
			case t.SectionName == nil && hasCA:
				return true
			case t.SectionName != nil:
				// A sectionName counts whatever the policy's CA: as
				// Envoy Gateway has it.
				if _, ok := ports[string(*t.SectionName)]; ok {
					ports[string(*t.SectionName)] = true
				}
			}
		}
	}
	if len(ports) == 0 {
		return false
	}
	for _, covered := range ports {
		if !covered {
			return false
		}
	}
	return true
}

// addressProblem is backend.go's validateHostname and validateIP: field
// is the endpoint's field at fault, msg what is wrong, "" when nothing is.
// A proxy on the host (onHost) may reach loopback addresses and
// single-label hostnames (Docker's, say).
func (ep *EnvoyBackendEndpoint) addressProblem(onHost bool) (field, msg string) {
	if ep.Hostname != nil {
		if msg := hostnameProblem(*ep.Hostname, "hostname", onHost); msg != "" {
			return "hostname", msg
		}
	}
	switch {
	case ep.FQDN != nil:
		return "fqdn.hostname", hostnameProblem(ep.FQDN.Hostname, "FQDN", onHost)
	case ep.IP != nil && holdsPlaceholder(ep.IP.Address):
		// Unknown until substituted: no verdict (unknown.go).
	case ep.IP != nil:
		ip, err := netip.ParseAddr(ep.IP.Address)
		switch {
		case err != nil:
			return "ip.address", fmt.Sprintf("IP address %q is invalid", ep.IP.Address)
		case ip.IsLoopback() && !onHost:
			return "ip.address", fmt.Sprintf("IP address %s is a loopback address, which only Envoy Gateway's Host infrastructure supports", ep.IP.Address)
		}
	}
	return "", ""
}

func hostnameProblem(hostname, what string, onHost bool) string {
	switch {
	case holdsPlaceholder(hostname):
		return "" // unknown until substituted (unknown.go)
	case len(validation.IsDNS1123Subdomain(strings.TrimSuffix(hostname, "."))) > 0:
		return fmt.Sprintf("hostname %s is not a valid %s", hostname, what)
	case !onHost && !strings.Contains(hostname, "."):
		return fmt.Sprintf("hostname %s should be a domain with at least two segments separated by dots", hostname)
	}
	if _, err := netip.ParseAddr(hostname); err == nil {
		return fmt.Sprintf("hostname %s is an IP address", hostname)
	}
	return ""
}

// usableBackends are the backends that get a destination, valid and of
// weight above 0, and the first of them that is a dynamic resolver
// Backend, nil when none is.
func usableBackends(backends []*BackendResult) (usable []*BackendResult, resolver *BackendResult) {
	for _, b := range backends {
		if !b.Valid() || b.Weight <= 0 {
			continue
		}
		usable = append(usable, b)
		if resolver == nil && b.EnvoyBackend != nil && b.EnvoyBackend.DynamicResolver() {
			resolver = b
		}
	}
	return usable, resolver
}

// refuseSharedResolver fails the backends that a dynamic resolver Backend
// would share a destination with, and returns the first it failed, nil
// when none: Envoy Gateway refuses "dynamic resolver is not supported for
// multiple backendRefs" (route.go), for an HTTPRoute rule of more than one
// backendRef (refs; its requests get 500), or a TLSRoute whose rules hold
// more than one usable backend (refs 0; its connections are dropped).
// Only usable backends count as the resolver or the others: an invalid
// one, or one of weight 0, gets no destination.
func refuseSharedResolver(backends []*BackendResult, refs int) *BackendResult {
	usable, resolver := usableBackends(backends)
	if refs == 0 {
		refs = len(usable)
	}
	if resolver == nil || refs < 2 {
		return nil
	}
	for _, b := range usable {
		b.Problem, b.Reason = DynamicResolverShared, ReasonInvalidBackendRef
		b.Message = fmt.Sprintf("Backend %s is a dynamic resolver, which cannot share a destination with other backendRefs", resolver.EnvoyBackend.Ref.NamespacedName())
	}
	return usable[0]
}
