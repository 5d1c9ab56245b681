package resolve

import (
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/gwlint/gwlint/internal/parallel"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile"
)

// FeatureUse is one place where an object needs a Gateway API feature, as
// sigs.k8s.io/gateway-api/pkg/features names them: the feature an
// implementation must support for the field to work.
type FeatureUse struct {
	Feature features.FeatureName
	Object  *Meta
	// Path is the field that needs the feature: "spec.rules[0].filters[1]";
	// "kind" for a feature the object's kind itself needs (HTTPRoute).
	Path string
	// mesh is true when the feature is needed by the route's Service
	// parents (GEP-1426), which the graph-wide profile judges.
	mesh bool
	// parameters is the kind a parametersRef names: a profile whose
	// implementation takes it (AcceptsParametersKind) supports
	// the use whatever its report says of the feature.
	parameters profile.GroupKind
}

// FeatureGap is a feature use that the profile judging the object does not
// support: an implementation that lacks the feature ignores or refuses the
// field.
type FeatureGap struct {
	FeatureUse
	Profile *profile.Profile
	// Inferred says how Profile was inferred (profile.Choice); nil when it
	// was not.
	Inferred *profile.Inference
}

// findFeatures finds the gaps: each feature use that the profile of the
// Gateway that serves the object does not support (Unknown support is no
// gap). Routes are judged by the profile of each Gateway they name, mesh
// features and objects no Gateway serves by the graph-wide profile.
// Objects are judged in parallel, each only reading the resolved graph,
// and their gaps are gathered in object order. The graph keeps no uses
// (Features finds them again): gwlint check needs only the gaps, and the
// uses of every route are megabytes of a large repository. The language
// server's Cache keeps each route's own (routeUses), for the next check.
func (g *Graph) findFeatures() {
	routes, replaced := g.featureObjects()
	const chunk = 256
	chunks := (len(g.Objects) + chunk - 1) / chunk
	gaps := make([][]FeatureGap, chunks)
	parallel.For(chunks, func(c int) {
		var uses []FeatureUse // one buffer for the chunk's objects
		for _, obj := range g.Objects[c*chunk : min((c+1)*chunk, len(g.Objects))] {
			if !replaced[obj] {
				uses = g.objectUses(uses[:0], obj, routes)
				gaps[c] = g.judgeUses(gaps[c], obj, uses)
			}
		}
	})
	for _, gs := range gaps {
		g.FeatureGaps = append(g.FeatureGaps, gs...)
	}
	g.features = sync.OnceValue(g.allFeatures)
}

// Features returns the feature uses of every object, in object order.
// They are found on the first call (findFeatures keeps only the gaps).
func (g *Graph) Features() []FeatureUse {
	if g.features == nil { // a Graph not made by Resolve
		return nil
	}
	return g.features()
}

// allFeatures is Features, found.
func (g *Graph) allFeatures() []FeatureUse {
	routes, replaced := g.featureObjects()
	var out []FeatureUse
	for _, obj := range g.Objects {
		if !replaced[obj] {
			out = g.objectUses(out, obj, routes)
		}
	}
	return out
}

// featureObjects returns the graph's route results by route, and the
// definitions a duplicate replaced, whose features are not looked at: the
// last definition is the one resolved. Few inputs have any duplicates, so
// those are found from the duplicates rather than by looking every object
// up by name.
func (g *Graph) featureObjects() (map[*Route]*RouteResult, map[Object]bool) {
	routes := make(map[*Route]*RouteResult, len(g.Routes))
	for _, r := range g.Routes {
		routes[r.Route] = r
	}
	replaced := map[Object]bool{}
	for _, d := range g.Duplicates {
		replaced[d.First], replaced[d.Again] = d.First != d.Resolved, d.Again != d.Resolved
	}
	return routes, replaced
}

// objectUses appends an object's feature uses to uses; routes are the
// graph's, by route.
func (g *Graph) objectUses(uses []FeatureUse, obj Object, routes map[*Route]*RouteResult) []FeatureUse {
	m := obj.Metadata()
	switch o := obj.(type) {
	case *Gateway:
		return gatewayFeatures(uses, g.gateways[m.Ref])
	case *ListenerSet:
		return listenerSetFeatures(uses, g.lsets[m.Ref])
	case *Route:
		return routeFeatures(uses, routes[o], g.cache)
	case *ReferenceGrant:
		return append(uses, FeatureUse{Feature: features.SupportReferenceGrant, Object: m, Path: "kind"})
	case *BackendTLSPolicy:
		return backendTLSPolicyFeatures(uses, o)
	}
	return uses
}

// judgeUses appends to gaps the uses of obj that the profiles judging it
// do not support.
func (g *Graph) judgeUses(gaps []FeatureGap, obj Object, uses []FeatureUse) []FeatureGap {
	if len(uses) == 0 {
		return gaps
	}
	m := obj.Metadata()
	judges := []*Judge{g.defaultJudge}
	inferred := g.Inferred
	switch o := obj.(type) {
	case *Gateway:
		gw := g.gateways[m.Ref]
		judges[0], inferred = gw.Judge, gw.Inferred
	case *ListenerSet:
		if ls := g.lsets[m.Ref]; ls.Parent != nil {
			judges[0] = ls.Parent.Judge
		}
	case *Route:
		judges = g.routeJudgesOf(o)
	}
	for _, u := range uses {
		js := judges
		if u.mesh {
			js = []*Judge{g.defaultJudge}
		}
		for _, p := range js {
			if p.Lacks(u.Feature) && !namesOnly[u.Feature] && !p.AcceptsParametersKind(u.parameters.Group, u.parameters.Kind) {
				gaps = append(gaps, FeatureGap{FeatureUse: u, Profile: p.Profile, Inferred: g.inferenceOf(p, inferred)})
			}
		}
	}
	return gaps
}

// inferenceOf returns in when it inferred p, nil otherwise: a route's
// Gateways may be judged by several profiles, only one of them inferred.
func (g *Graph) inferenceOf(p *Judge, in *profile.Inference) *profile.Inference {
	if in != nil && in.Profile != nil && in.Profile.Name == p.Name {
		return in
	}
	for _, gw := range g.Gateways {
		if gw.Inferred != nil && gw.Judge == p {
			return gw.Inferred
		}
	}
	return nil
}

// namesOnly are features that name things and change no traffic: a
// controller without them routes the same, and only cannot refer to the
// name (in status or policies). They are uses, never gaps.
var namesOnly = map[features.FeatureName]bool{
	features.SupportHTTPRouteNamedRouteRule:     true,
	features.SupportGRPCRouteNamedRouteRule:     true,
	features.SupportMeshHTTPRouteNamedRouteRule: true,
}

// routeJudgesOf are the distinct Judges of the Gateways a route names
// (routeGateways), or the graph's default Judge when the inputs hold none
// of them. Once every Gateway has its Judge, resolveRoutes finds those of
// each route of the graph once, before it resolves the routes in parallel:
// the steps ask for them at every backendRef and rule, and only read them.
func (g *Graph) routeJudgesOf(r *Route) []*Judge {
	if out, ok := g.judgesOf[r]; ok {
		return out
	}
	return g.findRouteJudges(r)
}

// findRouteJudges is routeJudgesOf, found.
func (g *Graph) findRouteJudges(r *Route) []*Judge {
	var out []*Judge
	for _, gw := range g.routeGateways(r, nil, nil) {
		if !slices.Contains(out, gw.Judge) {
			out = append(out, gw.Judge)
		}
	}
	if len(out) == 0 {
		return []*Judge{g.defaultJudge}
	}
	return out
}

// routeGateways adds to out the distinct Gateways among the inputs that the
// route names: directly, through a ListenerSet, or through the parent
// routes it names by parentRefs of kind HTTPRoute (route delegation), which
// visited keeps from going round a cycle.
func (g *Graph) routeGateways(r *Route, visited []*Route, out []*GatewayResult) []*GatewayResult {
	if slices.Contains(visited, r) {
		return out
	}
	visited = append(visited, r)
	for _, ref := range r.ParentRefs {
		target := ObjectRef{Kind: string(*ref.Kind), Namespace: string(*ref.Namespace), Name: string(ref.Name)}
		var gw *GatewayResult
		switch {
		case string(*ref.Group) != GroupGateway:
		case target.Kind == KindGateway:
			gw = g.gateways[target]
		case target.Kind == KindListenerSet:
			if ls := g.lsets[target]; ls != nil {
				gw = ls.Parent
			}
		case target.Kind == KindHTTPRoute:
			obj, _ := g.object(target)
			if parent, ok := obj.(*Route); ok {
				out = g.routeGateways(parent, visited, out)
			}
		}
		if gw != nil && !slices.Contains(out, gw) {
			out = append(out, gw)
		}
	}
	return out
}

func gatewayFeatures(uses []FeatureUse, gw *GatewayResult) []FeatureUse {
	m := &gw.Meta
	uses = append(uses, FeatureUse{Feature: features.SupportGateway, Object: m, Path: "kind"})
	add := func(f features.FeatureName, path string) {
		uses = append(uses, FeatureUse{Feature: f, Object: m, Path: path})
	}
	spec := &gw.Spec
	for i, a := range spec.Addresses {
		if a.Value == "" {
			add(features.SupportGatewayAddressEmpty, fmt.Sprintf("spec.addresses[%d]", i))
		} else {
			add(features.SupportGatewayStaticAddresses, fmt.Sprintf("spec.addresses[%d].value", i))
		}
	}
	if infra := spec.Infrastructure; infra != nil {
		// Metadata propagation is what every report of the feature tested
		// (its v1.5 name: GatewayInfrastructurePropagation). A parametersRef
		// of a kind the implementation names as its own parameters works
		// whatever its report says.
		if len(infra.Labels) > 0 {
			add(features.SupportGatewayInfrastructure, "spec.infrastructure.labels")
		}
		if len(infra.Annotations) > 0 {
			add(features.SupportGatewayInfrastructure, "spec.infrastructure.annotations")
		}
		if pr := infra.ParametersRef; pr != nil {
			uses = append(uses, FeatureUse{Feature: features.SupportGatewayInfrastructure, Object: m, Path: "spec.infrastructure.parametersRef",
				parameters: profile.GroupKind{Group: string(pr.Group), Kind: string(pr.Kind)}})
		}
	}
	if tls := spec.TLS; tls != nil {
		if tls.Backend != nil && tls.Backend.ClientCertificateRef != nil {
			add(features.SupportGatewayBackendClientCertificate, "spec.tls.backend.clientCertificateRef")
		}
		if tls.Frontend != nil {
			add(features.SupportGatewayFrontendClientCertificateValidation, "spec.tls.frontend")
			validations := []*gwv1.FrontendTLSValidation{tls.Frontend.Default.Validation}
			paths := []string{"spec.tls.frontend.default.validation.mode"}
			for i := range tls.Frontend.PerPort {
				validations = append(validations, tls.Frontend.PerPort[i].TLS.Validation)
				paths = append(paths, fmt.Sprintf("spec.tls.frontend.perPort[%d].tls.validation.mode", i))
			}
			for i, v := range validations {
				if v != nil && v.Mode == gwv1.AllowInsecureFallback {
					add(features.SupportGatewayFrontendClientCertificateValidationInsecureFallback, paths[i])
				}
			}
		}
	}
	if al := spec.AllowedListeners; al != nil && al.Namespaces != nil && al.Namespaces.From != nil && *al.Namespaces.From != gwv1.NamespacesFromNone {
		add(features.SupportListenerSet, "spec.allowedListeners")
	}
	return append(uses, listenerFeatures(gw.AllListeners(), m)...)
}

func listenerSetFeatures(uses []FeatureUse, ls *ListenerSetResult) []FeatureUse {
	uses = append(uses, FeatureUse{Feature: features.SupportListenerSet, Object: &ls.Meta, Path: "kind"})
	return append(uses, listenerFeatures(ls.Listeners, &ls.Meta)...)
}

// listenerFeatures are the features the listeners written in owner need;
// listeners holds them among the others they share ports with (a
// Gateway's merged list), so that mixed TLS modes and HTTP isolation are
// seen across ListenerSets.
func listenerFeatures(listeners []*Listener, owner *Meta) []FeatureUse {
	var uses []FeatureUse
	for _, l := range listeners {
		if l.Owner() != owner {
			continue
		}
		add := func(f features.FeatureName, field string) {
			uses = append(uses, FeatureUse{Feature: f, Object: owner, Path: l.Path + field})
		}
		if l.Port == 8080 {
			add(features.SupportGatewayPort8080, ".port")
		}
		switch l.Protocol {
		case gwv1.TLSProtocolType:
			add(features.SupportTLSRoute, ".protocol")
			if terminates(l) && l.allows(KindTLSRoute) {
				add(features.SupportTLSRouteModeTerminate, ".tls.mode")
			}
			if slices.ContainsFunc(listeners, func(o *Listener) bool { return mixedTLS(l, o) }) {
				add(features.SupportTLSRouteModeMixed, ".tls.mode")
			}
		case gwv1.TCPProtocolType:
			add(features.SupportTCPRoute, ".protocol")
		case gwv1.UDPProtocolType:
			add(features.SupportUDPRoute, ".protocol")
		case gwv1.HTTPProtocolType, gwv1.HTTPSProtocolType:
			if slices.ContainsFunc(listeners, func(o *Listener) bool { return isolates(l, o) }) {
				add(features.SupportGatewayHTTPListenerIsolation, ".hostname")
			}
		}
	}
	return uses
}

// terminates reports whether a TLS listener terminates TLS (the mode
// defaults to Terminate).
func terminates(l *Listener) bool {
	return l.TLS != nil && l.TLS.Mode != nil && *l.TLS.Mode == gwv1.TLSModeTerminate
}

// allows reports whether the listener admits route kind by its
// allowedRoutes.kinds, or by its protocol when it lists none (whatever its
// conditions then decided).
func (l *Listener) allows(kind string) bool {
	if len(l.AllowedRoutes.Kinds) == 0 {
		kinds := protocolKinds[l.Protocol]
		if l.Protocol == gwv1.TLSProtocolType && terminates(l) {
			kinds = tlsTerminateKinds
		}
		return slices.Contains(kinds, kind)
	}
	return slices.ContainsFunc(l.AllowedRoutes.Kinds, func(k gwv1.RouteGroupKind) bool {
		return string(*k.Group) == GroupGateway && string(k.Kind) == kind
	})
}

// mixedTLS reports whether two TLS listeners on one port terminate and
// pass through TLS: TLSRouteModeMixed.
func mixedTLS(a, b *Listener) bool {
	return a != b && a.Port == b.Port && a.Protocol == gwv1.TLSProtocolType && b.Protocol == gwv1.TLSProtocolType &&
		terminates(a) != terminates(b)
}

// isolates reports whether HTTP listener a shares its port with b, of the
// same protocol, and b's hostname is a wildcard (or none) that also
// matches a's: requests for a's hostname must reach a's routes only
// (GatewayHTTPListenerIsolation).
func isolates(a, b *Listener) bool {
	if a == b || a.Port != b.Port || a.Protocol != b.Protocol {
		return false
	}
	ah, bh := a.HostnameString(), b.HostnameString()
	return ah != bh && (bh == "*" || HostnameMatches(bh, ah))
}

// routeKindFeatures are the features a route kind itself needs.
var routeKindFeatures = map[string]features.FeatureName{
	KindHTTPRoute: features.SupportHTTPRoute,
	KindGRPCRoute: features.SupportGRPCRoute,
	KindTLSRoute:  features.SupportTLSRoute,
	KindTCPRoute:  features.SupportTCPRoute,
	KindUDPRoute:  features.SupportUDPRoute,
}

// routeFeatures appends a route's feature uses: those it needs by itself
// (routeUsesOf, which a Cache keeps), each HTTPRoute rule's followed by
// the backend protocols it needs, which the Services' ports decide.
func routeFeatures(uses []FeatureUse, r *RouteResult, c *Cache) []FeatureUse {
	own := c.routeUses(r)
	if c == nil {
		defer scratchUses.Put(own)
	}
	uses = append(uses, own.uses[:own.head]...)
	start := own.head
	for i, end := range own.ruleEnds {
		uses = append(uses, own.uses[start:end]...)
		start = end
		if own.gateway && i < len(r.Rules) {
			uses = backendProtocolFeatures(uses, r, r.Rules[i])
		}
	}
	return uses
}

// routeUses are the feature uses a route needs by itself: the route's
// head (its kind and parentRefs), then, for an HTTPRoute, each rule's in
// turn, which end at ruleEnds. gateway is true when the route has Gateway
// parents (or none).
type routeUses struct {
	uses     []FeatureUse
	head     int
	ruleEnds []int
	gateway  bool
}

// scratchUses are the routeUses of routes resolved without a Cache, used
// once: a repository has tens of thousands of routes.
var scratchUses = sync.Pool{New: func() any { return new(routeUses) }}

// routeUsesOf finds a route's routeUses, in out.
func routeUsesOf(out *routeUses, r *RouteResult) *routeUses {
	m := &r.Meta
	mesh := slices.ContainsFunc(r.Parents, (*ParentResult).Mesh)
	*out = routeUses{uses: out.uses[:0], ruleEnds: out.ruleEnds[:0],
		gateway: !mesh || slices.ContainsFunc(r.Parents, func(p *ParentResult) bool { return !p.Mesh() })}
	// add records a feature for the route's Gateway parents and, when
	// meshFeature is set, its mesh variant for its Service parents.
	add := func(f, meshFeature features.FeatureName, path string) {
		if out.gateway && f != "" {
			out.uses = append(out.uses, FeatureUse{Feature: f, Object: m, Path: path})
		}
		if mesh && meshFeature != "" {
			out.uses = append(out.uses, FeatureUse{Feature: meshFeature, Object: m, Path: path, mesh: true})
		}
	}
	kind := routeKindFeatures[r.Kind()]
	add(kind, "", "kind")
	for _, p := range r.Parents {
		switch {
		case p.Mesh():
			out.uses = append(out.uses, FeatureUse{Feature: features.SupportMesh, Object: m, Path: p.Path, mesh: true},
				FeatureUse{Feature: kind, Object: m, Path: p.Path, mesh: true})
			if p.Ref.Namespace != nil && string(*p.Ref.Namespace) != r.Ref.Namespace {
				out.uses = append(out.uses, FeatureUse{Feature: features.SupportMeshConsumerRoute, Object: m, Path: p.Path + ".namespace", mesh: true})
			}
		case p.Ref.Port != nil && r.HTTP != nil && !m.IsDefaulted(p.Path+".port"):
			out.uses = append(out.uses, FeatureUse{Feature: features.SupportHTTPRouteParentRefPort, Object: m, Path: p.Path + ".port"})
		}
	}
	switch {
	case r.HTTP != nil:
		out.head = len(out.uses)
		for i := range r.HTTP.Rules {
			httpRuleFeatures(&r.HTTP.Rules[i], i, add)
			out.ruleEnds = append(out.ruleEnds, len(out.uses))
		}
	case r.GRPC != nil:
		for i := range r.GRPC.Rules {
			if r.GRPC.Rules[i].Name != nil {
				add(features.SupportGRPCRouteNamedRouteRule, "", rulePath(i)+".name")
			}
		}
		out.head = len(out.uses)
	default:
		out.head = len(out.uses)
	}
	return out
}

// httpRuleFeatures adds the features of an HTTPRoute's rule i: matches,
// filters, timeouts, retries and its name. It runs on every rule of every
// route: it reads the rule in place and builds a field's path only for a
// feature found.
func httpRuleFeatures(rule *gwv1.HTTPRouteRule, i int, add func(f, meshFeature features.FeatureName, path string)) {
	rp := rulePath(i)
	if rule.Name != nil {
		add(features.SupportHTTPRouteNamedRouteRule, features.SupportMeshHTTPRouteNamedRouteRule, rp+".name")
	}
	for j := range rule.Matches {
		match := &rule.Matches[j]
		if len(match.QueryParams) > 0 {
			add(features.SupportHTTPRouteQueryParamMatching, features.SupportMeshHTTPRouteQueryParamMatching, matchPath(rp, j)+".queryParams")
		}
		if match.Method != nil {
			add(features.SupportHTTPRouteMethodMatching, "", matchPath(rp, j)+".method")
		}
	}
	mirrors := 0
	for k := range rule.Filters {
		f := &rule.Filters[k]
		fp := rp + ".filters[" + strconv.Itoa(k) + "]"
		if f.Type == gwv1.HTTPRouteFilterRequestMirror {
			mirrors++
			if mirrors == 2 {
				add(features.SupportHTTPRouteRequestMultipleMirrors, "", fp)
			}
		}
		httpFilterFeatures(f, fp, add)
	}
	for k := range rule.BackendRefs {
		for l := range rule.BackendRefs[k].Filters {
			if rule.BackendRefs[k].Filters[l].Type == gwv1.HTTPRouteFilterRequestHeaderModifier {
				add(features.SupportHTTPRouteBackendRequestHeaderModification, features.SupportMeshHTTPRouteBackendRequestHeaderModification,
					backendRefPath(i, k)+".filters["+strconv.Itoa(l)+"]")
			}
		}
	}
	if t := rule.Timeouts; t != nil {
		if t.Request != nil {
			add(features.SupportHTTPRouteRequestTimeout, "", rp+".timeouts.request")
		}
		if t.BackendRequest != nil {
			add(features.SupportHTTPRouteBackendTimeout, "", rp+".timeouts.backendRequest")
		}
	}
	if rule.Retry != nil {
		add(features.SupportHTTPRouteRetry, "", rp+".retry")
	}
}

// backendProtocolFeatures appends the backend protocols a rule's backends
// need by their Service ports' appProtocol.
func backendProtocolFeatures(uses []FeatureUse, r *RouteResult, rule *RuleResult) []FeatureUse {
	for _, b := range rule.Backends {
		if b.Port == nil || b.Port.AppProtocol == nil {
			continue
		}
		switch *b.Port.AppProtocol {
		case "kubernetes.io/h2c":
			uses = append(uses, FeatureUse{Feature: features.SupportHTTPRouteBackendProtocolH2C, Object: &r.Meta, Path: b.Path})
		case "kubernetes.io/ws":
			uses = append(uses, FeatureUse{Feature: features.SupportHTTPRouteBackendProtocolWebSocket, Object: &r.Meta, Path: b.Path})
		}
	}
	return uses
}

// matchPath is "spec.rules[i].matches[j]" for rule path rp.
func matchPath(rp string, j int) string { return rp + ".matches[" + strconv.Itoa(j) + "]" }

// redirectStatusFeatures are the redirect status codes beyond core 301
// and 302.
var redirectStatusFeatures = map[int]features.FeatureName{
	303: features.SupportHTTPRoute303RedirectStatusCode,
	307: features.SupportHTTPRoute307RedirectStatusCode,
	308: features.SupportHTTPRoute308RedirectStatusCode,
}

func httpFilterFeatures(f *gwv1.HTTPRouteFilter, fp string, add func(f, meshFeature features.FeatureName, path string)) {
	switch f.Type {
	case gwv1.HTTPRouteFilterResponseHeaderModifier:
		add(features.SupportHTTPRouteResponseHeaderModification, "", fp)
	case gwv1.HTTPRouteFilterRequestRedirect:
		rr := f.RequestRedirect
		if rr == nil {
			return
		}
		if rr.Scheme != nil {
			add(features.SupportHTTPRouteSchemeRedirect, features.SupportMeshHTTPRouteSchemeRedirect, fp+".requestRedirect.scheme")
		}
		if rr.Port != nil {
			add(features.SupportHTTPRoutePortRedirect, features.SupportMeshHTTPRouteRedirectPort, fp+".requestRedirect.port")
		}
		if rr.Path != nil {
			add(features.SupportHTTPRoutePathRedirect, features.SupportMeshHTTPRouteRedirectPath, fp+".requestRedirect.path")
		}
		if rr.StatusCode != nil {
			if feature, ok := redirectStatusFeatures[*rr.StatusCode]; ok {
				add(feature, "", fp+".requestRedirect.statusCode")
			}
		}
	case gwv1.HTTPRouteFilterURLRewrite:
		rw := f.URLRewrite
		if rw == nil {
			return
		}
		if rw.Hostname != nil {
			add(features.SupportHTTPRouteHostRewrite, "", fp+".urlRewrite.hostname")
		}
		if rw.Path != nil {
			add(features.SupportHTTPRoutePathRewrite, features.SupportMeshHTTPRouteRewritePath, fp+".urlRewrite.path")
		}
	case gwv1.HTTPRouteFilterRequestMirror:
		add(features.SupportHTTPRouteRequestMirror, "", fp)
		if m := f.RequestMirror; m != nil && (m.Percent != nil || m.Fraction != nil) {
			add(features.SupportHTTPRouteRequestPercentageMirror, "", fp+".requestMirror")
		}
	case gwv1.HTTPRouteFilterCORS:
		add(features.SupportHTTPRouteCORS, "", fp)
	}
}

func backendTLSPolicyFeatures(uses []FeatureUse, p *BackendTLSPolicy) []FeatureUse {
	uses = append(uses, FeatureUse{Feature: features.SupportBackendTLSPolicy, Object: &p.Meta, Path: "kind"})
	if len(p.Spec.Validation.SubjectAltNames) > 0 {
		uses = append(uses, FeatureUse{Feature: features.SupportBackendTLSPolicySANValidation, Object: &p.Meta, Path: "spec.validation.subjectAltNames"})
	}
	return uses
}

// SupportedBy names the implementations whose default profile supports the
// gap's feature.
func (g FeatureGap) SupportedBy() []string { return profile.Supporting(g.Feature) }

// FeaturesOf returns the feature uses of one object, in the order found.
func (g *Graph) FeaturesOf(obj *Meta) []FeatureUse {
	var out []FeatureUse
	for _, u := range g.Features() {
		if u.Object == obj {
			out = append(out, u)
		}
	}
	return out
}

// GapsOf returns the feature gaps of one object.
func (g *Graph) GapsOf(obj *Meta) []FeatureGap {
	var out []FeatureGap
	for _, gap := range g.FeatureGaps {
		if gap.Object == obj {
			out = append(out, gap)
		}
	}
	return out
}
