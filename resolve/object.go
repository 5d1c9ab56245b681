package resolve

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/profile"
)

// API groups the resolver knows.
const (
	GroupGateway      = gwv1.GroupName // gateway.networking.k8s.io
	GroupCore         = ""
	GroupMultiCluster = "multicluster.x-k8s.io"
	// GroupGatewayExperimental holds Gateway API's experimental-only kinds
	// (XBackend, XBackendTrafficPolicy, XMesh in v1.6.3).
	GroupGatewayExperimental = "gateway.networking.x-k8s.io"
)

// Kinds the resolver reads.
const (
	KindGatewayClass     = "GatewayClass"
	KindGateway          = "Gateway"
	KindListenerSet      = "ListenerSet"
	KindHTTPRoute        = "HTTPRoute"
	KindGRPCRoute        = "GRPCRoute"
	KindTLSRoute         = "TLSRoute"
	KindTCPRoute         = "TCPRoute"
	KindUDPRoute         = "UDPRoute"
	KindReferenceGrant   = "ReferenceGrant"
	KindBackendTLSPolicy = "BackendTLSPolicy"
	KindService          = "Service"
	KindNamespace        = "Namespace"
	KindSecret           = "Secret"
	KindConfigMap        = "ConfigMap"
	KindServiceImport    = "ServiceImport"
	KindXBackend         = "XBackend"
)

// readKinds are the kinds above, with the kinds of the KindReaders
// (Options.reads): an object of another kind (an implementation's backend
// or policy) is never among the inputs, so its absence says nothing.
var readKinds = map[string]bool{
	KindGatewayClass: true, KindGateway: true, KindListenerSet: true,
	KindHTTPRoute: true, KindGRPCRoute: true, KindTLSRoute: true, KindTCPRoute: true, KindUDPRoute: true,
	KindReferenceGrant: true, KindBackendTLSPolicy: true,
	KindService: true, KindNamespace: true, KindSecret: true, KindConfigMap: true, KindServiceImport: true,
	KindXBackend: true,
}

// KindReader reads the objects of an implementation's own kinds, of groups
// the API does not define: the inputs hold them as they hold the API's
// kinds (their Ref's kind qualified, "Kind.group"), and the lack of one is
// judged as the lack of a Service is (Graph.Lookup). Load asks it for
// every document of a group the core does not read.
type KindReader interface {
	Implementation
	// Kinds are the kinds it reads.
	Kinds() []profile.GroupKind
	// NewObject returns an empty object of group and kind, one of Kinds
	// or one it reads only a part of, and where in it the document's spec
	// decodes; nil for a version it does not read.
	NewObject(group, version, kind string) (obj Object, spec any)
}

// newObject asks the KindReaders of o.Implementations for an object of
// group, version and kind; nil when none reads it.
func (o Options) newObject(group, version, kind string) (Object, any) {
	for _, impl := range o.Implementations {
		if r, ok := impl.(KindReader); ok {
			if obj, spec := r.NewObject(group, version, kind); obj != nil {
				return obj, spec
			}
		}
	}
	return nil, nil
}

// reads reports whether the inputs would hold objects of kind, qualified
// (readKinds, or a KindReader's).
func (o Options) reads(kind string) bool {
	if readKinds[kind] {
		return true
	}
	for _, impl := range o.Implementations {
		if r, ok := impl.(KindReader); ok && slices.ContainsFunc(r.Kinds(), func(gk profile.GroupKind) bool { return qualifiedKind(gk.Group, gk.Kind) == kind }) {
			return true
		}
	}
	return false
}

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

// ObjectRef names an object: its kind, namespace (empty for cluster-scoped
// kinds) and name.
type ObjectRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String renders the ref the way kubectl users read it: "HTTPRoute ns/name".
func (r ObjectRef) String() string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Namespace + "/" + r.Name
}

// NamespacedName is "ns/name" (or "name" for cluster-scoped objects).
func (r ObjectRef) NamespacedName() string {
	if r.Namespace == "" {
		return r.Name
	}
	return r.Namespace + "/" + r.Name
}

// Meta is what every loaded object carries: its identity, where it was
// written, the position of every field, and which fields were defaulted.
type Meta struct {
	Ref ObjectRef
	// APIVersion is as written; version says how the CRDs of the channel
	// serve it (Gateway API kinds only; see Version).
	APIVersion string
	version    *APIVersionInfo
	Source     manifest.Source
	Positions  *manifest.Positions
	// Defaulted holds the field paths whose values the API server's defaulting
	// (or the spec's implicit defaults) filled in; they were not written.
	Defaulted   DefaultedPaths
	Labels      KeyValues
	Annotations KeyValues
	// Ignores are the gwlint:ignore comments of the object's file.
	Ignores []manifest.IgnoreDirective
	// Violations are what the API server would reject in the object as
	// written (Options.Validate): schema, CEL rules and unknown fields.
	Violations []crd.Violation
	Generation int64
	// Unknown maps the field paths whose values hold a deploy-time
	// placeholder to the values as written (unknown.go); nil when none.
	Unknown map[string]string
	// createdSec and createdNsec are metadata.creationTimestamp (Created),
	// seconds since the year 1 as time.Time counts them, so that the zero
	// Meta has none: 12 bytes where a metav1.Time takes 24, beside the
	// small fields below in the padding of the struct's last word. Every
	// object has a Meta, and a repository hundreds of thousands of objects.
	createdSec  int64
	createdNsec int32
	// NamespaceDefaulted is true when metadata.namespace was not written and
	// the default namespace (-n, else "default") was used, as kubectl does.
	NamespaceDefaulted bool
	// digest identifies the document as written, to tell a duplicate that
	// repeats its first definition from one that changes it, and a file
	// read again that holds the same objects (KeepSame); zero for an
	// object not read from a document.
	digest documentDigest
}

// Created is metadata.creationTimestamp when written, else the zero time;
// it orders routes and ListenerSets the way the spec's precedence rules do.
func (m *Meta) Created() metav1.Time {
	if m.createdSec == 0 && m.createdNsec == 0 {
		return metav1.Time{}
	}
	return metav1.NewTime(time.Unix(m.createdSec+unixToYearOne, int64(m.createdNsec)))
}

// setCreated records t as the creation time.
func (m *Meta) setCreated(t time.Time) {
	if t.IsZero() {
		m.createdSec, m.createdNsec = 0, 0
		return
	}
	m.createdSec, m.createdNsec = t.Unix()-unixToYearOne, int32(t.Nanosecond())
}

// unixToYearOne is the Unix time of January 1 of the year 1, time.Time's
// zero.
const unixToYearOne = -62135596800

// Object is implemented by every typed object in the graph.
type Object interface {
	Metadata() *Meta
}

// Metadata returns the object's Meta.
func (m *Meta) Metadata() *Meta { return m }

// Version says how the CRDs of the channel serve the object's apiVersion;
// the zero value (served) for kinds other than Gateway API's.
func (m *Meta) Version() APIVersionInfo {
	if m.version == nil {
		return APIVersionInfo{}
	}
	return *m.version
}

// IsDefaulted reports whether the value at path was filled in by defaulting.
func (m *Meta) IsDefaulted(path string) bool { return m.Defaulted.Has(path) }

// Position returns where path was written, or where its nearest written
// ancestor was when the value itself was defaulted.
func (m *Meta) Position(path string) manifest.Pos {
	if m.Positions == nil {
		return m.Source.Pos
	}
	p, _ := m.Positions.Nearest(path)
	if p.Line == 0 {
		return m.Source.Pos
	}
	return p
}

// Location renders "file:line:col" for path.
func (m *Meta) Location(path string) string {
	p := m.Position(path)
	return fmt.Sprintf("%s:%d:%d", m.Source.File, p.Line, p.Col)
}

func (m *Meta) setDefaulted(path, suffix string) {
	m.Defaulted.add(path, suffix)
}

// GatewayClass is a gateway.networking.k8s.io GatewayClass.
type GatewayClass struct {
	Meta
	Spec gwv1.GatewayClassSpec
}

// Gateway is a gateway.networking.k8s.io Gateway (any served version).
type Gateway struct {
	Meta
	Spec gwv1.GatewaySpec
}

// ListenerSet is a gateway.networking.k8s.io ListenerSet.
type ListenerSet struct {
	Meta
	Spec gwv1.ListenerSetSpec
}

// ReferenceGrant is a gateway.networking.k8s.io ReferenceGrant.
type ReferenceGrant struct {
	Meta
	Spec gwv1.ReferenceGrantSpec
}

// BackendTLSPolicy is a gateway.networking.k8s.io BackendTLSPolicy.
type BackendTLSPolicy struct {
	Meta
	Spec gwv1.BackendTLSPolicySpec
}

// ServicePort is the part of a core/v1 ServicePort that routing depends
// on, and its targetPort, for validation (a ServiceImport's ports have none).
type ServicePort struct {
	Name        string             `json:"name,omitempty"`
	Protocol    string             `json:"protocol,omitempty"`
	AppProtocol *string            `json:"appProtocol,omitempty"`
	Port        int32              `json:"port"`
	TargetPort  intstr.IntOrString `json:"targetPort,omitempty"`
	// Unknown is the port as written when it holds a deploy-time
	// placeholder (`port: ${PORT}`): Port is then 0, and which number the
	// Service has there is unknown.
	Unknown string `json:"-"`
}

// Service is the part of a core/v1 Service that routing depends on.
type Service struct {
	Meta
	Spec struct {
		Type         string        `json:"type,omitempty"`
		ClusterIP    string        `json:"clusterIP,omitempty"`
		ExternalName string        `json:"externalName,omitempty"`
		Ports        []ServicePort `json:"ports,omitempty"`
	}
}

// portViolations are the port numbers the API server's Service validation
// rejects (ValidateService): a port, or a numeric targetPort, outside
// 1–65535. A targetPort of 0 is not one: defaulting sets it to the port.
func (s *Service) portViolations() []crd.Violation {
	var out []crd.Violation
	// The path is made only for a port that is invalid: every Service
	// has ports, nearly all valid.
	invalid := func(i int, field string, value int32) {
		for _, msg := range validation.IsValidPortNum(int(value)) {
			out = append(out, crd.Violation{Path: fmt.Sprintf("spec.ports[%d].%s", i, field), Type: "Invalid value", Message: fmt.Sprintf("Invalid value: %d: %s", value, msg)})
		}
	}
	for i, p := range s.Spec.Ports {
		if p.Unknown == "" {
			invalid(i, "port", p.Port)
		}
		if t := p.TargetPort; t.Type == intstr.Int && t.IntVal != 0 {
			invalid(i, "targetPort", t.IntVal)
		}
	}
	return out
}

// markUnknownPorts records which ports hold a deploy-time placeholder.
func (s *Service) markUnknownPorts() {
	if len(s.Unknown) == 0 {
		return
	}
	for i := range s.Spec.Ports {
		s.Spec.Ports[i].Unknown, _ = s.UnknownAt("spec.ports["+strconv.Itoa(i)+"]", ".port")
	}
}

// unknownPort returns the first port that holds a deploy-time placeholder.
func unknownPort(ports []ServicePort) (string, bool) {
	for _, p := range ports {
		if p.Unknown != "" {
			return p.Unknown, true
		}
	}
	return "", false
}

// Headless reports whether the Service has no cluster IP.
func (s *Service) Headless() bool { return s.Spec.ClusterIP == "None" }

// ExternalName reports whether the Service is a DNS alias (type ExternalName).
func (s *Service) ExternalName() bool { return s.Spec.Type == "ExternalName" }

// Port returns the Service port with the given number.
func (s *Service) Port(n int32) (ServicePort, bool) {
	for _, p := range s.Spec.Ports {
		if p.Port == n {
			return p, true
		}
	}
	return ServicePort{}, false
}

// ServiceImport is a multicluster.x-k8s.io ServiceImport (metadata and ports).
type ServiceImport struct {
	Meta
	Spec struct {
		Type  string        `json:"type,omitempty"`
		Ports []ServicePort `json:"ports,omitempty"`
	}
}

// XBackend is a gateway.networking.x-k8s.io XBackend, read for the port a
// backendRef to it must agree with (an implementation that accepts the kind,
// profile.Implementation.BackendKinds). Its type (ExternalHostname, the
// only one the CRD allows), hostname and TLS are left to the
// implementation.
type XBackend struct {
	Meta
	Spec struct {
		Port struct {
			Port int32 `json:"port"`
		} `json:"port"`
	}
}

// ExperimentalObject is an object of an experimental-only Gateway API kind.
// The resolver gives it no meaning; it is loaded so that it is validated
// against its CRD.
type ExperimentalObject struct {
	Meta
}

// Namespace is a core/v1 Namespace; only its labels matter here. Labels
// always carry kubernetes.io/metadata.name, as the API server adds it.
type Namespace struct {
	Meta
}

// Secret is a core/v1 Secret: metadata, type and the names of its data keys.
// Values are never kept; a TLS Secret's certificate is checked while
// loading and only the verdict and the certificate's public facts are kept.
type Secret struct {
	Meta
	Type     string
	DataKeys []string
	// Encrypted is set for a Secret encrypted with SOPS (a top-level sops
	// key), which Flux's kustomize-controller decrypts as it applies it
	// (https://fluxcd.io/flux/guides/mozilla-sops/): its type and key
	// names are plain text, its values unknown, so nothing is said of
	// them.
	Encrypted bool
	// CertificateProblem says why tls.crt / tls.key do not hold a usable
	// PEM certificate and matching key; empty when they do or there is no
	// tls.crt.
	CertificateProblem string
	// Certificate is the leaf certificate of tls.crt when it is usable.
	Certificate *Certificate
	// ReferenceProblem says why a Secret of an implementation-specific
	// type that points at certificates served elsewhere cannot be used;
	// empty when it can or the type is not one an implementation reads
	// (ReferenceSecretReader).
	ReferenceProblem string
	// reference: the Secret is of a type an implementation reads as a
	// reference to certificates served elsewhere.
	reference bool
	// A Secret is a CA certificate source for frontend validation and
	// BackendTLSPolicy as well (implementation-specific support).
	CABundle
}

// ConfigMap is a core/v1 ConfigMap: metadata and the names of its data keys.
// Values are never kept; ca.crt, the CA bundle key of frontend client
// certificate validation and BackendTLSPolicy, is checked while loading and
// only the verdict is kept.
type ConfigMap struct {
	Meta
	DataKeys []string
	CABundle
}

// CABundle is the verdict on the CA bundle a ConfigMap or Secret holds,
// checked while loading (the values are not kept).
type CABundle struct {
	// CAProblem says why ca.crt holds no usable PEM CA bundle; empty when
	// it does.
	CAProblem string
	// CAProblemAnyKey is CAProblem for implementations that read any key
	// (CAReading.AnyKey).
	CAProblemAnyKey string
	// caInContent and caInContentAnyKey: the problem lies in the bundle's
	// content (not PEM certificates), not in a missing key.
	caInContent, caInContentAnyKey bool
}

// check records the verdicts on a bundle whose plain values are plain and
// base64 ones b64.
func (c *CABundle) check(plain, b64 map[string]json.RawMessage) {
	c.CAProblem, c.caInContent = checkCABundle(plain, b64)
	c.CAProblemAnyKey, c.caInContentAnyKey = checkCABundleAnyKey(plain, b64)
}

// problem is the verdict for an implementation that reads CA certificates
// as ca says: what makes the reference unusable, else what its proxy will
// refuse in a bundle the implementation does not parse
// (CAReading.Unparsed).
func (c *CABundle) problem(ca CAReading) (problem, unparsed string) {
	problem, inContent := c.CAProblem, c.caInContent
	if ca.AnyKey {
		problem, inContent = c.CAProblemAnyKey, c.caInContentAnyKey
	}
	if inContent && ca.Unparsed {
		return "", problem
	}
	return problem, ""
}

// refNamespace is the namespace a reference names, its owner's when it
// names none or "" (Envoy Gateway's NamespaceDerefOr, the API's
// "defaults to the local namespace").
func refNamespace[T ~string](ns *T, owner string) string {
	if ns == nil || *ns == "" {
		return owner
	}
	return string(*ns)
}
