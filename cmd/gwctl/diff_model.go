package main

import (
	"cmp"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/internal/statusdiff"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/trace"
)

// diffView is what changes in effect between two resolved trees. Each list
// is sorted, so the output never depends on map order.
type diffView struct {
	typeMeta
	Old         string             `json:"old"`
	New         string             `json:"new"`
	Changed     bool               `json:"changed"`
	Attachments []attachmentChange `json:"attachments"`
	// Hostnames are the effective hostnames gained or lost by attachments
	// both sides have (a gained or lost attachment says enough).
	Hostnames  []hostnameChange  `json:"hostnames"`
	Conditions []conditionChange `json:"conditions"`
	Backends   []backendChange   `json:"backends"`
	// Policies are the policies that start or stop reaching an object, or
	// whose state there changes (effective, overridden, conflicted, ...).
	Policies []policyChange `json:"policies"`
	// Requests are the sample requests (trace.SampleRequests of
	// either side) that would now go elsewhere.
	Requests []requestChange `json:"requests"`
	Findings []findingChange `json:"findings"`
}

// hostnameChange is an effective hostname a route gains or loses on a
// listener it stays attached to; "*" stands for any host.
type hostnameChange struct {
	Change   string  `json:"change"` // gained or lost
	Route    refView `json:"route"`
	Parent   refView `json:"parent"`
	Listener string  `json:"listener"`
	Hostname string  `json:"hostname"`
}

// requestChange is a sample request whose fate differs: Old and New say
// where it goes on each side.
type requestChange struct {
	Request string       `json:"request"`
	Old     requestState `json:"old"`
	New     requestState `json:"new"`
}

// requestState is where a traced request goes: the outcome, and the
// winning route and rule with its split, or the status code or Location
// the Gateway answers with.
type requestState struct {
	Outcome    trace.Outcome  `json:"outcome"`
	StatusCode int            `json:"statusCode,omitempty"`
	Route      *refView       `json:"route,omitempty"`
	Rule       string         `json:"rule,omitempty"`
	Backends   []requestShare `json:"backends,omitempty"`
	Location   string         `json:"location,omitempty"`
}

// requestShare is a backend's share of the traced request's rule.
type requestShare struct {
	Backend string  `json:"backend"`
	Share   float64 `json:"share"`
	Fails   bool    `json:"fails,omitempty"`
}

// attachmentChange is a route parentRef that gains or loses a listener
// (or, in a mesh, a Service port).
type attachmentChange struct {
	Change string  `json:"change"` // gained or lost
	Route  refView `json:"route"`
	Parent refView `json:"parent"` // the listener's Gateway or ListenerSet, or the Service
	// Listener is the listener's name, or "port N" for a mesh port.
	Listener string `json:"listener"`
	// Reason and Message say why a lost attachment is lost.
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
}

// conditionChange is one status condition whose status or reason changes;
// Old or New is absent when the condition (or its object) is.
type conditionChange struct {
	Object refView `json:"object"`
	// Scope says where in the status the condition is: "" for the
	// object's own, "listener http", "parent Gateway ns/name".
	Scope string          `json:"scope,omitempty"`
	Type  string          `json:"type"`
	Old   *conditionState `json:"old,omitempty"`
	New   *conditionState `json:"new,omitempty"`
}

type conditionState struct {
	Status string `json:"status"`
	Reason string `json:"reason"`
}

// backendChange is a backend of a route rule whose share of the traffic
// changes, or which starts or stops failing; Old or New is absent when the
// backend is.
type backendChange struct {
	Route   refView       `json:"route"`
	Rule    string        `json:"rule"` // the rule's name, else rules[i]
	Backend string        `json:"backend"`
	Old     *backendState `json:"old,omitempty"`
	New     *backendState `json:"new,omitempty"`
}

type backendState struct {
	Weight int64   `json:"weight"`
	Share  float64 `json:"share"`
	// Fails: the share gets HTTP 500 (or, for TLS/TCP/UDP, is dropped)
	// because the ref is invalid; Reason says why.
	Fails  bool   `json:"fails,omitempty"`
	Reason string `json:"reason,omitempty"`
}

// findingChange is a lint finding only one side has.
type findingChange struct {
	Change   string `json:"change"` // new or fixed
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Object   string `json:"object"`
	Path     string `json:"path,omitempty"`
	Message  string `json:"message"`
	// Source is file:line:col in the tree that has the finding.
	Source string `json:"source"`
}

// policyChange is a policy's reach of an object in one tree and not the
// other, or in another state.
type policyChange struct {
	Policy  refView `json:"policy"`
	Object  refView `json:"object"`
	Section string  `json:"section,omitempty"`
	// Old and New are its state there (policyReachView.State); absent
	// where the policy does not reach the object.
	Old string `json:"old,omitempty"`
	New string `json:"new,omitempty"`
}

// reachesOf are every policy's reaches in g, by policy, object and
// section.
func reachesOf(g *resolve.Graph) map[string]policyReachView {
	out := map[string]policyReachView{}
	for _, p := range g.Policies {
		for _, r := range p.Reaches {
			v := policyReachViewOf(r)
			out[v.Policy.String()+"\x00"+v.Object.String()+"\x00"+v.Section] = v
		}
	}
	return out
}

func diffPolicies(oldG, newG *resolve.Graph) []policyChange {
	oldR, newR := reachesOf(oldG), reachesOf(newG)
	var out []policyChange
	for _, k := range slices.Sorted(maps.Keys(oldR)) {
		o := oldR[k]
		if n, ok := newR[k]; !ok || n.State != o.State {
			out = append(out, policyChange{Policy: o.Policy, Object: o.Object, Section: o.Section, Old: o.State, New: n.State})
		}
	}
	for _, k := range slices.Sorted(maps.Keys(newR)) {
		if _, ok := oldR[k]; !ok {
			n := newR[k]
			out = append(out, policyChange{Policy: n.Policy, Object: n.Object, Section: n.Section, New: n.State})
		}
	}
	slices.SortStableFunc(out, func(a, b policyChange) int {
		return cmp.Or(cmp.Compare(a.Policy.String(), b.Policy.String()), cmp.Compare(a.Object.String(), b.Object.String()), cmp.Compare(a.Section, b.Section))
	})
	return out
}

// diffInput is one side resolved, with what lint found in it.
type diffInput struct {
	graph    *resolve.Graph
	findings []lint.Finding
}

func computeDiff(oldIn, newIn *diffInput, oldName, newName string) *diffView {
	v := &diffView{typeMeta: explanationMeta("Diff"), Old: oldName, New: newName}
	v.Attachments = diffAttachments(oldIn.graph, newIn.graph)
	v.Hostnames = diffHostnames(attachmentsOf(oldIn.graph), attachmentsOf(newIn.graph))
	v.Conditions = diffConditions(oldIn.graph, newIn.graph)
	v.Backends = diffBackends(backendsOf(oldIn.graph), backendsOf(newIn.graph))
	v.Policies = diffPolicies(oldIn.graph, newIn.graph)
	v.Requests = diffRequests(oldIn.graph, newIn.graph)
	v.Findings = diffFindings(oldIn.findings, newIn.findings)
	v.Changed = len(v.Attachments)+len(v.Hostnames)+len(v.Conditions)+len(v.Backends)+len(v.Policies)+len(v.Requests)+len(v.Findings) > 0
	// Empty lists, not null, in JSON.
	v.Attachments = nonNil(v.Attachments)
	v.Hostnames = nonNil(v.Hostnames)
	v.Conditions = nonNil(v.Conditions)
	v.Backends = nonNil(v.Backends)
	v.Policies = nonNil(v.Policies)
	v.Requests = nonNil(v.Requests)
	v.Findings = nonNil(v.Findings)
	return v
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// attachment is one accepted parentRef × listener (or mesh port).
type attachment struct {
	route, parent resolve.ObjectRef
	listener      string
	// hostnames are the route's effective hostnames there; none: any.
	hostnames []string
}

func (a attachment) key() string {
	return a.route.String() + "\x00" + a.parent.String() + "\x00" + a.listener
}

// listenerOwner is the object a listener is written in.
func listenerOwner(l *resolve.Listener) resolve.ObjectRef {
	if l.ListenerSet != nil {
		return l.ListenerSet.Ref
	}
	return l.Gateway.Ref
}

func meshPortName(sp resolve.ServicePort) string {
	s := "port " + strconv.Itoa(int(sp.Port))
	if sp.Name != "" {
		s += " (" + sp.Name + ")"
	}
	return s
}

// attachmentsOf lists every accepted attachment of g by key.
func attachmentsOf(g *resolve.Graph) map[string]attachment {
	out := map[string]attachment{}
	for _, r := range g.Routes {
		for _, p := range r.Parents {
			if p.Mesh() {
				if p.Accepted.True() {
					for _, mp := range p.MeshPorts {
						a := attachment{route: r.Ref, parent: p.Parent(), listener: meshPortName(mp)}
						out[a.key()] = a
					}
				}
				continue
			}
			for _, lo := range p.Listeners {
				if lo.Accepted() {
					a := attachment{route: r.Ref, parent: listenerOwner(lo.Listener), listener: lo.Listener.Name}
					// Two parentRefs may select one listener: their hostnames add up.
					a.hostnames = append(out[a.key()].hostnames, lo.Hostnames...)
					if len(lo.Hostnames) == 0 {
						a.hostnames = append(a.hostnames, "*")
					}
					out[a.key()] = a
				}
			}
		}
	}
	return out
}

// whyNot says why g does not have attachment a: the listener's reason when
// the parentRef still selects it, else the parentRef's or the route's fate.
func whyNot(g *resolve.Graph, a attachment) (reason, message string) {
	routes := g.FindRoutes(a.route.Kind, a.route.Namespace, a.route.Name)
	if len(routes) == 0 {
		return "RouteRemoved", a.route.String() + " is no longer among the inputs"
	}
	var parentReason resolve.Condition
	for _, p := range routes[0].Parents {
		for _, lo := range p.Listeners {
			if listenerOwner(lo.Listener) == a.parent && lo.Listener.Name == a.listener {
				return string(lo.Reason), lo.Message
			}
		}
		if p.Parent() == a.parent || (p.Gateway != nil && p.Gateway.Ref == a.parent) {
			parentReason = p.Accepted
		}
	}
	if parentReason.Reason != "" && !parentReason.True() {
		return string(parentReason.Reason), parentReason.Message
	}
	return "NotSelected", "no parentRef of the route selects this listener or port"
}

func diffAttachments(oldG, newG *resolve.Graph) []attachmentChange {
	oldA, newA := attachmentsOf(oldG), attachmentsOf(newG)
	var out []attachmentChange
	for k, a := range newA {
		if _, ok := oldA[k]; !ok {
			out = append(out, attachmentChange{Change: "gained", Route: refOf(a.route), Parent: refOf(a.parent), Listener: a.listener})
		}
	}
	for k, a := range oldA {
		if _, ok := newA[k]; !ok {
			reason, msg := whyNot(newG, a)
			out = append(out, attachmentChange{Change: "lost", Route: refOf(a.route), Parent: refOf(a.parent), Listener: a.listener,
				Reason: reason, Message: msg})
		}
	}
	slices.SortFunc(out, func(a, b attachmentChange) int {
		return cmp.Or(cmp.Compare(a.Route.String(), b.Route.String()), cmp.Compare(a.Parent.String(), b.Parent.String()),
			cmp.Compare(a.Listener, b.Listener), cmp.Compare(a.Change, b.Change))
	})
	return out
}

// diffHostnames compares the effective hostnames of the attachments both
// sides have.
func diffHostnames(oldA, newA map[string]attachment) []hostnameChange {
	var out []hostnameChange
	for k, n := range newA {
		o, ok := oldA[k]
		if !ok {
			continue
		}
		add := func(change string, from, to []string) {
			for _, h := range from {
				if !slices.Contains(to, h) && !slices.ContainsFunc(out, func(c hostnameChange) bool {
					return c.Change == change && c.Hostname == h && c.Route == refOf(n.route) && c.Parent == refOf(n.parent) && c.Listener == n.listener
				}) {
					out = append(out, hostnameChange{Change: change, Route: refOf(n.route), Parent: refOf(n.parent), Listener: n.listener, Hostname: h})
				}
			}
		}
		add("gained", n.hostnames, o.hostnames)
		add("lost", o.hostnames, n.hostnames)
	}
	slices.SortFunc(out, func(a, b hostnameChange) int {
		return cmp.Or(cmp.Compare(a.Route.String(), b.Route.String()), cmp.Compare(a.Parent.String(), b.Parent.String()),
			cmp.Compare(a.Listener, b.Listener), cmp.Compare(a.Change, b.Change), cmp.Compare(a.Hostname, b.Hostname))
	})
	return out
}

// diffRequests traces the sample requests of both sides in both and keeps
// those whose fate differs.
func diffRequests(oldG, newG *resolve.Graph) []requestChange {
	byKey := map[string]trace.Request{}
	for _, g := range []*resolve.Graph{oldG, newG} {
		for _, r := range trace.SampleRequests(g) {
			byKey[r.String()] = r
		}
	}
	var out []requestChange
	oldT, newT := trace.New(oldG), trace.New(newG)
	for _, k := range slices.Sorted(maps.Keys(byKey)) {
		o, n := requestStateOf(oldT.Destination(byKey[k])), requestStateOf(newT.Destination(byKey[k]))
		if !o.equal(n) {
			out = append(out, requestChange{Request: k, Old: o, New: n})
		}
	}
	return out
}

func requestStateOf(tr *trace.Result) requestState {
	s := requestState{Outcome: tr.Outcome, StatusCode: tr.StatusCode}
	if w := tr.Winner(); w != nil {
		ref := refOf(w.Route.Ref)
		s.Route, s.Rule = &ref, w.Route.Rules[w.Rule].Label()
	}
	if tr.Redirect != nil {
		s.Location = tr.Redirect.String()
	}
	if tr.Rule != nil && tr.Outcome != trace.Redirected {
		for _, b := range tr.Rule.Backends {
			s.Backends = append(s.Backends, requestShare{Backend: diffBackendName(b), Share: b.Share, Fails: b.Fails()})
		}
	}
	return s
}

// equal compares two fates as the output shows them.
func (s requestState) equal(o requestState) bool {
	return s.text() == o.text()
}

// diffConditions compares the conditions of every status either side
// would write, entry by entry (statusdiff.Pairs), and keeps those whose
// status or reason changes.
func diffConditions(oldG, newG *resolve.Graph) []conditionChange {
	state := func(c *statusdiff.Cond) *conditionState {
		if c == nil {
			return nil
		}
		return &conditionState{Status: c.Status, Reason: c.Reason}
	}
	var out []conditionChange
	for _, op := range statusdiff.PairObjects(statusObjects(oldG), statusObjects(newG)) {
		o := cmp.Or(op.New, op.Old)
		obj := refOf(resolve.ObjectRef{Kind: o.Kind, Namespace: o.Namespace, Name: o.Name})
		for _, p := range statusdiff.Pairs(op.Old, op.New) {
			for _, c := range p.Conds() {
				if c.Old != nil && c.New != nil && *c.Old == *c.New {
					continue
				}
				out = append(out, conditionChange{Object: obj, Scope: conditionScope(p), Type: c.Type,
					Old: state(c.Old), New: state(c.New)})
			}
		}
	}
	slices.SortStableFunc(out, func(a, b conditionChange) int {
		return cmp.Or(cmp.Compare(a.Object.String(), b.Object.String()), cmp.Compare(a.Scope, b.Scope), cmp.Compare(a.Type, b.Type))
	})
	return out
}

// statusObjects reads every status g would write.
func statusObjects(g *resolve.Graph) []*statusdiff.Object {
	var out []*statusdiff.Object
	for _, so := range g.Statuses() {
		out = append(out, statusdiff.ObjectOf(so))
	}
	return out
}

// conditionScope names where in the status an entry is: "" for the
// object's own conditions, "listener http", "parent Gateway ns/name",
// "ancestor Gateway ns/name".
func conditionScope(p statusdiff.Pair) string {
	switch p.Place {
	case statusdiff.Listener:
		return "listener " + p.Name
	case statusdiff.Parent:
		return "parent " + statusRef(cmp.Or(p.New, p.Old).Ref)
	case statusdiff.Ancestor:
		return "ancestor " + statusRef(cmp.Or(p.New, p.Old).Ref)
	}
	return ""
}

// statusRef renders a parentRef as written in status: "Gateway ns/name",
// with "/section" and ":port" when set.
func statusRef(r *statusdiff.ParentRef) string {
	kind, ns := resolve.KindGateway, ""
	if r.Kind != nil && *r.Kind != "" {
		kind = *r.Kind
	}
	if r.Namespace != nil {
		ns = *r.Namespace
	}
	s := resolve.ObjectRef{Kind: kind, Namespace: ns, Name: r.Name}.String()
	if r.SectionName != nil && *r.SectionName != "" {
		s += "/" + *r.SectionName
	}
	if r.Port != nil {
		s += ":" + strconv.Itoa(int(*r.Port))
	}
	return s
}

func union[V any](a, b map[string]V) map[string]bool {
	out := make(map[string]bool, len(a)+len(b))
	for k := range a {
		out[k] = true
	}
	for k := range b {
		out[k] = true
	}
	return out
}

// backendKey names a backend of a rule; refs to the same backend in one
// rule add up.
type backendKey struct {
	route         resolve.ObjectRef
	rule, backend string
}

func (k backendKey) String() string {
	return k.route.String() + "\x00" + k.rule + "\x00" + k.backend
}

func ruleName(rr *resolve.RuleResult) string {
	if rr.Name != "" {
		return rr.Name
	}
	return "rules[" + strconv.Itoa(rr.Index) + "]"
}

func diffBackendName(b *resolve.BackendResult) string {
	s := b.Target.String()
	if b.Ref.Port != nil {
		s += ":" + strconv.Itoa(int(*b.Ref.Port))
	}
	return s
}

type backendEntry struct {
	key   backendKey
	state backendState
}

// backendsOf lists the weighted backends of every route rule.
func backendsOf(g *resolve.Graph) map[string]*backendEntry {
	out := map[string]*backendEntry{}
	for _, r := range g.Routes {
		for _, rr := range r.Rules {
			for _, b := range rr.Backends {
				k := backendKey{r.Ref, ruleName(rr), diffBackendName(b)}
				e := out[k.String()]
				if e == nil {
					e = &backendEntry{key: k}
					out[k.String()] = e
				}
				e.state.Weight += int64(b.Weight)
				e.state.Share += b.Share
				if b.Fails() && !e.state.Fails {
					e.state.Fails, e.state.Reason = true, b.FailReason()
				}
			}
		}
	}
	return out
}

// sameShare compares shares as the output shows them, so that float
// rounding never reports a change nobody can see.
func sameShare(a, b float64) bool { return percent(a) == percent(b) }

func diffBackends(oldB, newB map[string]*backendEntry) []backendChange {
	var out []backendChange
	for _, k := range slices.Sorted(maps.Keys(union(oldB, newB))) {
		o, n := oldB[k], newB[k]
		if o != nil && n != nil && sameShare(o.state.Share, n.state.Share) && o.state.Fails == n.state.Fails && o.state.Reason == n.state.Reason {
			continue
		}
		c := backendChange{}
		for _, e := range []*backendEntry{o, n} {
			if e != nil {
				c.Route, c.Rule, c.Backend = refOf(e.key.route), e.key.rule, e.key.backend
			}
		}
		if o != nil {
			s := o.state
			c.Old = &s
		}
		if n != nil {
			s := n.state
			c.New = &s
		}
		out = append(out, c)
	}
	slices.SortStableFunc(out, func(a, b backendChange) int {
		return cmp.Or(cmp.Compare(a.Route.String(), b.Route.String()), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Backend, b.Backend))
	})
	return out
}

func diffFindings(oldF, newF []lint.Finding) []findingChange {
	oldK, newK := map[string]bool{}, map[string]bool{}
	for _, f := range oldF {
		oldK[f.Identity()] = true
	}
	for _, f := range newF {
		newK[f.Identity()] = true
	}
	var out []findingChange
	add := func(change string, f lint.Finding) {
		out = append(out, findingChange{Change: change, Rule: f.Rule, Severity: f.Severity.String(), Object: f.Object,
			Path: f.Path, Message: f.Message, Source: f.Position.String()})
	}
	for _, f := range newF {
		if !oldK[f.Identity()] {
			add("new", f)
		}
	}
	for _, f := range oldF {
		if !newK[f.Identity()] {
			add("fixed", f)
		}
	}
	order := map[string]int{"new": 0, "fixed": 1}
	slices.SortStableFunc(out, func(a, b findingChange) int {
		return cmp.Or(cmp.Compare(order[a.Change], order[b.Change]), cmp.Compare(a.Object, b.Object),
			cmp.Compare(a.Path, b.Path), cmp.Compare(a.Rule, b.Rule), cmp.Compare(a.Message, b.Message), cmp.Compare(a.Source, b.Source))
	})
	// The same finding at several places of one tree is reported once per
	// place; identical entries collapse.
	return slices.CompactFunc(out, func(a, b findingChange) bool { return a == b })
}

// summary counts the changes for headings.
func (v *diffView) summary() string {
	var parts []string
	add := func(n int, what string) {
		if n > 0 {
			parts = append(parts, nouns(n, what))
		}
	}
	add(len(v.Attachments), "attachment")
	add(len(v.Hostnames), "hostname")
	add(len(v.Conditions), "condition")
	add(len(v.Backends), "backend")
	add(len(v.Policies), "policy reach")
	add(len(v.Requests), "request")
	add(len(v.Findings), "finding")
	if len(parts) == 0 {
		return "no change in effect"
	}
	return strings.Join(parts, ", ") + " changed"
}

func nouns(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	if strings.HasSuffix(noun, "ch") {
		return strconv.Itoa(n) + " " + noun + "es" // reaches
	}
	return strconv.Itoa(n) + " " + noun + "s"
}
