package resolve

import (
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Envoy Gateway's EnvoyProxy (gateway.envoyproxy.io/v1alpha1,
// api/v1alpha1/envoyproxy_types.go), the parameters a GatewayClass's
// spec.parametersRef or a Gateway's spec.infrastructure.parametersRef
// names. Its Ref's kind is qualified: EnvoyProxy.gateway.envoyproxy.io.
// The checks below are the small rules of its validation
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/api/v1alpha1/validation/envoyproxy_validate.go,
// ValidateEnvoyProxy); filterOrder cycles and the bootstrap are not
// checked.
const KindEnvoyProxy = "EnvoyProxy"

// EnvoyProxy is the part of an EnvoyProxy that decides whether Envoy
// Gateway takes it.
type EnvoyProxy struct {
	Meta
	Spec struct {
		// MergeGateways: the Gateways of its GatewayClass share one proxy.
		MergeGateways *bool `json:"mergeGateways,omitempty"`
		// MergeBackends: routes' identical backends share one cluster;
		// only whether it is set counts.
		MergeBackends *struct{} `json:"mergeBackends,omitempty"`
		Provider      *struct {
			Type       string    `json:"type"`
			Host       *struct{} `json:"host,omitempty"`
			Kubernetes *struct {
				EnvoyDeployment *proxyPatched `json:"envoyDeployment,omitempty"`
				EnvoyHpa        *proxyPatched `json:"envoyHpa,omitempty"`
				EnvoyPDB        *proxyPatched `json:"envoyPDB,omitempty"`
				EnvoyService    *struct {
					proxyPatched
					Type                          *string  `json:"type,omitempty"`
					AllocateLoadBalancerNodePorts *bool    `json:"allocateLoadBalancerNodePorts,omitempty"`
					LoadBalancerSourceRanges      []string `json:"loadBalancerSourceRanges,omitempty"`
					LoadBalancerIP                *string  `json:"loadBalancerIP,omitempty"`
				} `json:"envoyService,omitempty"`
			} `json:"kubernetes,omitempty"`
		} `json:"provider,omitempty"`
		Telemetry *struct {
			AccessLog *struct {
				Disable  *bool `json:"disable,omitempty"`
				Settings []struct {
					Format *struct {
						Type *string `json:"type,omitempty"`
						Text *string `json:"text,omitempty"`
					} `json:"format,omitempty"`
					Sinks []struct {
						Type          string            `json:"type"`
						File          *struct{}         `json:"file,omitempty"`
						ALS           *telemetryBackend `json:"als,omitempty"`
						OpenTelemetry *telemetryBackend `json:"openTelemetry,omitempty"`
					} `json:"sinks,omitempty"`
				} `json:"settings,omitempty"`
			} `json:"accessLog,omitempty"`
			Metrics *struct {
				Sinks []struct {
					Type          string            `json:"type"`
					OpenTelemetry *telemetryBackend `json:"openTelemetry,omitempty"`
				} `json:"sinks,omitempty"`
				ClusterStatName *string `json:"clusterStatName,omitempty"`
			} `json:"metrics,omitempty"`
			Tracing *struct {
				Provider telemetryBackend `json:"provider"`
			} `json:"tracing,omitempty"`
		} `json:"telemetry,omitempty"`
		// BackendTLS is the TLS its proxy offers backends that verify
		// it: only the client certificate counts.
		BackendTLS *struct {
			ClientCertificateRef *struct {
				Name      string  `json:"name"`
				Namespace *string `json:"namespace,omitempty"`
			} `json:"clientCertificateRef,omitempty"`
		} `json:"backendTLS,omitempty"`
	}
	// Problems are the rules it breaks, in validation's order; judged only
	// when a Gateway or GatewayClass of Envoy Gateway's takes it
	// (profile.Implementation.EnvoyProxyParameters), nil otherwise.
	Problems []ProxyProblem
	judged   bool
}

// telemetryBackend is where a proxy sends access logs, traces or metrics.
type telemetryBackend struct {
	BackendRefs []struct {
		Group     *string `json:"group,omitempty"`
		Kind      *string `json:"kind,omitempty"`
		Name      string  `json:"name"`
		Namespace *string `json:"namespace,omitempty"`
		Port      *int32  `json:"port,omitempty"`
	} `json:"backendRefs,omitempty"`
}

// proxyPatched is a Kubernetes resource of the proxy that a patch may
// change.
type proxyPatched struct {
	Patch *struct {
		Type  *string         `json:"type,omitempty"`
		Value json.RawMessage `json:"value,omitempty"`
	} `json:"patch,omitempty"`
}

// ProxyProblem is one rule an EnvoyProxy breaks: the field at fault and
// what is wrong, in Envoy Gateway's words where it has them.
type ProxyProblem struct {
	Path    string
	Message string
}

// MergesGateways reports whether the Gateways of its GatewayClass share
// one proxy.
func (p *EnvoyProxy) MergesGateways() bool {
	return p.Spec.MergeGateways != nil && *p.Spec.MergeGateways
}

// judge records the rules p breaks, once.
func (p *EnvoyProxy) judge() []ProxyProblem {
	if !p.judged {
		p.judged = true
		p.Problems = p.problems()
	}
	return p.Problems
}

// logsAccess reports whether the proxy writes access logs: its settings
// count unless accessLog.disable is true.
func (p *EnvoyProxy) logsAccess() bool {
	t := p.Spec.Telemetry
	return t != nil && t.AccessLog != nil && (t.AccessLog.Disable == nil || !*t.AccessLog.Disable)
}

// clusterStatOperators are the operators a clusterStatName may use
// (clusterStatSupportedOperators).
var clusterStatOperators = map[string]bool{
	"%ROUTE_NAME%": true, "%ROUTE_NAMESPACE%": true, "%ROUTE_KIND%": true,
	"%ROUTE_RULE_NAME%": true, "%ROUTE_RULE_NUMBER%": true, "%BACKEND_REFS%": true,
}

var statOperator = regexp.MustCompile("%[^%]*%")

// problems is validateProvider and validateProxyTelemetry.
func (p *EnvoyProxy) problems() []ProxyProblem {
	var out []ProxyProblem
	add := func(path, format string, args ...any) {
		out = append(out, ProxyProblem{Path: path, Message: fmt.Sprintf(format, args...)})
	}
	if prov := p.Spec.Provider; prov != nil {
		switch prov.Type {
		case "Kubernetes":
			if k := prov.Kubernetes; k != nil {
				for _, r := range []struct {
					field, what string
					res         *proxyPatched
				}{{"envoyDeployment", "deployment", k.EnvoyDeployment}, {"envoyHpa", "hpa", k.EnvoyHpa}, {"envoyPDB", "pdb", k.EnvoyPDB}} {
					if r.res != nil {
						r.res.patchProblems("spec.provider.kubernetes."+r.field+".patch", r.what, add)
					}
				}
				if s := k.EnvoyService; s != nil {
					p.serviceProblems(add)
				}
			}
		case "Host":
			if prov.Host == nil {
				add("spec.provider", "field 'host' should be specified when provider type is 'Host'")
			}
		default:
			add("spec.provider.type", "unsupported provider type %s", prov.Type)
		}
	}
	t := p.Spec.Telemetry
	if t == nil {
		return out
	}
	if p.logsAccess() {
		for i, s := range t.AccessLog.Settings {
			at := fmt.Sprintf("spec.telemetry.accessLog.settings[%d]", i)
			if f := s.Format; f != nil && f.Type != nil && *f.Type == "Text" && f.Text == nil {
				add(at+".format", `unable to configure access log when using Text format but "text" field being empty`)
			}
			for j, sink := range s.Sinks {
				switch {
				case sink.Type == "File" && sink.File == nil:
					add(fmt.Sprintf("%s.sinks[%d]", at, j), `unable to configure access log when using File sink type but "file" field being empty`)
				case sink.Type == "OpenTelemetry" && sink.OpenTelemetry == nil:
					add(fmt.Sprintf("%s.sinks[%d]", at, j), `unable to configure access log when using OpenTelemetry sink type but "openTelemetry" field being empty`)
				}
			}
		}
	}
	if m := t.Metrics; m != nil {
		for i, sink := range m.Sinks {
			if sink.Type == "OpenTelemetry" && sink.OpenTelemetry == nil {
				add(fmt.Sprintf("spec.telemetry.metrics.sinks[%d]", i), "opentelemetry is required if the sink type is OpenTelemetry")
			}
		}
		if name := m.ClusterStatName; name != nil {
			operators := statOperator.FindAllString(*name, -1)
			var unsupported []string
			for _, op := range operators {
				if !clusterStatOperators[op] {
					unsupported = append(unsupported, op)
				}
			}
			switch {
			case len(operators) == 0 && strings.Contains(*name, "%"):
				add("spec.telemetry.metrics.clusterStatName", "unable to configure Cluster Stat Name: unable to configure stat name with invalid operator")
			case len(unsupported) > 0:
				add("spec.telemetry.metrics.clusterStatName", "unable to configure Cluster Stat Name: unsupported operators: %v", unsupported)
			}
		}
	}
	return out
}

// serviceProblems is validateService.
func (p *EnvoyProxy) serviceProblems(add func(path, format string, args ...any)) {
	s := p.Spec.Provider.Kubernetes.EnvoyService
	const at = "spec.provider.kubernetes.envoyService"
	if s.Type != nil {
		switch *s.Type {
		case "LoadBalancer", "ClusterIP", "NodePort":
		default:
			add(at+".type", "unsupported envoy service type %s", *s.Type)
		}
		lb := *s.Type == "LoadBalancer"
		if s.AllocateLoadBalancerNodePorts != nil && !lb {
			add(at+".allocateLoadBalancerNodePorts", "allocateLoadBalancerNodePorts can only be set for LoadBalancer type")
		}
		if s.LoadBalancerSourceRanges != nil {
			if !lb {
				add(at+".loadBalancerSourceRanges", "loadBalancerSourceRanges can only be set for LoadBalancer type")
			}
			for i, r := range s.LoadBalancerSourceRanges {
				if _, _, err := net.ParseCIDR(r); err != nil {
					add(fmt.Sprintf("%s.loadBalancerSourceRanges[%d]", at, i), "loadBalancerSourceRange:%s is an invalid IP subnet", r)
				}
			}
		}
		if ip := s.LoadBalancerIP; ip != nil {
			if !lb {
				add(at+".loadBalancerIP", "loadBalancerIP can only be set for LoadBalancer type")
			}
			if addr, err := netip.ParseAddr(*ip); err != nil || !addr.Unmap().Is4() {
				add(at+".loadBalancerIP", "loadBalancerIP:%s is an invalid IP address", *ip)
			}
		}
	}
	s.patchProblems(at+".patch", "service", add)
}

// patchProblems is the patch check of validateDeployment, validateHpa,
// validatePdb and validateService.
func (r *proxyPatched) patchProblems(at, what string, add func(path, format string, args ...any)) {
	patch := r.Patch
	if patch == nil {
		return
	}
	if len(patch.Value) == 0 || string(patch.Value) == "null" {
		add(at+".value", "envoy %s patch object cannot be empty", what)
	}
	if patch.Type != nil && *patch.Type != "JSONMerge" && *patch.Type != "StrategicMerge" {
		add(at+".type", "unsupported envoy %s patch type %s", what, *patch.Type)
	}
}

// Refusal is how Envoy Gateway words an EnvoyProxy's problems: its
// validation's errors, aggregated.
func (p *EnvoyProxy) Refusal() string {
	msgs := make([]string, len(p.Problems))
	for i, pr := range p.Problems {
		msgs[i] = pr.Message
	}
	if len(msgs) == 1 {
		return msgs[0]
	}
	return "[" + strings.Join(msgs, ", ") + "]"
}

// classProxy is the EnvoyProxy a GatewayClass's parametersRef names, nil
// when it names none the inputs hold.
func (g *Graph) classProxy(class *GatewayClass) *EnvoyProxy {
	if class == nil || class.Spec.ParametersRef == nil {
		return nil
	}
	pr := class.Spec.ParametersRef
	if string(pr.Group) != GroupEnvoyGateway || string(pr.Kind) != KindEnvoyProxy {
		return nil
	}
	obj, _ := g.Lookup(ObjectRef{Kind: qualifiedKind(GroupEnvoyGateway, KindEnvoyProxy), Namespace: envoyProxyNamespace(pr), Name: pr.Name})
	proxy, _ := obj.(*EnvoyProxy)
	return proxy
}

// envoyProxyNamespace is where Envoy Gateway looks up a GatewayClass's
// parameters: the ref's namespace, "default" when it names none
// (internal/provider/kubernetes/controller.go processGatewayClassParamsRef).
func envoyProxyNamespace(pr *gwv1.ParametersReference) string {
	if pr.Namespace == nil {
		return "default"
	}
	return string(*pr.Namespace)
}

// judgeEnvoyProxy refuses a Gateway for the EnvoyProxy it takes, as Envoy
// Gateway does (profile.Implementation.EnvoyProxyParameters): own is the
// object its parametersRef names, nil when it names none the inputs hold.
func (g *Graph) judgeEnvoyProxy(gw *GatewayResult, own Object) {
	class := g.classProxy(gw.Class)
	if gw.Parameters != nil && class != nil && class.MergesGateways() {
		gw.Parameters.Reason = ReasonInvalidParameters
		gw.Parameters.Message = fmt.Sprintf("infrastructure.parametersRef must not be set: the GatewayClass's EnvoyProxy %s merges its Gateways (mergeGateways)",
			class.Ref.NamespacedName())
		return
	}
	if gw.Parameters != nil && !gw.Parameters.OK() {
		return
	}
	inherited := func() *RefResult {
		return &RefResult{Path: "spec.gatewayClassName", Group: GroupEnvoyGateway, Presence: Present,
			Target: ObjectRef{Kind: KindEnvoyProxy, Namespace: class.Ref.Namespace, Name: class.Ref.Name}}
	}
	if class != nil && class.MergesGateways() && (class.Spec.MergeBackends != nil || gw.Profile.Implementation.EnvoyProxyDefaults.MergeBackends) {
		// translator.go GetRelevantGateways, before it validates the
		// EnvoyProxy.
		gw.Parameters = inherited()
		gw.Parameters.Reason = ReasonInvalidParameters
		source := "the GatewayClass's EnvoyProxy " + class.Ref.NamespacedName()
		if class.Spec.MergeBackends == nil {
			source += ", with mergeBackends from " + gw.Profile.Implementation.Name + "'s configuration"
		}
		gw.Parameters.Message = fmt.Sprintf("mergeGateways and mergeBackends cannot both be enabled (%s)", source)
		return
	}
	res := gw.Parameters
	proxy, _ := own.(*EnvoyProxy)
	switch {
	case proxy != nil:
	case res != nil:
		return // its own parameters, which the inputs do not show
	case class != nil:
		proxy, res = class, inherited()
	default:
		return
	}
	gw.Proxy = proxy
	if len(proxy.judge()) == 0 {
		gw.TelemetryProblem = g.telemetryProblem(proxy)
		gw.ClientCertificateProblem = g.clientCertificateProblem(gw)
		return
	}
	res.Reason = ReasonInvalidParameters
	res.Message = fmt.Sprintf("Invalid parametersRef: EnvoyProxy %s: %s", proxy.Ref.NamespacedName(), proxy.Refusal())
	gw.Parameters = res
}

// mergedGateways groups the Gateways that share one proxy: under Envoy
// Gateway's profile (EnvoyProxyParameters) those of a GatewayClass whose
// EnvoyProxy sets mergeGateways, and that it has not refused for their
// parameters or addresses (translator.go GetRelevantGateways: only those
// get listeners). Every other Gateway is a group of its own. Groups and
// their Gateways keep g.Gateways' order.
func (g *Graph) mergedGateways() [][]*GatewayResult {
	var groups [][]*GatewayResult
	merged := map[string]int{} // class name -> its group
	for _, gw := range g.Gateways {
		if gw.Profile.Implementation.EnvoyProxyParameters && (gw.Parameters == nil || gw.Parameters.OK()) && gw.unsupportedAddress() == "" {
			if proxy := g.classProxy(gw.Class); proxy != nil && proxy.MergesGateways() {
				if i, ok := merged[gw.Class.Ref.Name]; ok {
					groups[i] = append(groups[i], gw)
					continue
				}
				merged[gw.Class.Ref.Name] = len(groups)
			}
		}
		groups = append(groups, []*GatewayResult{gw})
	}
	return groups
}

// detectMergedConflicts marks the listeners of merged Gateways that repeat
// the protocol, hostname and port of an earlier one
// (validate.go validateConflictedMergedListeners): one proxy cannot serve
// both. Listeners refused for their own spec take no part.
func detectMergedConflicts(group []*GatewayResult) {
	if len(group) < 2 {
		return
	}
	seen := map[string]*Listener{}
	for _, gw := range group {
		for _, l := range gw.AllListeners() {
			if l.InvalidOnItsOwn() && !l.Conflicted.True() {
				continue
			}
			key := fmt.Sprintf("%s:%s:%d", l.Protocol, l.HostnameString(), l.Port)
			if first, ok := seen[key]; ok {
				markConflicted(l, ReasonHostnameConflict, first)
				continue
			}
			seen[key] = l
		}
	}
}

// allListeners are the listeners of a group of merged Gateways.
func allListeners(group []*GatewayResult) []*Listener {
	var out []*Listener
	for _, gw := range group {
		out = append(out, gw.AllListeners()...)
	}
	return out
}

// clientCertificateProblem says why the client certificate the Gateway's
// EnvoyProxy offers backends over TLS cannot be used, nil when it can or
// that is unknown: Envoy Gateway takes it when the Gateway sets no
// spec.tls.backend (contexts.go GetBackendTLSConfig), and refuses one in
// another namespace or one that does not exist (backendtlspolicy.go
// processClientTLSSettings).
func (g *Graph) clientCertificateProblem(gw *GatewayResult) *ProxyProblem {
	if gw.Proxy == nil || gw.Proxy.Spec.BackendTLS == nil || gw.Proxy.Spec.BackendTLS.ClientCertificateRef == nil ||
		(gw.Spec.TLS != nil && gw.Spec.TLS.Backend != nil) {
		return nil
	}
	const at = "spec.backendTLS.clientCertificateRef"
	ref, proxy := gw.Proxy.Spec.BackendTLS.ClientCertificateRef, gw.Proxy.Ref
	if ns := refNamespace(ref.Namespace, proxy.Namespace); ns != proxy.Namespace {
		return &ProxyProblem{Path: at + ".namespace",
			Message: fmt.Sprintf("EnvoyProxy %s's backendTLS.clientCertificateRef is in namespace %s, not the EnvoyProxy's", proxy.NamespacedName(), ns)}
	}
	secret := ObjectRef{Kind: KindSecret, Namespace: proxy.Namespace, Name: ref.Name}
	if _, presence := g.Lookup(secret); presence == Missing {
		return &ProxyProblem{Path: at + ".name",
			Message: fmt.Sprintf("EnvoyProxy %s's backendTLS.clientCertificateRef: %s", proxy.NamespacedName(), g.describeAbsence(secret, presence))}
	}
	return nil
}

// telemetryProblem says why Envoy Gateway refuses a Gateway for where its
// EnvoyProxy sends access logs, traces and metrics, nil when it does not
// or that is unknown: a Service backendRef to a Service that does not
// exist, is of type ExternalName, or lacks the TCP port
// (listener.go processProxyObservability, processBackendRefsForTelemetry,
// validate.go validateBackendRefService). It does so after it translates
// the Gateway's listeners, whose status stays.
func (g *Graph) telemetryProblem(proxy *EnvoyProxy) *ProxyProblem {
	t := proxy.Spec.Telemetry
	if t == nil {
		return nil
	}
	type sent struct {
		path    string
		backend *telemetryBackend
	}
	var logs, traces, metrics []sent
	if proxy.logsAccess() {
		for i, s := range t.AccessLog.Settings {
			for j, sink := range s.Sinks {
				at := fmt.Sprintf("spec.telemetry.accessLog.settings[%d].sinks[%d]", i, j)
				logs = append(logs, sent{at + ".als", sink.ALS}, sent{at + ".openTelemetry", sink.OpenTelemetry})
			}
		}
	}
	if t.Tracing != nil {
		traces = append(traces, sent{"spec.telemetry.tracing.provider", &t.Tracing.Provider})
	}
	if t.Metrics != nil {
		for i, sink := range t.Metrics.Sinks {
			metrics = append(metrics, sent{fmt.Sprintf("spec.telemetry.metrics.sinks[%d].openTelemetry", i), sink.OpenTelemetry})
		}
	}
	for _, of := range []struct {
		what string
		sent []sent
	}{{"access log", logs}, {"tracing", traces}, {"metrics", metrics}} {
		for _, s := range of.sent {
			if i, problem := g.telemetryBackendProblem(proxy, s.backend); problem != "" {
				return &ProxyProblem{Path: fmt.Sprintf("%s.backendRefs[%d]", s.path, i),
					Message: fmt.Sprintf("Invalid %s backendRefs in the referenced EnvoyProxy %s: %s", of.what, proxy.Ref.NamespacedName(), problem)}
			}
		}
	}
	return nil
}

// telemetryBackendProblem is the first backendRef of b that cannot be
// used (its index), and why; "" when none.
func (g *Graph) telemetryBackendProblem(proxy *EnvoyProxy, b *telemetryBackend) (int, string) {
	if b == nil {
		return 0, ""
	}
	for i, ref := range b.BackendRefs {
		if (ref.Group != nil && *ref.Group != GroupCore) || (ref.Kind != nil && *ref.Kind != KindService) {
			continue // Envoy Gateway's Backend: not judged here
		}
		target := ObjectRef{Kind: KindService, Namespace: refNamespace(ref.Namespace, proxy.Ref.Namespace), Name: ref.Name}
		obj, presence := g.Lookup(target)
		service, _ := obj.(*Service)
		switch {
		case presence == Missing:
			return i, g.describeAbsence(target, presence)
		case service == nil:
		case service.Spec.Type == "ExternalName":
			return i, fmt.Sprintf("Service %s is of type ExternalName", target.NamespacedName())
		case ref.Port != nil && !slices.ContainsFunc(service.Spec.Ports, func(p ServicePort) bool {
			return p.Port == *ref.Port && (p.Protocol == "" || p.Protocol == "TCP")
		}):
			return i, fmt.Sprintf("TCP Port %d not found on Service %s", *ref.Port, target.NamespacedName())
		}
	}
	return 0, ""
}
