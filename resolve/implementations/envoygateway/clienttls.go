package envoygateway

import (
	"fmt"
	"slices"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
)

// clientTLS is a ClientTrafficPolicy's spec.tls: the fields its translator
// checks on a listener that terminates TLS (api/v1alpha1/tls_types.go
// ClientTLSSettings).
type clientTLS struct {
	Ciphers          []string `json:"ciphers,omitempty"`
	ClientValidation *struct {
		// Optional is deprecated for Mode (deprecatedFields).
		Optional          bool                         `json:"optional,omitempty"`
		Mode              *string                      `json:"mode,omitempty"`
		CACertificateRefs []gwv1.SecretObjectReference `json:"caCertificateRefs,omitempty"`
	} `json:"clientValidation,omitempty"`
}

// validCipherSuites are the cipher suites it takes (internal/gatewayapi/
// tls.go validCipherSuites: Envoy's, by OpenSSL and IANA names).
var validCipherSuites = []string{
	"ECDHE-ECDSA-AES128-GCM-SHA256", "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-RSA-AES128-GCM-SHA256", "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
	"ECDHE-ECDSA-AES256-GCM-SHA384", "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-RSA-AES256-GCM-SHA384", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
	"ECDHE-ECDSA-CHACHA20-POLY1305", "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-RSA-CHACHA20-POLY1305", "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
	"ECDHE-ECDSA-AES128-SHA", "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA",
	"ECDHE-RSA-AES128-SHA", "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA",
	"AES128-GCM-SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256",
	"AES128-SHA", "TLS_RSA_WITH_AES_128_CBC_SHA",
	"ECDHE-ECDSA-AES256-SHA", "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA",
	"ECDHE-RSA-AES256-SHA", "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA",
	"AES256-GCM-SHA384", "TLS_RSA_WITH_AES_256_GCM_SHA384",
	"AES256-SHA", "TLS_RSA_WITH_AES_256_CBC_SHA",
}

// clientTLSError is what clienttrafficpolicy.go buildListenerTLSParameters
// refuses in a ClientTrafficPolicy's spec.tls on a listener that
// terminates TLS, "" for nothing: an unsupported cipher suite; a CA
// certificate reference it cannot read (validateAndGetDataAtKeyInRef: a
// Secret or ConfigMap that does not exist or is not granted, one without
// ca.crt that holds more than one key, a ClusterTrustBundle that does not
// exist); a verifying mode (RequireAndVerify, the default, or
// VerifyIfGiven, which the deprecated optional means) without CA
// certificates. An object the inputs may lack is not refused. The
// certificates' and CRLs' content is not checked.
func clientTLSError(g *resolve.Graph, p *Policy) string {
	t := p.Spec.TLS
	if t == nil {
		return ""
	}
	for _, c := range t.Ciphers {
		if !slices.Contains(validCipherSuites, c) {
			return "unsupported cipher suite: " + c
		}
	}
	v := t.ClientValidation
	if v == nil {
		return ""
	}
	mode := "RequireAndVerify"
	switch {
	case v.Mode != nil:
		mode = *v.Mode
	case v.Optional:
		mode = "VerifyIfGiven"
	}
	for _, ref := range v.CACertificateRefs {
		if problem := caRefProblem(g, p, ref); problem != "" {
			return "failed to get certificate from ref: " + problem
		}
	}
	if len(v.CACertificateRefs) == 0 && (mode == "VerifyIfGiven" || mode == "RequireAndVerify") {
		if v.Mode == nil && v.Optional {
			return fmt.Sprintf("tls.clientValidation.optional=true requires caCertificateRefs (maps to mode %q)", mode)
		}
		return fmt.Sprintf("tls.clientValidation.mode %q requires caCertificateRefs", mode)
	}
	return ""
}

// caRefProblem is why validateAndGetDataAtKeyInRef cannot read the CA
// certificates of ref (key ca.crt, or a sole key), "" when it can or the
// inputs may lack the object.
func caRefProblem(g *resolve.Graph, p *Policy, ref gwv1.SecretObjectReference) string {
	kind := resolve.KindSecret
	if ref.Kind != nil {
		kind = string(*ref.Kind)
	}
	switch kind {
	case resolve.KindSecret, resolve.KindConfigMap:
		if _, problem := secretRef(g, p, ref); problem != "" {
			return problem
		}
		obj, _ := g.Lookup(resolve.ObjectRef{Kind: kind, Namespace: namespaceOr((*string)(ref.Namespace), p.Ref.Namespace), Name: string(ref.Name)})
		var keys []string
		switch o := obj.(type) {
		case *resolve.Secret:
			keys = o.DataKeys
		case *resolve.ConfigMap:
			keys = o.DataKeys
		default:
			return ""
		}
		if !slices.Contains(keys, "ca.crt") && len(keys) != 1 {
			return fmt.Sprintf("ref %s [%s] has none of the expected keys [ca.crt] and more than one entry", map[string]string{resolve.KindSecret: "secret", resolve.KindConfigMap: "configmap"}[kind], ref.Name)
		}
	case "ClusterTrustBundle":
		if _, presence := g.Lookup(resolve.ObjectRef{Kind: resolve.QualifiedKind("certificates.k8s.io", kind), Name: string(ref.Name)}); presence == resolve.Missing {
			return fmt.Sprintf("ref ClusterTrustBundle [%s] not found", ref.Name)
		}
	default:
		return "unsupported ref kind:" + kind
	}
	return ""
}

// terminatesTLS reports whether its translator gives the listener a TLS
// configuration, which a ClientTrafficPolicy's spec.tls adjusts: a valid
// HTTPS listener, or a TLS one that terminates.
func terminatesTLS(l *resolve.Listener) bool {
	if !l.Valid() {
		return false
	}
	switch l.Protocol {
	case gwv1.HTTPSProtocolType:
		return true
	case gwv1.TLSProtocolType:
		return l.TLS != nil && (l.TLS.Mode == nil || *l.TLS.Mode == gwv1.TLSModeTerminate)
	}
	return false
}

// coveredListeners are the listeners a ClientTrafficPolicy's target
// covers: a Gateway's own and its ListenerSets', a ListenerSet's, or the
// one its sectionName names.
func coveredListeners(g *resolve.Graph, t *resolve.PolicyTargetResult) []*resolve.Listener {
	var all []*resolve.Listener
	var own func(l *resolve.Listener) bool
	switch o := t.Object.(type) {
	case *resolve.Gateway:
		gw := g.Gateway(o.Ref.Namespace, o.Ref.Name)
		if gw == nil {
			return nil
		}
		all = slices.Clone(gw.Listeners)
		for _, ls := range gw.ListenerSets {
			all = append(all, ls.Listeners...)
		}
		own = func(l *resolve.Listener) bool { return l.ListenerSet == nil }
	case *resolve.ListenerSet:
		ls := g.ListenerSet(o.Ref.Namespace, o.Ref.Name)
		if ls == nil {
			return nil
		}
		all = ls.Listeners
		own = func(*resolve.Listener) bool { return true }
	default:
		return nil
	}
	if t.SectionName == "" {
		return all
	}
	var out []*resolve.Listener
	for _, l := range all {
		if own(l) && l.Name == t.SectionName {
			out = append(out, l)
		}
	}
	return out
}

// clientTrafficPolicyEntryError is the message of what its translator
// refuses for a ClientTrafficPolicy at entry a, "" for nothing: its
// listeners are checked first (samePortConflict), then its fields, with
// http1's default host (http10Errors) between headers and http2, spec.tls
// last and only when a listener it covers terminates TLS
// (translateClientTrafficPolicyForListener).
func clientTrafficPolicyEntryError(g *resolve.Graph, p *resolve.PolicyResult, a *resolve.PolicyAncestorStatus, errs policyErrors) string {
	obj := p.Object.(*Policy)
	tls := false
	var listeners []*resolve.Listener
	for _, t := range a.Targets {
		if conflict := samePortConflict(g, t); conflict != "" {
			return conflict
		}
		covered := coveredListeners(g, t)
		tls = tls || slices.ContainsFunc(covered, terminatesTLS)
		listeners = append(listeners, covered...)
	}
	if http10 := http10Errors(obj, listeners); len(http10) > 0 {
		var http1 policyErrors
		http1.add("HTTP1", http10...)
		at := slices.IndexFunc(errs, func(e string) bool { return strings.HasPrefix(e, "HTTP2: ") })
		if at < 0 {
			at = len(errs)
		}
		errs = slices.Insert(slices.Clone(errs), at, http1...)
	}
	if tls {
		if problem := clientTLSError(g, obj); problem != "" {
			errs = append(slices.Clone(errs), "TLS: "+problem)
		}
	}
	return errs.message()
}
