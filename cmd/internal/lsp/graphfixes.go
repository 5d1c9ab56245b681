package lsp

import (
	"fmt"
	"iter"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
)

// The fixes that need the graph's facts, not the finding's message: the
// ports a Service has, and the ReferenceGrant a cross-namespace reference
// lacks.

// about reports whether a finding is about the object m.
func about(f lint.Finding, m *resolve.Meta) bool {
	return m.Source.File == f.File && m.Ref.String() == f.Object
}

// findingBackend is the backendRef a finding about field of it (".port")
// is about, and the graph that resolved it.
func findingBackend(f lint.Finding, graphs []*resolve.Graph, field string) (*resolve.Graph, *resolve.RouteResult, *resolve.BackendResult) {
	for _, g := range graphs {
		for _, r := range g.Routes {
			if !about(f, &r.Meta) {
				continue
			}
			for _, rule := range r.Rules {
				for _, b := range rule.AllBackends() {
					if b.Path+field == f.Path {
						return g, r, b
					}
				}
			}
		}
	}
	return nil, nil, nil
}

// portFixes put, in place of a backendRef's port that its Service lacks,
// each port the Service has; the one, when it has one only, is preferred.
func portFixes(f lint.Finding, graphs []*resolve.Graph, text []string) []protocol.CodeAction {
	if f.Rule != "backend-port-not-found" {
		return nil
	}
	g, r, b := findingBackend(f, graphs, ".port")
	if b == nil || r.Positions == nil {
		return nil
	}
	var ports []resolve.ServicePort
	switch o, _ := g.Lookup(b.Target); o := o.(type) {
	case *resolve.Service:
		ports = o.Spec.Ports
	case *resolve.ServiceImport:
		ports = o.Spec.Ports
	}
	pos, ok := r.Positions.ValuePos(f.Path)
	if !ok || pos.Line < 1 || pos.Line > len(text) {
		return nil
	}
	// The value written runs to the first character that cannot be part
	// of it: a comma or brace of a flow mapping, a blank, a comment.
	line := []rune(text[pos.Line-1])
	start := pos.Col - 1
	end := start
	for start >= 0 && end < len(line) && line[end] < utf8.RuneSelf && nameChar(byte(line[end])) {
		end++
	}
	if start < 0 || end == start {
		return nil
	}
	written := protocol.Range{Start: lspPosition(text, pos.Line, pos.Col), End: lspPosition(text, pos.Line, end+1)}
	uri := uriOf(f.File)
	var out []protocol.CodeAction
	for _, p := range ports {
		title := fmt.Sprintf("Change port to %d", p.Port)
		if p.Name != "" {
			title += " (" + p.Name + ")"
		}
		out = append(out, quickFix(title, len(ports) == 1, &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{
			uri: {{Range: written, NewText: strconv.Itoa(int(p.Port))}},
		}}))
	}
	return out
}

// grantNeed is a cross-namespace reference no ReferenceGrant permits:
// from the referring object, to the target of group toGroup.
type grantNeed struct {
	graph   *resolve.Graph
	from    *resolve.Meta
	toGroup string
	to      resolve.ObjectRef
}

// missingGrant is the reference a finding reports for want of a
// ReferenceGrant: a backendRef, a listener's certificateRef, or a CA
// certificate reference.
func missingGrant(f lint.Finding, graphs []*resolve.Graph) (grantNeed, bool) {
	if g, r, b := findingBackend(f, graphs, ".namespace"); b != nil && b.Problem == resolve.NotPermitted {
		return grantNeed{graph: g, from: &r.Meta, toGroup: b.Group, to: b.Target}, true
	}
	for _, g := range graphs {
		for owner, ref := range refs(g) {
			if ref.Reason == resolve.ReasonRefNotPermitted && ref.Path == f.Path && about(f, owner) {
				return grantNeed{graph: g, from: owner, toGroup: ref.Group, to: ref.Target}, true
			}
		}
	}
	return grantNeed{}, false
}

// refs are the graph's references that a ReferenceGrant may permit,
// other than backendRefs, with the object that holds each.
func refs(g *resolve.Graph) iter.Seq2[*resolve.Meta, *resolve.RefResult] {
	return func(yield func(*resolve.Meta, *resolve.RefResult) bool) {
		for l := range g.Listeners() {
			for _, ref := range l.CertRefs {
				if !yield(l.Owner(), ref) {
					return
				}
			}
		}
		for _, gw := range g.Gateways {
			for _, v := range gw.FrontendValidations {
				for _, ref := range v.CARefs {
					if !yield(&gw.Meta, ref) {
						return
					}
				}
			}
		}
		for _, p := range g.TLSPolicies {
			for _, ref := range p.CARefs {
				if !yield(&p.Meta, ref) {
					return
				}
			}
		}
	}
}

// grantFix writes out the ReferenceGrant a reference lacks. When the
// target is among the inputs, the grant is a document appended to the
// target's file: it lives in the target's namespace, beside what it
// grants, and the file is already read by whatever assembles the world (a
// new file would have to be listed in a kustomization.yaml, say).
// Otherwise it goes to referencegrant-<from namespace>-<kind>.yaml beside
// the referring object's file (appended, when that file exists): nothing
// says where the target's namespace is kept.
func grantFix(f lint.Finding, graphs []*resolve.Graph, texts func(string) []string) []protocol.CodeAction {
	need, ok := missingGrant(f, graphs)
	if !ok {
		return nil
	}
	title := fmt.Sprintf("Add a ReferenceGrant in namespace %s for %s", need.to.Namespace, need.to.String())
	file := filepath.Join(filepath.Dir(need.from.Source.File),
		fmt.Sprintf("referencegrant-%s-%s.yaml", need.from.Ref.Namespace, strings.ToLower(need.to.Kind)))
	if target, presence := need.graph.Lookup(need.to); presence == resolve.Present {
		file = target.Metadata().Source.File
	}
	uri := uriOf(file)
	text := texts(file)
	if len(text) == 0 {
		return []protocol.CodeAction{quickFix(title+" (new file "+filepath.Base(file)+")", true, &protocol.WorkspaceEdit{DocumentChanges: []any{
			protocol.CreateFile{Kind: "create", URI: uri},
			protocol.TextDocumentEdit{TextDocument: protocol.OptionalVersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: uri}},
				Edits: []any{protocol.TextEdit{NewText: grantYAML(need)}}},
		}})}
	}
	last := len(text)
	sep := "---\n"
	if text[last-1] != "" {
		sep = "\n---\n" // the file does not end with a line break
	}
	end := lspPosition(text, last, len([]rune(text[last-1]))+1)
	return []protocol.CodeAction{quickFix(title, true, &protocol.WorkspaceEdit{Changes: map[string][]protocol.TextEdit{
		uri: {{Range: protocol.Range{Start: end, End: end}, NewText: sep + grantYAML(need)}},
	}})}
}

// grantYAML is the ReferenceGrant that permits need, and only it: from the
// referring object's kind and namespace, to the target by name.
func grantYAML(need grantNeed) string {
	fromGroup, _, ok := strings.Cut(need.from.APIVersion, "/")
	if !ok {
		fromGroup = "" // a core kind's apiVersion is its version alone
	}
	name := fmt.Sprintf("allow-%s-%s-to-%s", need.from.Ref.Namespace, strings.ToLower(need.from.Ref.Kind), need.to.Name)
	name = strings.TrimRight(name[:min(len(name), 253)], "-.") // a DNS subdomain name
	return fmt.Sprintf(`apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata:
  name: %s
  namespace: %s
spec:
  from:
  - group: %s
    kind: %s
    namespace: %s
  to:
  - group: %s
    kind: %s
    name: %s
`, name, need.to.Namespace, strconv.Quote(fromGroup), need.from.Ref.Kind, need.from.Ref.Namespace, strconv.Quote(need.toGroup), need.to.Kind, need.to.Name)
}
