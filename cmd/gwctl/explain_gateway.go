package main

import (
	"fmt"
	"strings"

	"github.com/fatih/color"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

func newExplainGatewayCmd(streams *cli.IOStreams, runF func(*explainOptions) error) *cobra.Command {
	return explainCmd(streams, runF, runExplainGateway, &cobra.Command{
		Aliases: gatewayAliases,
		Use:     "gateway NAME",
		Short:   "Explain a Gateway's listeners and the routes they accept or refuse",
		Long: `Explain a Gateway: its class and conditions; for every listener its port,
protocol, hostname, the route kinds and namespaces it allows, its TLS mode
and certificates, any condition that is not healthy (conflicts, unresolved
references), and the routes attached to it or refused with the reason;
then the ListenerSets that name the Gateway as their parent, likewise.

Exits 1 when the Gateway is not found, not accepted, or has no controller
(its GatewayClass is missing).`,
		Example: `  gwctl explain gateway shared -n infra -f testdata/examples
  gwctl explain gateway shared -o yaml`,
	})
}

func runExplainGateway(opts *explainOptions) error {
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, func(g *resolve.Graph) bool { return len(named(opts, g.Gateways)) > 0 })
	gw, err := pick(opts, "Gateway", "-n", named(opts, g.Gateways))
	if err != nil {
		return withInputErrors(err, inputFailed)
	}
	view := newGatewayExplanation(g, gw)
	opts.diagram = func() *diagram { d := newDiagram(); d.addGateway(gw); return d }
	if err := opts.write(view); err != nil {
		return withInputErrors(err, inputFailed)
	}
	switch {
	case !gw.Managed:
		err = failuref("%s has no controller: GatewayClass %s is missing", gw.Ref, gw.Spec.GatewayClassName)
	case !gw.Accepted.True():
		err = failuref("%s is not accepted: %s", gw.Ref, gw.Accepted.Message)
	}
	return withInputErrors(err, inputFailed)
}

// gatewayExplanation is the schema of `gwctl explain gateway -o json|yaml`.
type gatewayExplanation struct {
	typeMeta
	Gateway refView   `json:"gateway"`
	Source  string    `json:"source"`
	Class   classView `json:"gatewayClass"`
	// Implementation is set when the implementation was inferred (no
	// GatewayClass among the inputs).
	Implementation *implementationView `json:"implementation,omitempty"`
	// Conditions are Accepted, Programmed and ResolvedRefs.
	Conditions   []conditionView   `json:"conditions"`
	Listeners    []listenerView    `json:"listeners"`
	ListenerSets []listenerSetView `json:"listenerSets,omitempty"`
	// Policies are the policies that reach the Gateway or its listeners.
	Policies []policyReachView `json:"policies"`
}

type classView struct {
	Name           string `json:"name"`
	Presence       string `json:"presence"`
	ControllerName string `json:"controllerName"`
	// Managed is false when the class is missing: no controller would
	// reconcile the Gateway.
	Managed bool `json:"managed"`
}

// implementationView is an inferred implementation: Name and Evidence, or,
// when the evidence names several, Candidates.
type implementationView struct {
	Name       string   `json:"name,omitempty"`
	Evidence   []string `json:"inferredFrom,omitempty"`
	Candidates []string `json:"candidates,omitempty"`
	// text is what the text output prints (profile.Inference.String).
	text string
}

type listenerSetView struct {
	ListenerSet refView         `json:"listenerSet"`
	Source      string          `json:"source"`
	Conditions  []conditionView `json:"conditions"`
	Listeners   []listenerView  `json:"listeners"`
}

type listenerView struct {
	Name          string            `json:"name"`
	Port          int32             `json:"port"`
	Protocol      string            `json:"protocol"`
	Hostname      string            `json:"hostname,omitempty"`
	AllowedRoutes allowedRoutesView `json:"allowedRoutes"`
	TLS           *tlsView          `json:"tls,omitempty"`
	// Conditions are Accepted, Conflicted, Programmed and ResolvedRefs,
	// and OverlappingTLSConfig when it is True.
	Conditions     []conditionView  `json:"conditions"`
	AttachedRoutes int32            `json:"attachedRoutes"`
	Attached       []attachmentView `json:"attached"`
	// RoutesMayComeFrom names a Helm release gwlint does not render, in a
	// namespace the listener admits: its chart may create routes that
	// attach here, beyond those counted (see listener-no-routes).
	RoutesMayComeFrom string           `json:"routesMayComeFrom,omitempty"`
	Refused           []attachmentView `json:"refused,omitempty"`
	// Undecided are the parentRefs whose acceptance depends on a Namespace
	// the inputs do not hold.
	Undecided []attachmentView `json:"undecided,omitempty"`
}

type allowedRoutesView struct {
	Kinds []string `json:"kinds"`
	// KindsFromProtocol is true when allowedRoutes.kinds was not written
	// and the kinds follow from the protocol.
	KindsFromProtocol bool     `json:"kindsFromProtocol,omitempty"`
	InvalidKinds      []string `json:"invalidKinds,omitempty"`
	// UnknownKinds hold a deploy-time placeholder: whether they allow a
	// route is unknown until substitution.
	UnknownKinds []string `json:"unknownKinds,omitempty"`
	// From is Same, All, Selector or None.
	From          string `json:"from"`
	FromDefaulted bool   `json:"fromDefaulted,omitempty"`
	Selector      string `json:"selector,omitempty"`
}

type tlsView struct {
	Mode            string        `json:"mode"`
	ModeDefaulted   bool          `json:"modeDefaulted,omitempty"`
	CertificateRefs []certRefView `json:"certificateRefs,omitempty"`
}

type certRefView struct {
	Path     string  `json:"path"`
	Ref      refView `json:"ref"`
	Presence string  `json:"presence,omitempty"`
	// State is ok, external (assumed), generated, or the reason it does
	// not resolve.
	State   string `json:"state"`
	Message string `json:"message,omitempty"`
	// CreatedBy names the input that will create a generated Secret.
	CreatedBy string `json:"createdBy,omitempty"`
}

// attachmentView is one route parentRef on a listener.
type attachmentView struct {
	Route     refView        `json:"route"`
	ParentRef string         `json:"parentRef"`
	Reason    resolve.Reason `json:"reason,omitempty"`
	Message   string         `json:"message,omitempty"`
}

func newGatewayExplanation(g *resolve.Graph, gw *resolve.GatewayResult) *gatewayExplanation {
	v := &gatewayExplanation{
		typeMeta: explanationMeta("GatewayExplanation"),
		Gateway:  refOf(gw.Ref), Source: sourceOf(&gw.Meta),
		Class: classView{
			Name: string(gw.Spec.GatewayClassName), Presence: gw.ClassPresence.String(),
			ControllerName: gw.ControllerName, Managed: gw.Managed,
		},
		Conditions: []conditionView{conditionOf(gw.Accepted), conditionOf(gw.Programmed), conditionOf(gw.ResolvedRefs)},
		Listeners:  listenerViews(g, gw.Listeners),
		Policies:   policyReachesOf(g, gw.Ref),
	}
	if in := gw.Inferred; in != nil {
		v.Implementation = &implementationView{Evidence: in.Evidence, Candidates: in.Candidates, text: in.String()}
		if in.Profile != nil {
			v.Implementation.Name = in.Profile.String()
		}
	}
	for _, ls := range gw.ListenerSets {
		v.ListenerSets = append(v.ListenerSets, listenerSetView{
			ListenerSet: refOf(ls.Ref), Source: sourceOf(&ls.Meta),
			Conditions: []conditionView{conditionOf(ls.Accepted), conditionOf(ls.Programmed)},
			Listeners:  listenerViews(g, ls.Listeners),
		})
	}
	return v
}

func listenerViews(g *resolve.Graph, ls []*resolve.Listener) []listenerView {
	out := []listenerView{}
	for _, l := range ls {
		lv := listenerViewOf(l)
		if gen := g.UnrenderedRelease(l); gen != nil {
			lv.RoutesMayComeFrom = gen.Creator()
		}
		out = append(out, lv)
	}
	return out
}

func listenerViewOf(l *resolve.Listener) listenerView {
	lv := listenerView{
		Name: l.Name, Port: int32(l.Port), Protocol: string(l.Protocol),
		AllowedRoutes: allowedRoutesOf(l),
		Conditions: []conditionView{
			conditionOf(l.Accepted), conditionOf(l.Conflicted), conditionOf(l.Programmed), conditionOf(l.ResolvedRefs),
		},
		AttachedRoutes: l.AttachedRoutes,
		Attached:       []attachmentView{},
	}
	if l.OverlappingTLS.True() {
		lv.Conditions = append(lv.Conditions, conditionOf(l.OverlappingTLS))
	}
	if l.Hostname != nil {
		lv.Hostname = string(*l.Hostname)
	}
	if l.TLS != nil {
		lv.TLS = tlsViewOf(l)
	}
	for _, p := range l.Attached {
		lv.Attached = append(lv.Attached, attachmentView{Route: refOf(p.Route.Ref), ParentRef: p.Path})
	}
	lv.Refused = outcomesOn(l, l.Refused)
	lv.Undecided = outcomesOn(l, l.Undecided)
	return lv
}

// outcomesOn is what listener l decided about each of parents, and why.
func outcomesOn(l *resolve.Listener, parents []*resolve.ParentResult) []attachmentView {
	var out []attachmentView
	for _, p := range parents {
		a := attachmentView{Route: refOf(p.Route.Ref), ParentRef: p.Path}
		for _, o := range p.Listeners {
			if o.Listener == l {
				a.Reason, a.Message = o.Reason, o.Message
			}
		}
		out = append(out, a)
	}
	return out
}

func allowedRoutesOf(l *resolve.Listener) allowedRoutesView {
	ns := l.AllowedRoutes.Namespaces
	v := allowedRoutesView{
		Kinds: []string{}, KindsFromProtocol: l.KindsFromProtocol,
		From:          string(*ns.From),
		FromDefaulted: l.Owner().IsDefaulted(l.Path + ".allowedRoutes.namespaces.from"),
	}
	for _, k := range l.SupportedKinds {
		v.Kinds = append(v.Kinds, string(k.Kind))
	}
	for _, k := range l.InvalidKinds {
		v.InvalidKinds = append(v.InvalidKinds, groupKindName(string(*k.Group), string(k.Kind)))
	}
	for _, k := range l.UnknownKinds {
		v.UnknownKinds = append(v.UnknownKinds, groupKindName(string(*k.Group), string(k.Kind)))
	}
	if ns.Selector != nil {
		if sel, err := metav1.LabelSelectorAsSelector(ns.Selector); err == nil {
			v.Selector = sel.String()
		} else {
			v.Selector = "invalid: " + err.Error()
		}
	}
	return v
}

func tlsViewOf(l *resolve.Listener) *tlsView {
	t := &tlsView{ModeDefaulted: l.Owner().IsDefaulted(l.Path + ".tls.mode")}
	if l.TLS.Mode != nil {
		t.Mode = string(*l.TLS.Mode)
	}
	for _, c := range l.CertRefs {
		cv := certRefView{Path: c.Path, Ref: refOf(c.Target), State: "ok", Message: c.Message}
		switch {
		case !c.OK():
			cv.State = string(c.Reason)
		case c.Presence == resolve.External:
			cv.State = "external (assumed)"
		case c.Presence == resolve.Unresolved:
			cv.State = "unknown until substituted (assumed)"
		case c.Generation != nil:
			cv.State, cv.CreatedBy = "generated", c.Generation.Creator()
		}
		// resolve refuses a ref of another kind, or one without a grant,
		// before looking it up; its Presence then means nothing.
		looked := c.Group == resolve.GroupCore && c.Target.Kind == resolve.KindSecret && c.Reason != resolve.ReasonRefNotPermitted
		if looked {
			cv.Presence = c.Presence.String()
		}
		t.CertificateRefs = append(t.CertificateRefs, cv)
	}
	return t
}

func (v *gatewayExplanation) writeText(p *printer) {
	pal := p.pal
	p.title(v.Gateway, v.Source)
	class := fmt.Sprintf("GatewayClass: %s (%s), controller %s", v.Class.Name, v.Class.Presence, v.Class.ControllerName)
	if !v.Class.Managed {
		class = "GatewayClass: " + v.Class.Name + " " + pal.bad.Sprint("(missing: no controller manages this Gateway)")
	}
	p.line(0, "%s", class)
	if v.Implementation != nil {
		p.line(0, "Implementation: %s", v.Implementation.text)
	}
	for _, c := range v.Conditions {
		p.line(0, "%s", c.text(pal))
	}
	p.blank()
	p.heading("Listeners")
	for _, l := range v.Listeners {
		l.writeText(p, 1)
	}
	if len(v.ListenerSets) > 0 {
		p.blank()
		p.heading("ListenerSets")
		for _, ls := range v.ListenerSets {
			p.line(1, "%s   (%s)", ls.ListenerSet, ls.Source)
			for _, c := range ls.Conditions {
				p.line(2, "%s", c.text(pal))
			}
			for _, l := range ls.Listeners {
				l.writeText(p, 2)
			}
		}
	}
	writePolicies(p, v.Policies)
}

func (l listenerView) writeText(p *printer, indent int) {
	hostname := l.Hostname
	if hostname == "" {
		hostname = "*"
	}
	p.line(indent, "%s  %d/%s  hostname %s", p.pal.heading.Sprint(l.Name), l.Port, l.Protocol, hostname)
	p.line(indent+1, "kinds: %s", l.AllowedRoutes.kindsText())
	p.line(indent+1, "namespaces: %s", l.AllowedRoutes.namespacesText())
	if l.TLS != nil {
		p.line(indent+1, "tls: %s", l.TLS.text(p.pal))
	}
	for _, c := range l.Conditions {
		if !c.healthy() {
			p.line(indent+1, "%s", c.text(p.pal))
		}
	}
	if l.RoutesMayComeFrom != "" {
		p.line(indent+1, "attachedRoutes: %d (more may come from %s, which gwlint does not render)", l.AttachedRoutes, l.RoutesMayComeFrom)
	} else {
		p.line(indent+1, "attachedRoutes: %d", l.AttachedRoutes)
	}
	var rows [][]string
	for _, a := range l.Attached {
		rows = append(rows, []string{a.Route.String(), a.ParentRef})
	}
	p.table(indent+2, nil, rows)
	p.outcomes(indent+1, "refused:", l.Refused, p.pal.bad)
	p.outcomes(indent+1, "undecided:", l.Undecided, p.pal.warn)
}

// outcomes prints a listener's refused or undecided parentRefs under title.
func (p *printer) outcomes(indent int, title string, list []attachmentView, reasonColor *color.Color) {
	if len(list) == 0 {
		return
	}
	p.line(indent, "%s", title)
	var rows [][]string
	for _, a := range list {
		rows = append(rows, []string{a.Route.String(), a.ParentRef, reasonColor.Sprint(a.Reason) + ": " + a.Message})
	}
	p.table(indent+1, nil, rows)
}

func (a allowedRoutesView) kindsText() string {
	s := orNone(a.Kinds)
	if a.KindsFromProtocol {
		s += " (from protocol)"
	}
	if len(a.InvalidKinds) > 0 {
		s += "; invalid: " + strings.Join(a.InvalidKinds, ", ")
	}
	if len(a.UnknownKinds) > 0 {
		s += "; unknown until substituted: " + strings.Join(a.UnknownKinds, ", ")
	}
	return s
}

func (a allowedRoutesView) namespacesText() string {
	s := a.From
	if a.Selector != "" {
		s += " " + a.Selector
	}
	if a.FromDefaulted {
		s += " (default)"
	}
	return s
}

func (t *tlsView) text(pal palette) string {
	s := t.Mode
	if t.ModeDefaulted {
		s += " (default)"
	}
	for _, c := range t.CertificateRefs {
		state := pal.good.Sprint(c.State)
		switch {
		case c.Message != "":
			state = pal.bad.Sprint(c.State) + ": " + c.Message
		case c.CreatedBy != "":
			state = pal.warn.Sprint(c.State) + " by " + c.CreatedBy
		case c.State != "ok":
			state = pal.warn.Sprint(c.State)
		}
		s += fmt.Sprintf(", certificate %s %s", c.Ref, state)
	}
	return s
}
