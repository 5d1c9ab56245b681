package lint

import (
	"github.com/gwlint/gwlint/resolve"
)

// reportParents reports every parentRef a controller refuses with reason
// whose parent has the given presence (a listener can refuse only a parent
// among the inputs: Present), at the path at returns: the field that is
// wrong.
func reportParents(reason resolve.Reason, presence resolve.Presence, at func(*resolve.ParentResult) string) func(*Pass) {
	return func(p *Pass) {
		for _, r := range p.Graph.Routes {
			for _, pr := range r.Parents {
				if pr.Accepted.Reason != reason || pr.Presence != presence {
					continue
				}
				var related []Related
				for _, o := range pr.Listeners {
					l := o.Listener
					related = append(related, Relate(l.Owner(), l.Path, "%s: %s", l, o.Message))
				}
				if len(related) == 0 && pr.Gateway != nil {
					related = append(related, Relate(&pr.Gateway.Meta, "spec.listeners", "listeners of %s", pr.Gateway.Ref))
				}
				if pr.Service != nil {
					related = append(related, Relate(&pr.Service.Meta, "spec.ports", "ports of %s", pr.Service.Ref))
				}
				p.Report(&r.Meta, at(pr), related, "%s", pr.Accepted.Message)
			}
		}
	}
}

// atName points at the parent's name.
func atName(pr *resolve.ParentResult) string { return pr.Path + ".name" }

// atSelection points at what selects listeners or ports: sectionName, else
// port, else the parent's name.
func atSelection(pr *resolve.ParentResult) string {
	switch {
	case pr.Ref.SectionName != nil:
		return pr.Path + ".sectionName"
	case pr.Ref.Port != nil:
		return pr.Path + ".port"
	}
	return pr.Path + ".name"
}

// atListener points at the sectionName that chose the refusing listener,
// else at the parentRef.
func atListener(pr *resolve.ParentResult) string {
	if pr.Ref.SectionName != nil {
		return pr.Path + ".sectionName"
	}
	return pr.Path
}

// atHostnames points at the route's hostnames, which intersect no listener's.
func atHostnames(*resolve.ParentResult) string { return "spec.hostnames" }

var parentRefNotFound = &Rule{
	ID: "parentref-not-found", Severity: Error,
	Summary: "parentRef names a parent that does not exist",
	Doc: Doc{
		Text: `The parent does not exist: the inputs hold its namespace whole (it is listed
under ownedNamespaces in .gwlint.yaml, or --strict-refs is given) but not the
parent, or its name is one slip of the keyboard from a parent of its kind
beside it ("sharde" for "shared"; the message says which). The route attaches
nowhere through this parentRef and no controller will even report it. A
Namespace object among the inputs is no such evidence; where the inputs hold
only part of the namespace, ref-unlisted warns instead.

Fix: correct name and namespace (the namespace defaults to the route's):`,
		Example: `parentRefs:
- name: shared-gw            # before: looks in the route's namespace
- name: shared-gw            # after
  namespace: infra`,
	},
	Run: reportParents(resolve.ReasonNoMatchingParent, resolve.Missing, atName),
}

var parentRefNoMatch = &Rule{
	ID: "parentref-no-match", Severity: Error,
	Summary: "parentRef selects no listener or port of its parent",
	Doc: Doc{
		Text: `sectionName must name a listener of the Gateway (or ListenerSet), or a port
name of a mesh Service; port must be a listener port (GEP-957) or a Service
port; with both, one listener must match both. Otherwise the parentRef is
refused with NoMatchingParent. Headless and ExternalName Services cannot be
mesh parents.

Fix:`,
		Example: `parentRefs:
- name: shared
  sectionName: https-443   # before: no such listener
  sectionName: https       # after`,
	},
	Run: reportParents(resolve.ReasonNoMatchingParent, resolve.Present, atSelection),
}

var parentRefNotAllowed = &Rule{
	ID: "parentref-not-allowed", Severity: Error,
	Summary: "no listener allows this route's kind or namespace",
	Doc: Doc{
		Text: `Each listener admits routes by kind (allowedRoutes.kinds, else its protocol's
kinds) and by namespace (allowedRoutes.namespaces: Same by default, All, or a
Selector over Namespace labels). When no selected listener admits the route,
it is refused with NotAllowedByListeners. The related locations show each
listener and why.

Fix: attach to a listener for the route's protocol, or widen allowedRoutes:`,
		Example: `allowedRoutes:
  namespaces:
    from: Selector
    selector: {matchLabels: {shared-gateway-access: "true"}}`,
	},
	Run: reportParents(resolve.ReasonNotAllowedByListeners, resolve.Present, atListener),
}

var parentRefHostnameMismatch = &Rule{
	ID: "parentref-hostname-mismatch", Severity: Error,
	Summary: "route hostnames do not intersect the listener's",
	Doc: Doc{
		Text: `When both the listener and the route specify hostnames, at least one must
intersect ("*.example.com" covers "a.example.com" and "a.b.example.com" but not
"example.com"), or the route is refused with NoMatchingListenerHostname.

Fix: add a hostname the listener serves, or attach to another listener.`,
	},
	Run: reportParents(resolve.ReasonNoMatchingListenerHostname, resolve.Present, atHostnames),
}
