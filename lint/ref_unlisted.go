package lint

import "github.com/gwlint/gwlint/resolve"

var refUnlisted = &Rule{
	ID: "ref-unlisted", Severity: Warning,
	Summary: "reference to an object the inputs may lack",
	Doc: Doc{
		Text: `The inputs hold other objects of the referenced kind in its namespace, but not
this one, and nothing shows that they hold them all: the object may be
defined elsewhere (another repository, a Helm chart, a controller), or the
name may be a mistake. gwlint assumes it exists and cannot check it; a
controller would refuse the reference if it does not (BackendNotFound,
NoMatchingParent, InvalidCertificateRef). A Namespace object among the
inputs is no evidence that they hold every object of it. A name one slip of
the keyboard from an object beside it is not unlisted but missing, an error
of its own rule, and an object that another among the inputs will create
(a cert-manager Certificate's Secret, a Flagger Canary's Services) is not
unlisted either.

Fix: correct the name, or let gwlint know the inputs are complete: list the
namespace under ownedNamespaces in .gwlint.yaml, or run with --strict-refs.
A missing object is then an error of its own rule (backend-not-found, ...).`,
		Example: `# .gwlint.yaml
ownedNamespaces: [store, infra]`,
	},
	Run: func(p *Pass) {
		g := p.Graph
		report := func(obj *resolve.Meta, path string, target resolve.ObjectRef) {
			p.Report(obj, path, nil, "%s", resolve.DescribeAbsence(target, resolve.Unlisted))
		}
		refs := func(owner *resolve.Meta, list ...*resolve.RefResult) {
			for _, ref := range list {
				if ref != nil && ref.Presence == resolve.Unlisted {
					report(owner, ref.Path, ref.Target)
				}
			}
		}
		for _, gw := range g.Gateways {
			if gw.ClassPresence == resolve.Unlisted {
				report(&gw.Meta, "spec.gatewayClassName", resolve.ObjectRef{Kind: resolve.KindGatewayClass, Name: string(gw.Spec.GatewayClassName)})
			}
			refs(&gw.Meta, gw.ClientCertificate)
			for _, v := range gw.FrontendValidations {
				refs(&gw.Meta, v.CARefs...)
			}
		}
		for _, pol := range g.TLSPolicies {
			for _, t := range pol.Targets {
				if t.Presence == resolve.Unlisted {
					report(&pol.Meta, t.Path+".name", t.Target)
				}
			}
			refs(&pol.Meta, pol.CARefs...)
		}
		for _, ls := range g.ListenerSets {
			if ls.ParentPresence == resolve.Unlisted {
				pr := ls.Spec.ParentRef
				report(&ls.Meta, "spec.parentRef.name", resolve.ObjectRef{Kind: resolve.KindGateway, Namespace: string(*pr.Namespace), Name: string(pr.Name)})
			}
		}
		for l := range g.Listeners() {
			refs(l.Owner(), l.CertRefs...)
		}
		for _, r := range g.Routes {
			for _, pr := range r.Parents {
				if pr.Presence == resolve.Unlisted {
					report(&r.Meta, pr.Path+".name", pr.Parent())
				}
			}
			for _, rule := range r.Rules {
				for _, b := range rule.AllBackends() {
					if b.Presence == resolve.Unlisted {
						report(&r.Meta, b.Path+".name", b.Target)
					}
				}
			}
		}
	},
}
