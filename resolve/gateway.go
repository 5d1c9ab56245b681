package resolve

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile"
)

// GatewayResult is a Gateway with what a controller decides about it.
type GatewayResult struct {
	*Gateway
	// Class is the GatewayClass named by spec.gatewayClassName, if present.
	Class         *GatewayClass
	ClassPresence Presence
	// ControllerName is the class's spec.controllerName, or
	// Options.ControllerName when the class is outside the inputs.
	ControllerName string
	// Managed is false when the GatewayClass is Missing: no controller
	// would reconcile the Gateway, so it gets no status at all.
	Managed bool
	// Judge is the implementation the Gateway is judged by, with the
	// profile chosen for it (implementation.go).
	Judge *Judge
	// Inferred says how Judge's profile was inferred when the GatewayClass
	// is not among the inputs (profile.Choice); nil when it was not.
	Inferred *profile.Inference

	// Listeners are the Gateway's own spec.listeners, in order.
	Listeners []*Listener
	// ListenerSets are the ListenerSets whose parentRef names this Gateway,
	// in the spec's precedence order (creation time, then namespace/name).
	ListenerSets []*ListenerSetResult

	// ClientCertificate is spec.tls.backend.clientCertificateRef resolved,
	// nil when not set.
	ClientCertificate *RefResult
	// FrontendValidations are spec.tls.frontend's client-certificate
	// validations resolved: the default first, then each perPort entry.
	FrontendValidations []*FrontendValidation
	// Parameters is spec.infrastructure.parametersRef resolved, nil when
	// not set; or, when its implementation says so (ParametersJudge), the
	// parameters the Gateway takes from its GatewayClass when it names none
	// of its own and those are refused (Path spec.gatewayClassName).
	Parameters *RefResult
	// ParametersRefusal is why its implementation refuses the Gateway
	// (InvalidParameters) for what the parameters it takes hold, found once
	// its listeners are built (ParametersJudge), nil when it does not: a
	// refusal that, unlike Parameters', keeps its listeners' status.
	ParametersRefusal *ParametersProblem
	// ClientCertificateProblem is why the client certificate its
	// parameters offer backends over TLS cannot be used, nil when it can
	// (ParametersJudge): its implementation then fails the backendRefs a
	// BackendTLSPolicy verifies.
	ClientCertificateProblem *ParametersProblem
	// InsecureFrontend is the InsecureFrontendValidationMode condition, set
	// only when a validation uses mode AllowInsecureFallback.
	InsecureFrontend *Condition
	// frontendDefault and frontendPerPort index FrontendValidations for
	// frontendFor; a perPort entry without validation maps to nil.
	frontendDefault *FrontendValidation
	frontendPerPort map[gwv1.PortNumber]*FrontendValidation
	// remote: it stands for a gateway of another cluster (MarkRemote).
	remote bool
	// hostnameFirst: its listeners check a route's hostnames before its
	// kind and namespace (CheckHostnamesFirst).
	hostnameFirst bool
	// placeholders: it takes an HTTPS or TLS listener without tls as a
	// placeholder (TakePlaceholders).
	placeholders bool
	// services are the Services its traffic enters by (EnterBy).
	services []GatewayService
	// refusesNotPermitted: a listener whose certificate is not permitted
	// is not accepted either (RefuseNotPermittedCertificates).
	refusesNotPermitted bool
	// listenerSetRefusal, when set, is what the ListenerSets it accepted
	// write when it is not accepted, in place of ParentNotAccepted
	// (ShareRefusal); its Status "" leaves them as they are.
	listenerSetRefusal *Condition
	// omitsListeners: its status lists no listeners
	// (GatewayConditionsJudge.OmitsListenerStatus).
	omitsListeners bool
	// refusesPassthroughCertificates: a Passthrough listener with
	// certificateRefs cannot terminate TLS (RefusePassthroughCertificates).
	refusesPassthroughCertificates bool
	// resolvedWithoutTLS: an HTTPS listener without tls keeps ResolvedRefs
	// True (KeepResolvedWithoutTLS).
	resolvedWithoutTLS bool
	// servedProtocols are the listener protocols beyond the API's it
	// serves (ServeProtocol).
	servedProtocols []gwv1.ProtocolType
	// refusedProtocols are the listener protocols it does not serve, each
	// with why (RefuseProtocol).
	refusedProtocols map[gwv1.ProtocolType]string
	// refusedAddressTypes are the API's address types it does not support
	// (RefuseAddressType).
	refusedAddressTypes []gwv1.AddressType

	Accepted     Condition
	Programmed   Condition
	ResolvedRefs Condition
}

// Remote reports whether the Gateway stands for a gateway of another
// cluster, which its implementation does not program (Builder.MarkRemote).
func (g *GatewayResult) Remote() bool { return g.remote }

// AllListeners is the merged listener list in precedence order: the
// Gateway's own, then each accepted ListenerSet's.
func (g *GatewayResult) AllListeners() []*Listener {
	out := append([]*Listener(nil), g.Listeners...)
	for _, ls := range g.ListenerSets {
		if ls.Accepted.True() {
			out = append(out, ls.Listeners...)
		}
	}
	return out
}

// ListenerSetResult is a ListenerSet with what a controller decides about it.
type ListenerSetResult struct {
	*ListenerSet
	Parent         *GatewayResult
	ParentPresence Presence
	Listeners      []*Listener
	Accepted       Condition
	Programmed     Condition
	// omitsListeners: its status lists no listeners
	// (GatewayConditionsJudge.OmitsListenerStatus).
	omitsListeners bool
}

// Listener is one listener of a Gateway or a ListenerSet, with its conditions
// and the routes attached to it.
type Listener struct {
	Gateway     *GatewayResult
	ListenerSet *ListenerSetResult // nil for the Gateway's own listeners
	Index       int
	Path        string // "spec.listeners[i]" within its owner

	Name string
	// attached is the Accepted message of a route attached to this
	// listener alone (attachToListeners), made once rather than for every
	// route.
	attached      string
	Port          int32
	Protocol      gwv1.ProtocolType
	Hostname      *gwv1.Hostname
	TLS           *gwv1.ListenerTLSConfig
	AllowedRoutes *gwv1.AllowedRoutes

	// SupportedKinds are the route kinds that may attach: the valid subset
	// of allowedRoutes.kinds, or the protocol's kinds when none are listed.
	SupportedKinds []gwv1.RouteGroupKind
	// KindsFromProtocol is true when allowedRoutes.kinds was empty and
	// SupportedKinds were derived from the protocol.
	KindsFromProtocol bool
	// InvalidKinds are the allowedRoutes.kinds no route kind matches.
	InvalidKinds []gwv1.RouteGroupKind
	// UnknownKinds are the allowedRoutes.kinds whose group or kind holds a
	// deploy-time placeholder: whether they allow a route is unknown.
	UnknownKinds []gwv1.RouteGroupKind
	CertRefs     []*RefResult
	// ClientValidation is the frontend client-certificate validation that
	// applies to an HTTPS listener: its port's spec.tls.frontend.perPort
	// entry, else the default; nil when none does.
	ClientValidation *FrontendValidation
	// TLSProblem says why a listener that must terminate TLS cannot (an
	// HTTPS listener without tls). Such a listener is not programmed.
	TLSProblem string
	// SelectorProblem says why allowedRoutes.namespaces.selector admits no
	// namespace at all: missing, or not a valid label selector. Such a
	// listener is not programmed.
	SelectorProblem string

	Accepted     Condition
	ResolvedRefs Condition
	Conflicted   Condition
	Programmed   Condition
	// servedWithResolvedCertificates: ResolvedRefs is False for
	// certificateRefs that do not resolve, and the listener is served with
	// those that do (Builder.ServeResolvedCertificates).
	servedWithResolvedCertificates bool
	// usable: the listener is valid, as its implementation counts it
	// (setProgrammed).
	usable bool
	// attachesConflicted: routes still attach to the listener when it is
	// conflicted (ListenersJudge.AttachesWhileConflicted).
	attachesConflicted bool
	// OverlappingTLS is the OverlappingTLSConfig condition: True when the
	// listener's TLS configuration overlaps another's on its port (see
	// detectOverlappingTLS); the zero Condition, never written, otherwise,
	// for "this is a negative polarity condition and MUST NOT be set when
	// it is False".
	OverlappingTLS Condition

	// Attached are the parentRefs accepted on this listener, sorted by route.
	Attached []*ParentResult
	// Refused are the parentRefs that selected this listener but were not
	// accepted on it.
	Refused []*ParentResult
	// Undecided are the parentRefs whose acceptance on this listener depends
	// on a Namespace the inputs do not hold.
	Undecided []*ParentResult
	// AttachedRoutes is the number of distinct routes accepted on the
	// listener, as status.listeners[].attachedRoutes counts them.
	AttachedRoutes int32
}

// Owner is the object the listener is written in.
func (l *Listener) Owner() *Meta {
	if l.ListenerSet != nil {
		return &l.ListenerSet.Meta
	}
	return &l.Gateway.Meta
}

// String names the listener: "Gateway ns/name listener http" or, for a
// ListenerSet's, "ListenerSet ns/name listener http".
func (l *Listener) String() string { return l.owner() + " listener " + l.Name }

// owner names the object whose listener it is: "Gateway ns/name" or
// "ListenerSet ns/name".
func (l *Listener) owner() string {
	if l.ListenerSet != nil {
		return "ListenerSet " + l.ListenerSet.Ref.NamespacedName()
	}
	return "Gateway " + l.Gateway.Ref.NamespacedName()
}

// HostnameString is the listener's hostname, or "*" when it matches any.
func (l *Listener) HostnameString() string {
	if l.Hostname == nil || *l.Hostname == "" {
		return "*"
	}
	return string(*l.Hostname)
}

// RefResult is the outcome of one object reference (a certificateRef).
type RefResult struct {
	Path     string // field path in the referring object
	Target   ObjectRef
	Group    string
	Presence Presence
	// Reason is the API reason when the ref does not resolve, else "".
	Reason  Reason
	Message string
	// Grant is the ReferenceGrant that permits a cross-namespace ref.
	Grant *ReferenceGrant
	// Generation says which input will create a Generated target.
	Generation *Generation

	// Certificate is the certificate of a usable TLS Secret among the
	// inputs (listener certificateRefs only).
	Certificate *Certificate
	// ValidityProblem says why Certificate is not valid now (expired, not
	// yet valid), and HostnameProblem why no certificate of the listener
	// covers its hostname. Neither makes the reference invalid: a
	// controller serves the certificate and clients refuse it.
	ValidityProblem string
	HostnameProblem string
	// Opaque: the Secret points at certificates served elsewhere (a
	// ReferenceSecretReader's type), which no one can inspect.
	Opaque bool
	// BundleProblem says why a CA bundle holds no usable certificates when
	// its implementation does not parse it (CAReading.Unparsed):
	// the reference resolves and the proxy refuses the bundle.
	BundleProblem string
}

// OK reports whether the reference resolves (or is External).
func (r *RefResult) OK() bool { return r.Reason == "" }

// FrontendValidation is one client-certificate validation of a Gateway's
// spec.tls.frontend, with its CA certificate references resolved.
type FrontendValidation struct {
	// Path is "spec.tls.frontend.default.validation" or
	// "spec.tls.frontend.perPort[i].tls.validation".
	Path string
	// Port is the perPort entry's port; 0 for the default.
	Port   int32
	Mode   gwv1.FrontendValidationModeType
	CARefs []*RefResult
	// bad is the first CA reference that does not resolve, and refused
	// says the listeners it applies to are not accepted: no reference
	// resolves, or (CAReading.AllOrNothing) one does not.
	bad     *RefResult
	refused bool
}

// Unresolved is the first CA reference that does not resolve, nil when all
// do.
func (v *FrontendValidation) Unresolved() *RefResult { return v.bad }

// firstInvalid is the first of refs that does not resolve (nil when all
// do), and whether none resolves.
func firstInvalid(refs []*RefResult) (bad *RefResult, allBad bool) {
	valid := 0
	for _, r := range refs {
		if r.OK() {
			valid++
		} else if bad == nil {
			bad = r
		}
	}
	return bad, bad != nil && valid == 0
}

// protocolKinds are the route kinds each core protocol carries when a
// listener lists no allowedRoutes.kinds. GRPCRoute rides on HTTP and HTTPS.
var protocolKinds = map[gwv1.ProtocolType][]string{
	gwv1.HTTPProtocolType:  {KindHTTPRoute, KindGRPCRoute},
	gwv1.HTTPSProtocolType: {KindHTTPRoute, KindGRPCRoute},
	gwv1.TLSProtocolType:   {KindTLSRoute},
	gwv1.TCPProtocolType:   {KindTCPRoute},
	gwv1.UDPProtocolType:   {KindUDPRoute},
}

// tlsTerminateKinds are the kinds a TLS listener in Terminate mode carries.
var tlsTerminateKinds = []string{KindTLSRoute, KindTCPRoute}

// GatewayJudge reads the Gateways it judges otherwise than the API does.
// The core asks it about each, once the Gateway's class and parameters are
// resolved and before its listeners are built; it may mark the Gateway
// remote (MarkRemote), say in which order its listeners check a route
// (CheckHostnamesFirst), take listeners without tls as placeholders
// (TakePlaceholders), serve or refuse listener protocols (ServeProtocol,
// RefuseProtocol), refuse address types (RefuseAddressType), listeners
// whose certificates are not permitted (RefuseNotPermittedCertificates)
// or certificateRefs on a Passthrough listener
// (RefusePassthroughCertificates), keep an HTTPS
// listener without tls resolved (KeepResolvedWithoutTLS) and name the
// Services its traffic enters by (EnterBy).
type GatewayJudge interface {
	Implementation
	JudgeGateway(b *Builder, gw *GatewayResult)
}

// MarkRemote writes that the Gateway stands for a gateway of another
// cluster: its implementation accepts it and programs nothing here, writes
// it Accepted and Programmed only (no listener status), and writes no
// status on the routes that name it, which are judged in their own
// cluster.
func (b *Builder) MarkRemote(gw *GatewayResult) { gw.remote = true }

// CheckHostnamesFirst writes that the Gateway's listeners check a route's
// hostnames before its allowedRoutes namespaces and kinds, and that one
// listener's NotAllowedByListeners outranks another's
// NoMatchingListenerHostname. The API names both reasons ("no Listener
// whose allowedRoutes criteria permit the route", "no compatible Listeners
// whose Hostname matches the route") and no order between them; the core
// checks allowedRoutes first, and writes NotAllowedByListeners only when no
// listener allows the route, the furthest step every listener failed at.
func (b *Builder) CheckHostnamesFirst(gw *GatewayResult) { gw.hostnameFirst = true }

// TakePlaceholders writes that an HTTPS or TLS listener without tls, which
// the API requires ("This field is required if the Protocol field is
// "HTTPS" or "TLS""), is a placeholder for ListenerSets' listeners on its
// port when the Gateway has it: no error, nothing served. One of its
// ListenerSets' is Accepted=False/UnsupportedProtocol and not programmed.
func (b *Builder) TakePlaceholders(gw *GatewayResult) { gw.placeholders = true }

// RefuseNotPermittedCertificates writes that a listener of the Gateway (or
// of its ListenerSets) whose certificateRef no ReferenceGrant permits is
// not accepted either (Accepted=False/NoValidCACertificate), besides the
// API's ResolvedRefs=False/RefNotPermitted.
func (b *Builder) RefuseNotPermittedCertificates(gw *GatewayResult) { gw.refusesNotPermitted = true }

// RefusePassthroughCertificates writes that a Passthrough listener of the
// Gateway (or of its ListenerSets) with certificateRefs, which the API
// ignores there ("The certificateRefs field is ignored in this mode"),
// cannot terminate TLS: it is not programmed (Invalid).
func (b *Builder) RefusePassthroughCertificates(gw *GatewayResult) {
	gw.refusesPassthroughCertificates = true
}

// KeepResolvedWithoutTLS writes that an HTTPS listener of the Gateway (or of
// its ListenerSets) without tls keeps ResolvedRefs True, since nothing it
// references is missing; it is still not programmed (Invalid). The API's
// reading is ResolvedRefs=False/InvalidCertificateRef.
func (b *Builder) KeepResolvedWithoutTLS(gw *GatewayResult) { gw.resolvedWithoutTLS = true }

// CertificatesJudge reads the certificateRefs of the listeners of the
// Gateways it judges (and of their ListenerSets) otherwise than the API
// does. The core asks it about each listener once every listener is built,
// its certificateRefs resolved (Listener.CertRefs) and ResolvedRefs written
// as the API reads them (False with the reason of the first that does not
// resolve), before conflicts are detected; it may write ResolvedRefs
// otherwise, or serve the listener with the certificates that resolve
// (ServeResolvedCertificates).
type CertificatesJudge interface {
	Implementation
	JudgeCertificates(b *Builder, l *Listener)
}

// ServeResolvedCertificates writes the listener's ResolvedRefs=False with
// reason and message for certificateRefs some of which do not resolve,
// and that it is served with those that do: unlike any other reference
// that does not resolve, these leave it valid and programmed.
func (b *Builder) ServeResolvedCertificates(l *Listener, reason Reason, message string) {
	l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, reason, message)
	l.servedWithResolvedCertificates = true
}

// ServeProtocol writes that listeners of protocol, one beyond the API's
// (HTTP, HTTPS, TLS, TCP, UDP), are accepted on the Gateway (and its
// ListenerSets) in place of Accepted=False/UnsupportedProtocol. They carry
// no route kind of the API's.
func (b *Builder) ServeProtocol(gw *GatewayResult, protocol gwv1.ProtocolType) {
	gw.servedProtocols = append(gw.servedProtocols, protocol)
}

// RefuseProtocol writes that listeners of protocol, the API's own or
// another, are not served on the Gateway (and its ListenerSets):
// Accepted=False/UnsupportedProtocol with message, and no supported route
// kinds.
func (b *Builder) RefuseProtocol(gw *GatewayResult, protocol gwv1.ProtocolType, message string) {
	if gw.refusedProtocols == nil {
		gw.refusedProtocols = map[gwv1.ProtocolType]string{}
	}
	gw.refusedProtocols[protocol] = message
}

// RefuseAddressType writes that the Gateway does not support spec.addresses
// entries of typ, one of the API's own types (Hostname and NamedAddress
// have implementation-specific support): a Gateway with one is
// Accepted=False/UnsupportedAddress.
func (b *Builder) RefuseAddressType(gw *GatewayResult, typ gwv1.AddressType) {
	gw.refusedAddressTypes = append(gw.refusedAddressTypes, typ)
}

// ListenersJudge reads the listeners of the Gateways it judges (and of
// their ListenerSets), all of a Gateway's together (ListenerJudge is asked
// of each on its own), where the spec leaves a choice: which take part in
// conflicts, what routes do on a conflicted one or a refused ListenerSet,
// and, once the core has written every listener's conditions, what else it
// reports of them.
type ListenersJudge interface {
	Implementation
	// InConflicts reports whether the listener takes part in conflict
	// detection: whether it can conflict and holds its port against
	// others. The API's reading: every listener.
	InConflicts(l *Listener) bool
	// AttachesWhileConflicted reports whether routes still attach to the
	// listener when it is conflicted, and it keeps its supported kinds
	// ("Implementations MAY choose to accept a Gateway with some
	// Conflicted Listeners only if they only accept the partial Listener
	// set that contains no Conflicted Listeners"; whether routes attach to
	// one is left open). The API's reading, as the conformance suite
	// expects: no.
	AttachesWhileConflicted(l *Listener) bool
	// BindsByListeners reports whether a route's parentRef to the
	// ListenerSet, refused for its listeners (ListenersNotValid), binds
	// by those listeners all the same, and one to a ListenerSet refused
	// otherwise (not admitted) is left to no controller. The API's
	// reading: a ListenerSet that is not accepted takes no route
	// (NoMatchingParent).
	BindsByListeners(ls *ListenerSetResult) bool
	// JudgeListeners adjusts the Gateway's listeners once the core has
	// written their conditions, before the overlaps of their TLS
	// configurations are detected.
	JudgeListeners(b *Builder, gw *GatewayResult)
}

func (g *Graph) resolveGateways(b *Builder) {
	for _, gw := range g.Gateways {
		g.resolveClass(gw)
		g.resolveParameters(b, gw)
		if judge, ok := gw.Judge.steps.(GatewayJudge); ok {
			judge.JudgeGateway(b, gw)
		}
		if tls := gw.Spec.TLS; tls != nil && tls.Backend != nil && tls.Backend.ClientCertificateRef != nil {
			gw.ClientCertificate = g.resolveSecretRef(&gw.Meta, "spec.tls.backend.clientCertificateRef",
				*tls.Backend.ClientCertificateRef, ReasonInvalidClientCertificateRef)
		}
		g.resolveFrontend(gw)
		for i := range gw.Spec.Listeners {
			l := &gw.Spec.Listeners[i]
			gw.Listeners = append(gw.Listeners, g.newListener(gw, nil, i, l.Name, l.Port, l.Protocol, l.Hostname, l.TLS, l.AllowedRoutes))
		}
	}
	for _, ls := range g.ListenerSets {
		g.resolveListenerSet(ls)
	}
	eachListenerJudge(g, func(j CertificatesJudge, l *Listener) { j.JudgeCertificates(b, l) })
	for _, gw := range g.Gateways {
		sort.SliceStable(gw.ListenerSets, func(i, j int) bool {
			a, b := gw.ListenerSets[i], gw.ListenerSets[j]
			if ac, bc := a.Created(), b.Created(); !ac.Equal(&bc) {
				return ac.Before(&bc)
			}
			return refLess(a.Ref, b.Ref)
		})
		listeners := gw.AllListeners()
		if judge, ok := gw.Judge.steps.(ListenersJudge); ok {
			for _, l := range listeners {
				l.attachesConflicted = judge.AttachesWhileConflicted(l)
			}
			listeners = slices.DeleteFunc(listeners, func(l *Listener) bool { return !judge.InConflicts(l) })
		}
		detectConflicts(listeners)
	}
	merged := g.mergeGateways(b)
	for l := range g.Listeners() {
		l.setProgrammed()
	}
	// Last: an implementation adjusts what the core decided.
	eachListenerJudge(g, func(j ListenerJudge, l *Listener) { j.JudgeListener(b, l) })
	for _, ls := range g.ListenerSets {
		ls.finishAcceptance()
		if ls.Parent == nil {
			continue
		}
		if judge, ok := ls.Parent.Judge.steps.(GatewayConditionsJudge); ok {
			judge.JudgeListenerSetConditions(b, ls)
		}
	}
	for _, gw := range g.Gateways {
		if judge, ok := gw.Judge.steps.(ListenersJudge); ok {
			judge.JudgeListeners(b, gw)
		}
	}
	for _, group := range merged {
		detectOverlappingTLS(allListeners(group))
	}
}

// detectOverlappingTLS sets OverlappingTLSConfig on the listeners that
// terminate TLS on a port another listener of the same Gateway (ListenerSets
// included) terminates TLS on too, as ListenerConditionOverlappingTLSConfig
// defines it: "TLS configuration within this Listener conflicts with TLS
// configuration in another Listener on the same port", by overlapping
// hostnames ("Listener A matches *.example.com while Listener B matches
// foo.example.com"; a listener without a hostname matches every one), which
// "Controllers MUST detect", or by overlapping certificates (a SAN of one
// listener's certificate names a host a SAN of the other's names), which
// they "MAY detect" and gwlint can where the Secrets are among the inputs;
// "If a controller supports checking for both possible reasons and finds
// that both are true, it SHOULD set the "OverlappingCertificates" Reason."
// The condition "MUST be set on all Listeners with overlapping TLS config".
// Only programmed listeners take part: a refused or conflicted one serves
// no connection to coalesce.
func detectOverlappingTLS(listeners []*Listener) {
	for i, a := range listeners {
		if !terminatesTLS(a) {
			continue
		}
		for _, b := range listeners[i+1:] {
			if b.Port != a.Port || !terminatesTLS(b) {
				continue
			}
			if sanA, sanB, ok := overlappingCertificates(a, b); ok {
				markOverlappingTLS(a, ReasonOverlappingCertificates, fmt.Sprintf("its certificate's SAN %s overlaps SAN %s of the certificate of %s on port %d", sanA, sanB, b, a.Port))
				markOverlappingTLS(b, ReasonOverlappingCertificates, fmt.Sprintf("its certificate's SAN %s overlaps SAN %s of the certificate of %s on port %d", sanB, sanA, a, a.Port))
			} else if overlappingHostnames(a, b) {
				markOverlappingTLS(a, ReasonOverlappingHostnames, fmt.Sprintf("its hostname %s overlaps hostname %s of %s on port %d", a.HostnameString(), b.HostnameString(), b, a.Port))
				markOverlappingTLS(b, ReasonOverlappingHostnames, fmt.Sprintf("its hostname %s overlaps hostname %s of %s on port %d", b.HostnameString(), a.HostnameString(), a, a.Port))
			}
		}
	}
}

// terminatesTLS: a programmed listener with certificates to serve.
func terminatesTLS(l *Listener) bool {
	return l.Valid() && needsCertificates(l.Protocol, l.TLS)
}

// MarkOverlappingTLS writes OverlappingTLSConfig=True on the listener with
// reason and message, as the core writes an overlap it detects: the first
// found stays, unless a later one has the preferred reason
// OverlappingCertificates.
func (b *Builder) MarkOverlappingTLS(l *Listener, reason Reason, message string) {
	markOverlappingTLS(l, reason, message)
}

// markOverlappingTLS keeps the first overlap found, unless a later one has
// the preferred reason OverlappingCertificates.
func markOverlappingTLS(l *Listener, reason Reason, message string) {
	if l.OverlappingTLS.True() && (l.OverlappingTLS.Reason == ReasonOverlappingCertificates || reason != ReasonOverlappingCertificates) {
		return
	}
	l.OverlappingTLS = condition(string(gwv1.ListenerConditionOverlappingTLSConfig), true, reason, message)
}

// overlappingHostnames: the hostnames of two listeners both match some
// host (HostnamesOverlap; no hostname matches all).
func overlappingHostnames(a, b *Listener) bool {
	if a.Hostname == nil || b.Hostname == nil {
		return true
	}
	return HostnamesOverlap(string(*a.Hostname), string(*b.Hostname))
}

// overlappingCertificates finds a SAN of a's certificates and one of b's
// that a client could take for the same host (see sansOverlap).
func overlappingCertificates(a, b *Listener) (sanA, sanB string, ok bool) {
	for _, ra := range a.CertRefs {
		for _, rb := range b.CertRefs {
			if ra.Certificate == nil || rb.Certificate == nil {
				continue
			}
			for _, x := range ra.Certificate.DNSNames {
				for _, y := range rb.Certificate.DNSNames {
					if sansOverlap(x, y) {
						return x, y, true
					}
				}
			}
		}
	}
	return "", "", false
}

// sansOverlap: two DNS SANs name a common host, a wildcard SAN covering
// one label (RFC 6125 6.4.3, as Certificate.Covers reads it).
func sansOverlap(x, y string) bool {
	x, y = strings.ToLower(strings.TrimSuffix(x, ".")), strings.ToLower(strings.TrimSuffix(y, "."))
	if x == y {
		return true
	}
	covers := func(w, h string) bool {
		suffix, ok := strings.CutPrefix(w, "*.")
		if !ok || strings.HasPrefix(h, "*.") {
			return false
		}
		label, rest, found := strings.Cut(h, ".")
		return found && label != "" && rest == suffix
	}
	return covers(x, y) || covers(y, x)
}

// setProgrammed: a listener is programmed when it is accepted, conflict-free
// and its references resolve, and then it can carry traffic. A conflicted
// listener carries the conflict's reason, as the conformance suite expects;
// any other problem Invalid.
func (l *Listener) setProgrammed() {
	typ := string(gwv1.ListenerConditionProgrammed)
	switch {
	case l.Conflicted.True():
		l.Programmed = condition(typ, false, l.Conflicted.Reason, l.Conflicted.Message)
	case !l.Accepted.True():
		l.Programmed = condition(typ, false, ReasonInvalid, l.Accepted.Message)
	case !l.ResolvedRefs.True() && !l.servedWithResolvedCertificates:
		l.Programmed = condition(typ, false, ReasonInvalid, l.ResolvedRefs.Message)
	case l.TLSProblem != "":
		l.Programmed = condition(typ, false, ReasonInvalid, l.TLSProblem)
	case l.SelectorProblem != "":
		// "Invalid: the Listener is syntactically or semantically invalid."
		l.Programmed = condition(typ, false, ReasonInvalid, l.SelectorProblem)
	default:
		l.Programmed = programmedCondition(l)
	}
	l.usable = l.Programmed.True()
}

// programmedCondition is Programmed=True for the listener.
func programmedCondition(l *Listener) Condition {
	return condition(string(gwv1.ListenerConditionProgrammed), true, ReasonProgrammed,
		fmt.Sprintf("Listener %s serves %s on port %d", l.Name, l.Protocol, l.Port))
}

// ProgramListener writes the listener Programmed=True, in place of the
// core's verdict, and whether it carries traffic all the same (valid: what
// Listener.Valid reports and the Gateway's and ListenerSet's conditions
// count).
func (b *Builder) ProgramListener(l *Listener, valid bool) {
	l.Programmed = programmedCondition(l)
	l.usable = valid
}

// UnprogramListener writes the listener Programmed=False with reason and
// message, in place of the core's verdict: it carries no traffic.
func (b *Builder) UnprogramListener(l *Listener, reason Reason, message string) {
	l.Programmed = condition(string(gwv1.ListenerConditionProgrammed), false, reason, message)
	l.usable = false
}

// InvalidOnItsOwn reports whether the listener is unusable whatever the
// other listeners are: not accepted, references that do not resolve (some
// certificates that do are enough), or a TLS or selector problem.
func (l *Listener) InvalidOnItsOwn() bool {
	return !l.Accepted.True() || l.TLSProblem != "" || l.SelectorProblem != "" ||
		(!l.ResolvedRefs.True() && !l.servedWithResolvedCertificates)
}

// placeholder reports whether the listener is HTTPS or TLS without tls,
// which the implementation of its Gateway takes there as a stand-in for
// ListenerSets' listeners (Builder.TakePlaceholders).
func (l *Listener) placeholder() bool {
	return (l.Protocol == gwv1.HTTPSProtocolType || l.Protocol == gwv1.TLSProtocolType) && l.TLS == nil &&
		l.Gateway != nil && l.Gateway.placeholders
}

// Valid reports whether the listener can carry traffic at all, as its
// implementation counts it.
func (l *Listener) Valid() bool { return l.usable }

func (g *Graph) resolveClass(gw *GatewayResult) {
	obj, presence := g.Lookup(ObjectRef{Kind: KindGatewayClass, Name: string(gw.Spec.GatewayClassName)})
	if obj == nil && g.choice.Installed(string(gw.Spec.GatewayClassName)) {
		presence = External // its implementation installs it: never missing
	}
	gw.ClassPresence = presence
	gw.Managed = presence != Missing
	gw.ControllerName = g.opts.ControllerName
	if gw.ControllerName == "" {
		gw.ControllerName = DefaultControllerName
	}
	if obj != nil {
		gw.Class = obj.(*GatewayClass)
		gw.ControllerName = string(gw.Class.Spec.ControllerName)
	}
	p, inferred := g.choice.ForGateway(gw.Class != nil, gw.ControllerName, string(gw.Spec.GatewayClassName))
	gw.Judge, gw.Inferred = g.judgeFor(p), inferred
}

// acceptedParameters lists the parametersRef kinds the Gateway's controller
// takes ("Kind.group"; "Kind" for the core group): the kind its
// GatewayClass's own parametersRef names (every known implementation takes
// one kind for both) and the kinds its profile lists. Empty when the
// GatewayClass is not among the inputs or neither says: the kinds are then
// unknown.
func (gw *GatewayResult) acceptedParameters() []string {
	if gw.Class == nil {
		return nil
	}
	var kinds []string
	for _, k := range gw.Judge.Implementation.ParametersKinds {
		kinds = append(kinds, groupKind(k.Group, k.Kind))
	}
	if pr := gw.Class.Spec.ParametersRef; pr != nil {
		if k := groupKind(string(pr.Group), string(pr.Kind)); !contains(kinds, k) {
			kinds = append([]string{k}, kinds...)
		}
	}
	return kinds
}

// resolveParameters resolves spec.infrastructure.parametersRef: "If the
// referent cannot be found, refers to an unsupported kind, or when the data
// within that resource is malformed, the Gateway SHOULD be rejected with the
// "Accepted" status condition set to "False" and an "InvalidParameters"
// reason." The kind is judged only when the controller's kinds are known;
// the object is missing only by the presence model (kinds gwlint does not
// read are external unless --strict-refs).
func (g *Graph) resolveParameters(b *Builder, gw *GatewayResult) {
	var own Object
	if infra := gw.Spec.Infrastructure; infra != nil && infra.ParametersRef != nil {
		own = g.resolveParametersRef(gw, infra.ParametersRef)
	}
	if judge, ok := gw.Judge.steps.(ParametersJudge); ok {
		judge.JudgeGatewayParameters(b, gw, own)
	}
}

// resolveParametersRef sets gw.Parameters from ref and returns the object
// it names when the inputs hold it.
func (g *Graph) resolveParametersRef(gw *GatewayResult, ref *gwv1.LocalParametersReference) Object {
	res := &RefResult{Path: "spec.infrastructure.parametersRef", Group: string(ref.Group),
		Target: ObjectRef{Kind: string(ref.Kind), Namespace: gw.Ref.Namespace, Name: ref.Name}}
	gw.Parameters = res
	kind := groupKind(res.Group, res.Target.Kind)
	if kinds := gw.acceptedParameters(); len(kinds) > 0 && !contains(kinds, kind) {
		res.Reason = ReasonInvalidParameters
		res.Message = fmt.Sprintf("controller %s does not take parameters of kind %s (it takes %s)",
			gw.ControllerName, kind, strings.Join(kinds, ", "))
		return nil
	}
	lookup := res.Target
	lookup.Kind = qualifiedKind(res.Group, lookup.Kind)
	obj, presence := g.Lookup(lookup)
	if res.Presence = presence; presence == Missing {
		res.Reason = ReasonInvalidParameters
		res.Message = fmt.Sprintf("%s %s does not exist%s", kind, res.Target.NamespacedName(), g.didYouMean(lookup, Missing))
	}
	return obj
}

func (g *Graph) resolveListenerSet(ls *ListenerSetResult) {
	pr := ls.Spec.ParentRef
	ns := string(*pr.Namespace)
	ls.Accepted = condition(string(gwv1.ListenerSetConditionAccepted), false, ReasonNotAllowed, "")
	if string(*pr.Group) != GroupGateway || string(*pr.Kind) != KindGateway {
		ls.Accepted.Message = fmt.Sprintf("parentRef must be a Gateway, not %s", groupKind(string(*pr.Group), string(*pr.Kind)))
	} else if gw := g.Gateway(ns, string(pr.Name)); gw == nil {
		parent := ObjectRef{Kind: KindGateway, Namespace: ns, Name: string(pr.Name)}
		_, ls.ParentPresence = g.Lookup(parent)
		ls.Accepted.Message = g.describeAbsence(parent, ls.ParentPresence)
		if ls.ParentPresence != Missing {
			ls.Accepted = undecidedCondition(string(gwv1.ListenerSetConditionAccepted), ls.Accepted.Message+": whether it is accepted cannot be decided")
		}
	} else {
		ls.Parent, ls.ParentPresence = gw, Present
		gw.ListenerSets = append(gw.ListenerSets, ls)
		switch adm, why := g.gatewayAllowsListenerSet(gw, ls); adm {
		case admitted:
			ls.Accepted = listenerSetAccepted(gw)
		case undecided:
			ls.Accepted = undecidedCondition(string(gwv1.ListenerSetConditionAccepted), why)
		default:
			ls.Accepted.Message = why
		}
	}
	for i := range ls.Spec.Listeners {
		l := &ls.Spec.Listeners[i]
		ls.Listeners = append(ls.Listeners, g.newListener(ls.Parent, ls, i, l.Name, l.Port, l.Protocol, l.Hostname, l.TLS, l.AllowedRoutes))
	}
}

// finishAcceptance decides a ListenerSet's own conditions once its
// listeners' conflicts are known: "ListenersNotValid" when none is valid
// (False) or only some are (True); Programmed mirrors Accepted's reason
// when False.
func (ls *ListenerSetResult) finishAcceptance() {
	if ls.Accepted.True() {
		valid := 0
		for _, l := range ls.Listeners {
			if l.Valid() {
				valid++
			}
		}
		if valid == 0 {
			ls.Accepted = condition(string(gwv1.ListenerSetConditionAccepted), false, ReasonListenersNotValid, "no listener is valid")
		} else if valid < len(ls.Listeners) {
			ls.Accepted.Reason = ReasonListenersNotValid
			ls.Accepted.Message = "some listeners are not valid"
		}
	}
	switch {
	case ls.Accepted.True():
		ls.Programmed = listenerSetProgrammed()
	case ls.Accepted.Status == metav1.ConditionUnknown:
		ls.Programmed = undecidedCondition(string(gwv1.ListenerSetConditionProgrammed), ls.Accepted.Message)
	default:
		ls.Programmed = condition(string(gwv1.ListenerSetConditionProgrammed), false, ls.Accepted.Reason, ls.Accepted.Message)
	}
}

// listenerSetProgrammed is a ListenerSet's Programmed=True.
func listenerSetProgrammed() Condition {
	return condition(string(gwv1.ListenerSetConditionProgrammed), true, ReasonProgrammed, "ListenerSet programmed")
}

// listenerSetAccepted is the Accepted=True of a ListenerSet its Gateway
// admits.
func listenerSetAccepted(gw *GatewayResult) Condition {
	return condition(string(gwv1.ListenerSetConditionAccepted), true, ReasonAccepted, "ListenerSet accepted by Gateway "+gw.Ref.NamespacedName())
}

// AdmitListenerSet writes the ListenerSet, which its Gateway admits,
// Accepted=True/Accepted and Programmed=True, in place of the core's
// verdict from its listeners.
func (b *Builder) AdmitListenerSet(ls *ListenerSetResult) {
	ls.Accepted = listenerSetAccepted(ls.Parent)
	ls.Programmed = listenerSetProgrammed()
}

// gatewayAllowsListenerSet applies spec.allowedListeners (default: None).
func (g *Graph) gatewayAllowsListenerSet(gw *GatewayResult, ls *ListenerSetResult) (admission, string) {
	from := gwv1.NamespacesFromNone
	var selector *metav1.LabelSelector
	if al := gw.Spec.AllowedListeners; al != nil && al.Namespaces != nil && al.Namespaces.From != nil {
		from, selector = *al.Namespaces.From, al.Namespaces.Selector
	}
	adm, why := g.namespaceAllowed(from, selector, gw.Ref.Namespace, ls.Ref.Namespace)
	if adm != admitted {
		return adm, fmt.Sprintf("Gateway %s does not allow ListenerSets %s", gw.Ref.NamespacedName(), why)
	}
	return admitted, ""
}

// admission is whether a Gateway's allowedRoutes or allowedListeners admits
// an object's namespace.
type admission int

const (
	refused admission = iota
	admitted
	// undecided: it depends on labels of a Namespace the inputs do not hold.
	undecided
)

// namespaceAllowed evaluates a From/Selector pair of a Gateway (in
// gatewayNS) against an object in ns. The reason explains a refusal, or
// what an undecided admission depends on.
func (g *Graph) namespaceAllowed(from gwv1.FromNamespaces, selector *metav1.LabelSelector, gatewayNS, ns string) (admission, string) {
	switch from {
	case gwv1.NamespacesFromAll:
		return admitted, ""
	case gwv1.NamespacesFromSame:
		if ns == gatewayNS {
			return admitted, ""
		}
		return refused, fmt.Sprintf("from namespace %q (from: Same allows only %q)", ns, gatewayNS)
	case gwv1.NamespacesFromSelector:
		if selector == nil {
			return refused, "(from: Selector without a selector)"
		}
		sel, err := g.labelSelector(selector)
		if err != nil {
			return refused, fmt.Sprintf("(invalid selector: %v)", err)
		}
		nsLabels, presence := g.namespaceLabels(ns)
		if !presence.Known() && !selectsByNameOnly(selector) {
			return undecided, fmt.Sprintf("from namespace %q only if its labels match the selector %s, and Namespace %s is not among "+
				"the inputs (only its %s label is known): add it to the inputs to decide", ns, sel.String(), ns, NamespaceNameLabel)
		}
		if sel.Matches(nsLabels) {
			return admitted, ""
		}
		return refused, fmt.Sprintf("from namespace %q: its labels do not match the selector %s", ns, sel.String())
	case gwv1.NamespacesFromNone:
		return refused, "(from: None)"
	}
	return refused, fmt.Sprintf("(unsupported from: %q)", from)
}

// labelSelector returns selector as a labels.Selector, parsed once: a
// listener's selector is asked about by every route that names it, on
// every core.
func (g *Graph) labelSelector(selector *metav1.LabelSelector) (labels.Selector, error) {
	type parsed struct {
		sel labels.Selector
		err error
	}
	if p, ok := g.selectors.Load(selector); ok {
		return p.(parsed).sel, p.(parsed).err
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	g.selectors.Store(selector, parsed{sel, err})
	return sel, err
}

// selectsByNameOnly reports whether selector looks at no label but the one
// the API server puts on every Namespace, which is known without the
// Namespace object.
func selectsByNameOnly(selector *metav1.LabelSelector) bool {
	for k := range selector.MatchLabels {
		if k != NamespaceNameLabel {
			return false
		}
	}
	for _, e := range selector.MatchExpressions {
		if e.Key != NamespaceNameLabel {
			return false
		}
	}
	return true
}

func (g *Graph) newListener(gw *GatewayResult, ls *ListenerSetResult, i int, name gwv1.SectionName, port gwv1.PortNumber,
	protocol gwv1.ProtocolType, hostname *gwv1.Hostname, tls *gwv1.ListenerTLSConfig, allowed *gwv1.AllowedRoutes) *Listener {
	l := &Listener{
		Gateway: gw, ListenerSet: ls, Index: i, Path: "spec.listeners[" + strconv.Itoa(i) + "]",
		Name: string(name), Port: port, Protocol: protocol, Hostname: hostname, TLS: tls, AllowedRoutes: allowed,
	}
	owner := l.Owner()
	l.attached = "Route attached to listener " + l.Name + " of " + l.owner()

	// Accepted: the protocol must be one a controller can serve.
	kinds, known := protocolKinds[protocol]
	if protocol == gwv1.TLSProtocolType && tls != nil && tls.Mode != nil && *tls.Mode == gwv1.TLSModeTerminate {
		kinds = tlsTerminateKinds
	}
	judge, refusal, refused := profile.Everything, "", false
	if gw != nil {
		judge = gw.Judge.Profile
		refusal, refused = gw.refusedProtocols[protocol]
	}
	switch {
	case refused:
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonUnsupportedProtocol, refusal)
		kinds = nil // it serves nothing
	case known || gw != nil && slices.Contains(gw.servedProtocols, protocol):
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), true, ReasonAccepted, "Listener accepted")
	default:
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonUnsupportedProtocol,
			fmt.Sprintf("protocol %q is not supported; use HTTP, HTTPS, TLS, TCP or UDP", protocol))
	}

	// ResolvedRefs: route kinds, then certificates.
	l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), true, ReasonResolvedRefs, "All references resolved")
	if len(allowed.Kinds) == 0 {
		l.KindsFromProtocol = true
		for _, k := range kinds {
			l.SupportedKinds = append(l.SupportedKinds, routeGroupKind(k))
		}
	} else {
		for _, rgk := range allowed.Kinds {
			switch {
			case kindUnknown(string(*rgk.Group), string(rgk.Kind)):
				l.UnknownKinds = append(l.UnknownKinds, rgk)
			case string(*rgk.Group) == GroupGateway && contains(kinds, string(rgk.Kind)):
				l.SupportedKinds = append(l.SupportedKinds, rgk)
			default:
				l.InvalidKinds = append(l.InvalidKinds, rgk)
			}
		}
		if len(l.InvalidKinds) > 0 {
			names := make([]string, len(l.InvalidKinds))
			for i, k := range l.InvalidKinds {
				names[i] = groupKind(string(*k.Group), string(k.Kind))
			}
			l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, ReasonInvalidRouteKinds,
				fmt.Sprintf("%s listener cannot carry %s", protocol, strings.Join(names, ", ")))
		}
	}
	// Listener.TLS: "This field is required if the Protocol field is
	// "HTTPS" or "TLS"." (No CEL rule enforces it for HTTPS.)
	if l.placeholder() && ls != nil && l.Accepted.True() {
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonUnsupportedProtocol,
			fmt.Sprintf("protocol is %s but no TLS section is defined: %s takes that only on a Gateway, as a placeholder", protocol, judge))
	}
	if protocol == gwv1.HTTPSProtocolType && tls == nil && !l.placeholder() {
		l.TLSProblem = "HTTPS listener has no tls: it needs tls.certificateRefs to terminate TLS"
		if l.ResolvedRefs.True() && (gw == nil || !gw.resolvedWithoutTLS) {
			l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, ReasonInvalidCertificateRef, l.TLSProblem)
		}
	}
	// Passthrough: "The certificateRefs field is ignored in this mode."
	if tls != nil && tls.Mode != nil && *tls.Mode == gwv1.TLSModePassthrough && len(tls.CertificateRefs) > 0 &&
		gw != nil && gw.refusesPassthroughCertificates {
		l.TLSProblem = fmt.Sprintf("%s refuses certificateRefs on a Passthrough listener, which does not terminate TLS", judge)
	}
	if needsCertificates(protocol, tls) {
		for k, ref := range tls.CertificateRefs {
			res := g.resolveSecretRef(owner, l.Path+".tls.certificateRefs["+strconv.Itoa(k)+"]", ref, ReasonInvalidCertificateRef)
			l.CertRefs = append(l.CertRefs, res)
			if !res.OK() && l.ResolvedRefs.True() {
				l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, res.Reason, res.Message)
			}
		}
		if gw != nil && gw.refusesNotPermitted && l.ResolvedRefs.Reason == ReasonRefNotPermitted && l.Accepted.True() {
			l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonNoValidCACertificate,
				fmt.Sprintf("%s refuses a listener whose certificate is not permitted: %s", judge, l.ResolvedRefs.Message))
		}
		// "certificateRefs or options must be specified when mode is Terminate"
		if len(tls.CertificateRefs) == 0 && len(tls.Options) == 0 && l.ResolvedRefs.True() {
			l.ResolvedRefs = condition(string(gwv1.ListenerConditionResolvedRefs), false, ReasonInvalidCertificateRef,
				fmt.Sprintf("%s listener terminates TLS but has no tls.certificateRefs", protocol))
		}
		l.checkCertificates(g.judgedAt)
	}
	if protocol == gwv1.HTTPSProtocolType && gw != nil {
		l.applyClientValidation(gw.frontendFor(port))
	}
	// TLSRouteListenerTerminateNotSupported: an implementation without
	// TLSRouteModeTerminate refuses a TLS listener that terminates for
	// TLSRoutes.
	if terminates(l) && l.allows(KindTLSRoute) && judge.Lacks(features.SupportTLSRouteModeTerminate) {
		l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, ReasonUnsupportedValue,
			fmt.Sprintf("TLS mode Terminate for TLSRoutes is not supported by %s", judge))
		l.SupportedKinds = nil // it serves nothing
	}
	l.SelectorProblem = selectorProblem(allowed)
	l.Conflicted = condition(string(gwv1.ListenerConditionConflicted), false, ReasonNoConflicts, "No conflicts")
	return l
}

// selectorProblem says why allowedRoutes.namespaces selects no namespace
// because its selector is missing or cannot be parsed (an Exists operator
// with values, an In without); "" when it is fine. The CRDs check neither.
func selectorProblem(allowed *gwv1.AllowedRoutes) string {
	if allowed == nil || allowed.Namespaces == nil || allowed.Namespaces.From == nil || *allowed.Namespaces.From != gwv1.NamespacesFromSelector {
		return ""
	}
	if allowed.Namespaces.Selector == nil {
		return "allowedRoutes.namespaces.from is Selector but there is no selector"
	}
	if _, err := metav1.LabelSelectorAsSelector(allowed.Namespaces.Selector); err != nil {
		return "allowedRoutes.namespaces.selector cannot be parsed: " + err.Error()
	}
	return ""
}

// needsCertificates: HTTPS, and TLS in Terminate mode, terminate TLS and need
// a certificate.
func needsCertificates(protocol gwv1.ProtocolType, tls *gwv1.ListenerTLSConfig) bool {
	switch protocol {
	case gwv1.HTTPSProtocolType:
		return tls != nil
	case gwv1.TLSProtocolType:
		return tls != nil && tls.Mode != nil && *tls.Mode == gwv1.TLSModeTerminate
	}
	return false
}

// detectConflicts marks listeners that share a port incompatibly. Within
// one object all indistinct listeners are conflicted (the spec forbids
// picking a winner); a ListenerSet's listener that clashes with one of
// higher precedence (the Gateway's, or an older ListenerSet's) loses, and
// a listener that lost that way no longer holds the port against others.
func detectConflicts(listeners []*Listener) {
	lost := map[*Listener]bool{}
	for i, a := range listeners {
		for _, b := range listeners[i+1:] {
			if a.Port != b.Port || lost[a] || lost[b] {
				continue
			}
			var reason Reason
			switch {
			case !compatibleProtocols(a.Protocol, b.Protocol):
				reason = ReasonProtocolConflict
			case mixedTLS(a, b) && a.Gateway.Judge.Lacks(features.SupportTLSRouteModeMixed):
				// TLSRouteListenerMixedTerminationNotSupported.
				reason = ReasonProtocolConflict
			case sameTransport(a.Protocol, b.Protocol) && a.HostnameString() == b.HostnameString():
				reason = ReasonHostnameConflict
			default:
				continue
			}
			if a.ListenerSet == b.ListenerSet {
				markConflicted(a, reason, b)
			} else {
				lost[b] = true
			}
			markConflicted(b, reason, a)
		}
	}
}

func markConflicted(l *Listener, reason Reason, with *Listener) {
	if l.Conflicted.True() {
		return
	}
	what := "protocol " + string(with.Protocol)
	if reason == ReasonHostnameConflict {
		what = "hostname " + with.HostnameString()
	}
	l.Conflicted = condition(string(gwv1.ListenerConditionConflicted), true, reason,
		fmt.Sprintf("port %d is also used with %s by %s", l.Port, what, with))
	l.Accepted = condition(string(gwv1.ListenerConditionAccepted), false, reason, l.Conflicted.Message)
	if reason == ReasonProtocolConflict && !l.attachesWhileConflicted() {
		// A listener whose protocol cannot be served supports no kind.
		l.SupportedKinds = nil
	}
}

// attachesWhileConflicted: routes still attach to the listener when it is
// conflicted, as its Gateway's ListenersJudge says.
func (l *Listener) attachesWhileConflicted() bool {
	return l.attachesConflicted
}

// compatibleProtocols reports whether two listeners on one port can be
// served together: the same protocol (told apart by hostname), HTTPS and
// TLS (both told apart by SNI), or UDP beside a TCP-based protocol.
func compatibleProtocols(a, b gwv1.ProtocolType) bool {
	if a == b || !sameTransport(a, b) {
		return true
	}
	sni := func(p gwv1.ProtocolType) bool { return p == gwv1.HTTPSProtocolType || p == gwv1.TLSProtocolType }
	return sni(a) && sni(b)
}

func sameTransport(a, b gwv1.ProtocolType) bool {
	return (a == gwv1.UDPProtocolType) == (b == gwv1.UDPProtocolType)
}

func routeGroupKind(kind string) gwv1.RouteGroupKind {
	group := gwv1.Group(GroupGateway)
	return gwv1.RouteGroupKind{Group: &group, Kind: gwv1.Kind(kind)}
}

// groupKind renders "Kind.group" (just "Kind" for the core group).
func groupKind(group, kind string) string {
	if group == "" {
		return kind
	}
	return kind + "." + group
}

// UnsupportedAddress says which spec.addresses entry the Gateway's
// implementation does not support, if any (Accepted=False with reason
// UnsupportedAddress: "an address that was provided is a type which is not
// supported by the implementation").
func (gw *GatewayResult) UnsupportedAddress() string {
	for i, a := range gw.Spec.Addresses {
		typ := gwv1.IPAddressType
		if a.Type != nil {
			typ = *a.Type
		}
		// An implementation-specific (domain-prefixed) type is one no
		// implementation gwlint knows takes; of the API's types (its CRD
		// rejects other unprefixed ones), the implementation may refuse
		// some.
		if strings.Contains(string(typ), "/") || slices.Contains(gw.refusedAddressTypes, typ) {
			return fmt.Sprintf("spec.addresses[%d]: address type %q is not supported by %s", i, typ, gw.Judge)
		}
	}
	return ""
}

// finishGateways writes the Gateway and ListenerSet level conditions once
// listeners and attachments are known.
func (g *Graph) finishGateways(b *Builder) {
	for _, gw := range g.Gateways {
		if gw.Remote() {
			gw.Accepted = condition(string(gwv1.GatewayConditionAccepted), true, ReasonAccepted, "Gateway accepted by "+gw.ControllerName)
			gw.Programmed = condition(string(gwv1.GatewayConditionProgrammed), true, ReasonProgrammed,
				fmt.Sprintf("this Gateway is remote: %s does not program it here", gw.Judge))
			continue
		}
		valid, invalid := 0, []string{}
		unresolved := []string{}
		for _, l := range gw.Listeners {
			// ListenersNotValid: "one or more Listeners have an invalid or
			// unsupported configuration and cannot be configured on the
			// Gateway" — refused, conflicted, or with references that do not
			// resolve (Istio reads it so).
			if l.Valid() {
				valid++
			} else {
				invalid = append(invalid, l.Name)
			}
			if !l.ResolvedRefs.True() {
				unresolved = append(unresolved, l.Name)
			}
		}
		typ := string(gwv1.GatewayConditionAccepted)
		switch bad := gw.UnsupportedAddress(); {
		case bad != "":
			gw.Accepted = condition(typ, false, ReasonUnsupportedAddress, bad)
		case gw.Parameters != nil && !gw.Parameters.OK():
			gw.Accepted = condition(typ, false, gw.Parameters.Reason, gw.Parameters.Message)
		case gw.ParametersRefusal != nil:
			gw.Accepted = condition(typ, false, ReasonInvalidParameters, gw.ParametersRefusal.Message)
		case len(gw.Listeners) > 0 && valid == 0:
			gw.Accepted = condition(typ, false, ReasonListenersNotValid, "no listener is valid: "+strings.Join(invalid, ", "))
		case len(invalid) > 0:
			gw.Accepted = condition(typ, true, ReasonListenersNotValid, "listeners not valid: "+strings.Join(invalid, ", "))
		default:
			gw.Accepted = condition(typ, true, ReasonAccepted, "Gateway accepted by "+gw.ControllerName)
		}
		switch address := g.servicePortsCondition(gw.services, gatewayPorts(gw)); {
		case address != nil:
			gw.Programmed = *address
		case gw.Accepted.True():
			gw.Programmed = condition(string(gwv1.GatewayConditionProgrammed), true, ReasonProgrammed,
				fmt.Sprintf("%d %s ready", valid, nouns(valid, "listener")))
		default:
			gw.Programmed = condition(string(gwv1.GatewayConditionProgrammed), false, ReasonInvalid, gw.Accepted.Message)
		}
		switch {
		case gw.ClientCertificate != nil && !gw.ClientCertificate.OK():
			gw.ResolvedRefs = condition(string(gwv1.GatewayConditionResolvedRefs), false, gw.ClientCertificate.Reason, gw.ClientCertificate.Message)
		case len(unresolved) > 0:
			gw.ResolvedRefs = condition(string(gwv1.GatewayConditionResolvedRefs), false, ReasonListenersNotResolved,
				"listeners with unresolved references: "+strings.Join(unresolved, ", "))
		default:
			gw.ResolvedRefs = resolvedGatewayRefs()
		}
		if judge, ok := gw.Judge.steps.(GatewayConditionsJudge); ok {
			judge.JudgeGatewayConditions(b, gw)
		}
		for _, ls := range gw.ListenerSets {
			// A ListenerSet with no valid listener is not programmed
			// whatever its address.
			if ls.Programmed.True() {
				if address := g.servicePortsCondition(gw.services, servedPorts(ls.Listeners)); address != nil {
					ls.Programmed = *address
				}
			}
			switch {
			case !ls.Accepted.True() || gw.Accepted.True():
			case gw.listenerSetRefusal == nil:
				ls.Accepted = condition(string(gwv1.ListenerSetConditionAccepted), false, ReasonParentNotAccepted,
					"Gateway "+gw.Ref.NamespacedName()+" is not accepted")
				ls.Programmed = condition(string(gwv1.ListenerSetConditionProgrammed), false, ls.Accepted.Reason, ls.Accepted.Message)
			case gw.listenerSetRefusal.Status != "":
				ls.Accepted = *gw.listenerSetRefusal
				ls.Programmed = condition(string(gwv1.ListenerSetConditionProgrammed), false, ls.Accepted.Reason, ls.Accepted.Message)
			}
		}
	}
	g.omitListenerStatuses()
}

// resolvedGatewayRefs is a Gateway's ResolvedRefs=True.
func resolvedGatewayRefs() Condition {
	return condition(string(gwv1.GatewayConditionResolvedRefs), true, ReasonResolvedRefs, "All references resolved")
}

// GatewayConditionsJudge writes the conditions of the Gateways it judges,
// and of their ListenerSets, otherwise than as the API's summaries of their
// listeners: the core's Gateway Programmed follows Accepted, its
// ResolvedRefs is also "a positive-polarity summary of Listener's
// ResolvedRefs condition" (ListenersNotResolved); an admitted ListenerSet
// is Accepted while a listener is valid (ListenersNotValid when some are
// not), Programmed follows Accepted, and one a refused Gateway accepted is
// refused too (ParentNotAccepted); every status lists its listeners.
type GatewayConditionsJudge interface {
	Implementation
	// JudgeListenerSetConditions adjusts a ListenerSet's Accepted and
	// Programmed once the core has decided them from its listeners,
	// before routes attach to it.
	JudgeListenerSetConditions(b *Builder, ls *ListenerSetResult)
	// JudgeGatewayConditions adjusts the Gateway's Programmed and
	// ResolvedRefs once the core has written its conditions, before its
	// ListenerSets share its refusal (ShareRefusal).
	JudgeGatewayConditions(b *Builder, gw *GatewayResult)
	// OmitsListenerStatus reports whether the status of a Gateway or
	// ListenerSet whose Accepted condition is accepted lists no listeners.
	OmitsListenerStatus(accepted Condition) bool
}

// ResolveOwnRefs writes the Gateway's ResolvedRefs from its own references
// (spec.tls) alone, without the API's summary of its listeners'
// (ListenersNotResolved).
func (b *Builder) ResolveOwnRefs(gw *GatewayResult) {
	if gw.ResolvedRefs.Reason == ReasonListenersNotResolved {
		gw.ResolvedRefs = resolvedGatewayRefs()
	}
}

// ShareRefusal writes what the ListenerSets the Gateway accepted write when
// it is not accepted, in place of the API's ParentNotAccepted: Accepted and
// Programmed False with reason and message; with reason "", they keep their
// own conditions.
func (b *Builder) ShareRefusal(gw *GatewayResult, reason Reason, message string) {
	c := Condition{}
	if reason != "" {
		c = condition(string(gwv1.ListenerSetConditionAccepted), false, reason, message)
	}
	gw.listenerSetRefusal = &c
}

// omitListenerStatuses asks each Gateway's implementation, and its
// ListenerSets', whether its status lists its listeners, once their
// conditions are final.
func (g *Graph) omitListenerStatuses() {
	for _, gw := range g.Gateways {
		if judge, ok := gw.Judge.steps.(GatewayConditionsJudge); ok {
			gw.omitsListeners = judge.OmitsListenerStatus(gw.Accepted)
		}
	}
	for _, ls := range g.ListenerSets {
		if ls.Parent == nil {
			continue
		}
		if judge, ok := ls.Parent.Judge.steps.(GatewayConditionsJudge); ok {
			ls.omitsListeners = judge.OmitsListenerStatus(ls.Accepted)
		}
	}
}
