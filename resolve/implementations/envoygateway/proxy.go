package envoygateway

import (
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"regexp"
	"slices"
	"strings"
	"sync"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
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
	resolve.Meta
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
		// GeoIP is the provider of its GeoIP filters: a SecurityPolicy's
		// rules on client IP geolocations need it (geoIPListenerError).
		GeoIP *struct {
			Provider struct {
				Type    string `json:"type"`
				MaxMind *struct {
					CityDBSource        *struct{} `json:"cityDbSource,omitempty"`
					CountryDBSource     *struct{} `json:"countryDbSource,omitempty"`
					ASNDBSource         *struct{} `json:"asnDbSource,omitempty"`
					ISPDBSource         *struct{} `json:"ispDbSource,omitempty"`
					AnonymousIPDBSource *struct{} `json:"anonymousIpDbSource,omitempty"`
				} `json:"maxMind,omitempty"`
			} `json:"provider"`
		} `json:"geoIP,omitempty"`
		// BackendTLS is the TLS its proxy offers backends that verify
		// it: only the client certificate counts.
		BackendTLS *struct {
			ClientCertificateRef *struct {
				Name      string  `json:"name"`
				Namespace *string `json:"namespace,omitempty"`
			} `json:"clientCertificateRef,omitempty"`
		} `json:"backendTLS,omitempty"`
	}
	// Problems are the rules it breaks, in validation's order, in Envoy
	// Gateway's words; judged only when a Gateway or GatewayClass of Envoy
	// Gateway's takes it, nil otherwise.
	Problems []resolve.ParametersProblem
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

// MergesGateways reports whether the Gateways of its GatewayClass share
// one proxy.
func (p *EnvoyProxy) MergesGateways() bool {
	return p.Spec.MergeGateways != nil && *p.Spec.MergeGateways
}

// judge records the rules p breaks, once.
func (p *EnvoyProxy) judge() []resolve.ParametersProblem {
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

var statOperator = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("%[^%]*%") })

// problems is validateProvider and validateProxyTelemetry.
func (p *EnvoyProxy) problems() []resolve.ParametersProblem {
	var out []resolve.ParametersProblem
	add := func(path, format string, args ...any) {
		out = append(out, resolve.ParametersProblem{Path: path, Message: fmt.Sprintf(format, args...)})
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
			operators := statOperator().FindAllString(*name, -1)
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

// qualifiedEnvoyProxy is the kind under which the graph holds EnvoyProxies.
const qualifiedEnvoyProxy = KindEnvoyProxy + "." + Group

// Proxy is the EnvoyProxy the Gateway takes, its own or its class's; nil
// when no Envoy Gateway judges it or the inputs hold none.
func Proxy(g *resolve.Graph, gw *resolve.GatewayResult) *EnvoyProxy {
	p, _ := g.Decision(Implementation{}, gw).(*EnvoyProxy)
	return p
}

// ClassProxy is the EnvoyProxy the GatewayClass's parametersRef names; nil
// when no Envoy Gateway judges the class or the inputs hold none.
func ClassProxy(g *resolve.Graph, c *resolve.GatewayClassResult) *EnvoyProxy {
	p, _ := g.Decision(Implementation{}, c).(*EnvoyProxy)
	return p
}

// ClassParametersNamespace: Envoy Gateway looks a GatewayClass's
// parameters up in "default" when the ref names no namespace
// (internal/provider/kubernetes/controller.go processGatewayClassParamsRef).
func (Implementation) ClassParametersNamespace() string { return "default" }

// JudgeClassParameters judges the EnvoyProxy a GatewayClass's parametersRef
// names: one that breaks its validation refuses the class,
// Accepted=False/InvalidParameters, "Invalid parametersRef:"
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/translator.go
// GetRelevantGateways: validateEnvoyProxy,
// api/v1alpha1/validation/envoyproxy_validate.go;
// testdata/envoyproxy-for-gatewayclass.out.yaml).
func (impl Implementation) JudgeClassParameters(b *resolve.Builder, c *resolve.GatewayClassResult, obj resolve.Object) {
	proxy, ok := obj.(*EnvoyProxy)
	if !ok {
		return
	}
	b.Decide(impl, c, proxy)
	if len(proxy.judge()) > 0 {
		c.Parameters.Reason = resolve.ReasonInvalidParameters
		c.Parameters.Message = "Invalid parametersRef: " + proxy.Refusal()
	}
}

// classProxy is the EnvoyProxy a GatewayClass's parametersRef names, nil
// when it names none the inputs hold.
func classProxy(g *resolve.Graph, class *resolve.GatewayClass) *EnvoyProxy {
	if class == nil || class.Spec.ParametersRef == nil {
		return nil
	}
	pr := class.Spec.ParametersRef
	if string(pr.Group) != Group || string(pr.Kind) != KindEnvoyProxy {
		return nil
	}
	obj, _ := g.Lookup(resolve.ObjectRef{Kind: qualifiedEnvoyProxy, Namespace: envoyProxyNamespace(pr), Name: pr.Name})
	proxy, _ := obj.(*EnvoyProxy)
	return proxy
}

// envoyProxyNamespace is where Envoy Gateway looks up a GatewayClass's
// parameters: the ref's namespace, ClassParametersNamespace when it names
// none.
func envoyProxyNamespace(pr *gwv1.ParametersReference) string {
	if pr.Namespace == nil {
		return Implementation{}.ClassParametersNamespace()
	}
	return string(*pr.Namespace)
}

// JudgeGatewayParameters refuses a Gateway for the EnvoyProxy it takes, as
// Envoy Gateway does: own is the object its parametersRef names, nil when
// it names none the inputs hold. A Gateway takes its own EnvoyProxy, else
// its class's (contexts.go attachEnvoyProxy), and one that takes an
// invalid one is refused, "Invalid parametersRef:", before its listeners
// get status (translator.go GetRelevantGateways;
// testdata/envoyproxy-gateway-accesslog-with-bad-sinks.out.yaml). A
// Gateway naming its own while its class's merges Gateways is refused too
// (internal/provider/kubernetes/controller.go processGatewayParamsRef:
// "infrastructure.parametersref must be nil when MergeGateways feature is
// enabled by gatewayclass", InvalidParameters), and so is one of a class
// whose EnvoyProxy merges both Gateways and backends (GetRelevantGateways:
// "mergeGateways and mergeBackends cannot both be enabled").
func (impl Implementation) JudgeGatewayParameters(b *resolve.Builder, gw *resolve.GatewayResult, own resolve.Object) {
	g := b.Graph()
	class := classProxy(g, gw.Class)
	if gw.Parameters != nil && class != nil && class.MergesGateways() {
		gw.Parameters.Reason = resolve.ReasonInvalidParameters
		gw.Parameters.Message = fmt.Sprintf("infrastructure.parametersRef must not be set: the GatewayClass's EnvoyProxy %s merges its Gateways (mergeGateways)",
			class.Ref.NamespacedName())
		return
	}
	if gw.Parameters != nil && !gw.Parameters.OK() {
		return
	}
	inherited := func() *resolve.RefResult {
		return &resolve.RefResult{Path: "spec.gatewayClassName", Group: Group, Presence: resolve.Present,
			Target: resolve.ObjectRef{Kind: KindEnvoyProxy, Namespace: class.Ref.Namespace, Name: class.Ref.Name}}
	}
	if class != nil && class.MergesGateways() && (class.Spec.MergeBackends != nil || impl.Config.ProxyDefaults.MergeBackends) {
		// translator.go GetRelevantGateways, before it validates the
		// EnvoyProxy.
		gw.Parameters = inherited()
		gw.Parameters.Reason = resolve.ReasonInvalidParameters
		source := "the GatewayClass's EnvoyProxy " + class.Ref.NamespacedName()
		if class.Spec.MergeBackends == nil {
			source += ", with mergeBackends from " + gw.Judge.Implementation.Name + "'s configuration"
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
	b.Decide(impl, gw, proxy)
	if len(proxy.judge()) == 0 {
		gw.ParametersRefusal = telemetryProblem(b, proxy)
		gw.ClientCertificateProblem = clientCertificateProblem(b, gw, proxy)
		return
	}
	res.Reason = resolve.ReasonInvalidParameters
	res.Message = fmt.Sprintf("Invalid parametersRef: EnvoyProxy %s: %s", proxy.Ref.NamespacedName(), proxy.Refusal())
	gw.Parameters = res
}

// clientCertificateProblem says why the client certificate the Gateway's
// EnvoyProxy offers backends over TLS cannot be used, nil when it can or
// that is unknown: Envoy Gateway takes it when the Gateway sets no
// spec.tls.backend (contexts.go GetBackendTLSConfig), and refuses one in
// another namespace or one that does not exist (backendtlspolicy.go
// processClientTLSSettings).
func clientCertificateProblem(b *resolve.Builder, gw *resolve.GatewayResult, proxy *EnvoyProxy) *resolve.ParametersProblem {
	if proxy.Spec.BackendTLS == nil || proxy.Spec.BackendTLS.ClientCertificateRef == nil ||
		(gw.Spec.TLS != nil && gw.Spec.TLS.Backend != nil) {
		return nil
	}
	const at = "spec.backendTLS.clientCertificateRef"
	ref, owner := proxy.Spec.BackendTLS.ClientCertificateRef, proxy.Ref
	if ns := namespaceOr(ref.Namespace, owner.Namespace); ns != owner.Namespace {
		return &resolve.ParametersProblem{Path: at + ".namespace",
			Message: fmt.Sprintf("EnvoyProxy %s's backendTLS.clientCertificateRef is in namespace %s, not the EnvoyProxy's", owner.NamespacedName(), ns)}
	}
	secret := resolve.ObjectRef{Kind: resolve.KindSecret, Namespace: owner.Namespace, Name: ref.Name}
	if _, presence := b.Graph().Lookup(secret); presence == resolve.Missing {
		return &resolve.ParametersProblem{Path: at + ".name",
			Message: fmt.Sprintf("EnvoyProxy %s's backendTLS.clientCertificateRef: %s", owner.NamespacedName(), b.DescribeAbsence(secret, presence))}
	}
	return nil
}

// namespaceOr is the namespace a reference names, its owner's when it
// names none or "" (Envoy Gateway's NamespaceDerefOr).
func namespaceOr(ns *string, owner string) string {
	if ns == nil || *ns == "" {
		return owner
	}
	return *ns
}

// telemetryProblem says why Envoy Gateway refuses a Gateway for where its
// EnvoyProxy sends access logs, traces and metrics, nil when it does not
// or that is unknown: a Service backendRef to a Service that does not
// exist, is of type ExternalName, or lacks the TCP port
// (listener.go processProxyObservability, processBackendRefsForTelemetry,
// validate.go validateBackendRefService). It does so after it translates
// the Gateway's listeners, whose status stays.
func telemetryProblem(b *resolve.Builder, proxy *EnvoyProxy) *resolve.ParametersProblem {
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
			if i, problem := telemetryBackendProblem(b, proxy, s.backend); problem != "" {
				return &resolve.ParametersProblem{Path: fmt.Sprintf("%s.backendRefs[%d]", s.path, i),
					Message: fmt.Sprintf("Invalid %s backendRefs in the referenced EnvoyProxy %s: %s", of.what, proxy.Ref.NamespacedName(), problem)}
			}
		}
	}
	return nil
}

// telemetryBackendProblem is the first backendRef of tb that cannot be
// used (its index), and why; "" when none.
func telemetryBackendProblem(b *resolve.Builder, proxy *EnvoyProxy, tb *telemetryBackend) (int, string) {
	if tb == nil {
		return 0, ""
	}
	for i, ref := range tb.BackendRefs {
		if (ref.Group != nil && *ref.Group != resolve.GroupCore) || (ref.Kind != nil && *ref.Kind != resolve.KindService) {
			continue // its Backend: not judged here
		}
		target := resolve.ObjectRef{Kind: resolve.KindService, Namespace: namespaceOr(ref.Namespace, proxy.Ref.Namespace), Name: ref.Name}
		obj, presence := b.Graph().Lookup(target)
		service, _ := obj.(*resolve.Service)
		switch {
		case presence == resolve.Missing:
			return i, b.DescribeAbsence(target, presence)
		case service == nil:
		case service.ExternalName():
			return i, fmt.Sprintf("Service %s is of type ExternalName", target.NamespacedName())
		case ref.Port != nil && !slices.ContainsFunc(service.Spec.Ports, func(p resolve.ServicePort) bool {
			return p.Port == *ref.Port && (p.Protocol == "" || p.Protocol == "TCP")
		}):
			return i, fmt.Sprintf("TCP Port %d not found on Service %s", *ref.Port, target.NamespacedName())
		}
	}
	return 0, ""
}
