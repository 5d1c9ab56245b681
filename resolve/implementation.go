package resolve

import (
	"fmt"
	"slices"

	"github.com/gwlint/gwlint/resolve/profile"
)

// Implementations: which controller's profile judges each Gateway.
//
// With Options.Implementation, every Gateway is judged by that profile.
// Without it, a Gateway whose GatewayClass is among the inputs is judged by
// the implementation whose controllerName the class names; one whose class
// is not, by the implementation that installs a class of that name itself
// (Istio's istio-waypoint, GKE's gke-l7-*); anything else by
// profile.Everything. Options.WithoutFeatures is removed from every profile.

// selectedProfile is the profile of objects that no Gateway of the inputs
// serves (mesh routes, BackendTLSPolicies): Options.Implementation, else
// profile.Everything.
func (o Options) selectedProfile() *profile.Profile {
	p := o.Implementation
	if p == nil {
		p = profile.Everything
	}
	return p.Without(o.WithoutFeatures)
}

// gatewayProfile chooses the profile of a Gateway whose GatewayClass is
// class (nil when the inputs do not hold it) named className.
func (g *Graph) gatewayProfile(class *GatewayClass, className string) *profile.Profile {
	var p *profile.Profile
	switch {
	case g.opts.Implementation != nil:
		return g.profile
	case class != nil:
		p = profile.ForController(string(class.Spec.ControllerName))
	default:
		p = g.installer(className)
	}
	if p == nil {
		return g.profile
	}
	return p.Without(g.opts.WithoutFeatures)
}

// installer is the implementation that installs the GatewayClass named
// class itself, if any: the selected one, or any when none is selected.
func (g *Graph) installer(class string) *profile.Profile {
	if p := g.opts.Implementation; p != nil {
		if p.Installs(class) {
			return p
		}
		return nil
	}
	return profile.ForClass(class)
}

// judgedAllWith reports whether every implementation that judges the route
// has a fact: what an implementation-specific verdict needs before gwlint
// writes it (one that disagrees keeps the API's reading).
func (g *Graph) judgedAllWith(route *Route, fact func(*profile.Profile) bool) bool {
	return !slices.ContainsFunc(g.routeProfiles(route), func(p *profile.Profile) bool { return !fact(p) })
}

// judgeWith returns the first implementation judging the route that has a
// fact, nil when none has: for what one implementation takes that the
// others would only refuse (an implementation-specific parentRef kind).
func (g *Graph) judgeWith(route *Route, fact func(*profile.Profile) bool) *profile.Profile {
	ps := g.routeProfiles(route)
	if i := slices.IndexFunc(ps, fact); i >= 0 {
		return ps[i]
	}
	return nil
}

// secretTypeAccepted reports whether the profile of the Gateway that owner
// (a Gateway or a ListenerSet) belongs to accepts certificate Secrets of an
// implementation-specific type.
func (g *Graph) secretTypeAccepted(owner *Meta, typ string) bool {
	var gw *GatewayResult
	switch owner.Ref.Kind {
	case KindGateway:
		gw = g.gateways[owner.Ref]
	case KindListenerSet:
		gw = g.lsets[owner.Ref].Parent
	}
	return gw != nil && gw.Profile.AcceptsSecretType(typ)
}

// reportMissingPort writes a backendRef port its Service lacks as the
// implementations that judge the route report it, when they all agree;
// else as the API's BackendNotFound (resolveBackend's verdict).
func (g *Graph) reportMissingPort(b *BackendResult, route *Route) {
	ps := g.routeProfiles(route)
	for _, p := range ps[1:] {
		if p.Implementation.MissingServicePort != ps[0].Implementation.MissingServicePort {
			return
		}
	}
	switch ps[0].Implementation.MissingServicePort {
	case profile.PortNotFoundReason:
		b.Reason = ReasonPortNotFound
	case profile.PortUnchecked:
		b.Unreported = true
		b.Message += fmt.Sprintf("; %s does not check ports, so the route's ResolvedRefs does not report it", ps[0])
	}
}
