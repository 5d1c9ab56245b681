package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

type explainRouteOptions struct {
	explainOptions
	// Kind restricts the lookup to one route kind; empty means any.
	Kind string
	// preset is the kind of the kubectl spelling the command is
	// (httproute, ...); empty for route.
	preset string
}

var routeKinds = []string{resolve.KindHTTPRoute, resolve.KindGRPCRoute, resolve.KindTLSRoute, resolve.KindTCPRoute, resolve.KindUDPRoute}

func newExplainRouteCmd(streams *cli.IOStreams, runF func(*explainRouteOptions) error) *cobra.Command {
	return newExplainRouteKindCmd(streams, runF, "", "")
}

// newExplainRouteKindCmd builds `explain route`, or with a spelling and
// its kind, `explain httproute` and the like: the same command with --kind
// preset, hidden from help (the route command's help names them). They
// are commands, not aliases, because cobra tells a completion function
// nothing of the alias typed.
func newExplainRouteKindCmd(streams *cli.IOStreams, runF func(*explainRouteOptions) error, spelling, kind string) *cobra.Command {
	opts := &explainRouteOptions{explainOptions: explainOptions{IO: streams}, preset: kind}
	cmd := &cobra.Command{
		Use:   "route NAME",
		Short: "Explain where a route attaches and where its traffic goes",
		Long: `Explain a route: for every parentRef, whether it is accepted and by which
listeners (or, for a mesh parent, which Service ports it binds), and why a
listener refuses it; for every rule, its matches and filters, each backend's
weight, share of the traffic and state, and what happens to the share of an
invalid backend (HTTP 500 for HTTPRoute and GRPCRoute, dropped connections
for the others).

kubectl's spellings preset --kind: httproute, httproutes, grpcroute,
grpcroutes, tlsroute(s), tcproute(s) and udproute(s).

Exits 1 when the route is not found or every parentRef is refused (a parent
outside the inputs is undecided, not refused).`,
		Example: `  # The canary split of the store route
  gwctl explain route store -n store -f testdata/examples

  # A GRPCRoute that shares its name with an HTTPRoute
  gwctl explain route checkout --kind GRPCRoute

  # Machine-readable
  gwctl explain route store -o json

  # kubectl's spelling: the same as --kind GRPCRoute
  gwctl explain grpcroute checkout`,
		Aliases: []string{"routes"},
		Args:    cobra.ExactArgs(1),
		RunE:    cli.RunE(opts, opts.complete, runF, runExplainRoute),
	}
	opts.addFlags(cmd)
	cmd.Flags().StringVar(&opts.Kind, "kind", "", "route kind: "+strings.Join(routeKinds, ", ")+" (default: any; httproute and the like preset it)")
	cmd.ValidArgsFunction = completeNames(&opts.inputOptions, func(*cobra.Command) []string {
		if k := routeKind(opts.Kind, opts.preset); k != "" {
			return []string{k}
		}
		return nil
	})
	if spelling != "" {
		cmd.Use, cmd.Hidden = spelling+" NAME", true
		cmd.Aliases = nil
		cmd.Short = "Explain a " + kind + " (explain route --kind " + kind + ")"
	}
	return cmd
}

// complete completes the explainOptions, then accepts the kind in any
// letter case, as kubectl does; httproute and the like preset it.
func (o *explainRouteOptions) complete(cmd *cobra.Command, args []string) error {
	if err := o.explainOptions.complete(cmd, args); err != nil {
		return err
	}
	k := routeKind(o.Kind, o.preset)
	switch {
	case o.Kind != "" && k == "":
		return cli.OneOf("kind", o.Kind, routeKinds...)
	case o.preset != "" && k != o.preset:
		return fmt.Errorf("--kind %s contradicts %q, which is %s", o.Kind, cmd.Name(), o.preset)
	}
	o.Kind = k
	return nil
}

// routeKind is the route kind that --kind (in any letter case) names, else
// the preset one; empty for any kind, or for a --kind that names none.
func routeKind(flag, preset string) string {
	if flag == "" {
		return preset
	}
	for _, k := range routeKinds {
		if strings.EqualFold(flag, k) {
			return k
		}
	}
	return ""
}

func runExplainRoute(opts *explainRouteOptions) error {
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, func(g *resolve.Graph) bool {
		return len(g.FindRoutes(opts.Kind, opts.Namespace, opts.Name)) > 0
	})
	what := "route"
	if opts.Kind != "" {
		what = opts.Kind
	}
	r, err := pick(&opts.explainOptions, what, "-n or --kind", g.FindRoutes(opts.Kind, opts.Namespace, opts.Name))
	if err != nil {
		return withInputErrors(err, inputFailed)
	}
	view := newRouteExplanation(g, r)
	opts.diagram = func() *diagram { d := newDiagram(); d.addRouteParents(r); return d }
	if err := opts.write(view); err != nil {
		return withInputErrors(err, inputFailed)
	}
	if r.Refused() {
		err = failuref("%s is not accepted by any parent", r.Ref)
	}
	return withInputErrors(err, inputFailed)
}

// routeExplanation is the schema of `gwctl explain route -o json|yaml`.
type routeExplanation struct {
	typeMeta
	Route        refView       `json:"route"`
	Source       string        `json:"source"`
	Hostnames    []string      `json:"hostnames,omitempty"`
	Accepted     bool          `json:"accepted"`
	Parents      []parentView  `json:"parents"`
	Rules        []ruleView    `json:"rules"`
	ResolvedRefs conditionView `json:"resolvedRefs"`
	// Features are the Gateway API features the route needs (as
	// sigs.k8s.io/gateway-api/pkg/features names them), in the order found.
	Features []featureView `json:"features"`
	// Policies are the policies that reach the route, direct and inherited.
	Policies []policyReachView `json:"policies"`
}

type featureView struct {
	Feature string `json:"feature"`
	Path    string `json:"path"`
	// UnsupportedBy names the profiles judging the route that lack the
	// feature.
	UnsupportedBy []string `json:"unsupportedBy,omitempty"`
}

type parentView struct {
	Path        string  `json:"path"`
	Parent      refView `json:"parent"`
	SectionName string  `json:"sectionName,omitempty"`
	Port        *int32  `json:"port,omitempty"`
	// Presence is present, missing or external; empty when the parent
	// kind is unsupported and nothing was looked up.
	Presence string        `json:"presence,omitempty"`
	Accepted conditionView `json:"accepted"`
	// Listeners are the listeners the parentRef selected (Gateway and
	// ListenerSet parents).
	Listeners []listenerOutcomeView `json:"listeners,omitempty"`
	// Mesh is set for a Service parent (GEP-1426).
	Mesh *meshBindingView `json:"mesh,omitempty"`
	// Dropped are the rules the parent's implementation drops as it
	// translates them (PartiallyInvalid, or not Accepted when none is
	// left).
	Dropped []droppedRuleView `json:"dropped,omitempty"`
}

type droppedRuleView struct {
	Rule    string         `json:"rule"`
	Path    string         `json:"path"`
	Reason  resolve.Reason `json:"reason"`
	Message string         `json:"message"`
	By      string         `json:"by"`
}

type listenerOutcomeView struct {
	Name     string `json:"name"`
	Port     int32  `json:"port"`
	Protocol string `json:"protocol"`
	// Reason is Accepted, NotAllowedByListeners or NoMatchingListenerHostname.
	Reason  resolve.Reason `json:"reason"`
	Message string         `json:"message,omitempty"`
	// Hostnames are the effective hostnames when accepted; none means any.
	Hostnames []string `json:"hostnames,omitempty"`
}

type meshBindingView struct {
	// Role is producer (the route is in the Service's namespace and applies
	// to every client) or consumer (it applies to clients in its own).
	Role  string          `json:"role"`
	Ports []meshPortState `json:"ports,omitempty"`
}

type meshPortState struct {
	Port int32  `json:"port"`
	Name string `json:"name,omitempty"`
	// LostTo is the route kind of higher precedence that won the port.
	LostTo string `json:"lostTo,omitempty"`
}

type ruleView struct {
	Name     string        `json:"name,omitempty"`
	Path     string        `json:"path"`
	Matches  []matchView   `json:"matches,omitempty"`
	Filters  []filterView  `json:"filters,omitempty"`
	Backends []backendView `json:"backends"`
	// Outcome is resolve's verdict: forwarded, all-500, no-backends,
	// filters-only, zero-weight or dropped; Note explains it.
	Outcome string `json:"outcome"`
	Note    string `json:"note,omitempty"`
}

// matchView is one entry of a rule's matches: its conditions all hold.
type matchView struct {
	// Defaulted is true when the whole match was filled in by defaulting.
	Defaulted  bool             `json:"defaulted,omitempty"`
	Conditions []matchCondition `json:"conditions"`
}

type matchCondition struct {
	// Field is path, header, queryParam, method, or for GRPCRoute service,
	// method and header.
	Field          string `json:"field"`
	Type           string `json:"type,omitempty"`
	Name           string `json:"name,omitempty"`
	Value          string `json:"value,omitempty"`
	TypeDefaulted  bool   `json:"typeDefaulted,omitempty"`
	ValueDefaulted bool   `json:"valueDefaulted,omitempty"`
}

type filterView struct {
	Type        string `json:"type"`
	Description string `json:"description,omitempty"`
}

type backendView struct {
	Backend         refView `json:"backend"`
	Group           string  `json:"group,omitempty"`
	Port            *int32  `json:"port,omitempty"`
	Weight          int32   `json:"weight"`
	WeightDefaulted bool    `json:"weightDefaulted,omitempty"`
	Share           float64 `json:"share"`
	Presence        string  `json:"presence,omitempty"`
	// State is ok, external or unlisted (assumed to exist), generated (an
	// input will create it), or the problem: not found, not permitted, no
	// port, port not found, unsupported kind.
	State   string         `json:"state"`
	Reason  resolve.Reason `json:"reason,omitempty"`
	Message string         `json:"message,omitempty"`
	// CreatedBy names the input that will create a generated backend.
	CreatedBy string `json:"createdBy,omitempty"`
	// Traffic is served, none (weight 0), HTTP 500 or dropped (also for a
	// valid ref whose BackendTLSPolicy is not accepted).
	Traffic string `json:"traffic"`
	// TLSPolicy is the BackendTLSPolicy the Gateway connects to the backend
	// with; absent when none applies (plain text).
	TLSPolicy *tlsPolicyView `json:"tlsPolicy,omitempty"`
}

// tlsPolicyView is the BackendTLSPolicy that applies to a backend.
type tlsPolicyView struct {
	Policy       refView       `json:"policy"`
	Hostname     string        `json:"hostname"`
	Accepted     conditionView `json:"accepted"`
	ResolvedRefs conditionView `json:"resolvedRefs"`
}

func tlsPolicyViewOf(p *resolve.BackendTLSPolicyResult) *tlsPolicyView {
	if p == nil {
		return nil
	}
	return &tlsPolicyView{Policy: refOf(p.Ref), Hostname: string(p.Spec.Validation.Hostname),
		Accepted: conditionOf(p.Accepted), ResolvedRefs: conditionOf(p.ResolvedRefs)}
}

// text is the line explaining the backend's TLS: the policy, the SNI it
// sends, and what is wrong with the policy if anything is.
func (t *tlsPolicyView) text(pal palette, backend string) string {
	line := fmt.Sprintf("TLS to %s: %s, hostname %s", backend, t.Policy, t.Hostname)
	for _, c := range []conditionView{t.Accepted, t.ResolvedRefs} {
		if !c.isTrue() {
			return line + ": " + pal.bad.Sprintf("%s %s: %s", c.Type, c.Reason, c.Message)
		}
	}
	return line
}

func newRouteExplanation(g *resolve.Graph, r *resolve.RouteResult) *routeExplanation {
	v := &routeExplanation{
		typeMeta: explanationMeta("RouteExplanation"),
		Route:    refOf(r.Ref), Source: sourceOf(&r.Meta),
		Accepted: r.Accepted(), ResolvedRefs: conditionOf(r.ResolvedRefs),
		Parents: []parentView{}, Rules: []ruleView{}, Features: []featureView{},
		Policies: policyReachesOf(g, r.Ref),
	}
	gaps := g.GapsOf(&r.Meta)
	for _, u := range g.FeaturesOf(&r.Meta) {
		fv := featureView{Feature: string(u.Feature), Path: u.Path}
		for _, gap := range gaps {
			if gap.FeatureUse == u {
				fv.UnsupportedBy = append(fv.UnsupportedBy, gap.Profile.String())
			}
		}
		v.Features = append(v.Features, fv)
	}
	for _, h := range r.Hostnames {
		v.Hostnames = append(v.Hostnames, string(h))
	}
	for _, p := range r.Parents {
		v.Parents = append(v.Parents, parentViewOf(p))
	}
	for _, rr := range r.Rules {
		v.Rules = append(v.Rules, ruleViewOf(r, rr))
	}
	return v
}

func parentViewOf(p *resolve.ParentResult) parentView {
	pv := parentView{Path: p.Path, Parent: refOf(p.Parent()), Accepted: conditionOf(p.Accepted)}
	if p.Ref.SectionName != nil {
		pv.SectionName = string(*p.Ref.SectionName)
	}
	if p.Ref.Port != nil {
		port := int32(*p.Ref.Port)
		pv.Port = &port
	}
	// resolve leaves Presence at its zero value (Present) for parent kinds
	// it does not support, without having looked the parent up.
	if p.Gateway != nil || p.ListenerSet != nil || p.Service != nil || p.Presence != resolve.Present {
		pv.Presence = p.Presence.String()
	}
	for _, o := range p.Listeners {
		pv.Listeners = append(pv.Listeners, listenerOutcomeView{
			Name: o.Listener.Name, Port: int32(o.Listener.Port), Protocol: string(o.Listener.Protocol),
			Reason: o.Reason, Message: o.Message, Hostnames: o.Hostnames,
		})
	}
	if p.Mesh() {
		pv.Mesh = meshBindingOf(p)
	}
	for _, d := range p.Dropped {
		pv.Dropped = append(pv.Dropped, droppedRuleView{Rule: d.Rule.Label(), Path: d.Path, Reason: d.Reason, Message: d.Message, By: d.By.String()})
	}
	return pv
}

func meshBindingOf(p *resolve.ParentResult) *meshBindingView {
	m := &meshBindingView{Role: "consumer"}
	if p.Producer() {
		m.Role = "producer"
	}
	for _, sp := range p.MeshPorts {
		m.Ports = append(m.Ports, meshPortState{Port: sp.Port, Name: sp.Name, LostTo: lostTo(p, sp.Port)})
	}
	return m
}

// lostTo is the winning route kind when p lost Service port n to it.
func lostTo(p *resolve.ParentResult, n int32) string {
	for _, mp := range p.Service.Ports() {
		if mp.Port.Port != n {
			continue
		}
		for _, c := range mp.Conflicted {
			if c == p {
				return mp.Winner
			}
		}
	}
	return ""
}

func ruleViewOf(r *resolve.RouteResult, rr *resolve.RuleResult) ruleView {
	outcome := rr.Outcome(r.Route)
	rv := ruleView{
		Name: rr.Name, Path: rr.Path,
		Matches: matchesOf(r.Route, rr.Index), Filters: filtersOf(r.Route, rr.Index),
		Backends: []backendView{}, Outcome: string(outcome), Note: outcomeNote(r, outcome),
	}
	for _, b := range rr.Backends {
		rv.Backends = append(rv.Backends, backendViewOf(r.Route, b))
	}
	return rv
}

func backendViewOf(route *resolve.Route, b *resolve.BackendResult) backendView {
	bv := backendView{
		Backend: refOf(b.Target), Group: b.Group,
		Weight: b.Weight, WeightDefaulted: b.WeightDefaulted, Share: b.Share,
		State: string(b.Problem), Reason: b.Reason, Message: b.Message,
		TLSPolicy: tlsPolicyViewOf(b.TLSPolicy),
	}
	if b.Ref.Port != nil {
		port := int32(*b.Ref.Port)
		bv.Port = &port
	}
	// Refs of an unsupported kind or without a grant are refused before
	// resolve looks the target up, so their Presence means nothing.
	if b.Problem != resolve.UnsupportedRef && b.Problem != resolve.NotPermitted {
		bv.Presence = b.Presence.String()
	}
	switch {
	case !b.Valid():
	case b.Presence == resolve.External:
		bv.State = "external (assumed)"
	case b.Presence == resolve.Unlisted:
		bv.State = "unlisted (assumed)"
	case b.Presence == resolve.Unresolved:
		bv.State = "unknown until substituted (assumed)"
	case b.Generation() != nil:
		bv.State, bv.CreatedBy = "generated by "+b.Generation().Creator(), b.Generation().Creator()
	default:
		bv.State = "ok"
	}
	switch {
	case b.Weight == 0:
		bv.Traffic = "none"
	case !b.Fails():
		bv.Traffic = "served"
	case route.Answers500():
		bv.Traffic = "HTTP 500"
	default:
		bv.Traffic = "dropped"
	}
	return bv
}

// outcomeNote explains a rule that does not simply forward its traffic.
func outcomeNote(r *resolve.RouteResult, o resolve.Outcome) string {
	switch o {
	case resolve.AllErrors500:
		return "every backend is invalid: all matching requests get HTTP 500"
	case resolve.Dropped:
		return "no backend is valid: all matching connections are dropped"
	case resolve.FiltersOnly:
		return "no backend receives traffic: the rule's filters answer the requests"
	case resolve.ZeroWeight:
		return "every backend has weight 0: nothing is forwarded"
	case resolve.NoBackends:
		return noBackendsNote(r)
	}
	return ""
}

// noBackendsNote: a rule without backends forwards nothing on a Gateway,
// while in a mesh the request goes on to the parent Service itself.
func noBackendsNote(r *resolve.RouteResult) string {
	mesh := slices.ContainsFunc(r.Parents, (*resolve.ParentResult).Mesh)
	gateway := slices.ContainsFunc(r.Parents, func(p *resolve.ParentResult) bool { return !p.Mesh() })
	switch {
	case mesh && gateway:
		return "no backendRefs: nothing is forwarded on Gateways; in the mesh requests go to the parent Service"
	case mesh:
		return "no backendRefs: requests go to the parent Service"
	}
	return "no backendRefs: nothing is forwarded"
}

func (v *routeExplanation) writeText(p *printer) {
	pal := p.pal
	p.title(v.Route, v.Source)
	if hasHostnames(v.Route.Kind) && v.hasGatewayParent() {
		p.line(0, "Hostnames: %s", orAny(v.Hostnames))
	}
	p.blank()
	p.heading("Parents")
	for _, pv := range v.Parents {
		pv.writeText(p, hasHostnames(v.Route.Kind))
	}
	p.blank()
	p.heading("Rules")
	for _, rv := range v.Rules {
		rv.writeText(p)
	}
	p.blank()
	p.heading("Features")
	rows := make([][]string, len(v.Features))
	for i, f := range v.Features {
		rows[i] = []string{f.Feature, f.Path, ""}
		if len(f.UnsupportedBy) > 0 {
			rows[i][2] = pal.verdict(false, "not supported by "+strings.Join(f.UnsupportedBy, ", "))
		}
	}
	p.table(1, nil, rows)
	writePolicies(p, v.Policies)
	p.blank()
	p.line(0, "%s", v.ResolvedRefs.text(pal))
}

// hasGatewayParent reports whether any parent is not a Service: hostnames
// do not apply in the mesh (GEP-1426).
func (v *routeExplanation) hasGatewayParent() bool {
	for _, pv := range v.Parents {
		if pv.Mesh == nil {
			return true
		}
	}
	return false
}

func hasHostnames(kind string) bool {
	return kind == resolve.KindHTTPRoute || kind == resolve.KindGRPCRoute || kind == resolve.KindTLSRoute
}

// orAny joins hostnames; none means any hostname.
func orAny(hosts []string) string {
	if len(hosts) == 0 {
		return "any"
	}
	return strings.Join(hosts, ", ")
}

// writeText prints a parentRef and its verdicts; hostnames says whether
// the route kind has hostnames to report on an accepting listener.
func (pv parentView) writeText(p *printer, hostnames bool) {
	head := pv.Path + "  " + pv.Parent.String()
	if pv.SectionName != "" {
		head += "  sectionName=" + pv.SectionName
	}
	if pv.Port != nil {
		head += fmt.Sprintf("  port=%d", *pv.Port)
	}
	if pv.Presence != "" && pv.Presence != "present" {
		head += "  (" + pv.Presence + ")"
	}
	if pv.Mesh != nil {
		head += "  mesh " + pv.Mesh.Role
	}
	p.line(1, "%s", head)

	// Each selected listener (or bound Service port) gives its own verdict;
	// the parent's own reason is shown when there is none to give.
	var rows [][]string
	for _, l := range pv.Listeners {
		accepted := l.Reason == resolve.ReasonAccepted
		detail := l.Message
		if accepted && hostnames {
			// An accepted verdict's message is a caveat (a conflicted
			// listener that serves nothing): kept before the hostnames.
			detail = strings.TrimPrefix(l.Message+"; hostnames: "+orAny(l.Hostnames), "; ")
		}
		rows = append(rows, []string{p.pal.verdict(accepted, string(l.Reason)), l.Name, fmt.Sprintf("%d/%s", l.Port, l.Protocol), detail})
	}
	if pv.Mesh != nil {
		rows = append(rows, pv.Mesh.rows(p.pal, pv.Accepted)...)
	}
	if len(rows) == 0 {
		verdict := p.pal.verdict(pv.Accepted.isTrue(), string(pv.Accepted.Reason))
		if pv.Accepted.Message != "" {
			verdict += ": " + pv.Accepted.Message
		}
		p.line(2, "%s", verdict)
	}
	p.table(2, nil, rows)
	for _, d := range pv.Dropped {
		p.line(2, "%s %s, dropped by %s: %s: %s", p.pal.verdict(false, string(d.Reason)), d.Rule, d.By, d.Path, d.Message)
	}
}

// rows gives the verdict on each Service port a mesh parentRef binds.
func (m *meshBindingView) rows(pal palette, accepted conditionView) [][]string {
	if len(m.Ports) == 0 && accepted.isTrue() {
		return [][]string{{pal.good.Sprint(accepted.Reason), "all ports", "the Service is outside the inputs"}}
	}
	var rows [][]string
	for _, sp := range m.Ports {
		port := fmt.Sprint(sp.Port)
		if sp.Name != "" {
			port += "/" + sp.Name
		}
		if sp.LostTo != "" {
			rows = append(rows, []string{pal.bad.Sprint(resolve.ReasonConflicted), "port " + port,
				"lost to " + sp.LostTo + " (GRPCRoute > HTTPRoute > TLSRoute > TCPRoute)"})
		} else {
			rows = append(rows, []string{pal.good.Sprint(resolve.ReasonAccepted), "port " + port, "bound"})
		}
	}
	return rows
}

func (rv ruleView) writeText(p *printer) {
	if rv.Name != "" {
		p.line(1, "%s (%s)", rv.Name, rv.Path)
	} else {
		p.line(1, "%s", rv.Path)
	}
	for _, m := range rv.Matches {
		p.line(2, "match: %s", m.text())
	}
	for _, f := range rv.Filters {
		p.line(2, "filter: %s", strings.TrimSpace(f.Type+" "+f.Description))
	}
	var rows [][]string
	for _, b := range rv.Backends {
		rows = append(rows, b.row(p.pal))
	}
	if len(rows) > 0 {
		p.table(2, []string{"BACKEND", "WEIGHT", "SHARE", "STATE", "TRAFFIC"}, rows)
	}
	for _, b := range rv.Backends {
		if b.Message != "" {
			p.line(2, "%s", p.pal.bad.Sprint(b.Message))
		}
		if b.TLSPolicy != nil {
			p.line(2, "%s", b.TLSPolicy.text(p.pal, b.name()))
		}
	}
	if rv.Note != "" {
		p.line(2, "outcome: %s", p.pal.warn.Sprint(rv.Note))
	}
}

// name is "Service ns/name:port".
func (b backendView) name() string {
	name := groupKindName(b.Group, b.Backend.Kind) + " " + b.Backend.Namespace + "/" + b.Backend.Name
	if b.Port != nil {
		name += fmt.Sprintf(":%d", *b.Port)
	}
	return name
}

func (b backendView) row(pal palette) []string {
	name := b.name()
	weight := fmt.Sprint(b.Weight)
	if b.WeightDefaulted {
		weight += " (default)"
	}
	state := pal.good.Sprint(b.State)
	switch {
	case b.Reason != "":
		state = pal.bad.Sprint(b.State)
	case b.State != "ok":
		state = pal.warn.Sprint(b.State)
	}
	traffic := b.Traffic
	if b.Traffic != "served" && b.Traffic != "none" {
		traffic = pal.bad.Sprint(traffic)
	}
	return []string{name, weight, percent(b.Share), state, traffic}
}
