package lsp

import (
	"fmt"
	"strings"

	"github.com/gwlint/gwlint/resolve"
)

// hoverText says what the field at the spot decides, in Markdown: what a
// parentRef attaches to, a backendRef's share, a rule's split, a
// listener's routes, what a policy's targetRef reaches. "" for other
// fields.
func hoverText(s spot) string {
	if r := route(s.graph, s.obj); r != nil {
		if p := parentAt(r, s.path); p != nil {
			return parentHover(p)
		}
		if rule, b := backendAt(r, s.path); b != nil {
			return backendHover(rule, b)
		}
		if rule := ruleAt(r, s.path); rule != nil {
			return splitHover(rule)
		}
	}
	if gw := gateway(s.graph, s.obj); gw != nil {
		if l := listenerAt(gw, s.path); l != nil {
			return listenerHover(l)
		}
	}
	if p := policy(s.graph, s.obj); p != nil {
		if t := targetAt(p, s.path); t != nil {
			return targetHover(s.graph, p, t)
		}
	}
	return ""
}

func parentHover(p *resolve.ParentResult) string {
	var b strings.Builder
	parent := resolve.ObjectRef{Kind: string(*p.Ref.Kind), Namespace: string(*p.Ref.Namespace), Name: string(p.Ref.Name)}
	fmt.Fprintf(&b, "**parentRef** → %s (%s)\n\n", parent, p.Presence)
	fmt.Fprintf(&b, "Accepted: %s (%s)", p.Accepted.Status, p.Accepted.Reason)
	if p.Accepted.Message != "" {
		fmt.Fprintf(&b, ": %s", p.Accepted.Message)
	}
	b.WriteString("\n")
	for _, o := range p.Listeners {
		l := o.Listener
		fmt.Fprintf(&b, "\n- listener `%s` (port %d, %s): %s", l.Name, l.Port, l.Protocol, o.Reason)
		if len(o.Hostnames) > 0 {
			fmt.Fprintf(&b, ", hostnames %s", strings.Join(o.Hostnames, ", "))
		}
		if o.Message != "" && !o.Accepted() {
			fmt.Fprintf(&b, ": %s", o.Message)
		}
	}
	return b.String()
}

func backendHover(rule *resolve.RuleResult, be *resolve.BackendResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**backendRef** → %s", be.Target)
	if be.Ref.Port != nil {
		fmt.Fprintf(&b, " port %d", *be.Ref.Port)
	}
	fmt.Fprintf(&b, " (%s)\n\n", be.Presence)
	fmt.Fprintf(&b, "share of %s: %s\n\n", rule.Label(), share(rule, be))
	if be.Reason != "" {
		fmt.Fprintf(&b, "state: %s", be.Reason)
		if be.Message != "" {
			fmt.Fprintf(&b, ": %s", be.Message)
		}
	} else {
		b.WriteString("state: resolved")
	}
	return b.String()
}

// share is a backend's part of its rule's traffic, as its weight over the
// rule's total.
func share(rule *resolve.RuleResult, be *resolve.BackendResult) string {
	w := int64(be.Weight)
	if rule.TotalWeight == 0 {
		return fmt.Sprintf("0%% (weight %d of 0)", w)
	}
	return fmt.Sprintf("%.4g%% (weight %d of %d)", 100*float64(w)/float64(rule.TotalWeight), w, rule.TotalWeight)
}

func splitHover(rule *resolve.RuleResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**%s** split:\n", rule.Label())
	if len(rule.Backends) == 0 {
		b.WriteString("\nno backendRefs")
	}
	for _, be := range rule.Backends {
		fmt.Fprintf(&b, "\n- %s: %s", be.Target, share(rule, be))
	}
	return b.String()
}

func listenerHover(l *resolve.Listener) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**listener** `%s` (port %d, %s): %d route(s) attached\n", l.Name, l.Port, l.Protocol, l.AttachedRoutes)
	for _, p := range l.Attached {
		fmt.Fprintf(&b, "\n- %s (%s)", p.Route.Ref, p.Path)
	}
	return b.String()
}

func targetHover(g *resolve.Graph, p *resolve.PolicyResult, t *resolve.PolicyTargetResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**targetRef** → %s (%s)\n", t.Target, t.Presence)
	if t.Problem != "" {
		fmt.Fprintf(&b, "\nnot applied: %s (%s)", t.Message, t.Reason)
		return b.String()
	}
	for _, r := range p.Reaches {
		if r.Target != t {
			continue
		}
		fmt.Fprintf(&b, "\n- reaches %s", r.Object)
		if r.Section != "" {
			fmt.Fprintf(&b, " section %s", r.Section)
		}
		if r.Inherited {
			b.WriteString(" (inherited)")
		}
		if r.OverriddenBy != nil {
			fmt.Fprintf(&b, ", overridden by %s", r.OverriddenBy.Ref)
		}
		if others := len(g.PoliciesReaching(r.Object)) - 1; others > 0 {
			fmt.Fprintf(&b, ", with %d other polic(ies)", others)
		}
	}
	return b.String()
}
