package envoygateway

import (
	"fmt"
	"net/netip"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Envoy Gateway's own backend kind: a route may name it only under a
// profile that accepts it (profile.Implementation.BackendKinds), and the
// checks below are its translator's
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/,
// validate.go validateBackendRefBackend, backend.go validateBackend and
// route.go processBackendDestinationSetting, validateDestinationSettings).
const KindBackend = "Backend"

// Backend is the part of an Envoy Gateway Backend
// (gateway.envoyproxy.io/v1alpha1, api/v1alpha1/backend_types.go) that
// decides whether a route's reference to it works. Its Ref's kind is
// qualified: Backend.gateway.envoyproxy.io.
type Backend struct {
	resolve.Meta
	Spec struct {
		// Type is Endpoints (the default) or DynamicResolver.
		Type      string            `json:"type,omitempty"`
		Endpoints []BackendEndpoint `json:"endpoints,omitempty"`
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

// BackendEndpoint is one of a Backend's endpoints: an FQDN, an IP or a
// Unix socket, with an optional hostname.
type BackendEndpoint struct {
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
func (b *Backend) DynamicResolver() bool { return b.Spec.Type == "DynamicResolver" }

// Reasons Envoy Gateway writes on a route's ResolvedRefs for its Backends
// (internal/gatewayapi/status/error.go).
const (
	ReasonInvalidBackendRef      resolve.Reason = "InvalidBackendRef"
	ReasonInvalidAddress         resolve.Reason = "InvalidAddress"
	ReasonUnsupportedAddressType resolve.Reason = "UnsupportedAddressType"
)

// Problems of a backendRef to a Backend: the Backend API turned off in its
// configuration, a Backend it refuses, an endpoint address it refuses,
// endpoints of a type (Unix sockets, FQDNs beside IPs) a backendRef cannot
// use, a dynamic resolver among other backendRefs, or in a rule whose
// HTTPRouteFilter rewrites the Host from the path (routefilter.go).
const (
	BackendDisabled        resolve.BackendProblem = "kind disabled"
	InvalidBackend         resolve.BackendProblem = "invalid backend object"
	InvalidBackendAddress  resolve.BackendProblem = "invalid address"
	UnsupportedAddressType resolve.BackendProblem = "unsupported address type"
	DynamicResolverShared  resolve.BackendProblem = "dynamic resolver shared"
	HostFromPathRefused    resolve.BackendProblem = "host from path refused"
)

// BackendProblems are the problems above, for the rules that report them.
var BackendProblems = []resolve.BackendProblem{
	InvalidBackend, InvalidBackendAddress, UnsupportedAddressType, DynamicResolverShared, BackendDisabled, HostFromPathRefused,
}

// BackendGroupOfKind: a backendRef of kind Backend is its Backend, written
// with no group too.
// https://github.com/envoyproxy/gateway/blob/main/internal/gatewayapi/validate.go:
// validateBackendRefGroup admits the core group, and validateBackendRefKind
// the kind Backend, each on its own; the translator then switches on the
// kind alone (testdata/backendtrafficpolicy-dns-lookup-family.in.yaml).
func (Implementation) BackendGroupOfKind(kind string) string {
	if kind == KindBackend {
		return Group
	}
	return ""
}

// TakesBackend: a backendRef to its Backend kind.
func (Implementation) TakesBackend(_ *resolve.Route, r *resolve.BackendResult) bool {
	return r.Group == Group && r.Target.Kind == KindBackend
}

// JudgeBackend resolves a backendRef to a Backend as Envoy Gateway's
// translator does, in its order: the ReferenceGrant, whether its
// configuration serves Backends, the Backend itself.
func (impl Implementation) JudgeBackend(b *resolve.Builder, route *resolve.Route, r *resolve.BackendResult) {
	if !b.PermitBackend(route, r) {
		return
	}
	if impl.Config.Backend.Disabled {
		b.RefuseBackend(r, BackendDisabled, resolve.ReasonUnsupportedValue, "",
			fmt.Sprintf("%s's configuration does not enable its Backend API", b.RouteJudges(route)[0]))
		return
	}
	backend, ok := b.FindBackend(r).(*Backend)
	if !ok {
		return
	}
	section := ""
	if r.Ref.Port != nil {
		// route.go getTargetBackendReference: a BackendTLSPolicy selects
		// a Backend's port by its number.
		section = strconv.Itoa(int(*r.Ref.Port))
	}
	b.ReachBackend(r, backend, section)
	impl.checkBackend(b, r, backend)
}

// checkBackend judges a ref to a Backend as Envoy Gateway's translator
// does, in its order, and records the first problem on r.
func (impl Implementation) checkBackend(b *resolve.Builder, r *resolve.BackendResult, backend *Backend) {
	invalid := func(problem resolve.BackendProblem, reason resolve.Reason, field, format string, args ...any) {
		b.RefuseBackend(r, problem, reason, field, fmt.Sprintf(format, args...))
	}
	name := backend.Ref.NamespacedName()
	if backend.DynamicResolver() && len(backend.Spec.Endpoints) > 0 {
		invalid(InvalidBackend, ReasonInvalidBackendRef, "spec.endpoints", "Backend %s is a DynamicResolver and cannot have endpoints", name)
		return
	}
	if field, msg := tlsProblem(b.Graph(), backend); msg != "" {
		invalid(InvalidBackend, ReasonInvalidBackendRef, field, "Backend %s: %s", name, msg)
		return
	}
	for i, ep := range backend.Spec.Endpoints {
		if field, msg := ep.addressProblem(impl.Config.Backend.OnHost); msg != "" {
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

// tlsProblem is backend.go's validateBackendTLSSettings: TLS that verifies
// the backend needs CA certificates, from the Backend or from
// BackendTLSPolicies naming it (by name, in any namespace, as Envoy Gateway
// matches them): one without a sectionName, or one for every endpoint port.
// A client certificate must be in the Backend's namespace. field is where
// the problem is, msg what it is, "" when there is none.
func tlsProblem(g *resolve.Graph, backend *Backend) (field, msg string) {
	tls := backend.Spec.TLS
	if tls == nil {
		return "", ""
	}
	if (tls.InsecureSkipVerify == nil || !*tls.InsecureSkipVerify) && tls.WellKnownCACertificates == nil && len(tls.CACertificateRefs) == 0 &&
		!policiesVerify(g, backend) {
		return "spec.tls", "tls must name caCertificateRefs or wellKnownCACertificates unless insecureSkipVerify is true"
	}
	if ref := tls.ClientCertificateRef; ref != nil && ref.Namespace != nil && *ref.Namespace != "" && *ref.Namespace != backend.Ref.Namespace {
		return "spec.tls.clientCertificateRef.namespace", fmt.Sprintf("tls.clientCertificateRef is in namespace %q, not the Backend's", *ref.Namespace)
	}
	return "", ""
}

// policiesVerify reports whether BackendTLSPolicies give CA certificates
// for the whole Backend or for each of its endpoint ports.
func policiesVerify(g *resolve.Graph, backend *Backend) bool {
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
			if string(t.Group) != Group || string(t.Kind) != KindBackend || string(t.Name) != backend.Ref.Name {
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
func (ep *BackendEndpoint) addressProblem(onHost bool) (field, msg string) {
	if ep.Hostname != nil {
		if msg := hostnameProblem(*ep.Hostname, "hostname", onHost); msg != "" {
			return "hostname", msg
		}
	}
	switch {
	case ep.FQDN != nil:
		return "fqdn.hostname", hostnameProblem(ep.FQDN.Hostname, "FQDN", onHost)
	case ep.IP != nil && placeholder.All.Contains(ep.IP.Address):
		// Unknown until substituted: no verdict (resolve/unknown.go).
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
	case placeholder.All.Contains(hostname):
		return "" // unknown until substituted (resolve/unknown.go)
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
// weight above 0, and the first of them that reaches a dynamic resolver
// Backend, nil when none does.
func usableBackends(backends []*resolve.BackendResult) (usable []*resolve.BackendResult, resolver *resolve.BackendResult) {
	for _, b := range backends {
		if !b.Valid() || b.Weight <= 0 {
			continue
		}
		usable = append(usable, b)
		if backend, ok := b.Object().(*Backend); ok && resolver == nil && backend.DynamicResolver() {
			resolver = b
		}
	}
	return usable, resolver
}

// JudgeRule refuses a dynamic resolver Backend that shares an HTTPRoute
// rule, or whose rule rewrites the Host from the path.
func (Implementation) JudgeRule(b *resolve.Builder, route *resolve.RouteResult, rule *resolve.RuleResult) {
	switch v := RouteFilters(b.Graph(), rule); {
	case v != nil && v.HostFromPath && v.Refused == nil && v.Unresolved == nil && refuseHostFromPath(b, rule.Backends):
	case route.HTTP != nil:
		refuseSharedResolver(b, rule.Backends, len(rule.Backends))
	}
}

// JudgeRules refuses a dynamic resolver Backend beside other backends of a
// TLSRoute: Envoy Gateway pools a TLSRoute's rules into one destination.
func (Implementation) JudgeRules(b *resolve.Builder, route *resolve.RouteResult) {
	if route.TLS == nil {
		return
	}
	var pooled []*resolve.BackendResult
	for _, rr := range route.Rules {
		pooled = append(pooled, rr.Backends...)
	}
	if r := refuseSharedResolver(b, pooled, 0); r != nil {
		b.ReportBackend(route, r)
	}
}

// refuseSharedResolver fails the backends that a dynamic resolver Backend
// would share a destination with, and returns the first it failed, nil
// when none: Envoy Gateway refuses "dynamic resolver is not supported for
// multiple backendRefs" (route.go), for an HTTPRoute rule of more than one
// backendRef (refs; its requests get 500), or a TLSRoute whose rules hold
// more than one usable backend (refs 0; its connections are dropped).
// Only usable backends count as the resolver or the others: an invalid
// one, or one of weight 0, gets no destination.
func refuseSharedResolver(b *resolve.Builder, backends []*resolve.BackendResult, refs int) *resolve.BackendResult {
	usable, resolver := usableBackends(backends)
	if refs == 0 {
		refs = len(usable)
	}
	if resolver == nil || refs < 2 {
		return nil
	}
	for _, r := range usable {
		b.RefuseBackend(r, DynamicResolverShared, ReasonInvalidBackendRef, r.TargetPath(),
			fmt.Sprintf("Backend %s is a dynamic resolver, which cannot share a destination with other backendRefs", resolver.Object().Metadata().Ref.NamespacedName()))
	}
	return usable[0]
}

// refuseHostFromPath fails a rule's usable backends, and reports whether
// it did, when one is a dynamic resolver Backend: Envoy Gateway refuses a
// Host rewritten from the path there (route.go,
// rejectPathRegexHostRewriteWithDynamicResolver: the dynamic forward
// proxy's loopback guard does not see the path), and answers the rule's
// requests with HTTP 500.
func refuseHostFromPath(b *resolve.Builder, backends []*resolve.BackendResult) bool {
	usable, resolver := usableBackends(backends)
	if resolver == nil {
		return false
	}
	for _, r := range usable {
		b.RefuseBackend(r, HostFromPathRefused, resolve.ReasonUnsupportedValue, r.TargetPath(),
			"the rule's HTTPRouteFilter rewrites the Host from the path (hostname type PathRegex), which a dynamic resolver Backend does not take")
	}
	return true
}
