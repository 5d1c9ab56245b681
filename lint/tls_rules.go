package lint

import (
	"fmt"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
)

var listenerCACertificateInvalid = &Rule{
	ID: "listener-ca-certificate-invalid", Severity: Error,
	Summary: "frontend client-certificate CA reference does not resolve",
	Doc: Doc{
		Text: `spec.tls.frontend validates client certificates on HTTPS listeners against
CA certificates: caCertificateRefs to core ConfigMaps (or Secrets) whose ca.crt
holds PEM certificates; one in another namespace needs a ReferenceGrant there.
Otherwise every HTTPS listener the validation applies to (the default, or its
port's perPort entry) gets ResolvedRefs=False (InvalidCACertificateRef,
InvalidCACertificateKind or RefNotPermitted) and, when no CA reference is
usable, Accepted=False/NoValidCACertificate: it serves nothing. An
implementation that passes the bundle to its proxy unparsed (Envoy Gateway)
accepts one without PEM certificates, and its proxy refuses the listener.

Fix: correct the reference, add the ConfigMap, or add a ReferenceGrant.`,
		Example: `tls:
  frontend:
    default:
      validation:
        caCertificateRefs:
        - {group: "", kind: ConfigMap, name: client-ca}   # holds ca.crt`,
	},
	Run: func(p *Pass) {
		for _, gw := range p.Graph.Gateways {
			for _, v := range gw.FrontendValidations {
				for _, ref := range v.CARefs {
					reportCARef(p, &gw.Meta, ref)
				}
			}
		}
	},
}

// reportRef reports a reference of owner that does not resolve, after
// prefix, with its reason and, when a ReferenceGrant is missing, the grant
// that would permit it.
func reportRef(p *Pass, owner *resolve.Meta, prefix string, ref *resolve.RefResult) {
	msg := fmt.Sprintf("%s%s (%s)", prefix, ref.Message, ref.Reason)
	if ref.Reason == resolve.ReasonRefNotPermitted {
		msg += "; " + grantHint(owner.Ref.Kind, owner.Ref.Namespace, ref.Group, ref.Target)
	}
	p.Report(owner, ref.Path, nil, "%s", msg)
}

// reportCARef reports a CA certificate reference that does not resolve, or
// that resolves to a bundle the controller passes on unparsed and its proxy
// refuses.
func reportCARef(p *Pass, owner *resolve.Meta, ref *resolve.RefResult) {
	switch {
	case !ref.OK():
		reportRef(p, owner, "", ref)
	case ref.BundleProblem != "":
		p.Report(owner, ref.Path, nil, "%s: %s; the controller accepts it, but its proxy refuses the configuration", ref.Target, ref.BundleProblem)
	}
}

var gatewayParametersInvalid = &Rule{
	ID: "gateway-parameters-invalid", Severity: Error,
	Summary: "infrastructure.parametersRef is missing or of a wrong kind",
	Doc: Doc{
		Text: `spec.infrastructure.parametersRef names the implementation-specific object
that configures the Gateway. When it does not exist, or is of a kind the
Gateway's controller does not take, the Gateway is rejected:
Accepted=False/InvalidParameters, and nothing it declares is served.

The kinds a controller takes are those its GatewayClass's own parametersRef
names, or those of a known implementation (Envoy Gateway: EnvoyProxy; Istio:
ConfigMap; NGINX Gateway Fabric: NginxProxy; kgateway: GatewayParameters).
An object of a kind gwlint does not read is assumed to exist, even with
--strict-refs.

Fix: correct the reference, or add the object.`,
		Example: `gatewayClassName: eg   # controllerName: gateway.envoyproxy.io/gatewayclass-controller
infrastructure:
  parametersRef: {group: gateway.envoyproxy.io, kind: EnvoyProxy, name: custom-proxy}`,
	},
	Run: func(p *Pass) {
		for _, gw := range p.Graph.Gateways {
			if proxy := envoygateway.Proxy(p.Graph, gw); gw.Parameters != nil && !gw.Parameters.OK() && (proxy == nil || len(proxy.Problems) == 0) {
				// What the EnvoyProxy holds is envoyproxy-refused's.
				p.Report(&gw.Meta, gw.Parameters.Path, nil, "Gateway %s is not accepted: %s", gw.Ref.NamespacedName(), gw.Parameters.Message)
			}
		}
	},
}

var listenerCertificateExpired = &Rule{
	ID: "listener-certificate-expired", Severity: Warning,
	Summary: "listener certificate is expired or not yet valid",
	Doc: Doc{
		Text: `The certificate in the Secret's tls.crt is outside its validity period now. A
controller still serves it, and every client refuses the handshake.

Fix: renew the certificate (or let cert-manager do it).`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			for _, ref := range l.CertRefs {
				if ref.ValidityProblem != "" {
					p.Report(l.Owner(), ref.Path, nil, "%s: certificate of %s is %s", l, ref.Target, ref.ValidityProblem)
				}
			}
		}
	},
}

var listenerCertificateHostnameMismatch = &Rule{
	ID: "listener-certificate-hostname-mismatch", Severity: Warning,
	Summary: "no listener certificate covers the listener hostname",
	Doc: Doc{
		Text: `Clients connecting to the listener's hostname check it against the DNS
subject alternative names of the certificate served (a wildcard covers one
label). When none of the listener's certificates covers it, the handshake
succeeds only for clients that skip verification.

Fix: issue the certificate for the hostname, or narrow the hostname.`,
		Example: `hostname: shop.example.com
tls:
  certificateRefs:
  - name: example-com-wildcard   # DNS names: *.example.com`,
	},
	Run: func(p *Pass) {
		for l := range p.Graph.Listeners() {
			for _, ref := range l.CertRefs {
				if ref.HostnameProblem != "" {
					p.Report(l.Owner(), ref.Path, nil, "%s: %s of %s", l, ref.HostnameProblem, ref.Target)
				}
			}
		}
	},
}

var backendTLSPolicyTargetNotFound = &Rule{
	ID: "backendtlspolicy-target-not-found", Severity: Error,
	Summary: "BackendTLSPolicy targets a Service that does not exist",
	Doc: Doc{
		Text: `A BackendTLSPolicy applies to core Services in its namespace (and, with
sectionName, to the Service port of that name). A target that does not exist,
names no port, or is of another kind leaves the policy unapplied
(Accepted=False/TargetNotFound): the Gateway keeps speaking plain text to the
backend.

Fix: correct targetRefs.`,
		Example: `targetRefs:
- {group: "", kind: Service, name: store, sectionName: https}   # a port name`,
	},
	Run: func(p *Pass) {
		for _, pol := range p.Graph.TLSPolicies {
			for _, t := range pol.Targets {
				if t.Reason == resolve.ReasonTargetNotFound {
					p.Report(&pol.Meta, t.Path, nil, "%s", t.Message)
				}
			}
		}
	},
}

var backendTLSPolicyCAInvalid = &Rule{
	ID: "backendtlspolicy-ca-invalid", Severity: Error,
	Summary: "BackendTLSPolicy CA certificates do not resolve",
	Doc: Doc{
		Text: `spec.validation needs CA certificates to verify the backend: caCertificateRefs
to ConfigMaps in the policy's namespace whose ca.crt holds PEM certificates,
or wellKnownCACertificates: System. A reference of another kind
(ResolvedRefs=False/InvalidKind), to a missing ConfigMap or one without
certificates (InvalidCACertificateRef), or an unrecognized well-known set
(Accepted=False/Invalid) makes connections to the backend fail: clients get
HTTP 5xx. An implementation that passes the bundle to its proxy unparsed
(Envoy Gateway) accepts one without PEM certificates, and its proxy refuses
the configuration.

Fix: correct the reference, add the ConfigMap, or use System.`,
		Example: `validation:
  hostname: store.example.com
  caCertificateRefs:
  - {group: "", kind: ConfigMap, name: store-ca}   # holds ca.crt`,
	},
	Run: func(p *Pass) {
		for _, pol := range p.Graph.TLSPolicies {
			for _, ref := range pol.CARefs {
				reportCARef(p, &pol.Meta, ref)
			}
			if pol.Accepted.Reason == resolve.ReasonInvalid {
				p.Report(&pol.Meta, "spec.validation.wellKnownCACertificates", nil, "%s", pol.Accepted.Message)
			}
		}
	},
}

var backendTLSPolicyConflicted = &Rule{
	ID: "backendtlspolicy-conflicted", Severity: Error,
	Summary: "another BackendTLSPolicy already targets this Service",
	Doc: Doc{
		Text: `When several BackendTLSPolicies target the same Service and sectionName, the
oldest (then the first by namespace/name) applies; the others are not
accepted (Accepted=False/Conflicted) and their settings are silently unused.
A policy for one port (sectionName) and one for the whole Service do not
conflict: the port's applies to it.

Fix: merge the policies, or target distinct ports.`,
		Example: `targetRefs:
- {group: "", kind: Service, name: store, sectionName: https}   # one policy per port`,
	},
	Run: func(p *Pass) {
		for _, pol := range p.Graph.TLSPolicies {
			for _, t := range pol.Targets {
				if t.Reason == resolve.ReasonConflicted {
					p.Report(&pol.Meta, t.Path, []Related{Relate(&t.HeldBy.Meta, "metadata.name", "the policy that applies")}, "%s", t.Message)
				}
			}
		}
	},
}
