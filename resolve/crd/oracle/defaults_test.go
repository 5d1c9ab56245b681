package oracle

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	structuraldefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	structuralpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	"k8s.io/apimachinery/pkg/runtime"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	"k8s.io/apimachinery/pkg/util/validation/field"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
)

// TestDefaults proves resolve's defaults table (resolve/defaults.go, applied
// by resolve.Load and recorded in Meta.Defaulted) against the API server's
// structural defaulting of the pinned CRDs, document by document:
//
//  1. The API server's create path (pruning, nulls, structuraldefaulting.Default
//     with the served version's structural schema of the document's channel;
//     status dropped) is applied to the document, and the field paths it added
//     are diffed out, in field.Path form (`spec.rules[0].backendRefs[1].weight`,
//     map keys in brackets), with their values.
//  2. The file is loaded with resolve.Load and the document's object found.
//     Every CRD-added path must be IsDefaulted, and at every CRD-added leaf the
//     typed spec (marshalled back to JSON) must hold the CRD's value.
//  3. Every path the resolver marks defaulted must be CRD-added (an inner node
//     then holds the CRD's whole subtree) or one of implicitDefaults, which
//     the API server does not fill: then it was not written and holds the
//     object's namespace.
//
// Subtrees. When the CRD adds a whole object or list (an HTTPRoute without
// rules gets spec.rules = [{matches: [{path: {type: PathPrefix, value: /}}]}];
// a Listener without allowedRoutes gets {namespaces: {from: Same}}), every node
// of the added subtree is a CRD-added path: its root, every inner object and
// list item, and every leaf. The resolver must record all of them, which is
// what defaults.go does (setDefault records each level it fills). Leaves
// (scalars, empty objects and lists) are compared by value; inner nodes are
// compared as whole subtrees in direction 3.
//
// Corpora: the pinned module's examples (the channel its directory names),
// gwlint's testdata/examples and lint/testdata (standard channel), this
// module's mutation seeds, testdata/defaults (written to exercise every CRD
// default the others leave out, and explicit nulls, {} and []) and the small
// generated corpus (internal/corpus). A kind the standard CRDs lack is read
// with the experimental ones, as in the other tests. Documents of kinds the
// resolver does not load (XBackendTrafficPolicy, XMesh) are skipped. Every
// CRD default site of the spec of the kinds it loads must be exercised.
//
// Disagreements listed in knownDefaultDivergences are reported with their
// reason and do not fail the test; an entry that no longer matches anything
// does, so that it is removed once resolve/defaults.go is fixed.
func TestDefaults(t *testing.T) {
	setup(t)
	for _, d := range knownDefaultDivergences {
		d.hits = 0
	}
	clear(implicitHits)
	// The generated corpus: the shared generator, as a package of gwlint.
	genDir := t.TempDir()
	if _, err := corpus.Generate(corpus.DefaultOptions(corpus.Small), genDir); err != nil {
		t.Fatalf("corpus.Generate: %v", err)
	}
	corpora := []struct{ name, dir string }{
		{"pinned examples", filepath.Join(moduleDir, "examples")},
		{"testdata/examples", "../../../testdata/examples"},
		{"lint/testdata", "../../../lint/testdata"},
		{"oracle seeds", "testdata/seeds"},
		{"defaults seeds", "testdata/defaults"},
		{"generated corpus (small)", genDir},
	}
	var total defaultStats
	cov := newDefaultCoverage()
	for _, c := range corpora {
		var st defaultStats
		docs := readCorpus(t, c.dir, crd.Pinned)
		if len(docs) == 0 {
			t.Errorf("%s: no Gateway API documents under %s", c.name, c.dir)
		}
		byFile := map[string][]document{}
		var files []string
		for _, d := range docs {
			if _, ok := byFile[d.file]; !ok {
				files = append(files, d.file)
			}
			byFile[d.file] = append(byFile[d.file], d)
		}
		for _, f := range files {
			checkDefaultsFile(t, c.name, filepath.Join(c.dir, f), byFile[f], &st, cov)
		}
		t.Logf("%s: %s", c.name, st)
		total.add(st)
	}
	t.Logf("total: %s", total)
	for _, d := range knownDefaultDivergences {
		if d.hits == 0 {
			t.Errorf("knownDefaultDivergences entry %s %s (%s) matched nothing: resolve/defaults.go agrees now, remove it", d.kind, d.path, d.problem)
		} else {
			t.Logf("known divergence, %d occurrences: %s %s (%s): %s", d.hits, d.kind, d.path, d.problem, d.reason)
		}
	}
	for _, re := range implicitDefaults {
		if implicitHits[re] == 0 {
			t.Errorf("no document exercises the implicit default %s: add one to testdata/defaults", re)
		}
		t.Logf("implicit default %s: %d paths", re, implicitHits[re])
	}
	// Every default of the spec of a kind the resolver models must have been
	// exercised, so that the agreement above covers the whole table.
	for _, s := range cov.uncovered() {
		t.Errorf("no document exercises the CRD default at %s: add one to testdata/defaults", s)
	}
	t.Logf("%d CRD default sites (kind, schema path) of the spec of modelled kinds, %d exercised", len(cov.sites), len(cov.sites)-len(cov.uncovered()))
}

// implicitDefaults are the spec's implicit defaults that resolve/defaults.go
// applies and records but the API server does NOT fill (they are prose, not
// +kubebuilder:default markers): the namespace of a reference, "when
// unspecified, the local namespace" of the referring object.
var implicitDefaults = []*regexp.Regexp{
	// ParentReference.Namespace of every route kind.
	regexp.MustCompile(`^spec\.parentRefs\[\d+\]\.namespace$`),
	// ListenerSet's ParentGatewayReference.Namespace.
	regexp.MustCompile(`^spec\.parentRef\.namespace$`),
	// BackendObjectReference.Namespace of a rule's backendRefs (all route kinds).
	regexp.MustCompile(`^spec\.rules\[\d+\]\.backendRefs\[\d+\]\.namespace$`),
	// ... and of RequestMirror / ExternalAuth filters, of rules and of backendRefs.
	regexp.MustCompile(`^spec\.rules\[\d+\](\.backendRefs\[\d+\])?\.filters\[\d+\]\.(requestMirror|externalAuth)\.backendRef\.namespace$`),
	// SecretObjectReference.Namespace of listener certificateRefs (Gateway, ListenerSet).
	regexp.MustCompile(`^spec\.listeners\[\d+\]\.tls\.certificateRefs\[\d+\]\.namespace$`),
	// SecretObjectReference.Namespace of the Gateway's backend client certificate.
	regexp.MustCompile(`^spec\.tls\.backend\.clientCertificateRef\.namespace$`),
}

// implicitHits counts the paths each of implicitDefaults matched.
var implicitHits = map[*regexp.Regexp]int{}

func isImplicitDefault(path string) bool {
	for _, re := range implicitDefaults {
		if re.MatchString(path) {
			implicitHits[re]++
			return true
		}
	}
	return false
}

// Problems a divergence can be.
const (
	notRecorded   = "CRD adds, resolver does not record it"                          // direction 2
	wrongValue    = "resolver holds another value"                                   // direction 2 or 3
	resolverOnly  = "resolver records, CRD does not add it"                          // direction 3
	wrongImplicit = "implicit default is not the object's namespace, or was written" // direction 3
)

// defaultDivergence is a known disagreement of resolve/defaults.go with the
// CRDs: a bug of the resolver's table, reported and not fixed here.
type defaultDivergence struct {
	kind    *regexp.Regexp // object kind
	path    *regexp.Regexp // field.Path form, with indices
	problem string
	reason  string
	hits    int
}

// knownDefaultDivergences are the disagreements found, each with its
// diagnosis. They are bugs of resolve/defaults.go, not fixed here: remove
// an entry once it is fixed (the test fails on an entry that matches
// nothing any more).
var knownDefaultDivergences = []*defaultDivergence{}

// knownDivergence returns the entry of knownDefaultDivergences that
// matches, counting the hit; nil when none does.
func knownDivergence(kind, path, problem string) *defaultDivergence {
	if d := matchDivergence(kind, path, problem); d != nil {
		d.hits++
		return d
	}
	return nil
}

func matchDivergence(kind, path, problem string) *defaultDivergence {
	for _, d := range knownDefaultDivergences {
		if d.problem == problem && d.kind.MatchString(kind) && d.path.MatchString(path) {
			return d
		}
	}
	return nil
}

type defaultStats struct {
	docs, notModelled, decodeErrors int
	crdPaths, crdLeaves             int // CRD-added paths compared (all nodes), of which leaves
	resolverPaths, implicit         int // resolver-defaulted paths checked, of which implicit
	known                           int // known divergences seen
}

func (s *defaultStats) add(o defaultStats) {
	s.docs += o.docs
	s.notModelled += o.notModelled
	s.decodeErrors += o.decodeErrors
	s.crdPaths += o.crdPaths
	s.crdLeaves += o.crdLeaves
	s.resolverPaths += o.resolverPaths
	s.implicit += o.implicit
	s.known += o.known
}

func (s defaultStats) String() string {
	return fmt.Sprintf("%d documents compared (skipped: %d of kinds the resolver does not model, %d it cannot decode); %d CRD-added paths compared (%d leaf values); %d resolver-defaulted paths checked (%d implicit namespace defaults); %d known divergences",
		s.docs, s.notModelled, s.decodeErrors, s.crdPaths, s.crdLeaves, s.resolverPaths, s.implicit, s.known)
}

// checkDefaultsFile compares the documents of one file.
func checkDefaultsFile(t *testing.T, corpusName, path string, docs []document, st *defaultStats, cov *defaultCoverage) {
	t.Helper()
	in := resolve.Load([]string{path}, nil, resolve.Options{})
	// The resolver's Gateway API objects, by kind/name, in document order.
	objs := map[string][]resolve.Object{}
	for _, o := range in.Objects {
		m := o.Metadata()
		if g, _ := splitGroupVersion(m.APIVersion); g == resolve.GroupGateway {
			k := m.Ref.Kind + "/" + m.Ref.Name
			objs[k] = append(objs[k], o)
		}
	}
	seen := map[string]int{}
	for _, d := range docs {
		var meta struct {
			Metadata struct{ Name string }
		}
		_ = json.Unmarshal(d.json, &meta)
		key := d.kind + "/" + meta.Metadata.Name
		i := seen[key]
		seen[key]++
		name := corpusName + ": " + d.name
		if i >= len(objs[key]) {
			// Experimental-only kinds (XBackend, XMesh, ...) are loaded with
			// no typed spec and no defaults; other kinds may be skipped.
			if g, _ := splitGroupVersion(d.apiVersion); g == resolve.GroupGatewayExperimental || in.Skipped[d.apiVersion+" "+d.kind] > 0 {
				st.notModelled++
				continue
			}
			if len(in.Errors) > 0 {
				st.decodeErrors++
				t.Logf("%s (%s): not loaded: %v", name, d.kind, in.Errors)
				continue
			}
			t.Errorf("%s: resolve.Load returned no %s %q", name, d.kind, meta.Metadata.Name)
			continue
		}
		obj := objs[key][i]
		if obj.Metadata().APIVersion != d.apiVersion {
			t.Errorf("%s: matched %s %s, want apiVersion %s", name, obj.Metadata().APIVersion, key, d.apiVersion)
			continue
		}
		if len(in.Errors) > 0 {
			// A spec the resolver cannot decode (a wrong JSON type) is
			// rejected by the API server as well: nothing to compare.
			st.decodeErrors++
			t.Logf("%s (%s): resolver errors, skipped: %v", name, d.kind, in.Errors)
			continue
		}
		st.docs++
		for _, p := range compareDefaults(t, name, d, obj, obj.Metadata().Defaulted.Paths(), st, cov) {
			if k := knownDivergence(d.kind, p.path, p.problem); k != nil {
				st.known++
				continue
			}
			t.Errorf("%s (%s %s, %s channel): %s: %s: %s", name, d.apiVersion, d.kind, channelName(d.ch), p.path, p.problem, p.detail)
		}
	}
}

func splitGroupVersion(apiVersion string) (string, string) {
	if i := strings.LastIndexByte(apiVersion, '/'); i >= 0 {
		return apiVersion[:i], apiVersion[i+1:]
	}
	return "", apiVersion
}

// addedNode is a node of a subtree the CRD defaulting added.
type addedNode struct {
	value any
	leaf  bool
}

// crdDefaulting runs the API server's create-path defaulting on a document
// and returns it as written (pruned of unknown fields, its non-nullable
// nulls dropped), the paths it added, and the pruned paths.
func crdDefaulting(t *testing.T, rv *realVersion, js []byte) (written map[string]any, added map[string]addedNode, pruned []string) {
	t.Helper()
	var u map[string]any
	if err := utiljson.Unmarshal(js, &u); err != nil {
		t.Fatal(err)
	}
	// Decoding (unstructuredSchemaCoercer.apply), then unstructuredDefaulter.
	pruned = structuralpruning.PruneWithOptions(u, rv.structural, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
	structuraldefaulting.PruneNonNullableNullsWithoutDefaults(u, rv.structural)
	written = runtime.DeepCopyJSON(u)
	structuraldefaulting.Default(u, rv.structural)
	// PrepareForCreate drops status (whose defaults are conditions).
	delete(written, "status")
	delete(u, "status")
	added = map[string]addedNode{}
	var changed []string
	diffAdded(rv.structural, nil, written, u, added, &changed)
	for _, p := range changed {
		t.Errorf("CRD defaulting changed the written value at %s", p)
	}
	return written, added, pruned
}

// childPath is the path of property or map key k of an object of schema s.
func childPath(s *structuralschema.Structural, p *field.Path, k string) (*structuralschema.Structural, *field.Path) {
	if s != nil {
		if c, ok := s.Properties[k]; ok {
			return &c, appendChild(p, k)
		}
		if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil && p != nil {
			return s.AdditionalProperties.Structural, p.Key(k)
		}
	}
	return nil, appendChild(p, k)
}

func appendChild(p *field.Path, k string) *field.Path {
	if p == nil {
		return field.NewPath(k)
	}
	return p.Child(k)
}

// diffAdded records in out every node that after has and before has not
// (absent or null), and in changed every written scalar after changed.
func diffAdded(s *structuralschema.Structural, p *field.Path, before, after any, out map[string]addedNode, changed *[]string) {
	switch a := after.(type) {
	case map[string]any:
		b, ok := before.(map[string]any)
		if !ok {
			*changed = append(*changed, p.String())
			return
		}
		for _, k := range sortedKeys(a) {
			cs, cp := childPath(s, p, k)
			if bv, ok := b[k]; !ok || bv == nil {
				if a[k] != nil {
					recordAdded(cs, cp, a[k], out)
				}
				continue
			}
			diffAdded(cs, cp, b[k], a[k], out, changed)
		}
	case []any:
		b, ok := before.([]any)
		if !ok || len(b) != len(a) {
			*changed = append(*changed, p.String())
			return
		}
		var items *structuralschema.Structural
		if s != nil {
			items = s.Items
		}
		for i := range a {
			diffAdded(items, p.Index(i), b[i], a[i], out, changed)
		}
	default:
		if canonical(before) != canonical(after) {
			*changed = append(*changed, p.String())
		}
	}
}

// recordAdded records an added subtree: its root and every node under it.
func recordAdded(s *structuralschema.Structural, p *field.Path, v any, out map[string]addedNode) {
	switch x := v.(type) {
	case map[string]any:
		out[p.String()] = addedNode{value: v, leaf: len(x) == 0}
		for k, cv := range x {
			cs, cp := childPath(s, p, k)
			recordAdded(cs, cp, cv, out)
		}
	case []any:
		out[p.String()] = addedNode{value: v, leaf: len(x) == 0}
		var items *structuralschema.Structural
		if s != nil {
			items = s.Items
		}
		for i, cv := range x {
			recordAdded(items, p.Index(i), cv, out)
		}
	default:
		out[p.String()] = addedNode{value: v, leaf: true}
	}
}

func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// canonical is v as JSON, for comparing values decoded different ways.
func canonical(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}

// typedJSON is the resolver's typed object, defaulted, as a JSON document
// with the spec at "spec".
func typedJSON(t *testing.T, obj resolve.Object) map[string]any {
	t.Helper()
	var spec any
	switch o := obj.(type) {
	case *resolve.Gateway:
		spec = o.Spec
	case *resolve.ListenerSet:
		spec = o.Spec
	case *resolve.GatewayClass:
		spec = o.Spec
	case *resolve.ReferenceGrant:
		spec = o.Spec
	case *resolve.BackendTLSPolicy:
		spec = o.Spec
	case *resolve.Route:
		switch {
		case o.HTTP != nil:
			spec = o.HTTP
		case o.GRPC != nil:
			spec = o.GRPC
		case o.TLS != nil:
			spec = o.TLS
		case o.TCP != nil:
			spec = o.TCP
		case o.UDP != nil:
			spec = o.UDP
		}
	default:
		t.Fatalf("typedJSON: a Gateway API object of type %T: add its spec here", obj)
	}
	b, err := json.Marshal(map[string]any{"spec": spec})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := utiljson.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

// lookup returns the value at a field.Path string in a JSON document.
func lookup(doc any, path string) (any, bool) {
	cur := doc
	for path != "" {
		var tok string
		switch path[0] {
		case '.':
			path = path[1:]
			continue
		case '[':
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return nil, false
			}
			tok, path = path[1:end], path[end+1:]
			if l, ok := cur.([]any); ok {
				i, err := strconv.Atoi(tok)
				if err != nil || i < 0 || i >= len(l) {
					return nil, false
				}
				cur = l[i]
				continue
			}
		default:
			end := strings.IndexAny(path, ".[")
			if end < 0 {
				end = len(path)
			}
			tok, path = path[:end], path[end:]
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	return cur, true
}

// defaultProblem is one disagreement of a document.
type defaultProblem struct{ path, problem, detail string }

// compareDefaults compares one document's defaulting both ways and returns
// the disagreements. defaulted is what the resolver recorded as defaulted
// (obj's Meta.Defaulted.Paths(), or a tampered copy of it).
func compareDefaults(t *testing.T, name string, d document, obj resolve.Object, defaulted []string, st *defaultStats, cov *defaultCoverage) []defaultProblem {
	t.Helper()
	group, version := splitGroupVersion(d.apiVersion)
	rv := realCRDs[gvkch{group, version, d.kind, d.ch}]
	if rv == nil {
		t.Fatalf("%s: no real CRD for %s %s", name, d.apiVersion, d.kind)
	}
	written, added, pruned := crdDefaulting(t, rv, d.json)
	m := obj.Metadata()
	typed := typedJSON(t, obj)
	var problems []defaultProblem
	report := func(path, problem, detail string) {
		problems = append(problems, defaultProblem{path, problem, detail})
	}

	// 2. Every CRD-added path is recorded, and leaves hold the CRD's value.
	for _, p := range sortedKeys(added) {
		n := added[p]
		cov.hit(d.kind, p)
		st.crdPaths++
		if n.leaf {
			st.crdLeaves++
		}
		tv, ok := lookup(typed, p)
		if !slices.Contains(defaulted, p) {
			report(p, notRecorded, fmt.Sprintf("CRD default %s; resolver value %s", canonical(n.value), describe(tv, ok)))
			continue
		}
		if n.leaf && (!ok || canonical(tv) != canonical(n.value)) {
			report(p, wrongValue, fmt.Sprintf("CRD default %s; resolver value %s", canonical(n.value), describe(tv, ok)))
		}
	}

	// 3. Every resolver-defaulted path is CRD-added, or an implicit default.
	for _, p := range defaulted {
		st.resolverPaths++
		tv, ok := lookup(typed, p)
		if n, crd := added[p]; crd {
			// Leaves were compared above; an inner node holds the CRD's
			// whole subtree.
			if !n.leaf && (!ok || canonical(tv) != canonical(n.value)) {
				report(p, wrongValue, fmt.Sprintf("CRD default %s; resolver value %s", canonical(n.value), describe(tv, ok)))
			}
			continue
		}
		wv, w := lookup(written, p)
		w = w && wv != nil
		if isImplicitDefault(p) {
			st.implicit++
			switch {
			case w:
				report(p, wrongImplicit, "the document writes "+canonical(wv))
			case !ok || tv != m.Ref.Namespace:
				report(p, wrongImplicit, fmt.Sprintf("resolver value %s, want the object's namespace %q", describe(tv, ok), m.Ref.Namespace))
			}
			continue
		}
		detail := "resolver value " + describe(tv, ok)
		if w {
			detail += "; the document writes " + canonical(wv)
		}
		for _, u := range pruned {
			if rn := rv.normalize(u, written); rn == p || strings.HasPrefix(p, rn+".") || strings.HasPrefix(p, rn+"[") {
				detail += "; the API server prunes " + rn + " (unknown field in the " + channelName(d.ch) + " channel)"
			}
		}
		report(p, resolverOnly, detail)
	}
	return problems
}

func describe(v any, ok bool) string {
	if !ok {
		return "absent"
	}
	return canonical(v)
}

func channelName(ch crd.Channel) string {
	if ch == crd.Experimental {
		return "experimental"
	}
	return "standard"
}

// defaultCoverage tracks which CRD default sites (kind, schema path) of the
// spec of the kinds the resolver models the documents exercised.
type defaultCoverage struct {
	sites map[string]bool // "Kind spec.rules[*].matches" -> exercised
}

var indexRE = regexp.MustCompile(`\[[^\]]*\]`)

func newDefaultCoverage() *defaultCoverage {
	c := &defaultCoverage{sites: map[string]bool{}}
	modelled := map[string]bool{}
	for _, k := range []string{resolve.KindGatewayClass, resolve.KindGateway, resolve.KindListenerSet, resolve.KindHTTPRoute,
		resolve.KindGRPCRoute, resolve.KindTLSRoute, resolve.KindTCPRoute, resolve.KindUDPRoute, resolve.KindReferenceGrant, resolve.KindBackendTLSPolicy} {
		modelled[k] = true
	}
	for key, rv := range realCRDs {
		if !modelled[key.kind] {
			continue
		}
		if spec, ok := rv.structural.Properties["spec"]; ok {
			defaultSites(&spec, "spec", func(p string) { c.sites[key.kind+" "+p] = false })
		}
	}
	return c
}

func defaultSites(s *structuralschema.Structural, p string, f func(string)) {
	if s == nil {
		return
	}
	if s.Default.Object != nil {
		f(p)
	}
	for k, c := range s.Properties {
		defaultSites(&c, p+"."+k, f)
	}
	defaultSites(s.Items, p+"[*]", f)
	if s.AdditionalProperties != nil {
		defaultSites(s.AdditionalProperties.Structural, p+"[*]", f)
	}
}

func (c *defaultCoverage) hit(kind, path string) {
	k := kind + " " + indexRE.ReplaceAllString(path, "[*]")
	if _, ok := c.sites[k]; ok {
		c.sites[k] = true
	}
}

func (c *defaultCoverage) uncovered() []string {
	var out []string
	for _, k := range sortedKeys(c.sites) {
		if !c.sites[k] {
			out = append(out, k)
		}
	}
	return out
}

// TestDefaultsSeedsValid: the documents written for TestDefaults are valid
// for the API server, so that what they default is what a cluster stores.
func TestDefaultsSeedsValid(t *testing.T) {
	setup(t)
	docs := readCorpus(t, "testdata/defaults", crd.Pinned)
	for _, d := range docs {
		if o := run(t, d); len(o.real) > 0 || !o.agree() {
			t.Errorf("%s (%s): must be valid%s", d.name, d.kind, o.diff())
			for _, f := range sortedFindings(o.real) {
				t.Logf("    %s %q: %s", f.path, f.typ, o.real[f])
			}
		}
	}
	t.Logf("%d documents", len(docs))
}

// TestDefaultsDetects: the comparison of TestDefaults catches every kind of
// disagreement. resolve/defaults.go is not to be broken for this, so the
// resolver's output is tampered with after loading.
func TestDefaultsDetects(t *testing.T) {
	setup(t)
	const file = "testdata/defaults/standard/defaults.yaml"
	docs := readCorpus(t, "testdata/defaults/standard", crd.Pinned)
	load := func(name string) (document, *resolve.Route) {
		for _, d := range docs {
			var meta struct{ Metadata struct{ Name string } }
			_ = json.Unmarshal(d.json, &meta)
			if meta.Metadata.Name != name {
				continue
			}
			for _, o := range resolve.Load([]string{file}, nil, resolve.Options{}).Objects {
				if r, ok := o.(*resolve.Route); ok && r.Ref.Name == name {
					return d, r
				}
			}
		}
		t.Fatalf("no HTTPRoute %s in %s", name, file)
		return document{}, nil
	}
	weight := func(w int32) *int32 { return &w }
	cases := []struct {
		name, route string
		tamper      func(r *resolve.Route)
		// unrecord and record change the defaulted paths compared.
		unrecord, record string
		want             []defaultProblem // path and problem
	}{
		{"untampered", "filters", func(*resolve.Route) {}, "", "", nil},
		{"untampered subtree", "rules-null", func(*resolve.Route) {}, "", "", nil},
		{"default not recorded", "filters", func(*resolve.Route) {}, "spec.rules[0].backendRefs[0].weight", "",
			[]defaultProblem{{path: "spec.rules[0].backendRefs[0].weight", problem: notRecorded}}},
		{"default value differs", "filters", func(r *resolve.Route) {
			r.HTTP.Rules[0].BackendRefs[0].Weight = weight(2)
		}, "", "", []defaultProblem{{path: "spec.rules[0].backendRefs[0].weight", problem: wrongValue}}},
		{"default the CRD does not have", "filters", func(*resolve.Route) {}, "", "spec.rules[0].backendRefs[0].port",
			[]defaultProblem{{path: "spec.rules[0].backendRefs[0].port", problem: resolverOnly}}},
		{"implicit namespace default differs", "rules-null", func(r *resolve.Route) {
			ns := gwv1.Namespace("elsewhere")
			r.HTTP.ParentRefs[0].Namespace = &ns
		}, "", "spec.parentRefs[0].namespace", []defaultProblem{{path: "spec.parentRefs[0].namespace", problem: wrongImplicit}}},
		{"inner node of an added subtree not recorded", "rules-null", func(*resolve.Route) {}, "spec.rules[0].matches[0]", "",
			[]defaultProblem{{path: "spec.rules[0].matches[0]", problem: notRecorded}}},
		{"added subtree holds more", "rules-null", func(r *resolve.Route) {
			get := gwv1.HTTPMethodGet
			r.HTTP.Rules[0].Matches[0].Method = &get
		}, "", "", []defaultProblem{
			{path: "spec.rules", problem: wrongValue},
			{path: "spec.rules[0]", problem: wrongValue},
			{path: "spec.rules[0].matches", problem: wrongValue},
			{path: "spec.rules[0].matches[0]", problem: wrongValue},
		}},
	}
	for _, c := range cases {
		d, r := load(c.route)
		c.tamper(r)
		defaulted := slices.DeleteFunc(r.Defaulted.Paths(), func(p string) bool { return p == c.unrecord })
		if c.record != "" && !slices.Contains(defaulted, c.record) {
			defaulted = append(defaulted, c.record)
		}
		var st defaultStats
		got := compareDefaults(t, c.name, d, r, defaulted, &st, newDefaultCoverage())
		if st.crdPaths == 0 {
			t.Errorf("%s: no CRD-added path compared", c.name)
		}
		key := func(p defaultProblem) string { return p.path + " / " + p.problem }
		have := map[string]bool{}
		for _, p := range got {
			// Known divergences of the seed are TestDefaults' business.
			if matchDivergence(d.kind, p.path, p.problem) == nil {
				have[key(p)] = true
			}
		}
		for _, w := range c.want {
			if !have[key(w)] {
				t.Errorf("%s: not detected: %s", c.name, key(w))
			}
			delete(have, key(w))
		}
		for k := range have {
			t.Errorf("%s: unexpected: %s", c.name, k)
		}
	}
}
