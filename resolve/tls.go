package resolve

import (
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/gwlint/gwlint/resolve/profile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// References to TLS material: certificate Secrets (listener certificateRefs,
// the Gateway's backend client certificate) and CA certificate bundles
// (frontend client-certificate validation, BackendTLSPolicy), and what the
// certificates among the inputs say.

// lookupRef does what every reference from owner needs once its kind is
// accepted: a cross-namespace reference needs a ReferenceGrant in the
// target namespace (RefNotPermitted otherwise, decided before the target is
// looked up, as the conformance suite expects); then the target is looked
// up. It returns the target when the inputs hold it.
func (g *Graph) lookupRef(owner *Meta, res *RefResult) Object {
	t := res.Target
	if t.Namespace != owner.Ref.Namespace {
		grant, ok := g.permitted(owner.Ref.Kind, owner.Ref.Namespace, res.Group, t.Kind, t.Namespace, t.Name)
		if !ok {
			res.Reason = ReasonRefNotPermitted
			res.Message = fmt.Sprintf("%s %s is in another namespace and no ReferenceGrant in %q allows %s from %q to refer to it",
				t.Kind, t.NamespacedName(), t.Namespace, owner.Ref.Kind, owner.Ref.Namespace)
			return nil
		}
		res.Grant = grant
	}
	obj, presence := g.Lookup(t)
	res.Presence = presence
	if presence == Generated {
		res.Generation = g.GeneratedBy(t)
	}
	return obj
}

// unresolvedKind makes the reference Unresolved when its group or kind
// holds a deploy-time placeholder, and reports whether it does.
func (res *RefResult) unresolvedKind() bool {
	if !kindUnknown(res.Group, res.Target.Kind) {
		return false
	}
	res.Presence, res.Message = Unresolved, unknownKindMessage(res.Group, res.Target.Kind)
	return true
}

// resolveSecretRef resolves a reference to a TLS certificate Secret: a
// listener's certificateRef or the Gateway's backend client certificate.
// invalid is the reason for a ref that is allowed but unusable.
func (g *Graph) resolveSecretRef(owner *Meta, path string, ref gwv1.SecretObjectReference, invalid Reason) *RefResult {
	ns := string(*ref.Namespace)
	res := &RefResult{Path: path, Group: string(*ref.Group), Target: ObjectRef{Kind: string(*ref.Kind), Namespace: ns, Name: string(ref.Name)}}
	if res.unresolvedKind() {
		return res
	}
	if res.Group != GroupCore || res.Target.Kind != KindSecret {
		res.Reason = invalid
		res.Message = fmt.Sprintf("certificateRef kind %s is not supported; use a core Secret", groupKind(res.Group, res.Target.Kind))
		return res
	}
	obj := g.lookupRef(owner, res)
	switch {
	case res.Reason != "":
	case res.Presence == Missing:
		res.Reason = invalid
		res.Message = fmt.Sprintf("Secret %s/%s does not exist%s", ns, ref.Name, g.didYouMean(res.Target, Missing))
	case obj != nil:
		s := obj.(*Secret)
		switch {
		case g.secretTypeAccepted(owner, s.Type) && s.ReferenceProblem != "":
			res.Reason = invalid
			res.Message = fmt.Sprintf("Secret %s/%s of type %s: %s", ns, ref.Name, s.Type, s.ReferenceProblem)
		case g.secretTypeAccepted(owner, s.Type):
			// A type of the implementation's own
			// (CertificateSecretReader): it reads the Secret, not its
			// tls.crt and tls.key.
			res.Opaque = s.reference
		case !contains(s.DataKeys, "tls.crt") || !contains(s.DataKeys, "tls.key"):
			res.Reason = invalid
			res.Message = fmt.Sprintf("Secret %s/%s has no tls.crt and tls.key", ns, ref.Name)
		case s.CertificateProblem != "":
			res.Reason = invalid
			res.Message = fmt.Sprintf("Secret %s/%s: %s", ns, ref.Name, s.CertificateProblem)
		default:
			res.Certificate = s.Certificate
		}
	}
	return res
}

// CertificateSecretReader takes certificate Secrets of types of its own
// besides kubernetes.io/tls: Secrets that point at certificates served
// elsewhere, whose tls.crt and tls.key it does not read. The core asks it
// as it resolves a certificate Secret reference (a listener's
// certificateRef, a Gateway's backend client certificate) of a Gateway it
// judges, or of a ListenerSet of one.
type CertificateSecretReader interface {
	Implementation
	// CertificateSecretTypes are the Secret types it takes.
	CertificateSecretTypes() []string
}

// secretTypeAccepted reports whether the implementation judging the Gateway
// that owner (a Gateway or a ListenerSet) belongs to takes certificate
// Secrets of type typ (CertificateSecretReader).
func (g *Graph) secretTypeAccepted(owner *Meta, typ string) bool {
	var gw *GatewayResult
	switch owner.Ref.Kind {
	case KindGateway:
		gw = g.gateways[owner.Ref]
	case KindListenerSet:
		gw = g.lsets[owner.Ref].Parent
	}
	if gw == nil {
		return false
	}
	r, ok := gw.Judge.steps.(CertificateSecretReader)
	return ok && slices.Contains(r.CertificateSecretTypes(), typ)
}

// CAReading is how an implementation reads CA certificate references. The
// zero value is the API's reading: a ConfigMap (or Secret) with the bundle
// in ca.crt, the policy accepted while one reference is usable.
type CAReading struct {
	// Kinds are the kinds it accepts besides core ConfigMap and Secret.
	Kinds []profile.GroupKind
	// AnyKey: it reads ca.crt, else tls.crt, else the only key there is.
	AnyKey bool
	// AllOrNothing: one unusable reference fails them all
	// (Accepted=False/NoValidCACertificate).
	AllOrNothing bool
	// AnyGroup: it matches a reference by its kind alone, whatever group
	// it names.
	AnyGroup bool
	// SecretTypes are the Secret types it reads as a reference to CA
	// certificates served elsewhere, not as a bundle.
	SecretTypes []string
	// Unparsed: it passes the bundle to its data plane without parsing
	// it, so a bundle that holds no PEM certificates still resolves; its
	// proxy refuses the configuration later, which no status shows.
	Unparsed bool
	// SkipsOtherKinds: a reference of a kind it does not take is ignored
	// when another reference's kind it takes; with none, the kind is
	// refused as the API says.
	SkipsOtherKinds bool
}

// CAReader reads the CA certificate references of the objects it judges
// otherwise than the API does: a Gateway's spec.tls.frontend validations
// and a BackendTLSPolicy's spec.validation.caCertificateRefs. The core asks
// it how, before it resolves them.
type CAReader interface {
	Implementation
	CAReading() CAReading
}

// caReading is how j reads CA certificate references (CAReader); the API's
// reading for one that is no CAReader.
func caReading(j *Judge) CAReading {
	if r, ok := j.steps.(CAReader); ok {
		return r.CAReading()
	}
	return CAReading{}
}

// resolveCARef resolves a reference to a CA certificate bundle: a core
// ConfigMap, the kind the spec gives Core support ("A single reference to a
// Kubernetes ConfigMap, with the CA certificate in a key named ca.crt"), or
// a core Secret with the same key (implementation-specific; Envoy Gateway
// and Istio accept it). badKind is the reason for any other kind
// (InvalidCACertificateKind on listeners, InvalidKind on BackendTLSPolicy);
// a missing object or a ca.crt without a PEM certificate is
// InvalidCACertificateRef.
func (g *Graph) resolveCARef(owner *Meta, path string, ref gwv1.ObjectReference, badKind Reason, ca CAReading) *RefResult {
	ns := refNamespace(ref.Namespace, owner.Ref.Namespace)
	res := &RefResult{Path: path, Group: string(ref.Group), Target: ObjectRef{Kind: string(ref.Kind), Namespace: ns, Name: string(ref.Name)}}
	if res.unresolvedKind() {
		return res
	}
	group := res.Group
	if ca.AnyGroup {
		group = GroupCore
		if i := slices.IndexFunc(ca.Kinds, func(k profile.GroupKind) bool { return k.Kind == res.Target.Kind }); i >= 0 {
			group = ca.Kinds[i].Group
		}
	}
	if slices.Contains(ca.Kinds, profile.GroupKind{Group: group, Kind: res.Target.Kind}) {
		// An object gwlint does not read: assumed to exist.
		res.Presence = External
		return res
	}
	if group != GroupCore || (res.Target.Kind != KindConfigMap && res.Target.Kind != KindSecret) {
		res.Reason = badKind
		res.Message = fmt.Sprintf("CA certificate kind %s is not supported; use a core ConfigMap with a ca.crt key",
			groupKind(res.Group, res.Target.Kind))
		return res
	}
	var problem string
	switch o := g.lookupRef(owner, res).(type) {
	case *ConfigMap:
		problem, res.BundleProblem = o.problem(ca)
	case *Secret:
		if slices.Contains(ca.SecretTypes, o.Type) {
			problem = o.ReferenceProblem
			break
		}
		problem, res.BundleProblem = o.problem(ca)
	}
	switch {
	case res.Reason != "":
	case res.Presence == Missing:
		res.Reason = ReasonInvalidCACertificateRef
		res.Message = fmt.Sprintf("%s does not exist%s", res.Target, g.didYouMean(res.Target, Missing))
	case problem != "":
		res.Reason = ReasonInvalidCACertificateRef
		res.Message = fmt.Sprintf("%s: %s", res.Target, problem)
	}
	return res
}

// skipOtherKinds takes back the verdict on references of a kind the
// implementation does not take when another reference's kind it takes
// (CAReading.SkipsOtherKinds): it ignores them.
func skipOtherKinds(refs []*RefResult, badKind Reason, ca CAReading, by *Judge) {
	if !ca.SkipsOtherKinds || !slices.ContainsFunc(refs, func(r *RefResult) bool { return r.Reason != badKind }) {
		return
	}
	for _, r := range refs {
		if r.Reason == badKind {
			r.Reason, r.Presence = "", External
			r.Message = fmt.Sprintf("%s ignores CA certificate kind %s, as another reference is of a kind it takes", by, groupKind(r.Group, r.Target.Kind))
		}
	}
}

// resolveFrontend resolves spec.tls.frontend: the default validation and
// the perPort ones, each with its CA certificate references, and the
// InsecureFrontendValidationMode condition.
func (g *Graph) resolveFrontend(gw *GatewayResult) {
	tls := gw.Spec.TLS
	if tls == nil || tls.Frontend == nil {
		return
	}
	ca := caReading(gw.Judge)
	resolve := func(path string, port gwv1.PortNumber, v *gwv1.FrontendTLSValidation) *FrontendValidation {
		if v == nil {
			return nil
		}
		fv := &FrontendValidation{Path: path, Port: int32(port), Mode: v.Mode}
		for i, ref := range v.CACertificateRefs {
			fv.CARefs = append(fv.CARefs, g.resolveCARef(&gw.Meta, path+".caCertificateRefs["+strconv.Itoa(i)+"]", ref, ReasonInvalidCACertificateKind, ca))
		}
		skipOtherKinds(fv.CARefs, ReasonInvalidCACertificateKind, ca, gw.Judge)
		var allBad bool
		fv.bad, allBad = firstInvalid(fv.CARefs)
		fv.refused = allBad || (ca.AllOrNothing && fv.bad != nil)
		gw.FrontendValidations = append(gw.FrontendValidations, fv)
		return fv
	}
	gw.frontendDefault = resolve("spec.tls.frontend.default.validation", 0, tls.Frontend.Default.Validation)
	gw.frontendPerPort = map[gwv1.PortNumber]*FrontendValidation{}
	for i, pp := range tls.Frontend.PerPort {
		// "Once set this configuration overrides the default configuration
		// for all Listeners handling HTTPS traffic that match this port",
		// also when it sets no validation.
		gw.frontendPerPort[pp.Port] = resolve("spec.tls.frontend.perPort["+strconv.Itoa(i)+"].tls.validation", pp.Port, pp.TLS.Validation)
	}
	for _, v := range gw.FrontendValidations {
		if v.Mode == gwv1.AllowInsecureFallback {
			c := condition(string(gwv1.GatewayConditionInsecureFrontendValidationMode), true, ReasonConfigurationChanged,
				v.Path+".mode is AllowInsecureFallback: connections without a valid client certificate are accepted")
			gw.InsecureFrontend = &c
			break
		}
	}
}

// FrontendProblem is the first CA certificate reference of
// spec.tls.frontend (the default validation or a perPort entry's, whether or
// not a listener uses it) that does not resolve; nil when all do.
func (gw *GatewayResult) FrontendProblem() *RefResult {
	for _, v := range gw.FrontendValidations {
		if v.bad != nil {
			return v.bad
		}
	}
	return nil
}

// frontendFor is the client-certificate validation of HTTPS listeners on
// port: the port's perPort entry, else the default; nil when none applies.
func (gw *GatewayResult) frontendFor(port gwv1.PortNumber) *FrontendValidation {
	if v, ok := gw.frontendPerPort[port]; ok {
		return v
	}
	return gw.frontendDefault
}

// applyClientValidation: "the implementation MUST ensure that the
// ResolvedRefs condition is set to status: False on all targeted listeners
// ... If ALL CACertificateRefs are invalid, the implementation MUST also
// ensure the Accepted condition on the listener is set to status: False,
// with the Reason NoValidCACertificate."
func (l *Listener) applyClientValidation(v *FrontendValidation) {
	l.ClientValidation = v
	if v == nil {
		return
	}
	bad := v.bad
	if bad == nil {
		return
	}
	if l.ResolvedRefs.True() {
		l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, bad.Reason, bad.Path+": "+bad.Message)
	}
	if v.refused && l.Accepted.True() {
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonNoValidCACertificate,
			"no CA certificate of "+v.Path+" is usable: "+bad.Message)
	}
}

// checkCertificates records what makes the listener's usable certificates
// doubtful without making them invalid: one not valid at now, and a listener
// hostname no certificate's SANs cover (clients then refuse the handshake).
func (l *Listener) checkCertificates(now time.Time) {
	var certs []*RefResult
	for _, r := range l.CertRefs {
		if r.Certificate != nil {
			r.ValidityProblem = r.Certificate.ValidityProblem(now)
			certs = append(certs, r)
		}
	}
	if l.Hostname == nil || *l.Hostname == "" || holdsPlaceholder(string(*l.Hostname)) || len(certs) == 0 {
		return // no hostname, or one unknown until substituted
	}
	for _, r := range certs {
		if r.Certificate.Covers(string(*l.Hostname)) {
			return
		}
	}
	for _, r := range certs {
		r.HostnameProblem = fmt.Sprintf("the certificate's DNS names (%s) do not cover the listener hostname %s",
			r.Certificate.SANs(), *l.Hostname)
	}
}
