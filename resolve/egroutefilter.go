package resolve

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/resolve/profile"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Envoy Gateway's own filter kind, which a rule names with an ExtensionRef
// filter. resolve reads its objects under the qualified kind
// HTTPRouteFilter.gateway.envoyproxy.io and judges them only under a
// profile that serves the kind (profile.Implementation.OwnRouteFilters),
// as its translator does
// (https://github.com/envoyproxy/gateway/blob/d32f28294245e454d20f81d323d626a90e660c1e/internal/gatewayapi/filters.go,
// ProcessHTTPFilters, ProcessGRPCFilters and processExtensionRefHTTPFilter).
const KindEnvoyHTTPRouteFilter = "HTTPRouteFilter"

// EnvoyGatewayHTTPRouteFilter is the part of an Envoy Gateway
// HTTPRouteFilter (gateway.envoyproxy.io/v1alpha1,
// api/v1alpha1/httproutefilter_types.go) its translator checks.
type EnvoyGatewayHTTPRouteFilter struct {
	Meta
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
	Reason        Reason
	Path, Message string
}

// RouteFilterVerdict is how Envoy Gateway's translator takes a rule's
// filters once it reads the HTTPRouteFilters they name.
type RouteFilterVerdict struct {
	// By is the profile of the implementation that judges it.
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

// rewrites is the URL rewrite a rule's filters have configured so far:
// by the API's URLRewrite (core) or an HTTPRouteFilter's (extension).
type rewrites struct {
	corePath, coreHost, extPath, extHost bool
}

// filterStep is what judgeRouteFilters needs of one filter.
type filterStep struct {
	mirror    bool
	rewrite   *gwv1.HTTPURLRewriteFilter
	extension *gwv1.LocalObjectReference
}

// filterSteps are the filters of a route's rule i, or of its backendRef j
// when j >= 0.
func filterSteps(route *Route, i, j int) []filterStep {
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

// judgeRouteFilters walks filters, a rule's or a backendRef's at
// filtersPath ("spec.rules[i].filters"), as ProcessHTTPFilters and ProcessGRPCFilters
// do, in order, stopping after a direct response, for the implementation
// of profile by. It returns nil when they name no HTTPRouteFilter or the
// verdict depends on an object the inputs may not show. It needs the
// rule's FilterBackends resolved: only a RequestMirror to a valid backend
// mirrors.
func (g *Graph) judgeRouteFilters(route *Route, rule *RuleResult, filtersPath string, steps []filterStep, by *profile.Profile) *RouteFilterVerdict {
	v := &RouteFilterVerdict{By: by}
	var (
		rw             rewrites
		named, matches bool
		// mirror and directPath are the first RequestMirror to a valid
		// backend and the filter that answers directly, "" when none.
		mirror, directPath string
		direct             *int   // the direct response's status code
		directBy           string // what answers directly, in words
	)
	refuse := func(reason Reason, at, format string, args ...any) *RouteFilterVerdict {
		v.Refused = &RouteFilterProblem{reason, at, fmt.Sprintf(format, args...)}
		return v
	}
	internalError := 500
	for k, s := range steps {
		if direct != nil {
			break
		}
		path := filtersPath + "[" + strconv.Itoa(k) + "]"
		if s.mirror && mirror == "" && rule.validBackend(path+".requestMirror.backendRef") {
			mirror = path
		}
		if r := s.rewrite; r != nil {
			multipleCore := (rw.corePath || rw.coreHost) && (r.Hostname != nil || r.Path != nil)
			if multipleCore || r.Hostname != nil && rw.extHost || r.Path != nil && rw.extPath {
				return refuse(ReasonUnsupportedValue, path+".urlRewrite", "cannot configure multiple urlRewrite filters for a single rule")
			}
			rw.coreHost = rw.coreHost || r.Hostname != nil
			rw.corePath = rw.corePath || r.Path != nil
		}
		ext := s.extension
		if ext == nil {
			continue
		}
		if gk := (profile.GroupKind{Group: string(ext.Group), Kind: string(ext.Kind)}); gk != (profile.GroupKind{Group: GroupEnvoyGateway, Kind: KindEnvoyHTTPRouteFilter}) {
			if known := by.Implementation.ExtensionFilters; known.Known && !slices.Contains(known.Kinds, gk) {
				return refuse(ReasonUnsupportedValue, path+".extensionRef", "unknown kind %s/%s: %s's configuration registers no such extension filter", gk.Group, gk.Kind, by)
			}
			continue
		}
		named = true
		path += ".extensionRef.name"
		ref := ObjectRef{Kind: qualifiedKind(GroupEnvoyGateway, KindEnvoyHTTPRouteFilter), Namespace: route.Ref.Namespace, Name: string(ext.Name)}
		obj, presence := g.Lookup(ref)
		if presence == Missing {
			v.Unresolved = &RouteFilterProblem{ReasonUnsupportedValue, path, "HTTPRouteFilter " + ref.NamespacedName() + " not found"}
			direct, directPath = &internalError, path
			directBy = "HTTPRouteFilter " + ref.NamespacedName() + ", which does not exist, answers HTTP 500"
			continue
		}
		f, ok := obj.(*EnvoyGatewayHTTPRouteFilter)
		if !ok {
			return nil
		}
		name := "HTTPRouteFilter " + ref.NamespacedName()
		if len(f.Spec.Matches) > 0 {
			if matches {
				return refuse(ReasonUnsupportedValue, path, "%s: only one HTTPRouteFilter with matches is supported per rule", name)
			}
			matches = true
		}
		if u := f.Spec.URLRewrite; u != nil {
			if (rw.extPath || rw.extHost) && (u.Hostname != nil || u.Path != nil) || u.Hostname != nil && rw.coreHost || u.Path != nil && rw.corePath {
				return refuse(ReasonUnsupportedValue, path, "%s: cannot configure multiple urlRewrite filters for a single rule", name)
			}
			if p := u.Path; p != nil && p.Type == "ReplaceRegexMatch" {
				switch {
				case p.ReplaceRegexMatch == nil || p.ReplaceRegexMatch.Pattern == "":
					return refuse(ReasonUnsupportedValue, path, "%s: urlRewrite.path.replaceRegexMatch.pattern must be set when the path type is ReplaceRegexMatch", name)
				case !compiles(p.ReplaceRegexMatch.Pattern):
					return refuse(ReasonUnsupportedValue, path, "%s: urlRewrite.path.replaceRegexMatch.pattern %q is not a valid RE2 regular expression", name, p.ReplaceRegexMatch.Pattern)
				}
				rw.extPath = true
			}
			if h := u.Hostname; h != nil {
				switch h.Type {
				case "Header":
					if h.Header == nil {
						return refuse(ReasonUnsupportedValue, path, "%s: urlRewrite.hostname.header must be set when the hostname type is Header", name)
					}
					rw.extHost = true
				case "Backend":
					rw.extHost = true
				case "PathRegex":
					switch {
					case h.PathRegex == nil || h.PathRegex.Pattern == "" || h.PathRegex.Substitution == "":
						return refuse(ReasonUnsupportedValue, path, "%s: urlRewrite.hostname.pathRegex needs a pattern and a substitution when the hostname type is PathRegex", name)
					case !compiles(h.PathRegex.Pattern):
						return refuse(ReasonUnsupportedValue, path, "%s: urlRewrite.hostname.pathRegex.pattern %q is not a valid RE2 regular expression", name, h.PathRegex.Pattern)
					}
					v.HostFromPath, rw.extHost = true, true
				}
			}
		}
		if d := f.Spec.DirectResponse; d != nil {
			if b := d.Body; b != nil && b.Type != nil && *b.Type == "ValueRef" && b.ValueRef != nil {
				cm := ObjectRef{Kind: KindConfigMap, Namespace: f.Ref.Namespace, Name: b.ValueRef.Name}
				obj, presence := g.Lookup(cm)
				switch m, _ := obj.(*ConfigMap); {
				case presence == Missing:
					return refuse(ReasonUnsupportedValue, path, "%s: its directResponse body's %s", name, g.describeAbsence(cm, presence))
				case m == nil:
					return nil
				case len(m.DataKeys) == 0:
					return refuse(ReasonUnsupportedValue, path, "%s: its directResponse body's ConfigMap %s has no data", name, cm.NamespacedName())
				}
			}
			status := 200
			if d.StatusCode != nil {
				status = *d.StatusCode
			}
			direct, directPath = &status, path
			directBy = name + " answers directly"
		}
		if c := f.Spec.CredentialInjection; c != nil {
			switch problem, known := g.credentialProblem(f, &c.Credential.ValueRef); {
			case problem != "":
				return refuse(ReasonUnsupportedValue, path, "%s: %s", name, problem)
			case !known:
				return nil
			}
		}
	}
	if !named {
		return nil
	}
	if direct != nil && mirror != "" {
		return refuse(ReasonIncompatibleFilters, mirror, "RequestMirror in a rule where %s", directBy)
	}
	if route.GRPC != nil && direct != nil && *direct >= 200 && *direct < 300 {
		return refuse(ReasonUnsupportedValue, directPath, "a direct response with status %d: a GRPCRoute cannot answer a 2xx without a gRPC message", *direct)
	}
	return v
}

func compiles(pattern string) bool {
	_, err := regexp.Compile(pattern)
	return err == nil
}

// credentialProblem is validateSecretRef's verdict on the Secret an
// HTTPRouteFilter injects, with its "credential" key: problem says what is
// wrong, known whether the inputs show enough to tell that nothing is.
func (g *Graph) credentialProblem(f *EnvoyGatewayHTTPRouteFilter, ref *gwv1.SecretObjectReference) (problem string, known bool) {
	switch {
	case ref.Group != nil && *ref.Group != "":
		return "its credential's valueRef group must be empty", true
	case ref.Kind != nil && *ref.Kind != KindSecret:
		return fmt.Sprintf("its credential's valueRef kind %s is not Secret", *ref.Kind), true
	}
	secret := ObjectRef{Kind: KindSecret, Namespace: f.Ref.Namespace, Name: string(ref.Name)}
	if refNamespace(ref.Namespace, f.Ref.Namespace) != f.Ref.Namespace {
		// A ReferenceGrant from HTTPRouteFilters would decide: left to
		// the implementation.
		return "", false
	}
	obj, presence := g.Lookup(secret)
	s, _ := obj.(*Secret)
	switch {
	case presence == Missing:
		return "its credential's " + g.describeAbsence(secret, presence), true
	case s == nil:
		return "", false
	case !contains(s.DataKeys, "credential"):
		return fmt.Sprintf("its credential's Secret %s has no key \"credential\"", secret.NamespacedName()), true
	}
	return "", true
}

// refuseBackendRouteFilters fails a rule's backends whose own filters name
// an HTTPRouteFilter that does not exist or that Envoy Gateway refuses:
// processDestinationFilters turns any error of their ProcessHTTPFilters
// into InvalidBackendFilters, for a backend that resolves and has weight.
func (g *Graph) refuseBackendRouteFilters(route *Route, rule *RuleResult, by *profile.Profile) {
	if !g.judgedAllWith(route, routeFiltersJudged) {
		return
	}
	for j, b := range rule.Backends {
		ref := &rule.BackendRefs[j]
		if !b.Valid() || b.Weight == 0 || ref.Filters == 0 {
			continue
		}
		v := g.judgeRouteFilters(route, rule, ref.Path+".filters", filterSteps(route, rule.Index, j), by)
		if v == nil {
			continue
		}
		for _, p := range []*RouteFilterProblem{v.Unresolved, v.Refused} {
			if p != nil {
				b.Problem, b.Reason = FiltersRefused, ReasonInvalidBackendFilters
				b.Message = fmt.Sprintf("%s refuses its %s: %s", by, strings.TrimPrefix(p.Path, ref.Path+"."), p.Message)
				break
			}
		}
	}
}

// validBackend reports whether the rule's filter backend at path is valid.
func (rr *RuleResult) validBackend(path string) bool {
	for _, b := range rr.FilterBackends {
		if b.Path == path {
			return b.Valid()
		}
	}
	return false
}

// routeFiltersJudged reports whether a profile serves Envoy Gateway's
// HTTPRouteFilter kind.
func routeFiltersJudged(p *profile.Profile) bool { return p.Implementation.OwnRouteFilters }
