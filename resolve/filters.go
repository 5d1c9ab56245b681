package resolve

import (
	"fmt"
	"net/netip"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// FilterProblem is a filter value the CRDs admit and some implementations
// refuse as they translate the rule (RuleDropper, BackendFilterJudge), or
// that the API rules out (FilterCheck.APIRulesOut).
type FilterProblem struct {
	Path    string // "spec.rules[i].filters[k].requestHeaderModifier.remove[0]"
	Check   FilterCheck
	Message string
	// Untranslated: an ExtensionRef filter comes before it in its list. An
	// extension filter may answer requests itself (a direct response), and
	// then no filter after it is translated, nor checked.
	Untranslated bool
}

// FilterCheck tells apart the checks a FilterProblem fails.
type FilterCheck int

const (
	// HeaderNotModifiable: a header modifier names Host or a name with '/'
	// or ':', or adds or sets a value that is not visible ASCII words
	// separated by single spaces or tabs.
	HeaderNotModifiable FilterCheck = iota
	// MirrorWithRedirect: the rule both mirrors and redirects requests.
	MirrorWithRedirect
	// BackendPathRewrite: a backendRef's URLRewrite rewrites the path.
	BackendPathRewrite
	// RemovedNotAHeader: a header modifier removes a name that is not an
	// HTTP header name ("The value of Remove is a list of HTTP header
	// names"; a field name is an RFC 9110 token, the pattern of the
	// HTTPHeaderName the CRD checks for add and set). It removes nothing;
	// no implementation is known to refuse it for that alone.
	RemovedNotAHeader
	// HostnameNotPrecise: a RequestRedirect or URLRewrite hostname is an IP
	// address or has a label longer than 63 characters, which
	// PreciseHostname rules out ("numeric IP addresses are not allowed",
	// RFC 1123) and its CRD pattern does not.
	HostnameNotPrecise
)

// APIRulesOut reports whether the API itself rules out a value that fails
// the check, whatever the implementation.
func (c FilterCheck) APIRulesOut() bool { return c == RemovedNotAHeader || c == HostnameNotPrecise }

// preciseHostnameProblems checks a RequestRedirect or URLRewrite hostname
// at path.
func preciseHostnameProblems(path string, h *gwv1.PreciseHostname) []FilterProblem {
	if h == nil {
		return nil
	}
	var msg string
	_, err := netip.ParseAddr(string(*h))
	switch {
	case err == nil:
		msg = fmt.Sprintf("hostname %q is an IP address, which a PreciseHostname may not be", *h)
	case slices.ContainsFunc(strings.Split(string(*h), "."), func(label string) bool { return len(label) > 63 }):
		msg = fmt.Sprintf("hostname %q has a label longer than 63 characters (RFC 1123)", *h)
	default:
		return nil
	}
	return []FilterProblem{{Path: path, Check: HostnameNotPrecise, Message: msg}}
}

// headerName is HTTPHeaderName's kubebuilder pattern: an RFC 9110 token.
var headerName = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile("^[A-Za-z0-9!#$%&'*+\\-.^_`|~]+$")
})

// modifiableHeaderValue is Envoy Gateway's HeaderValueRegexp ("Header value pattern
// according to RFC 7230").
var modifiableHeaderValue = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^[!-~]+([\t ]?[!-~]+)*$`)
})

// headerModifierProblems checks a RequestHeaderModifier or
// ResponseHeaderModifier at path ("...filters[k].requestHeaderModifier").
func headerModifierProblems(path string, m *gwv1.HTTPHeaderFilter) []FilterProblem {
	if m == nil {
		return nil
	}
	var out []FilterProblem
	// Paths are made only for a problem: filters are checked on every
	// route, and nearly all are fine.
	at := func(field string, i int, suffix string) string {
		return path + "." + field + "[" + strconv.Itoa(i) + "]" + suffix
	}
	name := func(field string, i int, suffix, n string) {
		var msg string
		switch {
		case strings.EqualFold(n, "host"):
			msg = fmt.Sprintf("header %q: the Host header is rewritten with a URLRewrite filter's hostname, not a header modifier", n)
		case strings.HasPrefix(n, ":"):
			msg = fmt.Sprintf("header %q is a pseudo-header", n)
		case n == "" || strings.ContainsAny(n, "/:"):
			msg = fmt.Sprintf("header %q is not an HTTP header name", n)
		default:
			return
		}
		out = append(out, FilterProblem{Path: at(field, i, suffix), Check: HeaderNotModifiable, Message: msg})
	}
	for _, set := range []struct {
		field   string
		headers []gwv1.HTTPHeader
	}{{"add", m.Add}, {"set", m.Set}} {
		for i, h := range set.headers {
			name(set.field, i, ".name", string(h.Name))
			if !modifiableHeaderValue().MatchString(h.Value) {
				out = append(out, FilterProblem{Path: at(set.field, i, ".value"), Check: HeaderNotModifiable,
					Message: fmt.Sprintf("header %s value %q is not visible ASCII words separated by single spaces", h.Name, h.Value)})
			}
		}
	}
	for i, n := range m.Remove {
		name("remove", i, "", n)
		if !headerName().MatchString(n) {
			out = append(out, FilterProblem{Path: at("remove", i, ""), Check: RemovedNotAHeader,
				Message: fmt.Sprintf("%q is not an HTTP header name (a token, as add and set require): it removes nothing", n)})
		}
	}
	return out
}

// headerProblems checks the header modifiers of the filter at fp, which
// follows an ExtensionRef when untranslated.
func headerProblems(fp string, request, response *gwv1.HTTPHeaderFilter, untranslated bool) []FilterProblem {
	var out []FilterProblem
	if request != nil {
		out = headerModifierProblems(fp+".requestHeaderModifier", request)
	}
	if response != nil {
		out = append(out, headerModifierProblems(fp+".responseHeaderModifier", response)...)
	}
	return marked(untranslated, out)
}

// marked sets Untranslated on problems.
func marked(untranslated bool, problems []FilterProblem) []FilterProblem {
	for i := range problems {
		problems[i].Untranslated = untranslated
	}
	return problems
}

// httpFilterProblems checks an HTTPRoute's filters at path, a rule's
// ("spec.rules[i].filters") or a backendRef's.
func httpFilterProblems(path string, filters []gwv1.HTTPRouteFilter, backendRef bool) []FilterProblem {
	var out []FilterProblem
	redirects, mirror, extended := false, "", false
	for k, f := range filters {
		fp := path + "[" + strconv.Itoa(k) + "]"
		out = append(out, headerProblems(fp, f.RequestHeaderModifier, f.ResponseHeaderModifier, extended)...)
		if f.RequestRedirect != nil {
			out = append(out, marked(extended, preciseHostnameProblems(fp+".requestRedirect.hostname", f.RequestRedirect.Hostname))...)
		}
		if f.URLRewrite != nil {
			out = append(out, marked(extended, preciseHostnameProblems(fp+".urlRewrite.hostname", f.URLRewrite.Hostname))...)
		}
		extended = extended || f.Type == gwv1.HTTPRouteFilterExtensionRef
		redirects = redirects || (!extended && f.Type == gwv1.HTTPRouteFilterRequestRedirect)
		if !extended && f.Type == gwv1.HTTPRouteFilterRequestMirror && mirror == "" {
			mirror = fp
		}
		if backendRef && f.URLRewrite != nil && f.URLRewrite.Path != nil {
			out = append(out, FilterProblem{Path: fp + ".urlRewrite.path", Check: BackendPathRewrite,
				Message: "a backendRef's URLRewrite rewrites the path"})
		}
	}
	if !backendRef && redirects && mirror != "" {
		out = append(out, FilterProblem{Path: mirror, Check: MirrorWithRedirect,
			Message: "RequestMirror in a rule that also redirects (RequestRedirect)"})
	}
	return out
}

// grpcFilterProblems checks a GRPCRoute's filters, at rule level or on a
// backendRef.
func grpcFilterProblems(path string, filters []gwv1.GRPCRouteFilter) []FilterProblem {
	var out []FilterProblem
	extended := false
	for k, f := range filters {
		out = append(out, headerProblems(path+"["+strconv.Itoa(k)+"]", f.RequestHeaderModifier, f.ResponseHeaderModifier, extended)...)
		extended = extended || f.Type == gwv1.GRPCRouteFilterExtensionRef
	}
	return out
}

func httpFilterType(f gwv1.HTTPRouteFilter) string { return string(f.Type) }
func grpcFilterType(f gwv1.GRPCRouteFilter) string { return string(f.Type) }

// typesOf lists the types of filters, in order.
func typesOf[F any](filters []F, typ func(F) string) []string {
	var out []string
	for _, f := range filters {
		out = append(out, typ(f))
	}
	return out
}

// BackendFilterJudge refuses the filters of a route's backendRefs it will
// not translate ("Support: Implementation-specific" there), once the core
// resolved the backendRef. The core asks every implementation judging the
// route, and a filter type, or a value, they all refuse (with one reason)
// makes the backendRef invalid.
type BackendFilterJudge interface {
	Implementation
	// RefusesBackendFilterType returns the reason it refuses a filter of
	// type typ on a backendRef of route, false when it takes it.
	RefusesBackendFilterType(route *Route, typ string) (Reason, bool)
	// RefusesBackendFilter returns the reason it refuses a backendRef whose
	// filters have problem p, false when it takes them.
	RefusesBackendFilter(p FilterProblem) (Reason, bool)
}

// refuseBackendFilters makes a rule's backendRef, once resolved, invalid
// for a filter type, or a value, that the route's BackendFilterJudges all
// refuse: the types and path rewrites before anything else about the ref,
// the other values once the ref resolves to a backend with weight.
func (g *Graph) refuseBackendFilters(b *BackendResult, route *Route, ref *RuleBackendRef) {
	if len(ref.FilterTypes) == 0 {
		return
	}
	judges := routeJudges[BackendFilterJudge](g, route)
	if judges == nil {
		return
	}
	by := g.routeJudgesOf(route)[0]
	refuse := func(reason Reason, path, format string, args ...any) {
		b.Problem, b.Reason = FiltersRefused, reason
		b.setTargetPath("")
		b.Message = fmt.Sprintf("%s refuses its %s: %s", by, strings.TrimPrefix(path, ref.Path+"."), fmt.Sprintf(format, args...))
	}
	// refused is the reason all the judges give, false unless they all
	// refuse with one.
	refused := func(refuses func(BackendFilterJudge) (Reason, bool)) (Reason, bool) {
		reason, ok := refuses(judges[0])
		return reason, ok && !slices.ContainsFunc(judges[1:], func(j BackendFilterJudge) bool {
			r, ok := refuses(j)
			return !ok || r != reason
		})
	}
	for k, typ := range ref.FilterTypes {
		if reason, ok := refused(func(j BackendFilterJudge) (Reason, bool) { return j.RefusesBackendFilterType(route, typ) }); ok {
			refuse(reason, ref.Path+".filters["+strconv.Itoa(k)+"]", "%s is not supported on a backendRef", typ)
			return
		}
	}
	// A backendRef of weight 0 is skipped before its filters are
	// translated.
	translated := b.Valid() && *ref.Weight != 0
	for _, first := range []bool{true, false} {
		for _, prob := range ref.FilterProblems {
			if reason, ok := refused(func(j BackendFilterJudge) (Reason, bool) { return j.RefusesBackendFilter(prob) }); ok && (prob.Check == BackendPathRewrite) == first && (first || translated) {
				refuse(reason, prob.Path, "%s", prob.Message)
				return
			}
		}
	}
}
