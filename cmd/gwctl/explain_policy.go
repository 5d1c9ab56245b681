package main

import (
	"strings"

	"github.com/spf13/cobra"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

func newExplainPolicyCmd(streams *cli.IOStreams, runF func(*explainOptions) error) *cobra.Command {
	return explainCmd(streams, runF, runExplainPolicy, &cobra.Command{
		Aliases: []string{"policies"},
		Use:     "policy NAME",
		Short:   "Explain a policy: its targets and what it applies to",
		Long: `Explain a policy (GEP-713: any object whose spec has targetRef or
targetRefs, whatever its kind): for every target, whether it resolves and
why the policy cannot apply to it (a target that does not exist, a
sectionName it lacks, a kind the policy's implementation does not take, an
older policy that holds it); then every object it reaches, directly or
inherited from a Gateway above it, and whether it is effective there or
overridden by a more specific policy of its kind. A kind that no
implementation gwlint knows declares is shown as written, never judged.

Exits 1 when the policy is not found.`,
		Example: `  gwctl explain policy store-timeouts -n store -f testdata/examples
  gwctl explain policy shared-timeouts -o json`,
	})
}

func runExplainPolicy(opts *explainOptions) error {
	objects := func(g *resolve.Graph) []resolve.PolicyObject {
		out := make([]resolve.PolicyObject, len(g.Policies))
		for i, p := range g.Policies {
			out[i] = p.Object
		}
		return out
	}
	g, _, inputFailed := loadGraph(&opts.inputOptions, opts.IO, func(g *resolve.Graph) bool { return len(named(opts, objects(g))) > 0 })
	obj, err := pick(opts, "policy", "-n", named(opts, objects(g)))
	if err != nil {
		return withInputErrors(err, inputFailed)
	}
	p := g.Policy(obj.Metadata().Ref)
	opts.diagram = func() *diagram {
		d := newDiagram()
		d.addPolicy(p)
		return d
	}
	return withInputErrors(opts.write(newPolicyExplanation(p)), inputFailed)
}

// policyExplanation is the schema of `gwctl explain policy -o json|yaml`.
type policyExplanation struct {
	typeMeta
	Policy refView `json:"policy"`
	Source string  `json:"source"`
	// Implementation is the implementation whose kind it is ("" for the
	// API's own); Known is false for a kind no implementation declares,
	// which is shown and never judged.
	Implementation string             `json:"implementation,omitempty"`
	Known          bool               `json:"known"`
	Targets        []policyTargetView `json:"targets"`
	Reaches        []policyReachView  `json:"reaches"`
}

type policyTargetView struct {
	Path        string  `json:"path"`
	Target      refView `json:"target"`
	SectionName string  `json:"sectionName,omitempty"`
	Presence    string  `json:"presence"`
	// Problem is why the policy does not apply to the target (TargetNotFound,
	// SectionNotFound, Conflicted, ...); empty when it applies.
	Problem resolve.PolicyProblem `json:"problem,omitempty"`
	Message string                `json:"message,omitempty"`
	// HeldBy is the older policy that holds a Conflicted target.
	HeldBy *refView `json:"heldBy,omitempty"`
}

// policyReachView is a policy reaching an object: in a policy's
// explanation the object, in an object's the policy.
type policyReachView struct {
	Policy refView `json:"policy"`
	Object refView `json:"object"`
	// Section is the part of the object it applies to: a listener, a
	// rule, a port; empty for all of it.
	Section string `json:"section,omitempty"`
	// Inherited: the object is under the target (a route attached to a
	// targeted Gateway), which From names.
	Inherited bool     `json:"inherited"`
	From      *refView `json:"from,omitempty"`
	// State is effective, overridden (OverriddenBy applies instead),
	// conflicted (HeldBy holds the target), refused (the target's problem
	// keeps it from applying), or unjudged: a kind no implementation
	// gwlint knows declares, whose controller alone knows.
	State        string   `json:"state"`
	OverriddenBy *refView `json:"overriddenBy,omitempty"`
	HeldBy       *refView `json:"heldBy,omitempty"`
}

func newPolicyExplanation(p *resolve.PolicyResult) *policyExplanation {
	m := p.Meta()
	v := &policyExplanation{typeMeta: explanationMeta("PolicyExplanation"), Policy: refOf(p.Ref), Source: sourceOf(m),
		Known: p.Known != nil, Targets: []policyTargetView{}, Reaches: []policyReachView{}}
	if p.Known != nil {
		v.Implementation = p.Known.Implementation
	}
	for _, t := range p.Targets {
		tv := policyTargetView{Path: t.Path, Target: refOf(t.Target), SectionName: t.SectionName, Presence: t.Presence.String(),
			Problem: t.Problem, Message: t.Message, HeldBy: policyRef(t.HeldBy)}
		v.Targets = append(v.Targets, tv)
	}
	for _, r := range p.Reaches {
		v.Reaches = append(v.Reaches, policyReachViewOf(r))
	}
	return v
}

// policyReachesOf are the policies that reach obj, for an object's
// explanation.
func policyReachesOf(g *resolve.Graph, obj resolve.ObjectRef) []policyReachView {
	out := []policyReachView{}
	for _, r := range g.PoliciesReaching(obj) {
		out = append(out, policyReachViewOf(r))
	}
	return out
}

func policyReachViewOf(r *resolve.PolicyReach) policyReachView {
	v := policyReachView{Policy: refOf(r.Policy.Ref), Object: refOf(r.Object), Section: r.Section, Inherited: r.Inherited, State: "effective"}
	if r.Inherited {
		from := refOf(r.Target.Target)
		v.From = &from
	}
	switch {
	case r.Conflicted():
		v.State, v.HeldBy = "conflicted", policyRef(r.Target.HeldBy)
	case !r.Target.Applies():
		v.State = "refused"
	case r.OverriddenBy != nil:
		v.State, v.OverriddenBy = "overridden", policyRef(r.OverriddenBy)
	case r.Policy.Known == nil:
		v.State = "unjudged"
	}
	return v
}

func policyRef(p *resolve.PolicyResult) *refView {
	if p == nil {
		return nil
	}
	r := refOf(p.Ref)
	return &r
}

// how says how the reach came about: "direct", or "inherited from
// Gateway infra/shared".
func (v policyReachView) how() string {
	if v.From == nil {
		return "direct"
	}
	return "inherited from " + v.From.String()
}

// state says in words whether the policy applies there.
func (v policyReachView) state(pal palette) string {
	switch {
	case v.OverriddenBy != nil:
		return pal.verdict(false, "overridden by "+v.OverriddenBy.String())
	case v.HeldBy != nil:
		return pal.verdict(false, "conflicted: "+v.HeldBy.String()+" holds the target")
	case v.State == "unjudged":
		return "not judged: an unknown kind"
	case v.State != "effective":
		return pal.verdict(false, v.State)
	}
	return pal.verdict(true, v.State)
}

func (v *policyExplanation) writeText(p *printer) {
	pal := p.pal
	p.title(v.Policy, v.Source)
	switch {
	case !v.Known:
		p.line(0, "Kind: not declared by any implementation gwlint knows: shown, not judged")
	case v.Implementation != "":
		p.line(0, "Implementation: %s", v.Implementation)
	default:
		p.line(0, "Implementation: the Gateway API's own kind")
	}
	p.blank()
	p.heading("Targets")
	var rows [][]string
	for _, t := range v.Targets {
		target := t.Target.String()
		if t.SectionName != "" {
			target += " section " + t.SectionName
		}
		state := pal.verdict(true, "applies")
		if t.Problem != "" {
			state = pal.verdict(false, string(t.Problem)+": "+t.Message)
		}
		rows = append(rows, []string{t.Path, target, t.Presence, state})
	}
	p.table(1, nil, rows)
	p.blank()
	p.heading("Reaches")
	if len(v.Reaches) == 0 {
		p.line(1, "nothing: no target it applies to is among the inputs")
		return
	}
	rows = nil
	for _, r := range v.Reaches {
		rows = append(rows, []string{r.Object.String(), r.Section, r.how(), r.state(pal)})
	}
	p.table(1, []string{"OBJECT", "SECTION", "HOW", "STATE"}, rows)
}

// writePolicies prints the Policies section of an object's explanation,
// when any policy reaches it.
func writePolicies(p *printer, reaches []policyReachView) {
	if len(reaches) == 0 {
		return
	}
	p.blank()
	p.heading("Policies")
	rows := make([][]string, len(reaches))
	for i, r := range reaches {
		rows[i] = []string{r.Policy.String(), strings.TrimSpace(r.Section), r.how(), r.state(p.pal)}
	}
	p.table(1, []string{"POLICY", "SECTION", "HOW", "STATE"}, rows)
}

// addPolicy draws a policy and an edge to each of its targets (the node
// already drawn for a Gateway or route), labelled with the section it
// names and, when it does not apply, why.
func (d *diagram) addPolicy(p *resolve.PolicyResult) {
	v := accepted
	for _, t := range p.Targets {
		if !t.Applies() {
			v = degraded
		}
	}
	pn := d.node(p.Ref.String(), v, p.Ref.String())
	for _, t := range p.Targets {
		tv, label := accepted, t.SectionName
		if !t.Applies() {
			tv, label = refused, strings.TrimSpace(t.SectionName+" "+string(t.Problem))
		}
		target := t.Target.String()
		d.edge(pn, d.node(target, tv, target), label, tv)
	}
}
