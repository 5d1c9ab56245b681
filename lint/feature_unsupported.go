package lint

import (
	"strings"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile"
)

var featureUnsupported = &Rule{
	ID: "feature-unsupported", Severity: Warning,
	Summary: "the implementation does not support a feature used here",
	Doc: Doc{
		Text: `The object needs a Gateway API feature (as pkg/features names it: a filter, a
match type, a listener port or TLS mode, a route kind, ...) that the
implementation judging it does not support: its conformance report ran the
tests of that feature and does not claim it, or --without-features removed
it. Such a controller ignores or refuses the field (a filter it does not
support answers with an error; a listener gets Accepted=False). A warning:
a report describes one release of the implementation, often older than the
one you run, and may predate the feature's conformance test. Rule names
(HTTPRouteNamedRouteRule) are never reported: a controller without them
routes the same. The
implementation is the one whose controllerName the Gateway's GatewayClass
names, the one that installs the class, one inferred from the
evidence when no GatewayClass is among the inputs (the message says from
what), or --implementation; see docs/implementations.md.

Fix: use what your implementation supports, or move the route to a Gateway
of an implementation that supports the feature (the message names them):`,
		Example: `# under cilium, whose report does not claim HTTPRouteCORS
filters:
- type: CORS                     # before
- type: ResponseHeaderModifier   # after: set the CORS headers yourself
  responseHeaderModifier:
    set: [{name: Access-Control-Allow-Origin, value: "https://shop.example.com"}]`,
	},
	Run: func(p *Pass) {
		// Many routes have the same gap: each feature's and each judge's
		// words are made once.
		others := map[features.FeatureName]string{}
		type judgedBy struct {
			profile  *profile.Profile
			inferred *profile.Inference
		}
		judges := map[judgedBy]string{}
		for _, gap := range p.Graph.FeatureGaps {
			other, ok := others[gap.Feature]
			if !ok {
				other = "no conformance report claims it"
				if names := gap.SupportedBy(); len(names) > 0 {
					other = "implementations that do: " + strings.Join(names, ", ")
				}
				others[gap.Feature] = other
			}
			by := judgedBy{gap.Profile, gap.Inferred}
			judge, ok := judges[by]
			if !ok {
				judge = gap.Profile.String()
				if in := gap.Inferred; in != nil {
					judge += " (inferred from " + strings.Join(in.Evidence, " and ") + ")"
				}
				judges[by] = judge
			}
			p.Report(gap.Object, gap.Path, nil, "%s needs %s, which %s does not support (%s)",
				gap.Object.Ref, gap.Feature, judge, other)
		}
	},
}
