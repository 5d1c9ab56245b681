package envoygateway

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/profile"
)

// Envoy Gateway's own filter kind, which a rule names with an ExtensionRef
// filter. The graph holds its objects under the qualified kind
// HTTPRouteFilter.gateway.envoyproxy.io, and Envoy Gateway judges a rule by
// them as its translator does
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/filters.go,
// ProcessHTTPFilters, ProcessGRPCFilters and processExtensionRefHTTPFilter):
// one that does not exist answers HTTP 500 (ResolvedRefs=False/
// UnsupportedValue); an invalid rewrite or direct response body, a
// credential Secret that does not exist, two rewrites of the same part, a
// direct response beside a mirror (IncompatibleFilters) or a 2xx one on a
// GRPCRoute drop the rule; a Host rewritten from the path fails a dynamic
// resolver Backend (backend.go).
//
// processExtensionRefHTTPFilter: a missing HTTPRouteFilter is
// processUnresolvedHTTPFilter (ResolvedRefs, UnsupportedValue, a 500
// direct response); its invalid values, ConfigMap and Secret are
// Accepted-type errors that fail the rule (route.go processHTTPRouteRules);
// ProcessHTTPFilters and ProcessGRPCFilters refuse a direct response with
// a mirror (IncompatibleFilters) and a GRPCRoute's 2xx one; route.go
// rejectPathRegexHostRewriteWithDynamicResolver
// (testdata/httproute-with-urlrewrite-hostname-filter-invalid.out.yaml,
// httproute-with-credential-injection.out.yaml,
// grpcroute-with-conflicting-filters.out.yaml).
const KindHTTPRouteFilter = "HTTPRouteFilter"

// qualifiedHTTPRouteFilter is the kind under which the graph holds
// HTTPRouteFilters.
const qualifiedHTTPRouteFilter = KindHTTPRouteFilter + "." + Group

// HTTPRouteFilter is the part of an Envoy Gateway HTTPRouteFilter
// (gateway.envoyproxy.io/v1alpha1, api/v1alpha1/httproutefilter_types.go)
// its translator checks.
type HTTPRouteFilter struct {
	resolve.Meta
	Spec struct {
		URLRewrite *struct {
			Path *struct {
				Type              string        `json:"type"`
				ReplaceRegexMatch *regexRewrite `json:"replaceRegexMatch,omitempty"`
			} `json:"path,omitempty"`
			Hostname *struct {
				// Type is Header, Backend or PathRegex.
				Type      string        `json:"type"`
				Header    *string       `json:"header,omitempty"`
				PathRegex *regexRewrite `json:"pathRegex,omitempty"`
			} `json:"hostname,omitempty"`
		} `json:"urlRewrite,omitempty"`
		DirectResponse *struct {
			StatusCode *int `json:"statusCode,omitempty"`
			Body       *struct {
				// Type is Inline (the default) or ValueRef, a ConfigMap
				// in the filter's namespace.
				Type     *string `json:"type,omitempty"`
				ValueRef *struct {
					Name string `json:"name"`
				} `json:"valueRef,omitempty"`
			} `json:"body,omitempty"`
		} `json:"directResponse,omitempty"`
		CredentialInjection *struct {
			Credential struct {
				ValueRef gwv1.SecretObjectReference `json:"valueRef"`
			} `json:"credential"`
		} `json:"credentialInjection,omitempty"`
		// Matches: only whether there are any counts.
		Matches []struct{} `json:"matches,omitempty"`
	}
}

type regexRewrite struct {
	Pattern      string `json:"pattern"`
	Substitution string `json:"substitution"`
}

// RouteFilterProblem is why Envoy Gateway's translator fails a rule over
// its filters and the HTTPRouteFilters they name: Path is the route's
// field at fault (a filter), Reason the condition's reason.
type RouteFilterProblem struct {
	Reason        resolve.Reason
	Path, Message string
}

// RouteFilterVerdict is how Envoy Gateway's translator takes a rule's
// filters once it reads the HTTPRouteFilters they name.
type RouteFilterVerdict struct {
	// By is the profile of Envoy Gateway that judges it.
	By *profile.Profile
	// Refused drops the rule (Accepted=False or PartiallyInvalid).
	Refused *RouteFilterProblem
	// Unresolved names an HTTPRouteFilter that does not exist: the rule
	// answers HTTP 500 and the route's ResolvedRefs is False.
	Unresolved *RouteFilterProblem
	// HostFromPath: the rule rewrites the Host from the path
	// (hostname type PathRegex).
	HostFromPath bool
}

// RouteFilters is how Envoy Gateway took the rule's filters with the
// HTTPRouteFilters they name; nil when no Envoy Gateway judges its route,
// or they name none, or one the inputs may not show.
func RouteFilters(g *resolve.Graph, rule *resolve.RuleResult) *RouteFilterVerdict {
	v, _ := g.Decision(Implementation{}, rule).(*RouteFilterVerdict)
	return v
}

// JudgeFilters judges a rule's filters, and then those of each of its
// backendRefs, by the HTTPRouteFilters they name. A refusal of the rule's
// filters drops the rule (DropsRule); when Envoy Gateway judges the route alone, an
// HTTPRouteFilter that does not exist makes the route's ResolvedRefs False,
// and a backendRef's filters it refuses make the backendRef invalid.
func (impl Implementation) JudgeFilters(b *resolve.Builder, route *resolve.RouteResult, rule *resolve.RuleResult, alone bool) {
	by := impl.profileOf(b, route.Route)
	var v *RouteFilterVerdict
	// Most rules have no filters: they name no HTTPRouteFilter.
	if steps := filterSteps(route.Route, rule.Index, -1); len(steps) > 0 {
		v = impl.walkFilters(b, route.Route, rule, rule.Path+".filters", steps, by)
	}
	if alone {
		impl.refuseBackendFilters(b, route.Route, rule, by)
	}
	if v == nil {
		return
	}
	b.Decide(impl, rule, v) // a refusal is DropsRule's to write
	if p := v.Unresolved; p != nil && alone {
		b.ReportUnresolved(route, p.Reason, p.Path, p.Message)
	}
}

// profileOf is the profile by which Envoy Gateway judges the route: the
// first of its judges' that is Envoy Gateway's.
func (impl Implementation) profileOf(b *resolve.Builder, route *resolve.Route) *profile.Profile {
	js := b.RouteJudges(route)
	return js[slices.IndexFunc(js, func(j *resolve.Judge) bool { return j.Name == impl.Name() })].Profile
}

// refuseBackendFilters fails a rule's backends whose own filters name an
// HTTPRouteFilter that does not exist or that Envoy Gateway refuses:
// processDestinationFilters turns any error of their ProcessHTTPFilters
// into InvalidBackendFilters, for a backend that resolves and has weight.
func (impl Implementation) refuseBackendFilters(b *resolve.Builder, route *resolve.Route, rule *resolve.RuleResult, by *profile.Profile) {
	for j, r := range rule.Backends {
		ref := &rule.BackendRefs[j]
		if !r.Valid() || r.Weight == 0 || ref.Filters == 0 {
			continue
		}
		v := impl.walkFilters(b, route, rule, ref.Path+".filters", filterSteps(route, rule.Index, j), by)
		if v == nil {
			continue
		}
		for _, p := range []*RouteFilterProblem{v.Unresolved, v.Refused} {
			if p != nil {
				r.Problem, r.Reason = resolve.FiltersRefused, ReasonInvalidBackendFilters
				r.Message = fmt.Sprintf("%s refuses its %s: %s", by, strings.TrimPrefix(p.Path, ref.Path+"."), p.Message)
				break
			}
		}
	}
}

// filterStep is what walkFilters needs of one filter.
type filterStep struct {
	mirror    bool
	rewrite   *gwv1.HTTPURLRewriteFilter
	extension *gwv1.LocalObjectReference
}

// filterSteps are the filters of a route's rule i, or of its backendRef j
// when j >= 0.
func filterSteps(route *resolve.Route, i, j int) []filterStep {
	var steps []filterStep
	switch {
	case route.HTTP != nil:
		filters := route.HTTP.Rules[i].Filters
		if j >= 0 {
			filters = route.HTTP.Rules[i].BackendRefs[j].Filters
		}
		for _, f := range filters {
			steps = append(steps, filterStep{f.Type == gwv1.HTTPRouteFilterRequestMirror, f.URLRewrite, f.ExtensionRef})
		}
	case route.GRPC != nil:
		filters := route.GRPC.Rules[i].Filters
		if j >= 0 {
			filters = route.GRPC.Rules[i].BackendRefs[j].Filters
		}
		for _, f := range filters {
			steps = append(steps, filterStep{f.Type == gwv1.GRPCRouteFilterRequestMirror, nil, f.ExtensionRef})
		}
	}
	return steps
}

// rewrites is the URL rewrite a rule's filters have configured so far:
// by the API's URLRewrite (core) or an HTTPRouteFilter's (extension).
type rewrites struct {
	corePath, coreHost, extPath, extHost bool
}

// filterWalk is ProcessHTTPFilters' state as it walks a rule's (or a
// backendRef's) filters in order.
type filterWalk struct {
	impl  Implementation
	b     *resolve.Builder
	route *resolve.Route
	rule  *resolve.RuleResult
	by    *profile.Profile
	v     RouteFilterVerdict
	rw    rewrites
	// named: a filter names an HTTPRouteFilter; matches: one with matches.
	named, matches bool
	// mirror and directPath are the first RequestMirror to a valid backend
	// and the filter that answers directly, "" when none.
	mirror, directPath string
	direct             *int   // the direct response's status code
	directBy           string // what answers directly, in words
}

// walkFilters walks the filters at filtersPath ("spec.rules[i].filters"),
// as ProcessHTTPFilters and ProcessGRPCFilters do, in order, stopping after
// a direct response, for Envoy Gateway's profile by. It returns nil when
// they name no HTTPRouteFilter or the verdict depends on an object the
// inputs may not show. It needs the rule's FilterBackends resolved: only a
// RequestMirror to a valid backend mirrors.
func (impl Implementation) walkFilters(b *resolve.Builder, route *resolve.Route, rule *resolve.RuleResult, filtersPath string, steps []filterStep, by *profile.Profile) *RouteFilterVerdict {
	w := &filterWalk{impl: impl, b: b, route: route, rule: rule, by: by}
	w.v.By = by
	for k, s := range steps {
		if w.direct != nil {
			break
		}
		problem, known := w.step(filtersPath+"["+strconv.Itoa(k)+"]", s)
		switch {
		case problem != nil:
			return w.refused(problem)
		case !known:
			return nil
		}
	}
	if !w.named {
		return nil
	}
	if problem := w.conflict(); problem != nil {
		return w.refused(problem)
	}
	return &w.v
}

func (w *filterWalk) refused(p *RouteFilterProblem) *RouteFilterVerdict {
	w.v.Refused = p
	return &w.v
}

// refusal is a problem of reason UnsupportedValue at path.
func refusal(path, format string, args ...any) *RouteFilterProblem {
	return &RouteFilterProblem{resolve.ReasonUnsupportedValue, path, fmt.Sprintf(format, args...)}
}

// step takes the filter at path: problem is why it fails the rule, nil
// when it does not; known is false when that depends on an object the
// inputs may not show.
func (w *filterWalk) step(path string, s filterStep) (problem *RouteFilterProblem, known bool) {
	if s.mirror && w.mirror == "" && validFilterBackend(w.rule, path+".requestMirror.backendRef") {
		w.mirror = path
	}
	if r := s.rewrite; r != nil {
		if problem := w.coreRewrite(path, r); problem != nil {
			return problem, true
		}
	}
	ext := s.extension
	if ext == nil {
		return nil, true
	}
	if gk := (profile.GroupKind{Group: string(ext.Group), Kind: string(ext.Kind)}); gk != (profile.GroupKind{Group: Group, Kind: KindHTTPRouteFilter}) {
		if known := w.impl.Config.ExtensionFilters; known.Known && !slices.Contains(known.Kinds, gk) {
			return refusal(path+".extensionRef", "unknown kind %s/%s: %s's configuration registers no such extension filter", gk.Group, gk.Kind, w.by), true
		}
		return nil, true
	}
	w.named = true
	return w.routeFilter(path+".extensionRef.name", string(ext.Name))
}

// coreRewrite takes the API's URLRewrite filter at path: a second rewrite
// of the path or the hostname fails the rule.
func (w *filterWalk) coreRewrite(path string, r *gwv1.HTTPURLRewriteFilter) *RouteFilterProblem {
	rw := &w.rw
	multipleCore := (rw.corePath || rw.coreHost) && (r.Hostname != nil || r.Path != nil)
	if multipleCore || r.Hostname != nil && rw.extHost || r.Path != nil && rw.extPath {
		return refusal(path+".urlRewrite", "cannot configure multiple urlRewrite filters for a single rule")
	}
	rw.coreHost = rw.coreHost || r.Hostname != nil
	rw.corePath = rw.corePath || r.Path != nil
	return nil
}

// routeFilter takes the HTTPRouteFilter named name that the filter at path
// names, as processExtensionRefHTTPFilter does.
func (w *filterWalk) routeFilter(path, name string) (problem *RouteFilterProblem, known bool) {
	ref := resolve.ObjectRef{Kind: qualifiedHTTPRouteFilter, Namespace: w.route.Ref.Namespace, Name: name}
	obj, presence := w.b.Graph().Lookup(ref)
	if presence == resolve.Missing {
		w.v.Unresolved = refusal(path, "HTTPRouteFilter %s not found", ref.NamespacedName())
		w.answer(500, path, "HTTPRouteFilter "+ref.NamespacedName()+", which does not exist, answers HTTP 500")
		return nil, true
	}
	f, ok := obj.(*HTTPRouteFilter)
	if !ok {
		return nil, false
	}
	label := "HTTPRouteFilter " + ref.NamespacedName()
	if len(f.Spec.Matches) > 0 {
		if w.matches {
			return refusal(path, "%s: only one HTTPRouteFilter with matches is supported per rule", label), true
		}
		w.matches = true
	}
	if problem := w.filterRewrite(path, label, f); problem != nil {
		return problem, true
	}
	if problem, known := w.directResponse(path, label, f); problem != nil || !known {
		return problem, known
	}
	if c := f.Spec.CredentialInjection; c != nil {
		switch problem, known := credentialProblem(w.b, f, &c.Credential.ValueRef); {
		case problem != "":
			return refusal(path, "%s: %s", label, problem), true
		case !known:
			return nil, false
		}
	}
	return nil, true
}

// answer records that the filter at path answers requests directly with
// status, as by says.
func (w *filterWalk) answer(status int, path, by string) {
	w.direct, w.directPath, w.directBy = &status, path, by
}

// filterRewrite takes an HTTPRouteFilter's urlRewrite: one that rewrites
// what another filter of the rule rewrites, or whose regular expressions
// are missing or do not compile, fails the rule.
func (w *filterWalk) filterRewrite(path, label string, f *HTTPRouteFilter) *RouteFilterProblem {
	u := f.Spec.URLRewrite
	if u == nil {
		return nil
	}
	rw := &w.rw
	if (rw.extPath || rw.extHost) && (u.Hostname != nil || u.Path != nil) || u.Hostname != nil && rw.coreHost || u.Path != nil && rw.corePath {
		return refusal(path, "%s: cannot configure multiple urlRewrite filters for a single rule", label)
	}
	if p := u.Path; p != nil && p.Type == "ReplaceRegexMatch" {
		switch {
		case p.ReplaceRegexMatch == nil || p.ReplaceRegexMatch.Pattern == "":
			return refusal(path, "%s: urlRewrite.path.replaceRegexMatch.pattern must be set when the path type is ReplaceRegexMatch", label)
		case !compiles(p.ReplaceRegexMatch.Pattern):
			return refusal(path, "%s: urlRewrite.path.replaceRegexMatch.pattern %q is not a valid RE2 regular expression", label, p.ReplaceRegexMatch.Pattern)
		}
		rw.extPath = true
	}
	h := u.Hostname
	if h == nil {
		return nil
	}
	switch h.Type {
	case "Header":
		if h.Header == nil {
			return refusal(path, "%s: urlRewrite.hostname.header must be set when the hostname type is Header", label)
		}
		rw.extHost = true
	case "Backend":
		rw.extHost = true
	case "PathRegex":
		switch {
		case h.PathRegex == nil || h.PathRegex.Pattern == "" || h.PathRegex.Substitution == "":
			return refusal(path, "%s: urlRewrite.hostname.pathRegex needs a pattern and a substitution when the hostname type is PathRegex", label)
		case !compiles(h.PathRegex.Pattern):
			return refusal(path, "%s: urlRewrite.hostname.pathRegex.pattern %q is not a valid RE2 regular expression", label, h.PathRegex.Pattern)
		}
		w.v.HostFromPath, rw.extHost = true, true
	}
	return nil
}

// directResponse takes an HTTPRouteFilter's directResponse: a body from a
// ConfigMap that does not exist, or holds no data, fails the rule.
func (w *filterWalk) directResponse(path, label string, f *HTTPRouteFilter) (problem *RouteFilterProblem, known bool) {
	d := f.Spec.DirectResponse
	if d == nil {
		return nil, true
	}
	if b := d.Body; b != nil && b.Type != nil && *b.Type == "ValueRef" && b.ValueRef != nil {
		cm := resolve.ObjectRef{Kind: resolve.KindConfigMap, Namespace: f.Ref.Namespace, Name: b.ValueRef.Name}
		obj, presence := w.b.Graph().Lookup(cm)
		switch m, _ := obj.(*resolve.ConfigMap); {
		case presence == resolve.Missing:
			return refusal(path, "%s: its directResponse body's %s", label, w.b.DescribeAbsence(cm, presence)), true
		case m == nil:
			return nil, false
		case len(m.DataKeys) == 0:
			return refusal(path, "%s: its directResponse body's ConfigMap %s has no data", label, cm.NamespacedName()), true
		}
	}
	status := 200
	if d.StatusCode != nil {
		status = *d.StatusCode
	}
	w.answer(status, path, label+" answers directly")
	return nil, true
}

// conflict is what fails the rule once its filters are walked: a direct
// response beside a RequestMirror, or a GRPCRoute's 2xx direct response.
func (w *filterWalk) conflict() *RouteFilterProblem {
	switch {
	case w.direct != nil && w.mirror != "":
		return &RouteFilterProblem{resolve.ReasonIncompatibleFilters, w.mirror, "RequestMirror in a rule where " + w.directBy}
	case w.route.GRPC != nil && w.direct != nil && *w.direct >= 200 && *w.direct < 300:
		return refusal(w.directPath, "a direct response with status %d: a GRPCRoute cannot answer a 2xx without a gRPC message", *w.direct)
	}
	return nil
}

func compiles(pattern string) bool {
	_, err := regexp.Compile(pattern)
	return err == nil
}

// credentialProblem is validateSecretRef's verdict on the Secret an
// HTTPRouteFilter injects, with its "credential" key: problem says what is
// wrong, known whether the inputs show enough to tell that nothing is.
func credentialProblem(b *resolve.Builder, f *HTTPRouteFilter, ref *gwv1.SecretObjectReference) (problem string, known bool) {
	switch {
	case ref.Group != nil && *ref.Group != "":
		return "its credential's valueRef group must be empty", true
	case ref.Kind != nil && *ref.Kind != resolve.KindSecret:
		return fmt.Sprintf("its credential's valueRef kind %s is not Secret", *ref.Kind), true
	}
	secret := resolve.ObjectRef{Kind: resolve.KindSecret, Namespace: f.Ref.Namespace, Name: string(ref.Name)}
	if ns := ref.Namespace; ns != nil && *ns != "" && string(*ns) != f.Ref.Namespace {
		// A ReferenceGrant from HTTPRouteFilters would decide: left to
		// the implementation.
		return "", false
	}
	obj, presence := b.Graph().Lookup(secret)
	s, _ := obj.(*resolve.Secret)
	switch {
	case presence == resolve.Missing:
		return "its credential's " + b.DescribeAbsence(secret, presence), true
	case s == nil:
		return "", false
	case !slices.Contains(s.DataKeys, "credential"):
		return fmt.Sprintf("its credential's Secret %s has no key \"credential\"", secret.NamespacedName()), true
	}
	return "", true
}

// validFilterBackend reports whether the rule's filter backend at path is
// valid.
func validFilterBackend(rule *resolve.RuleResult, path string) bool {
	for _, b := range rule.FilterBackends {
		if b.Path == path {
			return b.Valid()
		}
	}
	return false
}
