package envoygateway

import (
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"net"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode"

	"k8s.io/apimachinery/pkg/api/resource"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// ReasonInvalid is the reason of Accepted=False on a policy's ancestor
// whose translation failed (api/v1alpha1/policy_helpers.go
// PolicyReasonInvalid).
const ReasonInvalid resolve.Reason = "Invalid"

// policyFields are the fields of its policies whose references and values
// its translator checks as it translates the policy for a target; a
// failure makes the target's ancestor Accepted=False/Invalid
// (status.SetTranslationErrorForPolicyAncestors). Each kind reads its own:
// a BackendTrafficPolicy and a ClientTrafficPolicy share timeout,
// connection and http2, each with its own subfields.
type policyFields struct {
	// SecurityPolicy (securitypolicy.go buildBasicAuth, buildOIDC,
	// buildJWT).
	BasicAuth *struct {
		Users gwv1.SecretObjectReference `json:"users"`
	} `json:"basicAuth,omitempty"`
	// Authorization (SecurityPolicy): its client IP geolocations need the
	// listener's client IP detection and the proxy's GeoIP provider
	// (geoIPEntryError).
	Authorization *struct {
		Rules []struct {
			Principal struct {
				ClientIPGeoLocations []struct {
					Country   *string   `json:"country,omitempty"`
					Region    *string   `json:"region,omitempty"`
					City      *string   `json:"city,omitempty"`
					ASN       *uint32   `json:"asn,omitempty"`
					ISP       *string   `json:"isp,omitempty"`
					Anonymous *struct{} `json:"anonymous,omitempty"`
				} `json:"clientIPGeoLocations,omitempty"`
			} `json:"principal"`
		} `json:"rules,omitempty"`
	} `json:"authorization,omitempty"`
	// ClientIPDetection (ClientTrafficPolicy): how its listeners find the
	// client's address.
	ClientIPDetection *clientIPDetection `json:"clientIPDetection,omitempty"`
	// EnvoyExtensionPolicy (envoyextensionpolicy.go buildWasm, buildLua).
	Wasm []struct {
		Code struct {
			Image *struct {
				PullSecretRef *gwv1.SecretObjectReference `json:"pullSecretRef,omitempty"`
			} `json:"image,omitempty"`
		} `json:"code"`
	} `json:"wasm,omitempty"`
	Lua []struct {
		Type     string                     `json:"type,omitempty"`
		ValueRef *gwv1.LocalObjectReference `json:"valueRef,omitempty"`
	} `json:"lua,omitempty"`
	// BackendTrafficPolicy (backendtrafficpolicy.go buildTrafficFeatures,
	// clustersettings.go).
	RateLimit *struct {
		Type   *string        `json:"type,omitempty"`
		Local  *rateLimitSpec `json:"local,omitempty"`
		Global *rateLimitSpec `json:"global,omitempty"`
	} `json:"rateLimit,omitempty"`
	BandwidthLimit *struct {
		Request  *bandwidthLimit `json:"request,omitempty"`
		Response *bandwidthLimit `json:"response,omitempty"`
	} `json:"bandwidthLimit,omitempty"`
	LoadBalancer *struct {
		ConsistentHash *struct {
			TableSize *uint64 `json:"tableSize,omitempty"`
		} `json:"consistentHash,omitempty"`
	} `json:"loadBalancer,omitempty"`
	CircuitBreaker *struct {
		MaxConnections           *int64 `json:"maxConnections,omitempty"`
		MaxParallelRequests      *int64 `json:"maxParallelRequests,omitempty"`
		MaxPendingRequests       *int64 `json:"maxPendingRequests,omitempty"`
		MaxParallelRetries       *int64 `json:"maxParallelRetries,omitempty"`
		MaxRequestsPerConnection *int64 `json:"maxRequestsPerConnection,omitempty"`
	} `json:"circuitBreaker,omitempty"`
	Retry *struct {
		PerRetry *struct {
			BackOff *struct {
				BaseInterval *string `json:"baseInterval,omitempty"`
				MaxInterval  *string `json:"maxInterval,omitempty"`
			} `json:"backOff,omitempty"`
		} `json:"perRetry,omitempty"`
	} `json:"retry,omitempty"`
	Timeout *struct {
		TCP *struct {
			ConnectTimeout *string `json:"connectTimeout,omitempty"`
			IdleTimeout    *string `json:"idleTimeout,omitempty"`
		} `json:"tcp,omitempty"`
		HTTP *struct {
			ConnectionIdleTimeout  *string `json:"connectionIdleTimeout,omitempty"`
			MaxConnectionDuration  *string `json:"maxConnectionDuration,omitempty"`
			RequestTimeout         *string `json:"requestTimeout,omitempty"`
			RequestReceivedTimeout *string `json:"requestReceivedTimeout,omitempty"`
			IdleTimeout            *string `json:"idleTimeout,omitempty"`
		} `json:"http,omitempty"`
	} `json:"timeout,omitempty"`
	Connection *struct {
		BufferLimit     *resource.Quantity `json:"bufferLimit,omitempty"`
		ConnectionLimit *struct {
			CloseDelay *string `json:"closeDelay,omitempty"`
		} `json:"connectionLimit,omitempty"`
	} `json:"connection,omitempty"`
	ResponseOverride []struct {
		Response *struct {
			Body *struct {
				Type     *string                    `json:"type,omitempty"`
				ValueRef *gwv1.LocalObjectReference `json:"valueRef,omitempty"`
			} `json:"body,omitempty"`
		} `json:"response,omitempty"`
	} `json:"responseOverride,omitempty"`
	// HTTP2: both kinds (http.go buildIRHTTP2Settings).
	HTTP2 *struct {
		InitialStreamWindowSize     *resource.Quantity `json:"initialStreamWindowSize,omitempty"`
		InitialConnectionWindowSize *resource.Quantity `json:"initialConnectionWindowSize,omitempty"`
	} `json:"http2,omitempty"`
	RequestBuffer *struct {
		Limit resource.Quantity `json:"limit"`
	} `json:"requestBuffer,omitempty"`
}

// clientIPDetection is how a ClientTrafficPolicy's listeners find the
// client's address (api/v1alpha1 clienttrafficpolicy_types.go
// ClientIPDetectionSettings).
type clientIPDetection struct {
	XForwardedFor *struct {
		TrustedCIDRs []string `json:"trustedCIDRs,omitempty"`
	} `json:"xForwardedFor,omitempty"`
	CustomHeader   *struct{} `json:"customHeader,omitempty"`
	DirectSourceIP *struct{} `json:"directSourceIP,omitempty"`
}

// rateLimitSpec is a local or global rate limit (api/v1alpha1
// ratelimit_types.go): its rules' limits and the selectors the translator
// checks.
type rateLimitSpec struct {
	Rules []struct {
		ClientSelectors []struct {
			Headers []struct {
				Type   *string `json:"type,omitempty"`
				Value  *string `json:"value,omitempty"`
				Invert *bool   `json:"invert,omitempty"`
			} `json:"headers,omitempty"`
			Methods []json.RawMessage `json:"methods,omitempty"`
			Path    *struct {
				Type  *string `json:"type,omitempty"`
				Value string  `json:"value"`
			} `json:"path,omitempty"`
			SourceCIDR *struct {
				Value string `json:"value"`
			} `json:"sourceCIDR,omitempty"`
			QueryParams []struct {
				Name   string  `json:"name"`
				Type   *string `json:"type,omitempty"`
				Value  *string `json:"value,omitempty"`
				Invert *bool   `json:"invert,omitempty"`
			} `json:"queryParams,omitempty"`
		} `json:"clientSelectors,omitempty"`
		Limit struct {
			Unit string `json:"unit"`
		} `json:"limit"`
	} `json:"rules"`
}

// bandwidthLimit is a request's or a response's bandwidth limit (api/v1alpha1
// bandwidthlimit_types.go): bytes per unit.
type bandwidthLimit struct {
	Limit struct {
		Value resource.Quantity `json:"value"`
		Unit  string            `json:"unit"`
	} `json:"limit"`
}

// policyErrors gathers a translation's errors feature by feature, each
// prefixed by its feature (perr.WithMessage), joined as errors.Join joins
// them.
type policyErrors []string

// add records the errors of one feature, if any.
func (e *policyErrors) add(feature string, errs ...string) {
	if len(errs) > 0 {
		*e = append(*e, feature+": "+strings.Join(errs, "\n"))
	}
}

// message is the condition message status.Error2ConditionMsg makes of the
// errors: the first letter upper case, ending with a period.
func (e policyErrors) message() string {
	msg := []rune(strings.Join(e, "\n"))
	if len(msg) == 0 {
		return ""
	}
	msg[0] = unicode.ToUpper(msg[0])
	if msg[len(msg)-1] != '.' {
		msg = append(msg, '.')
	}
	return string(msg)
}

// policyInvalid are the errors of what the translator refuses in the
// policy's own fields whatever its target, none when nothing is. An object
// the policy refers to that the inputs may lack is not refused
// (resolve.Presence).
func (impl Implementation) policyInvalid(g *resolve.Graph, p *Policy) policyErrors {
	var errs policyErrors
	switch policyKind(p.Ref) {
	case KindSecurityPolicy:
		impl.securityPolicyErrors(g, p, &errs)
	case KindEnvoyExtensionPolicy:
		impl.extensionPolicyErrors(g, p, &errs)
	case KindBackendTrafficPolicy:
		backendTrafficPolicyErrors(g, p, &errs)
	case KindClientTrafficPolicy:
		clientTrafficPolicyErrors(p, &errs)
	}
	return errs
}

// securityPolicyErrors: securitypolicy.go translateSecurityPolicyForRoute
// builds BasicAuth, then for each parent ExtAuth, OIDC and JWT.
func (impl Implementation) securityPolicyErrors(g *resolve.Graph, p *Policy, errs *policyErrors) {
	spec := &p.Spec
	if a := spec.BasicAuth; a != nil {
		if secret, problem := secretRef(g, p, a.Users); problem != "" {
			errs.add("BasicAuth", problem)
		} else if secret != nil && !slices.Contains(secret.DataKeys, ".htpasswd") {
			errs.add("BasicAuth", fmt.Sprintf("secret %s must contain a non-empty \".htpasswd\" key", secret.Ref.NamespacedName()))
		}
	}
	if a := spec.ExtAuth; a != nil && (a.GRPC == nil) != (a.HTTP == nil) {
		service := a.GRPC
		if service == nil {
			service = a.HTTP
		}
		if refusal := impl.walkBackendRefs(g, p, service.refs(), ignoreBackend); refusal != "" {
			errs.add("ExtAuth", refusal)
		}
	}
	if o := spec.OIDC; o != nil {
		if refusal := impl.walkBackendRefs(g, p, o.Provider.BackendRefs, ignoreBackend); refusal != "" {
			errs.add("OIDC", refusal)
		} else if secret, problem := secretRef(g, p, o.ClientSecret); problem != "" {
			errs.add("OIDC", problem)
		} else if secret != nil && !slices.Contains(secret.DataKeys, "client-secret") {
			errs.add("OIDC", "client secret not found in secret "+secret.Ref.NamespacedName())
		}
	}
	if j := spec.JWT; j != nil {
		for _, pr := range j.Providers {
			if pr.RemoteJWKS != nil {
				if refusal := impl.walkBackendRefs(g, p, pr.RemoteJWKS.BackendRefs, ignoreBackend); refusal != "" {
					errs.add("JWT", refusal)
					break
				}
			}
			if l := pr.LocalJWKS; l != nil && l.Type != nil && *l.Type == "ValueRef" && l.ValueRef != nil {
				ref := resolve.ObjectRef{Kind: resolve.KindConfigMap, Namespace: p.Ref.Namespace, Name: string(l.ValueRef.Name)}
				if _, presence := g.Lookup(ref); presence == resolve.Missing {
					errs.add("JWT", fmt.Sprintf("local JWKS ConfigMap %s not found", ref.NamespacedName()))
					break
				}
			}
		}
	}
}

// extensionPolicyErrors: envoyextensionpolicy.go translates Wasm, Lua,
// then ExtProc; each Wasm and ExtProc entry's error is joined, Lua stops
// at the first.
func (impl Implementation) extensionPolicyErrors(g *resolve.Graph, p *Policy, errs *policyErrors) {
	spec := &p.Spec
	var wasm []string
	for _, w := range spec.Wasm {
		if img := w.Code.Image; img != nil && img.PullSecretRef != nil {
			if secret, problem := secretRef(g, p, *img.PullSecretRef); problem != "" {
				wasm = append(wasm, problem)
			} else if secret != nil && !slices.Contains(secret.DataKeys, ".dockerconfigjson") {
				wasm = append(wasm, fmt.Sprintf("missing .dockerconfigjson key in secret %s", secret.Ref.NamespacedName()))
			}
		}
	}
	errs.add("Wasm", wasm...)
	if len(spec.Lua) > 0 && impl.Config.LuaDisabled {
		errs.add("Lua", "Skipping Lua EnvoyExtensionPolicy as feature is disabled in the Gateway")
	} else {
		for _, l := range spec.Lua {
			if l.Type != "ValueRef" || l.ValueRef == nil {
				continue
			}
			obj, presence := g.Lookup(resolve.ObjectRef{Kind: resolve.KindConfigMap, Namespace: p.Ref.Namespace, Name: string(l.ValueRef.Name)})
			if presence == resolve.Missing {
				errs.add("Lua", fmt.Sprintf("can't find the referenced configmap %s in namespace %s", l.ValueRef.Name, p.Ref.Namespace))
				break
			}
			// It falls back to any key when there is no "lua".
			if cm, ok := obj.(*resolve.ConfigMap); ok && len(cm.DataKeys) == 0 {
				errs.add("Lua", fmt.Sprintf("can't find the key lua in the referenced configmap %s", l.ValueRef.Name))
				break
			}
		}
	}
	var extProc []string
	for _, ep := range spec.ExtProc {
		if refusal := impl.walkBackendRefs(g, p, ep.BackendRefs, ignoreBackend); refusal != "" {
			extProc = append(extProc, refusal)
		}
	}
	errs.add("ExtProc", extProc...)
}

// backendTrafficPolicyErrors: backendtrafficpolicy.go buildTrafficFeatures,
// in its order.
func backendTrafficPolicyErrors(g *resolve.Graph, p *Policy, errs *policyErrors) {
	spec := &p.Spec
	if spec.RateLimit != nil {
		if problem := rateLimitError(&spec.policyFields); problem != "" {
			errs.add("RateLimit", problem)
		}
	}
	if bl := spec.BandwidthLimit; bl != nil {
		if problem := bandwidthError("request", bl.Request); problem != "" {
			errs.add("BandwidthLimit", problem)
		} else if problem := bandwidthError("response", bl.Response); problem != "" {
			errs.add("BandwidthLimit", problem)
		}
	}
	if lb := spec.LoadBalancer; lb != nil && lb.ConsistentHash != nil && lb.ConsistentHash.TableSize != nil {
		// clustersettings.go buildConsistentHashLoadBalancer:
		// MaxConsistentHashTableSize, and a prime.
		if size := *lb.ConsistentHash.TableSize; size > 5000011 || !big.NewInt(int64(size)).ProbablyPrime(0) {
			errs.add("LoadBalancer", fmt.Sprintf("ConsistentHash: invalid TableSize value %d", size))
		}
	}
	if cb := spec.CircuitBreaker; cb != nil {
		for _, f := range []struct {
			name  string
			value *int64
		}{{"MaxConnections", cb.MaxConnections}, {"MaxParallelRequests", cb.MaxParallelRequests}, {"MaxPendingRequests", cb.MaxPendingRequests},
			{"MaxParallelRetries", cb.MaxParallelRetries}, {"MaxRequestsPerConnection", cb.MaxRequestsPerConnection}} {
			if f.value != nil && (*f.value < 0 || *f.value > math.MaxUint32) {
				errs.add("CircuitBreaker", fmt.Sprintf("invalid %s value %d", f.name, *f.value))
				break
			}
		}
	}
	if r := spec.Retry; r != nil && r.PerRetry != nil && r.PerRetry.BackOff != nil {
		errs.add("Retry", retryErrors(r.PerRetry.BackOff.BaseInterval, r.PerRetry.BackOff.MaxInterval)...)
	}
	if t := spec.Timeout; t != nil {
		var bad []string
		if t.TCP != nil {
			bad = append(bad, invalidDurations(field{"ConnectTimeout", t.TCP.ConnectTimeout})...)
		}
		if h := t.HTTP; h != nil {
			bad = append(bad, invalidDurations(field{"ConnectionIdleTimeout", h.ConnectionIdleTimeout},
				field{"MaxConnectionDuration", h.MaxConnectionDuration}, field{"RequestTimeout", h.RequestTimeout})...)
		}
		errs.add("Timeout", bad...)
	}
	if c := spec.Connection; c != nil && c.BufferLimit != nil {
		if n, ok := c.BufferLimit.AsInt64(); !ok {
			errs.add("BackendConnection", "invalid BufferLimit value "+c.BufferLimit.String())
		} else if n < 0 || n > math.MaxUint32 {
			errs.add("BackendConnection", fmt.Sprintf("BufferLimit value %s is out of range", c.BufferLimit.String()))
		}
	}
	errs.add("HTTP2", http2Errors(p)...)
	for _, ro := range spec.ResponseOverride {
		if ro.Response == nil || ro.Response.Body == nil || ro.Response.Body.Type == nil || *ro.Response.Body.Type != "ValueRef" || ro.Response.Body.ValueRef == nil {
			continue
		}
		ref := resolve.ObjectRef{Kind: resolve.KindConfigMap, Namespace: p.Ref.Namespace, Name: string(ro.Response.Body.ValueRef.Name)}
		obj, presence := g.Lookup(ref)
		if presence == resolve.Missing {
			errs.add("ResponseOverride", "can't find the referenced configmap "+ref.NamespacedName())
			break
		}
		// It falls back to any key when there is no "response.body".
		if cm, ok := obj.(*resolve.ConfigMap); ok && len(cm.DataKeys) == 0 {
			errs.add("ResponseOverride", "can't find the key response.body in the referenced configmap "+ref.NamespacedName())
			break
		}
	}
	if rb := spec.RequestBuffer; rb != nil {
		if n, ok := rb.Limit.AsInt64(); !ok {
			errs.add("RequestBuffer", "limit must be convertible to an int64")
		} else if n < 0 || n > math.MaxUint32 {
			errs.add("RequestBuffer", fmt.Sprintf("limit value %s is out of range, must be between 0 and %d", rb.Limit.String(), uint32(math.MaxUint32)))
		}
	}
}

// rateLimitError: backendtrafficpolicy.go buildRateLimit, which stops at
// its first error. The global rate limit's "enable Ratelimit in the
// EnvoyGateway config" is not predicted: whether it is enabled is not
// among the inputs.
func rateLimitError(spec *policyFields) string {
	rl := spec.RateLimit
	local, global := rl.Local, rl.Global
	if rl.Type != nil {
		switch *rl.Type {
		case "Local":
			if local == nil {
				return "local configuration empty for rateLimit"
			}
			global = nil
		case "Global":
			if global == nil {
				return "global configuration empty for rateLimit"
			}
			local = nil
		}
	}
	if local != nil {
		if problem := localRateLimitError(local); problem != "" {
			return problem
		}
	}
	if global != nil {
		for i := range global.Rules {
			if problem := rateLimitRuleError(global, i); problem != "" {
				return problem
			}
		}
	}
	return ""
}

// localRateLimitError: buildLocalRateLimit. Its rule without
// clientSelectors, at most one, is the route's default limit (else one per
// second); every rule's unit must be a multiple of the default's, as
// Envoy's local rate limit requires.
func localRateLimitError(local *rateLimitSpec) string {
	defaultUnit := "Second"
	seen := false
	for _, r := range local.Rules {
		if len(r.ClientSelectors) == 0 {
			if seen {
				return "local rateLimit can not have more than one rule without clientSelectors"
			}
			seen, defaultUnit = true, r.Limit.Unit
		}
	}
	d := rateLimitUnitSeconds(defaultUnit)
	for _, r := range local.Rules {
		if d == 0 || rateLimitUnitSeconds(r.Limit.Unit)%d != 0 {
			return "local rateLimit rule limit unit must be a multiple of the default limit unit"
		}
	}
	for i, r := range local.Rules {
		if len(r.ClientSelectors) > 0 {
			if problem := rateLimitRuleError(local, i); problem != "" {
				return problem
			}
		}
	}
	return ""
}

// rateLimitUnitSeconds: internal/utils/ratelimit UnitToSeconds, 0 for a
// unit it does not know.
func rateLimitUnitSeconds(unit string) int64 {
	const day = 24 * 60 * 60
	return map[string]int64{"Second": 1, "Minute": 60, "Hour": 60 * 60, "Day": day, "Week": 7 * day, "Month": 30 * day, "Year": 365 * day}[unit]
}

// rateLimitRuleError: buildRateLimitRule's checks of a rule's
// clientSelectors, in its order. A match type left out is the API's
// default: Exact for headers and query parameters, PathPrefix for a path.
func rateLimitRuleError(rl *rateLimitSpec, i int) string {
	or := func(t *string, otherwise string) string {
		if t == nil {
			return otherwise
		}
		return *t
	}
	inverted := func(b *bool) bool { return b != nil && *b }
	for _, m := range rl.Rules[i].ClientSelectors {
		if len(m.Headers) == 0 && len(m.Methods) == 0 && m.Path == nil && m.SourceCIDR == nil && len(m.QueryParams) == 0 {
			return "unable to translate rateLimit. At least one of the header or method or path or sourceCIDR or queryParameters must be specified"
		}
		for _, h := range m.Headers {
			switch typ := or(h.Type, "Exact"); {
			case typ == "Exact" && h.Value != nil:
			case typ == "RegularExpression" && h.Value != nil:
				if !compiles(*h.Value) {
					return regexError(*h.Value)
				}
			case typ == "Distinct" && h.Value == nil:
				if inverted(h.Invert) {
					return "unable to translate rateLimit.Invert is not applicable for distinct header match type"
				}
			default:
				return "unable to translate rateLimit. Either the header.Type is not valid or the header is missing a value"
			}
		}
		if p := m.Path; p != nil {
			switch typ := or(p.Type, "PathPrefix"); typ {
			case "PathPrefix", "Exact":
			case "RegularExpression":
				if !compiles(p.Value) {
					return regexError(p.Value)
				}
			default:
				return "unable to translate rateLimit: invalid path type."
			}
		}
		if c := m.SourceCIDR; c != nil {
			if _, _, err := net.ParseCIDR(c.Value); err != nil {
				return "unable to translate rateLimit: " + err.Error()
			}
		}
		for _, q := range m.QueryParams {
			if q.Name == "" {
				return "name is required when QueryParamMatch is specified"
			}
			switch typ := or(q.Type, "Exact"); typ {
			case "Exact", "RegularExpression":
				if q.Value == nil || *q.Value == "" {
					return "value is required for " + typ + " query parameter match"
				}
				if typ == "RegularExpression" && !compiles(*q.Value) {
					return regexError(*q.Value)
				}
			case "Distinct":
				if inverted(q.Invert) {
					return "unable to translate rateLimit.Invert is not applicable for distinct query parameter match type"
				}
				if q.Value != nil {
					return "unable to translate rateLimit.Value is not applicable for distinct query parameter match type"
				}
			default:
				return "invalid query parameter match type: " + typ
			}
		}
	}
	return ""
}

// regexError: internal/utils/regex Validate's error.
func regexError(pattern string) string {
	_, err := regexp.Compile(pattern)
	return fmt.Sprintf("regex %q is invalid: %v", pattern, err)
}

// bandwidthError: backendtrafficpolicy.go buildBandwidthLimit and
// bandwidthToKibps, which refuse a limit below Envoy's 1 KiB/s.
func bandwidthError(direction string, b *bandwidthLimit) string {
	if b == nil {
		return ""
	}
	bytes, ok := b.Limit.Value.AsInt64()
	switch {
	case !ok:
		return direction + " limit value must be convertible to an int64"
	case bytes < 0:
		return direction + " limit value must be positive"
	}
	perUnit := map[string]int64{"Minute": 60, "Hour": 3600}[b.Limit.Unit]
	if bytes/(max(perUnit, 1)*1024) == 0 {
		return fmt.Sprintf("%s: bandwidth limit of %d bytes per %s is below the minimum of 1 KiB/s", direction, bytes, b.Limit.Unit)
	}
	return ""
}

// retryErrors: clustersettings.go buildRetry's backOff checks.
func retryErrors(base, max *string) []string {
	parse := func(s *string) (time.Duration, bool) {
		if s == nil {
			return 0, false
		}
		d, err := time.ParseDuration(*s)
		return d, err == nil
	}
	b, hasBase := parse(base)
	m, hasMax := parse(max)
	switch {
	case hasBase && b == 0:
		return []string{"baseInterval cannot be set to 0s"}
	case hasMax && m == 0:
		return []string{"maxInterval cannot be set to 0s"}
	case hasBase && hasMax && b > m:
		return []string{"maxInterval cannot be less than baseInterval"}
	}
	return nil
}

// clientTrafficPolicyErrors: clienttrafficpolicy.go
// translateClientTrafficPolicyForListener, the checks that do not depend
// on the listener.
func clientTrafficPolicyErrors(p *Policy, errs *policyErrors) {
	spec := &p.Spec
	if c := spec.Connection; c != nil {
		var bad []string
		if c.ConnectionLimit != nil {
			bad = invalidDurations(field{"CloseDelay", c.ConnectionLimit.CloseDelay})
		}
		if len(bad) == 0 && c.BufferLimit != nil {
			if n, ok := c.BufferLimit.AsInt64(); !ok {
				bad = append(bad, "invalid BufferLimit value "+c.BufferLimit.String())
			} else if n < 0 || n > math.MaxUint32 {
				bad = append(bad, fmt.Sprintf("BufferLimit value %s is out of range, must be between 0 and %d", c.BufferLimit.String(), uint32(math.MaxUint32)))
			}
		}
		errs.add("Connection", bad[:min(len(bad), 1)]...)
	}
	if t := spec.Timeout; t != nil {
		var bad []string
		if t.TCP != nil {
			bad = invalidDurations(field{"TCP IdleTimeout", t.TCP.IdleTimeout})
		}
		if h := t.HTTP; h != nil && len(bad) == 0 {
			bad = invalidDurations(field{"HTTP RequestReceivedTimeout", h.RequestReceivedTimeout}, field{"HTTP IdleTimeout", h.IdleTimeout})
		}
		// buildClientTimeout returns at the first.
		errs.add("Timeout", bad[:min(len(bad), 1)]...)
	}
	if h := spec.Headers; h != nil && h.MaxRequestHeaderLimit != nil {
		// translateListenerHeaderSettings: at least 1Ki, at most
		// maxRequestHeaderLimitKB (8192) Ki.
		limit := h.MaxRequestHeaderLimit
		switch n, ok := limit.AsInt64(); {
		case !ok || n < 1024:
			errs.add("Headers", fmt.Sprintf("MaxRequestHeaderLimit value %s must be at least 1Ki", limit.String()))
		case n > 8192*1024:
			errs.add("Headers", fmt.Sprintf("MaxRequestHeaderLimit value %s exceeds the maximum of 8192Ki", limit.String()))
		}
	}
	errs.add("HTTP2", http2Errors(p)...)
}

// http2Errors: http.go buildIRHTTP2Settings, window sizes within
// MinHTTP2Initial*WindowSize (65535) and MaxHTTP2Initial*WindowSize
// (2147483647).
func http2Errors(p *Policy) []string {
	h := p.Spec.HTTP2
	if h == nil {
		return nil
	}
	var out []string
	for _, f := range []struct {
		name  string
		value *resource.Quantity
	}{{"InitialStreamWindowSize", h.InitialStreamWindowSize}, {"InitialConnectionWindowSize", h.InitialConnectionWindowSize}} {
		if f.value == nil {
			continue
		}
		switch n, ok := f.value.AsInt64(); {
		case !ok:
			out = append(out, fmt.Sprintf("invalid %s value %s", f.name, f.value.String()))
		case n < 65535 || n > 2147483647:
			out = append(out, fmt.Sprintf("%s value %s is out of range, must be between 65535 and 2147483647", f.name, f.value.String()))
		}
	}
	return out
}

// field is a duration field by the name its error gives it.
type field struct {
	name  string
	value *string
}

// invalidDurations are the errors of the fields time.ParseDuration
// refuses: "invalid ConnectTimeout value 20kib".
func invalidDurations(fields ...field) []string {
	var out []string
	for _, f := range fields {
		if f.value == nil {
			continue
		}
		if _, err := time.ParseDuration(*f.value); err != nil {
			out = append(out, fmt.Sprintf("invalid %s value %s", f.name, *f.value))
		}
	}
	return out
}

// secretRef is the Secret a policy's reference names, or why the
// translator refuses it (validate.go validateSecretRef: a cross-namespace
// reference no ReferenceGrant permits, a Secret that does not exist); nil
// and "" when the inputs may lack it.
func secretRef(g *resolve.Graph, p *Policy, ref gwv1.SecretObjectReference) (*resolve.Secret, string) {
	kind := resolve.KindSecret
	if ref.Kind != nil && string(*ref.Kind) == resolve.KindConfigMap {
		kind = resolve.KindConfigMap
	}
	target := resolve.ObjectRef{Kind: kind, Namespace: namespaceOr((*string)(ref.Namespace), p.Ref.Namespace), Name: string(ref.Name)}
	if target.Namespace != p.Ref.Namespace && !g.Granted(Group, policyKind(p.Ref), p.Ref.Namespace, resolve.GroupCore, kind, target.Namespace, target.Name) {
		return nil, fmt.Sprintf("ref to %s %s not permitted by any ReferenceGrant", kind, target.NamespacedName())
	}
	obj, presence := g.Lookup(target)
	if presence == resolve.Missing {
		return nil, fmt.Sprintf("%s %s does not exist", strings.ToLower(kind), target.NamespacedName())
	}
	secret, _ := obj.(*resolve.Secret)
	return secret, ""
}

// ignoreBackend is walkBackendRefs' reach when only its refusal matters.
func ignoreBackend(resolve.ObjectRef, string) {}

// geoIPEntryError is the message of what its translator refuses for a
// SecurityPolicy at entry a, "" for nothing: its own fields' errors, then
// for each HTTP listener the entry covers, when an authorization rule
// matches client IP geolocations, what validateAuthorizationGeoIP refuses
// (securitypolicy.go translateSecurityPolicyForRoute and
// translateSecurityPolicyForGateway validate each listener once, with the
// client IP detection a ClientTrafficPolicy gives it and the Gateway's
// EnvoyProxy).
func geoIPEntryError(g *resolve.Graph, p *resolve.PolicyResult, a *resolve.PolicyAncestorStatus, errs policyErrors) string {
	auth := p.Object.(*Policy).Spec.Authorization
	if auth == nil || a.Gateway == nil {
		return errs.message()
	}
	var country, region, city, asn, isp, anonymous bool
	for _, r := range auth.Rules {
		for _, geo := range r.Principal.ClientIPGeoLocations {
			country, region, city = country || geo.Country != nil, region || geo.Region != nil, city || geo.City != nil
			asn, isp, anonymous = asn || geo.ASN != nil, isp || geo.ISP != nil, anonymous || geo.Anonymous != nil
		}
	}
	if !(country || region || city || asn || isp || anonymous) {
		return errs.message()
	}
	listeners := attachedListeners(g, a)
	for _, t := range a.Targets {
		listeners = append(listeners, coveredListeners(g, t)...)
	}
	var seen []*resolve.Listener
	for _, l := range listeners {
		if slices.Contains(seen, l) || !l.Valid() || (l.Protocol != gwv1.HTTPProtocolType && l.Protocol != gwv1.HTTPSProtocolType) {
			continue
		}
		seen = append(seen, l)
		if problem := geoIPListenerError(g, a.Gateway, l, country, region, city, asn, isp, anonymous); problem != "" {
			errs = append(slices.Clone(errs), "Authorization: "+problem)
		}
	}
	return errs.message()
}

// geoIPListenerError: validateAuthorizationGeoIP and buildGeoIPProvider
// for one listener, given which geolocation fields the rules match. The
// provider is judged only when the inputs show the Gateway's EnvoyProxy,
// or that it has none.
func geoIPListenerError(g *resolve.Graph, gw *resolve.GatewayResult, l *resolve.Listener, country, region, city, asn, isp, anonymous bool) string {
	d := listenerClientIPDetection(g, l)
	if d == nil {
		return "authorization clientIPGeoLocations requires ClientTrafficPolicy.spec.clientIPDetection to be configured"
	}
	if modes := btoi(d.XForwardedFor != nil) + btoi(d.CustomHeader != nil) + btoi(d.DirectSourceIP != nil); modes != 1 {
		return "authorization clientIPGeoLocations requires exactly one of ClientTrafficPolicy.spec.clientIPDetection.{xForwardedFor,customHeader,directSourceIP}"
	}
	if d.XForwardedFor != nil && len(d.XForwardedFor.TrustedCIDRs) > 0 {
		return "authorization clientIPGeoLocations does not support ClientIPDetection.XForwardedFor.TrustedCIDRs"
	}
	proxy := Proxy(g, gw)
	if proxy == nil && (gw.Parameters != nil || gw.Class == nil || gw.Class.Spec.ParametersRef != nil) {
		return ""
	}
	if proxy == nil || proxy.Spec.GeoIP == nil {
		return "authorization clientIPGeoLocations requires EnvoyProxy.spec.geoIP.provider to be configured"
	}
	provider := proxy.Spec.GeoIP.Provider
	switch {
	case provider.Type != "MaxMind":
		return fmt.Sprintf("unsupported geoIP provider type %q", provider.Type)
	case provider.MaxMind == nil:
		return "geoIP provider MaxMind is missing maxMind configuration"
	}
	m := provider.MaxMind
	for _, need := range []struct {
		used, missing bool
		problem       string
	}{
		{country, m.CountryDBSource == nil && m.CityDBSource == nil, "country requires EnvoyProxy.spec.geoIP.provider.maxMind.countryDbSource or cityDbSource"},
		{region, m.CityDBSource == nil, "region requires EnvoyProxy.spec.geoIP.provider.maxMind.cityDbSource"},
		{city, m.CityDBSource == nil, "city requires EnvoyProxy.spec.geoIP.provider.maxMind.cityDbSource"},
		{asn, m.ASNDBSource == nil, "asn requires EnvoyProxy.spec.geoIP.provider.maxMind.asnDbSource"},
		{isp, m.ISPDBSource == nil, "isp requires EnvoyProxy.spec.geoIP.provider.maxMind.ispDbSource"},
		{anonymous, m.AnonymousIPDBSource == nil, "anonymous requires EnvoyProxy.spec.geoIP.provider.maxMind.anonymousIpDbSource"},
	} {
		if need.used && need.missing {
			return "authorization clientIPGeoLocations." + need.problem
		}
	}
	return ""
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// listenerClientIPDetection is the clientIPDetection of the
// ClientTrafficPolicy that applies to the listener: one on the listener
// before one on its Gateway or ListenerSet (clienttrafficpolicy.go
// ProcessClientTrafficPolicies translates the policies with a sectionName
// first); nil when none sets it.
func listenerClientIPDetection(g *resolve.Graph, l *resolve.Listener) *clientIPDetection {
	var whole *Policy
	for _, p := range g.Policies {
		obj, ok := p.Object.(*Policy)
		if !ok || policyKind(p.Ref) != KindClientTrafficPolicy {
			continue
		}
		for _, t := range p.Targets {
			if !t.Applies() || !slices.Contains(coveredListeners(g, t), l) {
				continue
			}
			if t.SectionName != "" {
				return obj.Spec.ClientIPDetection
			}
			if whole == nil {
				whole = obj
			}
		}
	}
	if whole == nil {
		return nil
	}
	return whole.Spec.ClientIPDetection
}

// samePortConflict is the refusal of a ClientTrafficPolicy on a listener
// of a Gateway or ListenerSet, or on a whole ListenerSet, whose plain HTTP
// listener shares its port with another plain HTTP listener of the same
// Gateway the policy does not cover: on one port they share a filter
// chain, which the policy would change for both ("" for none).
// clienttrafficpolicy.go validatePortOverlapForClientTrafficPolicy and
// helpers.go listenersWithSameHTTPPort, with the listeners named as its IR
// names them ("ns/gateway/listener", "ns/gateway/ns/listenerset/listener").
// A policy on a whole Gateway covers all its listeners, its ListenerSets'
// too.
func samePortConflict(g *resolve.Graph, t *resolve.PolicyTargetResult) string {
	var gw *resolve.GatewayResult
	var covers func(l *resolve.Listener) bool
	switch o := t.Object.(type) {
	case *resolve.Gateway:
		if t.SectionName == "" {
			return ""
		}
		gw = g.Gateway(o.Ref.Namespace, o.Ref.Name)
		covers = func(l *resolve.Listener) bool { return l.ListenerSet == nil && l.Name == t.SectionName }
	case *resolve.ListenerSet:
		if ls := g.ListenerSet(o.Ref.Namespace, o.Ref.Name); ls != nil {
			gw = ls.Parent
		}
		covers = func(l *resolve.Listener) bool {
			return l.ListenerSet != nil && l.ListenerSet.Ref == o.Ref && (t.SectionName == "" || l.Name == t.SectionName)
		}
	}
	if gw == nil {
		return ""
	}
	all := slices.Clone(gw.Listeners)
	for _, ls := range gw.ListenerSets {
		all = append(all, ls.Listeners...)
	}
	plain := func(l *resolve.Listener) bool { return l.Valid() && l.Protocol == gwv1.HTTPProtocolType }
	irName := func(l *resolve.Listener) string {
		if l.ListenerSet != nil {
			return gw.Ref.NamespacedName() + "/" + l.ListenerSet.Ref.NamespacedName() + "/" + l.Name
		}
		return gw.Ref.NamespacedName() + "/" + l.Name
	}
	for _, l := range all {
		if !covers(l) || !plain(l) {
			continue
		}
		var others []string
		for _, o := range all {
			if o != l && plain(o) && o.Port == l.Port && (t.SectionName != "" || !covers(o)) {
				others = append(others, irName(o))
			}
		}
		if len(others) > 0 {
			return fmt.Sprintf("ClientTrafficPolicy is being applied to multiple http (non https) listeners (%s) on the same port, which is not allowed.", strings.Join(others, ", "))
		}
	}
	return ""
}
