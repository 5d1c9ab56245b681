package resolve

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"unicode"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/internal/suggest"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Options control loading and resolution.
type Options struct {
	// DefaultNamespace is given to namespaced objects that name none, as
	// kubectl's -n does; "default" when empty.
	DefaultNamespace string
	// StrictRefs treats every reference to an object outside the inputs as
	// Missing instead of External.
	StrictRefs bool
	// ControllerName is written as status controllerName for Gateways whose
	// GatewayClass is not among the inputs.
	ControllerName string
	// Validate checks every Gateway API object against the CRDs of Channel
	// (schema and CEL, as the API server would on create) and keeps the
	// violations in Meta.Violations.
	Validate bool
	Channel  crd.Channel
}

// DefaultControllerName stands in for the controller of a GatewayClass that
// the inputs do not hold.
const DefaultControllerName = "gwlint.io/offline-controller"

func (o Options) namespace() string {
	if o.DefaultNamespace == "" {
		return "default"
	}
	return o.DefaultNamespace
}

// Inputs is everything read from the given paths: typed objects in read
// order, problems found while reading, and the kinds that were skipped.
type Inputs struct {
	Objects []Object
	Errors  []*manifest.ReadError
	// Skipped counts the documents of kinds the resolver does not model, by
	// "apiVersion Kind"; they are never an error.
	Skipped map[string]int
}

// Load reads every path (files, directories, "-" for stdin), decodes the
// objects it knows into typed structs and applies the API's defaults.
// A file that fails to parse is reported in Inputs.Errors; the others are
// still loaded.
func Load(paths []string, stdin io.Reader, opts Options) *Inputs {
	// Decoding and defaulting touch one object each, so they run on the
	// reading workers, as soon as each object is read; the results are
	// gathered in read order below.
	type loaded struct {
		obj     Object
		err     *manifest.ReadError
		skipped string // "apiVersion Kind" of a kind the resolver does not model
	}
	objs, errs := manifest.ReadEach(paths, stdin, func(raw *manifest.Object) loaded {
		obj, err := decodeObject(raw, opts)
		return loaded{obj, err, raw.APIVersion + " " + raw.Kind}
	})
	in := &Inputs{Errors: errs, Skipped: map[string]int{}}
	for _, o := range objs {
		if o.err != nil {
			in.Errors = append(in.Errors, o.err)
		}
		switch {
		case o.obj != nil:
			in.Objects = append(in.Objects, o.obj)
		case o.err == nil:
			in.Skipped[o.skipped]++
		}
	}
	return in
}

// decodeObject decodes and defaults one object. It runs on a worker
// goroutine, where a panic would end the whole process: a bug met on one
// document becomes that document's error, and the other files are still
// checked.
func decodeObject(raw *manifest.Object, opts Options) (obj Object, err *manifest.ReadError) {
	defer func() {
		if v := recover(); v != nil {
			obj, err = nil, raw.Errorf("", "internal error while decoding %s: %v (please report it)", raw.Kind, v)
		}
	}()
	obj, err = decode(raw, opts)
	if obj != nil {
		applyDefaults(obj)
	}
	return obj, err
}

// unknownKind reports a kind that a Gateway API group does not have: a
// typo (HTTPRoutez) that the API server would refuse, and that would
// otherwise drop the object, and every finding about it, unnoticed.
func unknownKind(raw *manifest.Object, group string) *manifest.ReadError {
	kinds := crd.Kinds(group)
	hint := ""
	if best := suggest.Closest(raw.Kind, kinds); best != "" {
		hint = " (did you mean " + best + "?)"
	}
	return raw.Errorf("kind", "%s is not a kind of %s in Gateway API %s%s; its kinds: %s",
		raw.Kind, group, APIVersion, hint, strings.Join(kinds, ", "))
}

// clusterScoped kinds get no default namespace.
func clusterScoped(kind string) bool {
	return kind == KindGatewayClass || kind == KindNamespace
}

// decode turns a raw document into a typed object. It returns (nil, nil)
// for kinds the resolver does not model. Every served version of a Gateway
// API kind decodes into the v1 struct: the versions differ in validation
// and status, not in field names.
func decode(raw *manifest.Object, opts Options) (Object, *manifest.ReadError) {
	return decodeAs(raw, opts, true)
}

// decodeAs does decode's work. With once, the document, spec included, is
// decoded in a single json.Unmarshal (the typed spec reached through the
// interface field docOnce.Spec); any error sends it back through the
// two-step decoding (document with a raw spec, then the spec), whose errors
// are the ones reported.
func decodeAs(raw *manifest.Object, opts Options, once bool) (Object, *manifest.ReadError) {
	group, version := splitAPIVersion(raw.APIVersion)
	var target Object
	var spec any
	switch group {
	case GroupGateway, GroupGatewayExperimental:
		// The API server knows every served version of every kind the
		// CRDs define, and refuses any other.
		versions := crd.Served(group, raw.Kind)
		if versions == nil {
			return nil, unknownKind(raw, group)
		}
		if !contains(versions, version) {
			return nil, raw.Errorf("", "%s %s is not served by Gateway API %s (served: %s)",
				raw.Kind, raw.APIVersion, APIVersion, strings.Join(versions, ", "))
		}
		if group == GroupGatewayExperimental {
			// XBackend, XMesh, ...: nothing to resolve, but CRDs to validate.
			target = &ExperimentalObject{}
		} else {
			target, spec = newGatewayAPIObject(raw.Kind)
		}
	case GroupCore:
		if version != "v1" {
			return nil, nil
		}
		switch raw.Kind {
		case KindService:
			s := &Service{}
			target, spec = s, &s.Spec
		case KindNamespace:
			target = &Namespace{}
		case KindSecret:
			target = &Secret{}
		default:
			return nil, nil
		}
	case GroupMultiCluster:
		if raw.Kind != KindServiceImport {
			return nil, nil
		}
		s := &ServiceImport{}
		target, spec = s, &s.Spec
	default:
		return nil, nil
	}

	var doc struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
		Spec     json.RawMessage   `json:"spec"`
		// Secret fields.
		Type       string                     `json:"type"`
		Data       map[string]json.RawMessage `json:"data"`
		StringData map[string]json.RawMessage `json:"stringData"`
	}
	if once {
		one := docOnce{Spec: spec}
		if spec == nil {
			one.Spec = &one.ignored
		}
		if err := json.Unmarshal(raw.JSON, &one); err != nil {
			return decodeAs(raw, opts, false)
		}
		doc.Metadata, doc.Type, doc.Data, doc.StringData = one.Metadata, one.Type, one.Data, one.StringData
		spec = nil // decoded
	} else if err := json.Unmarshal(raw.JSON, &doc); err != nil {
		return nil, jsonError(raw, err, "")
	}
	m := target.Metadata()
	m.APIVersion = raw.APIVersion
	m.Source = raw.Source
	m.Positions = raw.Positions
	m.Ref = ObjectRef{Kind: raw.Kind, Namespace: doc.Metadata.Namespace, Name: doc.Metadata.Name}
	m.Labels = doc.Metadata.Labels
	m.Annotations = doc.Metadata.Annotations
	m.Ignores = raw.Ignores
	m.Created = doc.Metadata.CreationTimestamp
	m.Generation = doc.Metadata.Generation
	if m.Ref.Name == "" {
		return nil, raw.Errorf("metadata", "%s has no metadata.name", raw.Kind)
	}
	if clusterScoped(raw.Kind) {
		m.Ref.Namespace = ""
	} else if m.Ref.Namespace == "" {
		m.Ref.Namespace = opts.namespace()
		m.NamespaceDefaulted = true
	}

	if opts.Validate && (group == GroupGateway || group == GroupGatewayExperimental) {
		m.Violations = validate(raw, opts.Channel)
	}
	var specErr *manifest.ReadError
	if spec != nil && len(doc.Spec) > 0 && string(doc.Spec) != "null" {
		// encoding/json decodes the rest of the spec past a field of the
		// wrong type. The CRD validation reports that field already, with
		// the API server's words: say it once.
		if err := json.Unmarshal(doc.Spec, spec); err != nil {
			path := jsonErrorPath(raw, err, "spec")
			if !slices.ContainsFunc(m.Violations, func(v crd.Violation) bool { return v.Path == path }) {
				specErr = jsonError(raw, err, "spec")
			}
		}
	}
	switch o := target.(type) {
	case *Namespace:
		// The API server labels every Namespace with its own name.
		labels := make(map[string]string, len(o.Labels)+1)
		for k, v := range o.Labels {
			labels[k] = v
		}
		labels[NamespaceNameLabel] = o.Ref.Name
		o.Labels = labels
	case *Secret:
		o.Type = doc.Type
		for k := range doc.Data {
			o.DataKeys = append(o.DataKeys, k)
		}
		for k := range doc.StringData {
			if _, dup := doc.Data[k]; !dup {
				o.DataKeys = append(o.DataKeys, k)
			}
		}
		sort.Strings(o.DataKeys)
		o.CertificateProblem = checkCertificate(o.Type, doc.Data, doc.StringData)
	}
	return target, specErr
}

// docOnce is a document decoded in one pass: Spec holds a pointer to the
// typed spec, which encoding/json decodes into in place.
type docOnce struct {
	Metadata   metav1.ObjectMeta          `json:"metadata"`
	Spec       any                        `json:"spec"`
	Type       string                     `json:"type"`
	Data       map[string]json.RawMessage `json:"data"`
	StringData map[string]json.RawMessage `json:"stringData"`
	ignored    json.RawMessage
}

// validate runs the CRD validation of the channel on the document as
// written (with int64 numbers, as the API server decodes them).
func validate(raw *manifest.Object, ch crd.Channel) []crd.Violation {
	if !crd.Known(raw.APIVersion, raw.Kind, ch) {
		return []crd.Violation{{Path: "apiVersion", Type: "Unsupported value",
			Message: fmt.Sprintf("%s %s is not served by the %s channel CRDs of Gateway API %s", raw.APIVersion, raw.Kind, channelName(ch), APIVersion)}}
	}
	return crd.ValidateJSON(raw.APIVersion, raw.Kind, raw.JSON, ch)
}

func channelName(ch crd.Channel) string {
	if ch == crd.Experimental {
		return "experimental"
	}
	return "standard"
}

// NamespaceNameLabel is the label the API server puts on every Namespace.
const NamespaceNameLabel = "kubernetes.io/metadata.name"

// APIVersion is the Gateway API release whose types and CRDs gwlint pins.
const APIVersion = "v1.6.3"

// newGatewayAPIObject returns an empty object of a Gateway API kind and the
// spec struct to decode into.
func newGatewayAPIObject(kind string) (Object, any) {
	switch kind {
	case KindGatewayClass:
		o := &GatewayClass{}
		return o, &o.Spec
	case KindGateway:
		o := &Gateway{}
		return o, &o.Spec
	case KindListenerSet:
		o := &ListenerSet{}
		return o, &o.Spec
	case KindReferenceGrant:
		o := &ReferenceGrant{}
		return o, &o.Spec
	case KindBackendTLSPolicy:
		o := &BackendTLSPolicy{}
		return o, &o.Spec
	case KindHTTPRoute:
		r := &Route{HTTP: &gwv1.HTTPRouteSpec{}}
		return r, r.HTTP
	case KindGRPCRoute:
		r := &Route{GRPC: &gwv1.GRPCRouteSpec{}}
		return r, r.GRPC
	case KindTLSRoute:
		r := &Route{TLS: &gwv1.TLSRouteSpec{}}
		return r, r.TLS
	case KindTCPRoute:
		r := &Route{TCP: &gwv1.TCPRouteSpec{}}
		return r, r.TCP
	case KindUDPRoute:
		r := &Route{UDP: &gwv1.UDPRouteSpec{}}
		return r, r.UDP
	}
	panic("resolve: newGatewayAPIObject called for unknown kind " + kind)
}

func splitAPIVersion(apiVersion string) (group, version string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// jsonError positions a decoding error at the field it names (see
// jsonErrorPath).
func jsonError(raw *manifest.Object, err error, prefix string) *manifest.ReadError {
	path := jsonErrorPath(raw, err, prefix)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return raw.Errorf(path, "%s %s: %s must be %s, not %s", raw.Kind, raw.Ref(), path, typeErr.Type, typeErr.Value)
	}
	return raw.Errorf(path, "%s %s: %v", raw.Kind, raw.Ref(), err)
}

// jsonErrorPath is the field path of a decoding error of the document
// (prefix "") or of its spec ("spec"): the first written path of the shape
// encoding/json names, which has no list indices and names embedded Go
// structs ("rules.backendRefs.BackendRef.BackendObjectReference.port");
// prefix when it names none.
func jsonErrorPath(raw *manifest.Object, err error, prefix string) string {
	var typeErr *json.UnmarshalTypeError
	if !errors.As(err, &typeErr) || typeErr.Field == "" {
		return prefix
	}
	var field []string
	if prefix != "" {
		field = append(field, prefix)
	}
	for seg := range strings.SplitSeq(typeErr.Field, ".") {
		// JSON field names are lowerCamelCase; Go's embedded structs
		// are not fields of the document.
		if seg != "" && !unicode.IsUpper(rune(seg[0])) {
			field = append(field, seg)
		}
	}
	want := strings.Join(field, ".")
	for _, p := range raw.Positions.Paths() {
		if stripIndices(p) == want {
			return p
		}
	}
	if prefix == "" {
		return want
	}
	return prefix
}

// stripIndices removes list indices from a field path:
// "spec.rules[0].backendRefs[1].port" → "spec.rules.backendRefs.port".
func stripIndices(path string) string {
	if !strings.Contains(path, "[") {
		return path
	}
	var b strings.Builder
	depth := 0
	for _, c := range path {
		switch {
		case c == '[':
			depth++
		case c == ']':
			depth--
		case depth == 0:
			b.WriteRune(c)
		}
	}
	return b.String()
}
