package fidelity

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/internal/statusdiff"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Project is an implementation whose translator tests are measured.
type Project struct {
	Name string
	// Env names the environment variable that points at a checkout (or an
	// extracted archive) of the project; Subdir is where its test data
	// live in it. The variable may also point at the test data directly.
	Env, Subdir string
	// Controllers are the controller names the implementation writes in
	// status; only their Gateways and route parents are compared.
	Controllers []string
	// MeshController is written for Service parents (GEP-1426), whose
	// controller no GatewayClass names.
	MeshController string
	// Implementation names the profile gwctl judges by, as a user of that
	// implementation runs it (--implementation); see docs/implementations.md.
	Implementation string
	// Cases reads the test cases from the test data directory.
	Cases func(dir string) ([]*Case, error)
}

// Dir returns the project's test data directory, or "" when the
// environment does not name one.
func (p *Project) Dir() string {
	root := os.Getenv(p.Env)
	if root == "" {
		return ""
	}
	if dir := filepath.Join(root, filepath.FromSlash(p.Subdir)); isDir(dir) {
		return dir
	}
	return root
}

func isDir(path string) bool {
	fi, err := os.Stat(path)
	return err == nil && fi.IsDir()
}

// Case is one translator test: the objects the implementation is given
// (its test's inputs and the world its test harness adds around them) and
// the status it writes.
type Case struct {
	Name string
	// Inputs are manifests as JSON, apiVersion and kind filled in.
	Inputs [][]byte
	Want   []*statusdiff.Object
	// Environment says, by outcome (EnvironmentKey), why the project's
	// value depends on its test's environment rather than on the inputs.
	Environment map[string]string
	// Implementation, when set, is the project's implementation configured
	// as its test configures this case, in place of the registry's.
	Implementation resolve.Implementation
}

// EnvironmentKey identifies an outcome of an object's own conditions (or,
// with where, of a listener or parent) for Case.Environment. For a listener
// or parent scope, an empty where stands for every entry of the object.
func EnvironmentKey(object string, scope Scope, where, typ string) string {
	return object + "|" + string(scope) + "|" + where + "|" + typ
}

// Dump writes the case's inputs to dir/<case>.yaml, as gwctl reads them.
func (c *Case) Dump(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, c.Name+".yaml"), c.stream(), 0o644)
}

// stream is the inputs as one YAML stream, one JSON document a line, so
// that a read error's line names its document.
func (c *Case) stream() []byte {
	var b bytes.Buffer
	for _, doc := range c.Inputs {
		b.Write(doc)
		b.WriteString("\n---\n")
	}
	return b.Bytes()
}

// Result is a case as gwctl saw it.
type Result struct {
	Outcomes []Outcome
	// ReadErrors are the problems resolve reported while loading.
	ReadErrors []string
}

// Run resolves the case's inputs as gwctl does and compares the statuses.
//
// The inputs are the whole cluster of the test, so references to objects
// outside them are missing, not unknown (StrictRefs).
func (p *Project) Run(c *Case) *Result {
	// Validation marks the objects the API server would refuse: the
	// projects' fixtures never pass admission.
	opts := resolve.Options{StrictRefs: true, ControllerName: p.MeshController, Validate: true, Channel: crd.Experimental,
		Implementations: implementations.All()}
	for i, impl := range opts.Implementations {
		if c.Implementation != nil && impl.Name() == c.Implementation.Name() {
			opts.Implementations[i] = c.Implementation
		}
	}
	if p.Implementation != "" {
		prof, err := profile.Lookup(p.Implementation)
		if err != nil {
			panic(fmt.Sprintf("fidelity: %s: %v", p.Name, err))
		}
		opts.Implementation = prof
	}
	in := resolve.Load([]string{"-"}, bytes.NewReader(c.stream()), opts)
	res := &Result{}
	notLoaded := map[string]string{}
	for _, e := range in.Errors {
		res.ReadErrors = append(res.ReadErrors, e.Error())
		if i := (e.Pos.Line - 1) / 2; e.Pos.Line > 0 && i < len(c.Inputs) {
			if o, err := statusdiff.DecodeObject(c.Inputs[i]); err == nil {
				notLoaded[o.ID()] = e.Msg
			}
		}
	}
	g := resolve.Resolve(in, opts)
	got := p.statuses(g)
	refused := map[string]string{}
	for _, obj := range g.Objects {
		m := obj.Metadata()
		for _, v := range m.Violations {
			if v.Type != crd.TypeUnknownField { // pruned, not refused
				refused[m.Ref.Kind+" "+m.Ref.NamespacedName()] = v.Path + ": " + v.Message
				break
			}
		}
	}
	// A name defined twice (a fixture slip) is one object in a cluster, and
	// which of the two the project's status stands for is anyone's guess.
	for _, d := range g.Duplicates {
		m := d.Again.Metadata()
		refused[m.Ref.Kind+" "+m.Ref.NamespacedName()] = "defined twice: a cluster holds one object of a name"
	}
	// An object resolve could not read has no status; say why, so that
	// these disagreements group by cause.
	have := map[string]bool{}
	for _, o := range got {
		have[o.ID()] = true
	}
	res.Outcomes = Compare(c.Name, c.Want, got, p.Controllers)
	for i := range res.Outcomes {
		o := &res.Outcomes[i]
		o.Refused = refused[o.Object]
		o.Environment = cmp.Or(c.Environment[EnvironmentKey(o.Object, o.Scope, o.Where, o.Type)],
			c.Environment[EnvironmentKey(o.Object, o.Scope, "", o.Type)])
		if msg, ok := notLoaded[o.Object]; ok && !have[o.Object] && o.Got == NoStatus {
			o.Got = "not loaded (" + msg + ")"
			// A version no release of the API served: the API server
			// refuses the object as it refuses a CRD violation.
			if strings.Contains(msg, "is not served by") {
				o.Refused = msg
			}
		}
	}
	return res
}

// SplitPolicies parts the result into the outcomes of the API's objects
// and those of the implementation's own policies
// (ScopeImplementationPolicyAncestor), each with the read errors.
func (r *Result) SplitPolicies() (api, policies *Result) {
	api, policies = &Result{ReadErrors: r.ReadErrors}, &Result{ReadErrors: r.ReadErrors}
	for _, o := range r.Outcomes {
		if o.Scope == ScopeImplementationPolicyAncestor {
			policies.Outcomes = append(policies.Outcomes, o)
		} else {
			api.Outcomes = append(api.Outcomes, o)
		}
	}
	return api, policies
}

// statuses returns what gwctl status writes, restricted to the Gateways
// and ListenerSets of the project's controllers (route parents are
// filtered by Compare). GatewayClass status is left out: the projects'
// translator tests do not write it.
func (p *Project) statuses(g *resolve.Graph) []*statusdiff.Object {
	var out []*statusdiff.Object
	for _, so := range g.Statuses() {
		switch so.Kind {
		case resolve.KindGatewayClass:
			continue
		case resolve.KindGateway:
			gw := g.Gateway(so.Metadata.Namespace, so.Metadata.Name)
			if gw == nil || !slices.Contains(p.Controllers, gw.ControllerName) {
				continue
			}
		case resolve.KindListenerSet:
			ls := g.ListenerSet(so.Metadata.Namespace, so.Metadata.Name)
			if ls == nil || ls.Parent == nil || !slices.Contains(p.Controllers, ls.Parent.ControllerName) {
				continue
			}
		}
		out = append(out, statusdiff.ObjectOf(so))
	}
	return out
}

// comparedKinds are the kinds whose status gwctl writes: the API's, and
// the policies of the implementations whose policy status it writes.
var comparedKinds = []string{"Gateway", "ListenerSet", "HTTPRoute", "GRPCRoute", "TLSRoute", "TCPRoute", "UDPRoute", "BackendTLSPolicy",
	"BackendTrafficPolicy", "ClientTrafficPolicy", "SecurityPolicy", "EnvoyExtensionPolicy"}

// manifest is a decoded input object, to be completed and written as JSON.
type manifest = map[string]any

// identity returns "Kind ns/name" of a decoded manifest, namespace
// defaulted for namespaced kinds.
func identity(m manifest) string {
	kind, _ := m["kind"].(string)
	meta, _ := m["metadata"].(map[string]any)
	name, _ := meta["name"].(string)
	ns, _ := meta["namespace"].(string)
	if ns == "" && kind != "GatewayClass" && kind != "Namespace" {
		ns = "default"
	}
	if ns == "" {
		return kind + " " + name
	}
	return kind + " " + ns + "/" + name
}

// inputs returns the case's manifests followed by the world's, skipping a
// world object the case defines itself, as JSON documents.
func inputs(objs, world []manifest) ([][]byte, error) {
	defined := map[string]bool{}
	for _, m := range objs {
		defined[identity(m)] = true
	}
	var out [][]byte
	for _, m := range objs {
		data, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", identity(m), err)
		}
		out = append(out, data)
	}
	for _, m := range world {
		if defined[identity(m)] {
			continue
		}
		data, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		out = append(out, data)
	}
	return out, nil
}

// wanted keeps the objects of compared kinds that carry a status. A
// condition that an input object already carried in its own status, and
// that the implementation left there, is dropped: it is not a decision of
// the implementation (Istio keeps other controllers' conditions).
func wanted(objs, inputs []manifest) ([]*statusdiff.Object, error) {
	before, err := wanted1(inputs)
	if err != nil {
		return nil, err
	}
	prior := map[string]*statusdiff.Object{}
	for _, o := range before {
		prior[o.ID()] = o
	}
	after, err := wanted1(objs)
	if err != nil {
		return nil, err
	}
	for _, o := range after {
		if p := prior[o.ID()]; p != nil {
			o.Status = withoutCarried(o.Namespace, o.Status, p.Status)
		}
	}
	return after, nil
}

// withoutCarried returns st without the conditions prior already held in
// the same place.
func withoutCarried(ns string, st, prior statusdiff.Status) statusdiff.Status {
	had := map[string]bool{}
	mark := func(where string, cs []statusdiff.Cond) {
		for _, c := range cs {
			had[where+"|"+c.Type+"|"+c.Status+"|"+c.Reason] = true
		}
	}
	keep := func(where string, cs []statusdiff.Cond) []statusdiff.Cond {
		var out []statusdiff.Cond
		for _, c := range cs {
			if !had[where+"|"+c.Type+"|"+c.Status+"|"+c.Reason] {
				out = append(out, c)
			}
		}
		return out
	}
	mark("", prior.Conditions)
	for _, l := range prior.Listeners {
		mark("listener "+l.Name, l.Conditions)
	}
	for _, p := range prior.Parents {
		mark("parent "+p.ControllerName+" "+p.ParentRef.Key(ns), p.Conditions)
	}
	for _, a := range prior.Ancestors {
		mark("ancestor "+a.ControllerName+" "+a.AncestorRef.Key(ns), a.Conditions)
	}
	out := statusdiff.Status{Conditions: keep("", st.Conditions)}
	for _, l := range st.Listeners {
		l.Conditions = keep("listener "+l.Name, l.Conditions)
		out.Listeners = append(out.Listeners, l)
	}
	for _, p := range st.Parents {
		p.Conditions = keep("parent "+p.ControllerName+" "+p.ParentRef.Key(ns), p.Conditions)
		out.Parents = append(out.Parents, p)
	}
	for _, a := range st.Ancestors {
		a.Conditions = keep("ancestor "+a.ControllerName+" "+a.AncestorRef.Key(ns), a.Conditions)
		out.Ancestors = append(out.Ancestors, a)
	}
	return out
}

func wanted1(objs []manifest) ([]*statusdiff.Object, error) {
	var out []*statusdiff.Object
	for _, m := range objs {
		kind, _ := m["kind"].(string)
		if !slices.Contains(comparedKinds, kind) || m["status"] == nil {
			continue
		}
		data, err := json.Marshal(m)
		if err != nil {
			return nil, err
		}
		o, err := statusdiff.DecodeObject(data)
		if err != nil {
			return nil, err
		}
		if o.Namespace == "" {
			o.Namespace = "default"
		}
		out = append(out, o)
	}
	return out, nil
}
