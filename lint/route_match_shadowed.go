package lint

var routeMatchShadowed = &Rule{
	ID: "route-match-shadowed", Severity: Warning,
	Summary: "an identical match of higher precedence takes the traffic",
	Doc: Doc{
		Text: `Two rules with identical matches on the same listener and hostname compete for
the same requests; only one wins: the older route (creationTimestamp), then the
route first in namespace/name order, then the earlier rule within a route. The
other never receives traffic — often a copy-paste leftover or two teams
claiming the same path.

Fix: make the matches differ (path, headers), or remove the shadowed rule.`,
		Example: `# team-a/shop wins; team-b/shop-v2 is shadowed on shop.example.com:
- matches: [{path: {type: PathPrefix, value: /cart}}]   # both routes`,
	},
	Run: func(p *Pass) {
		for _, s := range p.Graph.Shadows {
			w := s.Winner
			p.Report(&s.Shadowed.Route.Meta, s.Shadowed.Path,
				[]Related{Relate(&w.Route.Meta, w.Path, "the match that wins")},
				"match (%s) on %s, hostname %s, is shadowed by the identical match %s of %s, which takes precedence",
				s.Match, s.Listener, s.Hostname, w.Path, w.Route.Ref)
		}
	},
}
