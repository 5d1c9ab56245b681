package lint

import (
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/gwlint/gwlint/resolve"
)

var gatewayClassNotFound = &Rule{
	ID: "gatewayclass-not-found", Severity: Error,
	Summary: "Gateway names a GatewayClass that does not exist",
	Doc: Doc{
		Text: `spec.gatewayClassName names a class that does not exist, so no controller will
reconcile the Gateway: with --strict-refs the inputs hold every GatewayClass
and it is not among them, or, with or without it, the name is one slip of
the keyboard from a class among the inputs (the message says which). Without
that evidence a class outside the inputs may be installed by a controller;
ref-unlisted warns when the inputs hold other classes.

Fix: use one of the defined classes.`,
	},
	Run: func(p *Pass) {
		for _, gw := range p.Graph.Gateways {
			if gw.ClassPresence == resolve.Missing {
				class := resolve.ObjectRef{Kind: resolve.KindGatewayClass, Name: string(gw.Spec.GatewayClassName)}
				meant := ""
				if m := p.Graph.Misspelling(class); m != "" {
					meant = fmt.Sprintf(" (did you mean %q?)", m)
				}
				p.Report(&gw.Meta, "spec.gatewayClassName", nil, "GatewayClass %q is not defined%s; no controller will reconcile %s", gw.Spec.GatewayClassName, meant, gw.Ref)
			}
		}
	},
}

var listenerSetNotAccepted = &Rule{
	ID: "listenerset-not-accepted", Severity: Error,
	Summary: "ListenerSet is not accepted by its Gateway",
	Doc: Doc{
		Text: `A Gateway accepts ListenerSets only from the namespaces its
spec.allowedListeners admits (default: none), and only while it is accepted
itself. A refused ListenerSet's listeners serve nothing.

Fix: allow the namespace on the Gateway:`,
		Example: `spec:
  allowedListeners:
    namespaces: {from: Same}`,
	},
	Run: func(p *Pass) {
		for _, ls := range p.Graph.ListenerSets {
			if ls.Accepted.Status == metav1.ConditionFalse {
				p.Report(&ls.Meta, "spec.parentRef", nil, "%s (%s)", ls.Accepted.Message, ls.Accepted.Reason)
			}
		}
	},
}

var objectDuplicate = &Rule{
	ID: "object-duplicate", Severity: Warning,
	Summary: "the same object is defined twice",
	Doc: Doc{
		Text: `Two manifests define the same kind, namespace and name differently. Applied
together, the last one wins silently, and gwlint resolves the last, as the
cluster keeps it. Whether both reach one cluster is outside the inputs: the
directories of a repository often hold one object per environment or
alternatives applied one at a time, so this is a warning, not an error. A
second definition written field for field as the first (two example files
that each carry the same Gateway) changes nothing and is not reported. Of the
files that no Flux Kustomization or Argo CD Application of a GitOps repository
deploys (bootstrap folders applied by hand, one per cluster), only two
definitions in one directory are reported: which others are applied together
is unknown.

Fix: remove or rename one of them, or lint each environment's manifests
apart.`,
	},
	Run: func(p *Pass) {
		for _, d := range p.Graph.Duplicates {
			if d.Same || d.Previous == nil {
				continue
			}
			first := d.Previous.Metadata()
			p.Report(d.Again.Metadata(), "metadata.name", []Related{Relate(first, "metadata.name", "first defined here")},
				"%s is already defined at %s", first.Ref, first.Location("metadata.name"))
		}
	},
}

var referenceGrantUnused = &Rule{
	ID: "referencegrant-unused", Severity: Info,
	Summary: "ReferenceGrant admits no reference among the inputs",
	Doc: Doc{
		Text: `No route or listener among the inputs relies on this ReferenceGrant. It may
serve objects outside the inputs; otherwise it widens access for nothing. A
grant that admits references gwlint does not evaluate (from or to kinds such
as an implementation's policies or backends) is never reported.

Fix: remove it, or narrow it.`,
	},
	Run: func(p *Pass) {
		used := map[*resolve.ReferenceGrant]bool{}
		for _, r := range p.Graph.Routes {
			for _, rule := range r.Rules {
				for _, b := range rule.Backends {
					used[b.Grant] = true
				}
			}
		}
		for l := range p.Graph.Listeners() {
			for _, ref := range l.CertRefs {
				used[ref.Grant] = true
			}
		}
		for _, gw := range p.Graph.Gateways {
			if gw.ClientCertificate != nil {
				used[gw.ClientCertificate.Grant] = true
			}
			for _, v := range gw.FrontendValidations {
				for _, ref := range v.CARefs {
					used[ref.Grant] = true
				}
			}
		}
		for _, g := range p.Graph.Grants {
			// Without spec.from or spec.to (both required) a grant admits
			// nothing: crd-validation says so at the missing field.
			if !used[g] && g.Evaluated() && len(g.Spec.From) > 0 && len(g.Spec.To) > 0 {
				p.Report(&g.Meta, "spec", nil, "%s admits no reference among the inputs", g.Ref)
			}
		}
	},
}
