package resolve

import (
	"encoding/binary"
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"unique"
	"unsafe"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve/crd"
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
	KindServiceImport    = "ServiceImport"
)

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
	Ref        ObjectRef
	APIVersion string
	Source     Source
	Positions  *Positions
	// NamespaceDefaulted is true when metadata.namespace was not written and
	// the default namespace (-n, else "default") was used, as kubectl does.
	NamespaceDefaulted bool
	// Defaulted holds the field paths whose values the API server's defaulting
	// (or the spec's implicit defaults) filled in; they were not written.
	Defaulted   DefaultedPaths
	Labels      map[string]string
	Annotations map[string]string
	// Ignores are the gwlint:ignore comments of the object's file.
	Ignores []IgnoreDirective
	// Violations are what the API server would reject in the object as
	// written (Options.Validate): schema, CEL rules and unknown fields.
	Violations []crd.Violation
	// Created is metadata.creationTimestamp when written; it orders routes
	// and ListenerSets the way the spec's precedence rules do.
	Created    metav1.Time
	Generation int64
}

// Object is implemented by every typed object in the graph.
type Object interface {
	Metadata() *Meta
}

// Metadata returns the object's Meta.
func (m *Meta) Metadata() *Meta { return m }

// IsDefaulted reports whether the value at path was filled in by defaulting.
func (m *Meta) IsDefaulted(path string) bool { return m.Defaulted.Has(path) }

// Position returns where path was written, or where its nearest written
// ancestor was when the value itself was defaulted.
func (m *Meta) Position(path string) Pos {
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

// DefaultedPaths is a set of field paths, kept compactly. Paths are
// recorded into a newline-separated buffer, then sealed into one string per
// object, each path stored as the length of the prefix it shares with the
// one before and the rest ("spec.rules[0].backendRefs[1].weight" after
// "spec.rules[0].backendRefs[1].kind" costs 8 bytes). Objects carry a few
// dozen defaulted paths and are asked about a handful, so a scan costs less
// than a map of path strings would in memory. The zero value is empty.
type DefaultedPaths struct {
	sealed string // front-coded paths (see seal)
	buf    []byte // paths being recorded, each followed by '\n'
}

func (d *DefaultedPaths) add(path, suffix string) {
	if d.buf == nil {
		buf := scratch()
		d.each(func(p []byte) bool {
			buf = append(append(buf, p...), '\n')
			return true
		})
		d.buf, d.sealed = buf, ""
	}
	d.buf = append(d.buf, path...)
	d.buf = append(d.buf, suffix...)
	d.buf = append(d.buf, '\n')
}

// scratchBufs recycles the buffers objects are defaulted and sealed in:
// every object needs two, briefly.
var scratchBufs = sync.Pool{New: func() any { return new([]byte) }}

func scratch() []byte { return (*scratchBufs.Get().(*[]byte))[:0] }

func recycle(b []byte) { scratchBufs.Put(&b) }

// seal moves the recorded paths into their front-coded string. Objects of
// the same shape get the same defaults (every backendRef of every route
// gets a weight): interning keeps one copy of each set.
func (d *DefaultedPaths) seal() {
	if d.buf == nil {
		return
	}
	out := scratch()
	prev := ""
	for p := range lines(unsafe.String(unsafe.SliceData(d.buf), len(d.buf))) {
		shared := 0
		for shared < len(p) && shared < len(prev) && p[shared] == prev[shared] {
			shared++
		}
		out = binary.AppendUvarint(out, uint64(shared))
		out = binary.AppendUvarint(out, uint64(len(p)-shared))
		out = append(out, p[shared:]...)
		prev = p
	}
	// unique.Make copies what it keeps, so out can be a view.
	d.sealed = unique.Make(unsafe.String(unsafe.SliceData(out), len(out))).Value()
	recycle(d.buf)
	recycle(out)
	d.buf = nil
}

// all yields the recorded paths in recording order.
func (d *DefaultedPaths) all() iter.Seq[string] {
	if d.buf != nil {
		return lines(string(d.buf))
	}
	return func(yield func(string) bool) {
		d.each(func(p []byte) bool { return yield(string(p)) })
	}
}

// each calls f with every sealed path, in a buffer valid only during the
// call, until f returns false.
func (d *DefaultedPaths) each(f func([]byte) bool) {
	s := d.sealed
	var path []byte
	for s != "" {
		shared, rest := uvarint(&s), uvarint(&s)
		path = append(path[:shared], s[:rest]...)
		s = s[rest:]
		if !f(path) {
			return
		}
	}
}

// lines yields the newline-terminated lines of s.
func lines(s string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for s != "" {
			i := strings.IndexByte(s, '\n')
			if !yield(s[:i]) {
				return
			}
			s = s[i+1:]
		}
	}
}

// Add records path as defaulted.
func (d *DefaultedPaths) Add(path string) {
	if !d.Has(path) {
		d.add(path, "")
		d.seal()
	}
}

// Remove forgets path.
func (d *DefaultedPaths) Remove(path string) {
	var keep []string
	for p := range d.all() {
		if p != path {
			keep = append(keep, p)
		}
	}
	*d = DefaultedPaths{}
	for _, p := range keep {
		d.add(p, "")
	}
	d.seal()
}

// Has reports whether path was recorded.
func (d *DefaultedPaths) Has(path string) bool { return d.hasJoined(path, "") }

// hasJoined is Has(path + suffix). It is asked for every backendRef while
// resolving, so it compares in place, allocating nothing.
func (d *DefaultedPaths) hasJoined(path, suffix string) bool {
	is := func(p string) bool {
		return len(p) == len(path)+len(suffix) && p[:len(path)] == path && p[len(path):] == suffix
	}
	if d.buf != nil {
		for p := range lines(string(d.buf)) {
			if is(p) {
				return true
			}
		}
		return false
	}
	found := false
	d.each(func(p []byte) bool {
		found = len(p) == len(path)+len(suffix) && string(p[:len(path)]) == path && string(p[len(path):]) == suffix
		return !found
	})
	return found
}

// Len is the number of paths recorded.
func (d *DefaultedPaths) Len() int { return len(d.Paths()) }

// Paths returns the recorded paths, sorted, each once.
func (d *DefaultedPaths) Paths() []string {
	out := slices.Collect(d.all())
	if out == nil {
		return nil
	}
	sort.Strings(out)
	return slices.Compact(out)
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

// BackendTLSPolicy is a gateway.networking.k8s.io BackendTLSPolicy. It is
// loaded so that inputs holding one are complete; the resolver does not yet
// evaluate it.
type BackendTLSPolicy struct {
	Meta
	Spec gwv1.BackendTLSPolicySpec
}

// ServicePort is the part of a core/v1 ServicePort that routing depends on.
type ServicePort struct {
	Name        string  `json:"name,omitempty"`
	Protocol    string  `json:"protocol,omitempty"`
	AppProtocol *string `json:"appProtocol,omitempty"`
	Port        int32   `json:"port"`
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
// loading and only the verdict is kept.
type Secret struct {
	Meta
	Type     string
	DataKeys []string
	// CertificateProblem says why tls.crt / tls.key do not hold a usable
	// PEM certificate and key; empty when they do or there is no tls.crt.
	CertificateProblem string
}
