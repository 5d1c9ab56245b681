package resolve

import (
	"bytes"
	"encoding"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/internal/suggest"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/internal/jsontree"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/placeholder"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Options control loading and resolution.
type Options struct {
	// DefaultNamespace is given to namespaced objects that name none, as
	// kubectl's -n does; "default" when empty.
	DefaultNamespace string
	// StrictRefs treats every reference to an object outside the inputs as
	// Missing instead of External or Unlisted.
	StrictRefs bool
	// OwnedNamespaces are the namespaces (path.Match patterns) whose objects
	// the inputs hold all of: an object the inputs lack there is Missing,
	// unless one among them will create it. A Namespace object among the
	// inputs is no such evidence.
	OwnedNamespaces []string
	// ControllerName is written as status controllerName for Gateways whose
	// GatewayClass is not among the inputs.
	ControllerName string
	// Validate checks every Gateway API object against the CRDs of Release
	// and Channel (schema and CEL, as the API server would on create) and
	// keeps the violations in Meta.Violations.
	Validate bool
	Channel  crd.Channel
	// Release is the Gateway API release whose CRDs the cluster runs: it
	// decides which versions are served, and Validate's schemas. The zero
	// value is the release go.mod pins.
	Release crd.Release
	// ReleaseAssumed says Release is the default, which no flag or
	// configuration named: CRDs of a release among the inputs choose it
	// (Inputs.InstalledCRDs, read by the commands), as they choose the
	// channel under ChannelAssumed.
	ReleaseAssumed bool
	// KindCRDs are the release and channel of kinds whose own CRD the
	// inputs install from another release or channel than Release and
	// Channel (Inputs.InstalledKinds): objects of those kinds are judged
	// by them.
	KindCRDs map[string]crd.CRDs
	// CompareCRDs are other CRDs every Gateway API object is validated
	// against, as written (gwlint releases): what each refuses is in
	// Inputs.Compared.
	CompareCRDs []crd.CRDs
	// ChannelAssumed says Channel is the default, which no flag or
	// configuration named: the CRDs the cluster runs are outside the
	// inputs, so what only the channel decides is not certain.
	ChannelAssumed bool
	// Now is the time certificates are checked against; the current time
	// when zero.
	Now time.Time
	// Implementation is the profile every Gateway is judged by; nil lets
	// each Gateway's GatewayClass choose (see implementation.go).
	Implementation *profile.Profile
	// WithoutFeatures are removed from every profile.
	WithoutFeatures []features.FeatureName
	// Implementations are where implementations read the world otherwise
	// than the API does (package resolve/implementations lists them all);
	// a profile whose implementation is not among them judges by its facts
	// and the API's reading alone.
	Implementations []Implementation
	// Keep, when set, says which objects are also kept as read, in
	// Inputs.Kept, whether or not the resolver models them: the objects
	// that say how a repository is deployed (package gitops).
	Keep func(*manifest.Object) bool
	// HelmChart, when set, names the Helm chart an object installs (a
	// Flux HelmRelease or its source, package gitops), "" when none: the
	// chart of an implementation is evidence that it runs in the cluster
	// (profile.Choice). Kept in Inputs.HelmCharts.
	HelmChart func(*manifest.Object) string
}

// DefaultControllerName stands in for the controller of a GatewayClass that
// the inputs do not hold.
const DefaultControllerName = "gwlint.io/offline-controller"

func (o Options) now() time.Time {
	if o.Now.IsZero() {
		return time.Now()
	}
	return o.Now
}

// crds is the CRDs the cluster runs.
func (o Options) crds() crd.CRDs { return crd.CRDs{Release: o.Release, Channel: o.Channel} }

// CRDChoice says which CRDs the options read objects by: the release and
// channel, whether each is assumed, and each kind's own CRD among the
// inputs (KindCRDs). The commands choose these per world (the CRDs a
// world installs), so that objects read under one choice are kept apart
// from those read under another.
func (o Options) CRDChoice() string {
	key := fmt.Sprintf("%s assumed=%t,%t", o.crds(), o.ReleaseAssumed, o.ChannelAssumed)
	for _, k := range slices.Sorted(maps.Keys(o.KindCRDs)) {
		key += " " + k + "=" + o.KindCRDs[k].String()
	}
	return key
}

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
	// Creators are the objects of other APIs that create objects
	// references name (generated.go), in read order.
	Creators []*Creator
	Errors   []*manifest.ReadError
	// Skipped counts the documents of kinds the resolver does not model, by
	// "apiVersion Kind"; they are never an error.
	Skipped map[string]int
	// Kept are the objects Options.Keep asked for, as read, in read order.
	Kept []*manifest.Object
	// Cluster names a world that is one cluster a GitOps repository
	// deploys (package gitops): the folder of its entry points. Empty for
	// other inputs.
	Cluster string
	// Unreached marks the files of a GitOps repository that none of its
	// deployers reaches (package gitops): bootstrap folders applied by
	// hand, one per cluster, alternatives. Which of them are applied
	// together is unknown.
	Unreached bool
	// HelmCharts are the charts Options.HelmChart named, in read order.
	HelmCharts []string
	// Unknowns are the parts of the inputs that cannot be known offline
	// (manifest.ReadError.Unknown): no error, but their objects are
	// missing from the graph.
	Unknowns []*manifest.ReadError
	// CRDBundles are the Gateway API releases the inputs install, in read
	// order: one for each CRD of a release among them, or remote entry
	// that names one.
	CRDBundles []CRDBundle
	// CRDsFrom is the bundle among them whose release and channel the
	// objects were validated against (set by whoever chose it: the
	// commands, unless flags or configuration chose); nil otherwise.
	CRDsFrom *CRDBundle
	// Compared holds, for each Gateway API object, what each of
	// Options.CompareCRDs refuses or prunes in it, in their order; nil
	// without them.
	Compared map[Object][][]crd.Violation
	// NotManifests are the files read that hold no Kubernetes object,
	// only documents of something else (values files, tools'
	// configurations, their templates): skipped, as no error.
	NotManifests []string
}

// Load reads every path (files, directories, "-" for stdin), decodes the
// objects it knows into typed structs and applies the API's defaults.
// A file that fails to parse is reported in Inputs.Errors; the others are
// still loaded. The objects are read-only: a defaulted field may point at
// a value every object shares (a group, a kind, a weight of 1, a route's
// namespace), and graphs point at the objects.
func Load(paths []string, stdin io.Reader, opts Options) *Inputs {
	// Decoding and defaulting touch one object each, so they run on the
	// reading workers, as soon as each object is read; the results are
	// gathered in read order below.
	return gather(manifest.ReadEach(paths, stdin, func(raw *manifest.Object) loaded { return load(raw, opts) }))
}

// LoadData is Load for one file whose text is given (manifest.ReadDataEach):
// an editor's unsaved buffer, loaded as the file it will be saved as.
func LoadData(file string, data []byte, opts Options) *Inputs {
	return gather(manifest.ReadDataEach(file, data, func(raw *manifest.Object) loaded { return load(raw, opts) }))
}

// gather makes Inputs of what a read loaded, in read order; what it could
// not know (a file git-crypt encrypts) is unknown, not an error.
func gather(objs []loaded, errs []*manifest.ReadError, notManifests []string) *Inputs {
	in := &Inputs{Skipped: map[string]int{}, NotManifests: notManifests}
	for _, e := range errs {
		if e.Unknown {
			in.Unknowns = append(in.Unknowns, e)
		} else {
			in.Errors = append(in.Errors, e)
		}
	}
	in.add(objs)
	return in
}

// LoadObjects is Load for objects read already: rendered by a tool
// (package manifest/render) rather than read from files. errs are the
// problems met while rendering.
func LoadObjects(raws []*manifest.Object, errs []*manifest.ReadError, opts Options) *Inputs {
	in := &Inputs{Skipped: map[string]int{}}
	for _, e := range errs {
		if e.Unknown {
			in.Unknowns = append(in.Unknowns, e)
			if e.Release != nil {
				in.Creators = append(in.Creators, unrenderedChart(e, opts.namespace()))
			}
		} else {
			in.Errors = append(in.Errors, e)
		}
	}
	objs := make([]loaded, len(raws))
	for i, raw := range raws {
		objs[i] = load(raw, opts)
	}
	in.add(objs)
	return in
}

// Merge adds the objects, errors and skipped kinds of others to in's, after
// in's, in order. The lists grow once for all of them: the language server
// merges a world of thousands of files on every edit.
func (in *Inputs) Merge(others ...*Inputs) {
	objects, kept := 0, 0
	for _, o := range others {
		objects, kept = objects+len(o.Objects), kept+len(o.Kept)
	}
	in.Objects, in.Kept = slices.Grow(in.Objects, objects), slices.Grow(in.Kept, kept)
	for _, o := range others {
		in.merge(o)
	}
}

func (in *Inputs) merge(other *Inputs) {
	in.Objects = append(in.Objects, other.Objects...)
	in.Creators = append(in.Creators, other.Creators...)
	in.Errors = append(in.Errors, other.Errors...)
	in.Kept = append(in.Kept, other.Kept...)
	in.HelmCharts = append(in.HelmCharts, other.HelmCharts...)
	in.Unknowns = append(in.Unknowns, other.Unknowns...)
	in.NotManifests = append(in.NotManifests, other.NotManifests...)
	in.CRDBundles = append(in.CRDBundles, other.CRDBundles...)
	if other.Compared != nil && in.Compared == nil {
		in.Compared = map[Object][][]crd.Violation{}
	}
	maps.Copy(in.Compared, other.Compared)
	for k, n := range other.Skipped {
		in.Skipped[k] += n
	}
}

// loaded is one document decoded: an object, an error, or a kind the
// resolver does not model. It is kept for every document until all are
// read (hundreds of thousands in one file), so what few documents have is
// behind one pointer.
type loaded struct {
	obj  Object
	err  *manifest.ReadError
	rare *loadedRarely
}

// loadedRarely is what only some documents give.
type loadedRarely struct {
	skipped string           // "apiVersion Kind" of a kind the resolver does not model
	kept    *manifest.Object // the object as read, when Options.Keep asks for it
	chart   string           // the Helm chart it installs (Options.HelmChart)
	bundle  *CRDBundle       // the Gateway API release it installs a CRD of
	// compared is what each of Options.CompareCRDs refuses in it.
	compared [][]crd.Violation
}

func load(raw *manifest.Object, opts Options) loaded {
	obj, err := decodeObject(raw, opts)
	var r loadedRarely
	if obj == nil && err == nil {
		r.skipped = raw.APIVersion + " " + raw.Kind
	}
	if opts.Keep != nil && opts.Keep(raw) {
		r.kept = raw
	}
	if opts.HelmChart != nil {
		r.chart = opts.HelmChart(raw)
	}
	r.bundle = crdBundleOf(raw)
	if obj != nil && len(opts.CompareCRDs) > 0 {
		r.compared = compared(raw, opts)
	}
	l := loaded{obj: obj, err: err}
	if r.skipped != "" || r.kept != nil || r.chart != "" || r.bundle != nil || r.compared != nil {
		l.rare = &r
	}
	return l
}

// add gathers decoded documents into in, in their order.
func (in *Inputs) add(objs []loaded) {
	in.Objects = slices.Grow(in.Objects, len(objs))
	for _, o := range objs {
		if o.err != nil {
			in.Errors = append(in.Errors, o.err)
		}
		var r loadedRarely
		if o.rare != nil {
			r = *o.rare
		}
		if r.kept != nil {
			in.Kept = append(in.Kept, r.kept)
		}
		if r.chart != "" {
			in.HelmCharts = append(in.HelmCharts, r.chart)
		}
		if r.bundle != nil {
			in.CRDBundles = append(in.CRDBundles, *r.bundle)
		}
		if r.compared != nil {
			if in.Compared == nil {
				in.Compared = map[Object][][]crd.Violation{}
			}
			in.Compared[o.obj] = r.compared
		}
		creator, isCreator := o.obj.(*Creator)
		switch {
		case isCreator:
			in.Creators = append(in.Creators, creator)
		case o.obj != nil:
			in.Objects = append(in.Objects, o.obj)
		case o.err == nil:
			in.Skipped[r.skipped]++
		}
	}
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
func unknownKind(raw *manifest.Object, group string, r crd.Release) *manifest.ReadError {
	kinds := crd.Kinds(group, r)
	hint := ""
	if best := suggest.Closest(raw.Kind, kinds); best != "" {
		hint = " (did you mean " + best + "?)"
	}
	return raw.Errorf("kind", "%s is not a kind of %s in Gateway API %s%s; its kinds: %s",
		raw.Kind, group, r, hint, strings.Join(kinds, ", "))
}

// clusterScoped kinds get no default namespace.
func clusterScoped(kind string) bool {
	return kind == KindGatewayClass || kind == KindNamespace
}

// targetRefKey begins the JSON keys targetRef and targetRefs.
var targetRefKey = []byte(`"targetRef`)

// decode turns a raw document into a typed object. It returns (nil, nil)
// for kinds the resolver does not model. Every served version of a Gateway
// API kind decodes into the v1 struct: the versions differ in validation
// and status, not in field names.
func decode(raw *manifest.Object, opts Options) (Object, *manifest.ReadError) {
	return decodeAs(raw, opts, fromTree)
}

// decoding is a way decodeAs reads a document into its typed object.
type decoding int

const (
	// fromTree reads the tree every reader of the document shares
	// (package jsontree); what it cannot read exactly as encoding/json
	// would, and every error, goes to inOnePass.
	fromTree decoding = iota
	// inOnePass is one json.Unmarshal, spec included (the typed spec
	// reached through the interface field docOnce.Spec); any error goes
	// to inTwoSteps.
	inOnePass
	// inTwoSteps decodes the document with a raw spec, then the spec:
	// its errors are the ones reported.
	inTwoSteps
)

// decodeAs does decode's work, decoding as how says.
func decodeAs(raw *manifest.Object, opts Options, how decoding) (Object, *manifest.ReadError) {
	if c, ok := opts.KindCRDs[raw.Kind]; ok {
		// The kind's own CRD is among the inputs: no assumption.
		opts.Release, opts.Channel, opts.ChannelAssumed = c.Release, c.Channel, false
	}
	group, version := splitAPIVersion(raw.APIVersion)
	var target Object
	var spec any
	var served APIVersionInfo // of Gateway API kinds
	switch group {
	case GroupGateway, GroupGatewayExperimental:
		// The API server knows every served version of every kind the
		// CRDs define, and refuses any other.
		var retired *retiredVersion
		versions := crd.Served(group, raw.Kind, opts.Release)
		// A version gwlint's own release retired may be served by an
		// older one.
		if r, ok := retiredVersions[raw.APIVersion][raw.Kind]; ok && !contains(versions, version) {
			retired = &r
		}
		switch {
		case retired != nil:
		case versions == nil:
			return nil, unknownKind(raw, group, opts.Release)
		case !contains(versions, version):
			return nil, raw.Errorf("", "%s %s is not served by Gateway API %s (served: %s)",
				raw.Kind, raw.APIVersion, opts.Release, strings.Join(versions, ", "))
		}
		served = apiVersionInfo(raw.APIVersion, raw.Kind, opts.crds(), retired)
		if served.State == VersionExperimentalOnly && opts.ChannelAssumed {
			served.ChannelAssumed = true
			served.Message += "; " + ChannelOutsideInputs
		}
		if retired != nil && (retired.rename != nil || retired.kind != "") {
			renamed := *raw
			if retired.rename != nil {
				renamed.JSON = retired.rename(raw.JSON)
			}
			if retired.kind != "" {
				renamed.Kind = retired.kind
			}
			raw = &renamed
		}
		switch {
		case group == GroupGatewayExperimental && raw.Kind == KindXBackend:
			o := &XBackend{}
			target, spec = o, &o.Spec
		case group == GroupGatewayExperimental && retired == nil:
			// XMesh, ...: nothing to resolve, but CRDs to validate.
			target = &ExperimentalObject{}
		default:
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
		case KindConfigMap:
			target = &ConfigMap{}
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
		if target, spec = opts.newObject(group, version, raw.Kind); target != nil {
			break
		}
		if row := generatorRowOf(group, raw.Kind); row != nil {
			target = &Creator{row: row, document: raw.JSON}
			break
		}
		// A policy of any group (GEP-713) has a targetRef or targetRefs:
		// a document without the word is skipped before any decoding.
		if !bytes.Contains(raw.JSON, targetRefKey) {
			return nil, nil
		}
		p := &GenericPolicy{}
		target, spec = p, &p.Spec
	}

	typedSpec := spec // decoded below, and again when a release prunes it
	// The tree is read by the typed decoding, the placeholder scan and the
	// CRD validation, in that order: the validation defaults it in place.
	tree, parsed := jsontree.Parse(raw.JSON)
	defer tree.Release()
	var doc docFields
	var specJSON json.RawMessage // of a spec not decoded yet
	switch how {
	case fromTree:
		// As inOnePass, but a kind without a spec ignores it without
		// keeping it.
		one := docOnce{Spec: spec}
		into := any(&one)
		if spec == nil {
			into = &one.docFields
		}
		if !parsed || !tree.Decode(tree.Root, into) {
			return decodeAs(raw, opts, inOnePass)
		}
		doc = one.docFields
		spec = nil // decoded
	case inOnePass:
		one := docOnce{Spec: spec}
		if spec == nil {
			one.Spec = &one.ignored
		}
		if err := json.Unmarshal(raw.JSON, &one); err != nil {
			return decodeAs(raw, opts, inTwoSteps)
		}
		doc = one.docFields
		spec = nil // decoded
	case inTwoSteps:
		var two struct {
			docFields
			Spec json.RawMessage `json:"spec"`
		}
		if err := json.Unmarshal(raw.JSON, &two); err != nil {
			return nil, jsonError(raw, err, "")
		}
		doc, specJSON = two.docFields, two.Spec
	}
	m := target.Metadata()
	m.APIVersion = raw.APIVersion
	m.version = internVersion(served)
	m.Source = raw.Source
	m.Positions = raw.Positions
	m.Ref = ObjectRef{Kind: qualifiedKind(group, raw.Kind), Namespace: doc.Metadata.Namespace, Name: doc.Metadata.Name}
	m.Labels = keyValuesOf(doc.Metadata.Labels)
	m.Annotations = keyValuesOf(doc.Metadata.Annotations)
	m.Ignores = raw.Ignores
	m.setCreated(doc.Metadata.CreationTimestamp.Time.Time)
	m.Generation = doc.Metadata.Generation
	m.digest = digestOf(raw.JSON)
	if parsed {
		m.Unknown = unknownValues(raw.JSON, tree.Root, placeholder.ForObject(m.Annotations))
	}
	if m.Ref.Name == "" {
		return nil, raw.Errorf("metadata", "%s has no metadata.name", raw.Kind)
	}
	if c, creator := target.(*Creator); clusterScoped(raw.Kind) || creator && c.row.ClusterScoped {
		m.Ref.Namespace = ""
	} else if m.Ref.Namespace == "" {
		m.Ref.Namespace = opts.namespace()
		m.NamespaceDefaulted = true
	}

	// Under another release than gwlint's own, the validation also says
	// which fields the cluster prunes (pruneSpec), so it runs whatever
	// Validate says.
	if (opts.Validate || opts.Release != crd.Pinned) && served.ReadAs != "" {
		// The CRD validation of the channel, on the document as written
		// (with int64 numbers, as the API server decodes them), in the
		// version it is read as; a version only the experimental channel
		// serves, by that channel's schema of it: the version's own rules
		// are the object's, its successor's may be stricter (TLSRoute
		// v1alpha2 takes no hostnames and 16 rules, v1 needs hostnames and
		// one rule). The channel's refusal is the version's one finding.
		version, crds := served.ReadAs, opts.crds()
		if served.State == VersionExperimentalOnly {
			version, crds.Channel = raw.APIVersion, crd.Experimental
		}
		if parsed {
			m.Violations = foldTypos(crd.ValidateOwned(version, raw.Kind, tree.Root, crds))
		}
		if opts.ChannelAssumed && crds.Channel == crd.Standard && len(m.Violations) > 0 {
			crds.Channel = crd.Experimental
			markStandardOnly(m.Violations, crd.ValidateJSON(served.ReadAs, raw.Kind, raw.JSON, crds))
		}
		if opts.Release != crd.Pinned && typedSpec != nil && slices.ContainsFunc(m.Violations, func(v crd.Violation) bool { return v.Type == crd.TypeUnknownField }) {
			pruneSpec(raw, typedSpec, m.Violations)
		}
	}
	var specErr *manifest.ReadError
	if spec != nil && len(specJSON) > 0 && string(specJSON) != "null" {
		// encoding/json decodes the rest of the spec past a field of the
		// wrong type. The CRD validation reports that field already, with
		// the API server's words: say it once. encoding/json names no list
		// index ("spec.hostnames" for spec.hostnames[0]), so a violation
		// anywhere on that path without indices is the same one.
		if err := json.Unmarshal(specJSON, spec); err != nil {
			// A placeholder where a number goes (`port: ${PORT}`) is
			// unknown, not wrong: Flux substitutes before parsing.
			path := StripIndices(jsonErrorPath(raw, err, "spec"))
			if !m.unknownOnPath(path) && !slices.ContainsFunc(m.Violations, func(v crd.Violation) bool { return StripIndices(v.Path) == path }) {
				specErr = jsonError(raw, err, "spec")
			}
		}
	}
	switch o := target.(type) {
	case *GenericPolicy:
		// Not the GEP-713 shape after all (a VerticalPodAutoscaler's
		// targetRef): skipped, as any kind the core does not model.
		if specErr != nil || !o.Spec.gep713() {
			return nil, nil
		}
	case *Service:
		o.markUnknownPorts()
		if opts.Validate && specErr == nil {
			o.Violations = o.portViolations()
		}
	case *Namespace:
		// The API server labels every Namespace with its own name.
		o.Labels = o.Labels.with(NamespaceNameLabel, o.Ref.Name)
	case *Secret:
		o.Type = doc.Type
		o.DataKeys = dataKeys(doc.Data, doc.StringData)
		if o.Encrypted = len(doc.Sops) > 0 && string(doc.Sops) != "null"; o.Encrypted {
			break // its values are ciphertext until Flux decrypts them: unknown
		}
		o.Certificate, o.CertificateProblem = checkCertificate(o.Type, doc.Data, doc.StringData)
		o.readReferenceSecret(opts.Implementations, SecretValues{plain: doc.StringData, b64: doc.Data})
		o.check(doc.StringData, doc.Data)
	case *ConfigMap:
		o.DataKeys = dataKeys(doc.Data, doc.BinaryData)
		o.check(doc.Data, doc.BinaryData)
	}
	return target, specErr
}

// markStandardOnly marks the violations of the standard channel that the
// experimental channel's CRDs do not report (an experimental field, or a
// value its enums add): a cluster running those accepts them.
func markStandardOnly(standard, experimental []crd.Violation) {
	for i, v := range standard {
		standard[i].StandardOnly = !slices.ContainsFunc(experimental, func(e crd.Violation) bool {
			return e.Path == v.Path && e.Type == v.Type
		})
	}
}

// dataKeys is the sorted union of the keys of two maps.
func dataKeys(a, b map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, dup := a[k]; !dup {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	return keys
}

// docFields are the fields of a document decodeAs reads besides the spec.
type docFields struct {
	Metadata objectMeta `json:"metadata"`
	// Secret and ConfigMap fields.
	Type       string                     `json:"type"`
	Data       map[string]json.RawMessage `json:"data"`
	StringData map[string]json.RawMessage `json:"stringData"`
	BinaryData map[string]json.RawMessage `json:"binaryData"`
	Sops       json.RawMessage            `json:"sops"`
}

// docOnce is a document decoded in one pass: Spec holds a pointer to the
// typed spec, which encoding/json decodes into in place.
type docOnce struct {
	docFields
	Spec    any `json:"spec"`
	ignored json.RawMessage
}

// objectMeta is metav1.ObjectMeta with the timestamps read as a YAML reader
// writes them. The outer fields shadow the embedded ones.
type objectMeta struct {
	metav1.ObjectMeta
	CreationTimestamp yamlTime  `json:"creationTimestamp"`
	DeletionTimestamp *yamlTime `json:"deletionTimestamp"`
}

// yamlTime is a metav1.Time that also reads the YAML timestamp spellings:
// an unquoted "2025-07-01 20:47:53+00:00" or "2025-07-01" reaches the JSON
// as written (sigs.k8s.io/yaml and the reader keep a timestamp's text), while
// tools that decode YAML into typed values (yaml.v3, PyYAML; Istio's and
// Envoy Gateway's test inputs are written by them) take it as a time.
// metav1.Time accepts RFC 3339 only, and would drop the whole object; the
// time orders routes and ListenerSets by the spec's precedence rules.
type yamlTime struct{ metav1.Time }

func (t *yamlTime) UnmarshalJSON(b []byte) error {
	err := t.Time.UnmarshalJSON(b)
	if err == nil {
		return nil
	}
	var s string
	if json.Unmarshal(b, &s) == nil {
		if parsed, ok := parseYAMLTimestamp(s); ok {
			t.Time = metav1.NewTime(parsed)
			return nil
		}
	}
	return err
}

// yamlTimestamp is the YAML 1.1 timestamp type's regular expression
// (yaml.org/type/timestamp): a date, or a date and time separated by "T",
// "t" or blanks, with optional fraction and zone (Z or ±hh[:mm]); no zone is
// UTC.
var yamlTimestamp = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([0-9]{4})-([0-9]{1,2})-([0-9]{1,2})` +
		`(?:(?:[Tt]|[ \t]+)([0-9]{1,2}):([0-9]{2}):([0-9]{2})(?:\.([0-9]*))?` +
		`(?:[ \t]*(?:Z|([-+])([0-9]{1,2})(?::?([0-9]{2}))?))?)?$`)
})

// parseYAMLTimestamp reads s as a YAML 1.1 timestamp.
func parseYAMLTimestamp(s string) (time.Time, bool) {
	m := yamlTimestamp().FindStringSubmatch(s)
	if m == nil {
		return time.Time{}, false
	}
	num := func(i int) int { n, _ := strconv.Atoi(m[i]); return n } // digits only, or empty: 0
	year, month, day, hour, minute, sec := num(1), num(2), num(3), num(4), num(5), num(6)
	nanos := 0
	if frac := m[7]; frac != "" {
		nanos, _ = strconv.Atoi((frac + "000000000")[:9])
	}
	offset := (num(9)*60 + num(10)) * 60
	if m[8] == "-" {
		offset = -offset
	}
	t := time.Date(year, time.Month(month), day, hour, minute, sec, nanos, time.FixedZone("", offset))
	if t.Month() != time.Month(month) || t.Day() != day || hour > 23 || minute > 59 || sec > 59 {
		return time.Time{}, false // 2025-02-30, 25:00:00
	}
	return t.UTC(), true
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
	if errors.As(err, &typeErr) && (typeErr.Field != "" || path != "") {
		return raw.Errorf(path, "%s %s: %s must be %s, not %s", raw.Kind, raw.Ref(), path, jsonTypeName(typeErr.Type), typeErr.Value)
	}
	return raw.Errorf(path, "%s %s: %v", raw.Kind, raw.Ref(), err)
}

// jsonTypeName names the type a field wants as the document has it: "an
// object" or "a list" rather than the Go type, whose struct literal
// (an implementation's spec is an anonymous struct) is no help to a user;
// scalars keep Go's name (int32, string).
func jsonTypeName(t reflect.Type) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pt := reflect.PointerTo(t)
	if pt.Implements(reflect.TypeFor[json.Unmarshaler]()) || pt.Implements(reflect.TypeFor[encoding.TextUnmarshaler]()) {
		return t.String() // decodes itself, maybe from a scalar (metav1.Duration)
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "an object"
	case reflect.Slice, reflect.Array:
		return "a list"
	}
	return t.String()
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
		if StripIndices(p) == want {
			return p
		}
	}
	if prefix == "" {
		return want
	}
	return prefix
}

// StripIndices removes list indices (and map keys) from a field path:
// "spec.rules[0].backendRefs[1].port" → "spec.rules.backendRefs.port".
func StripIndices(path string) string {
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
