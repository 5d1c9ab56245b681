package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve"
)

// Diagrams: -o mermaid and -o dot draw the resolved graph, Gateway →
// listeners → routes → rules → backends, with edges labelled by weight and
// share and every object styled by its verdict. They are built from
// resolve's results, never decided here.
//
// A label is lines, each escaped (cli.Escape) when it is written: names
// come from the inputs, and one holding a quote or a line break must
// neither end its label nor break it where gwctl does not.

// Diagram formats.
const (
	formatMermaid = "mermaid"
	formatDOT     = "dot"
)

// verdict styles a node or an edge.
type verdict int

const (
	accepted verdict = iota
	degraded         // accepted, but part of its traffic fails
	refused
)

var verdictNames = [...]string{"accepted", "degraded", "refused"}

// verdictColors are fill and stroke per verdict (DOT and Mermaid alike).
var verdictColors = [...][2]string{{"#dff0d8", "#3c763d"}, {"#fcf8e3", "#8a6d3b"}, {"#f2dede", "#a94442"}}

type diagramNode struct {
	id      string
	label   []string // its lines
	verdict verdict
}

type diagramEdge struct {
	from, to, label string
	verdict         verdict
}

// diagram is a directed graph of objects; nodes are kept once, in the
// order first added, so output is deterministic.
type diagram struct {
	nodes []*diagramNode
	byKey map[string]*diagramNode
	edges []diagramEdge
	seen  map[diagramEdge]bool
}

func newDiagram() *diagram {
	return &diagram{byKey: map[string]*diagramNode{}, seen: map[diagramEdge]bool{}}
}

// node returns the node for key, adding it with v and the lines of its
// label when new.
func (d *diagram) node(key string, v verdict, label ...string) *diagramNode {
	if n, ok := d.byKey[key]; ok {
		return n
	}
	n := &diagramNode{id: fmt.Sprintf("n%d", len(d.nodes)+1), label: label, verdict: v}
	d.nodes = append(d.nodes, n)
	d.byKey[key] = n
	return n
}

func (d *diagram) edge(from, to *diagramNode, label string, v verdict) {
	e := diagramEdge{from.id, to.id, label, v}
	if !d.seen[e] {
		d.seen[e] = true
		d.edges = append(d.edges, e)
	}
}

// addGateway draws a Gateway, its listeners (and its ListenerSets'), and
// the routes attached to or refused by each.
func (d *diagram) addGateway(gw *resolve.GatewayResult) {
	v := accepted
	switch {
	case !gw.Accepted.True():
		v = refused
	case gw.Accepted.Reason != resolve.ReasonAccepted:
		v = degraded
	}
	gn := d.node(gw.Ref.String(), v, gw.Ref.String())
	for _, l := range gw.AllListeners() {
		d.addListener(gn, l)
	}
}

func (d *diagram) addListener(gn *diagramNode, l *resolve.Listener) *diagramNode {
	v := accepted
	if !l.Programmed.True() {
		v = refused
	}
	ln := d.node(l.String(), v, listenerLabel(l)...)
	d.edge(gn, ln, "", v)
	for _, p := range l.Attached {
		d.edge(ln, d.addRoute(p.Route), "", accepted)
	}
	for _, p := range l.Refused {
		reason := ""
		for _, o := range p.Listeners {
			if o.Listener == l {
				reason = string(o.Reason)
			}
		}
		d.edge(ln, d.addRoute(p.Route), reason, refused)
	}
	return ln
}

// addRoute draws a route, its rules and their backends.
func (d *diagram) addRoute(r *resolve.RouteResult) *diagramNode {
	if n, ok := d.byKey[r.Ref.String()]; ok {
		return n
	}
	v := accepted
	switch {
	case r.Refused():
		v = refused
	case !r.ResolvedRefs.True():
		v = degraded
	}
	rn := d.node(r.Ref.String(), v, r.Ref.String())
	for _, rr := range r.Rules {
		outcome := rr.Outcome(r.Route)
		rv := accepted
		switch {
		case outcome != resolve.Forwarded && outcome != resolve.FiltersOnly && outcome != resolve.NoBackends:
			rv = refused
		case slices.ContainsFunc(rr.Backends, func(b *resolve.BackendResult) bool { return b.Share > 0 && b.Fails() }):
			rv = degraded
		}
		label := []string{rr.Label()}
		if outcome != resolve.Forwarded {
			label = append(label, string(outcome))
		}
		ruleNode := d.node(r.Ref.String()+" "+rr.Path, rv, label...)
		d.edge(rn, ruleNode, "", rv)
		for _, b := range rr.Backends {
			bv := accepted
			if b.Fails() {
				bv = refused
			}
			name := b.Target.String()
			if b.Ref.Port != nil {
				name += fmt.Sprintf(":%d", *b.Ref.Port)
			}
			bn := d.node(name, bv, name)
			if n := d.byKey[name]; n.verdict < bv {
				n.verdict = bv
			}
			d.edge(ruleNode, bn, fmt.Sprintf("weight %d, %s", b.Weight, percent(b.Share)), bv)
		}
	}
	return rn
}

// addMeshService draws a Service and the mesh routes bound to its ports.
func (d *diagram) addMeshService(s *resolve.ServiceResult) {
	if !s.Bound() {
		return
	}
	sn := d.node(s.Ref.String()+" (mesh)", accepted, s.Ref.String(), "(mesh)")
	for _, mp := range s.Ports() {
		for _, p := range append(append([]*resolve.ParentResult(nil), mp.Producers...), mp.Consumers...) {
			d.edge(sn, d.addRoute(p.Route), fmt.Sprintf("port %d", mp.Port.Port), accepted)
		}
		for _, p := range mp.Conflicted {
			d.edge(sn, d.addRoute(p.Route), fmt.Sprintf("port %d %s", mp.Port.Port, resolve.ReasonConflicted), refused)
		}
	}
}

// addRouteParents draws a route with the listeners and Service ports its
// parentRefs selected.
func (d *diagram) addRouteParents(r *resolve.RouteResult) {
	rn := d.addRoute(r)
	for _, p := range r.Parents {
		for _, o := range p.Listeners {
			owner := o.Listener.Owner().Ref.String()
			on := d.node(owner, accepted, owner)
			ln := d.node(o.Listener.String(), accepted, listenerLabel(o.Listener)...)
			d.edge(on, ln, "", accepted)
			if o.Accepted() {
				d.edge(ln, rn, "", accepted)
			} else {
				d.edge(ln, rn, string(o.Reason), refused)
			}
		}
		if p.Mesh() {
			sn := d.node(p.Parent().String()+" (mesh)", accepted, p.Parent().String(), "(mesh)")
			v := accepted
			if !p.Accepted.True() {
				v = refused
			}
			d.edge(sn, rn, string(p.Accepted.Reason), v)
		}
	}
}

// listenerLabel is "listener NAME", then "PORT/PROTOCOL HOSTNAME".
func listenerLabel(l *resolve.Listener) []string {
	return []string{"listener " + l.Name, fmt.Sprintf("%d/%s %s", l.Port, l.Protocol, l.HostnameString())}
}

// writeMermaid prints a Mermaid flowchart.
func (d *diagram) writeMermaid(w io.Writer) error {
	var b strings.Builder
	b.WriteString("flowchart LR\n")
	for _, n := range d.nodes {
		fmt.Fprintf(&b, "  %s[\"%s\"]\n", n.id, mermaidText(n.label...))
	}
	for _, e := range d.edges {
		arrow := "-->"
		if e.verdict == refused {
			arrow = "-.->"
		}
		if e.label != "" {
			fmt.Fprintf(&b, "  %s %s|\"%s\"| %s\n", e.from, arrow, mermaidText(e.label), e.to)
		} else {
			fmt.Fprintf(&b, "  %s %s %s\n", e.from, arrow, e.to)
		}
	}
	for v, name := range verdictNames {
		var ids []string
		for _, n := range d.nodes {
			if int(n.verdict) == v {
				ids = append(ids, n.id)
			}
		}
		fmt.Fprintf(&b, "  classDef %s fill:%s,stroke:%s\n", name, verdictColors[v][0], verdictColors[v][1])
		if len(ids) > 0 {
			fmt.Fprintf(&b, "  class %s %s\n", strings.Join(ids, ","), name)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// mermaidText escapes the lines of a label for a quoted Mermaid string.
func mermaidText(lines ...string) string {
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = strings.ReplaceAll(cli.Escape(l), `"`, "#quot;")
	}
	return strings.Join(esc, "<br/>")
}

// writeDOT prints a Graphviz digraph.
func (d *diagram) writeDOT(w io.Writer) error {
	var b strings.Builder
	b.WriteString("digraph gwlint {\n  rankdir=LR;\n  node [shape=box, style=\"rounded,filled\", fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for _, n := range d.nodes {
		fmt.Fprintf(&b, "  %s [label=%s, fillcolor=%q, color=%q];\n", n.id, dotText(n.label...), verdictColors[n.verdict][0], verdictColors[n.verdict][1])
	}
	for _, e := range d.edges {
		attrs := []string{fmt.Sprintf("color=%q", verdictColors[e.verdict][1])}
		if e.label != "" {
			attrs = append(attrs, "label="+dotText(e.label))
		}
		if e.verdict == refused {
			attrs = append(attrs, "style=dashed")
		}
		fmt.Fprintf(&b, "  %s -> %s [%s];\n", e.from, e.to, strings.Join(attrs, ", "))
	}
	b.WriteString("}\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// dotText quotes the lines of a label for DOT, joined by line breaks.
func dotText(lines ...string) string {
	esc := make([]string, len(lines))
	for i, l := range lines {
		esc[i] = strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(cli.Escape(l))
	}
	return `"` + strings.Join(esc, `\n`) + `"`
}

// write prints the diagram in format (mermaid or dot).
func (d *diagram) write(w io.Writer, format string) error {
	if format == formatDOT {
		return d.writeDOT(w)
	}
	return d.writeMermaid(w)
}
