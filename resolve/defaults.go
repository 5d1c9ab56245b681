package resolve

import (
	"slices"
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Defaulting, in one place. Each default cites the +kubebuilder:default
// marker (CRD defaulting, done by the API server on create) or the spec
// sentence (implicit defaults a controller applies) it implements, and
// records the defaulted field path so output can say "(default)".

func applyDefaults(obj Object) {
	defer obj.Metadata().Defaulted.seal()
	switch o := obj.(type) {
	case *Gateway:
		for i := range o.Spec.Listeners {
			l := &o.Spec.Listeners[i]
			defaultListener(&o.Meta, "spec.listeners["+strconv.Itoa(i)+"]", &l.AllowedRoutes, l.TLS)
		}
		for i := range o.Spec.Addresses {
			// +kubebuilder:default=IPAddress (GatewaySpecAddress.Type)
			setDefault(&o.Meta, &o.Spec.Addresses[i].Type, gwv1.IPAddressType, "spec.addresses["+strconv.Itoa(i)+"].type", "")
		}
		if tls := o.Spec.TLS; tls != nil && tls.Backend != nil && tls.Backend.ClientCertificateRef != nil {
			defaultSecretRef(&o.Meta, "spec.tls.backend.clientCertificateRef", tls.Backend.ClientCertificateRef)
		}
		if tls := o.Spec.TLS; tls != nil && tls.Frontend != nil {
			defaultValidationMode(&o.Meta, "spec.tls.frontend.default.validation.mode", tls.Frontend.Default.Validation)
			for i := range tls.Frontend.PerPort {
				defaultValidationMode(&o.Meta, "spec.tls.frontend.perPort["+strconv.Itoa(i)+"].tls.validation.mode", tls.Frontend.PerPort[i].TLS.Validation)
			}
		}
		if al := o.Spec.AllowedListeners; al != nil {
			// +kubebuilder:default={from: None} (AllowedListeners.Namespaces)
			setDefault(&o.Meta, &al.Namespaces, gwv1.ListenerNamespaces{}, "spec.allowedListeners.namespaces", "")
			// +kubebuilder:default=None (ListenerNamespaces.From)
			setDefault(&o.Meta, &al.Namespaces.From, gwv1.NamespacesFromNone, "spec.allowedListeners.namespaces.from", "")
		}
	case *ListenerSet:
		pr := &o.Spec.ParentRef
		// +kubebuilder:default="gateway.networking.k8s.io" / Gateway (ParentGatewayReference)
		setDefault(&o.Meta, &pr.Group, gwv1.Group(GroupGateway), "spec.parentRef.group", "")
		setDefault(&o.Meta, &pr.Kind, gwv1.Kind(KindGateway), "spec.parentRef.kind", "")
		// "When unspecified, this refers to the local namespace of the ListenerSet."
		setDefault(&o.Meta, &pr.Namespace, gwv1.Namespace(o.Ref.Namespace), "spec.parentRef.namespace", "")
		for i := range o.Spec.Listeners {
			l := &o.Spec.Listeners[i]
			defaultListener(&o.Meta, "spec.listeners["+strconv.Itoa(i)+"]", &l.AllowedRoutes, l.TLS)
		}
	case *Route:
		defaultRoute(o)
		o.index()
	}
}

// defaultValidationMode: +kubebuilder:default=AllowValidOnly
// (FrontendTLSValidation.Mode), a non-pointer field.
func defaultValidationMode(m *Meta, path string, v *gwv1.FrontendTLSValidation) {
	if v != nil && v.Mode == "" {
		v.Mode = gwv1.AllowValidOnly
		m.setDefaulted(path, "")
	}
}

// defaultSessionPersistence applies +kubebuilder:default=Cookie
// (SessionPersistence.Type) and =Session (CookieConfig.LifetimeType).
func defaultSessionPersistence(r *Route, path string, sp *gwv1.SessionPersistence) {
	if sp == nil {
		return
	}
	setDefault(&r.Meta, &sp.Type, gwv1.CookieBasedSessionPersistence, path, ".type")
	if sp.CookieConfig != nil {
		setDefault(&r.Meta, &sp.CookieConfig.LifetimeType, gwv1.SessionCookieLifetimeType, path, ".cookieConfig.lifetimeType")
	}
}

// defaultMirrorFraction: +kubebuilder:default=100 (Fraction.Denominator).
func defaultMirrorFraction(r *Route, path string, f *gwv1.HTTPRequestMirrorFilter) {
	if f.Fraction != nil {
		setDefault(&r.Meta, &f.Fraction.Denominator, int32(100), path, ".fraction.denominator")
	}
}

// defaultListener applies the defaults of a Gateway Listener or a
// ListenerSet ListenerEntry; both share AllowedRoutes and ListenerTLSConfig.
func defaultListener(m *Meta, path string, allowed **gwv1.AllowedRoutes, tls *gwv1.ListenerTLSConfig) {
	// +kubebuilder:default={namespaces:{from: Same}} (Listener.AllowedRoutes)
	setDefault(m, allowed, gwv1.AllowedRoutes{}, path, ".allowedRoutes")
	ar := *allowed
	// +kubebuilder:default={from: Same} (AllowedRoutes.Namespaces)
	setDefault(m, &ar.Namespaces, gwv1.RouteNamespaces{}, path, ".allowedRoutes.namespaces")
	// +kubebuilder:default=Same (RouteNamespaces.From)
	setDefault(m, &ar.Namespaces.From, gwv1.NamespacesFromSame, path, ".allowedRoutes.namespaces.from")
	for k := range ar.Kinds {
		// +kubebuilder:default=gateway.networking.k8s.io (RouteGroupKind.Group)
		setDefault(m, &ar.Kinds[k].Group, gwv1.Group(GroupGateway), path, ".allowedRoutes.kinds["+strconv.Itoa(k)+"].group")
	}
	if tls == nil {
		return
	}
	// +kubebuilder:default=Terminate (ListenerTLSConfig.Mode)
	setDefault(m, &tls.Mode, gwv1.TLSModeTerminate, path, ".tls.mode")
	for k := range tls.CertificateRefs {
		defaultSecretRef(m, path+".tls.certificateRefs["+strconv.Itoa(k)+"]", &tls.CertificateRefs[k])
	}
}

func defaultSecretRef(m *Meta, p string, ref *gwv1.SecretObjectReference) {
	// +kubebuilder:default="" and +kubebuilder:default=Secret (SecretObjectReference)
	setDefault(m, &ref.Group, gwv1.Group(GroupCore), p, ".group")
	setDefault(m, &ref.Kind, gwv1.Kind(KindSecret), p, ".kind")
	// "When unspecified, the local namespace is inferred."
	setDefault(m, &ref.Namespace, gwv1.Namespace(m.Ref.Namespace), p, ".namespace")
}

func defaultRoute(r *Route) {
	var parentRefs []gwv1.ParentReference
	switch {
	case r.HTTP != nil:
		parentRefs = r.HTTP.ParentRefs
		defaultHTTPRoute(r)
	case r.GRPC != nil:
		parentRefs = r.GRPC.ParentRefs
		defaultGRPCRoute(r)
	case r.TLS != nil:
		parentRefs = r.TLS.ParentRefs
		for i := range r.TLS.Rules {
			defaultBackendRefs(r, i, len(r.TLS.Rules[i].BackendRefs), func(j int) *gwv1.BackendRef { return &r.TLS.Rules[i].BackendRefs[j] })
		}
	case r.TCP != nil:
		parentRefs = r.TCP.ParentRefs
		for i := range r.TCP.Rules {
			defaultBackendRefs(r, i, len(r.TCP.Rules[i].BackendRefs), func(j int) *gwv1.BackendRef { return &r.TCP.Rules[i].BackendRefs[j] })
		}
	case r.UDP != nil:
		parentRefs = r.UDP.ParentRefs
		for i := range r.UDP.Rules {
			defaultBackendRefs(r, i, len(r.UDP.Rules[i].BackendRefs), func(j int) *gwv1.BackendRef { return &r.UDP.Rules[i].BackendRefs[j] })
		}
	}
	ns := routeNamespace(r)
	for i := range parentRefs {
		p := &parentRefs[i]
		path := parentRefPath(i)
		// +kubebuilder:default=gateway.networking.k8s.io (ParentReference.Group)
		setShared(&r.Meta, &p.Group, &sharedGatewayGroup, path, ".group")
		// +kubebuilder:default=Gateway (ParentReference.Kind)
		setShared(&r.Meta, &p.Kind, &sharedGatewayKind, path, ".kind")
		// "When unspecified, this refers to the local namespace of the Route."
		setShared(&r.Meta, &p.Namespace, ns, path, ".namespace")
	}
}

func defaultHTTPRoute(r *Route) {
	spec := r.HTTP
	// +kubebuilder:default={{matches: {{path: {type: "PathPrefix", value: "/"}}}}} (HTTPRouteSpec.Rules)
	if len(spec.Rules) == 0 {
		spec.Rules = []gwv1.HTTPRouteRule{{}}
		r.setDefaulted("spec.rules", "")
		r.setDefaulted("spec.rules[0]", "")
	}
	for i := range spec.Rules {
		rule := &spec.Rules[i]
		rp := rulePath(i)
		// +kubebuilder:default={{path:{ type: "PathPrefix", value: "/"}}} (HTTPRouteRule.Matches)
		// only when matches is absent: an explicit [] is kept, as the API
		// server keeps it.
		if rule.Matches == nil {
			rule.Matches = []gwv1.HTTPRouteMatch{{}}
			r.setDefaulted(rp, ".matches")
			r.setDefaulted(rp, ".matches[0]")
		}
		for j := range rule.Matches {
			m := &rule.Matches[j]
			mp := rp + ".matches[" + strconv.Itoa(j) + "]"
			// +kubebuilder:default={type: "PathPrefix", value: "/"} (HTTPRouteMatch.Path)
			setDefault(&r.Meta, &m.Path, gwv1.HTTPPathMatch{}, mp, ".path")
			// +kubebuilder:default=PathPrefix (HTTPPathMatch.Type)
			setShared(&r.Meta, &m.Path.Type, &sharedPathPrefix, mp, ".path.type")
			// +kubebuilder:default="/" (HTTPPathMatch.Value)
			setShared(&r.Meta, &m.Path.Value, &sharedRootPath, mp, ".path.value")
			for k := range m.Headers {
				// +kubebuilder:default=Exact (HTTPHeaderMatch.Type)
				setShared(&r.Meta, &m.Headers[k].Type, &sharedHeaderExact, mp, ".headers["+strconv.Itoa(k)+"].type")
			}
			for k := range m.QueryParams {
				// +kubebuilder:default=Exact (HTTPQueryParamMatch.Type)
				setShared(&r.Meta, &m.QueryParams[k].Type, &sharedQueryExact, mp, ".queryParams["+strconv.Itoa(k)+"].type")
			}
		}
		// Paths are joined only for what is there: most rules have no
		// session persistence and no filters.
		if rule.SessionPersistence != nil {
			defaultSessionPersistence(r, rp+".sessionPersistence", rule.SessionPersistence)
		}
		if len(rule.Filters) > 0 {
			defaultHTTPFilters(r, rp+".filters", rule.Filters)
		}
		for j := range rule.BackendRefs {
			if filters := rule.BackendRefs[j].Filters; len(filters) > 0 {
				defaultHTTPFilters(r, rp+".backendRefs["+strconv.Itoa(j)+"].filters", filters)
			}
		}
		defaultBackendRefs(r, i, len(rule.BackendRefs), func(j int) *gwv1.BackendRef { return &rule.BackendRefs[j].BackendRef })
	}
}

func defaultHTTPFilters(r *Route, path string, filters []gwv1.HTTPRouteFilter) {
	for k := range filters {
		f := &filters[k]
		fp := path + "[" + strconv.Itoa(k) + "]"
		// +kubebuilder:default=302 (HTTPRequestRedirectFilter.StatusCode)
		if f.RequestRedirect != nil {
			setDefault(&r.Meta, &f.RequestRedirect.StatusCode, 302, fp, ".requestRedirect.statusCode")
		}
		// +kubebuilder:default=5 (HTTPCORSFilter.MaxAge)
		if f.CORS != nil && f.CORS.MaxAge == 0 {
			f.CORS.MaxAge = 5
			r.setDefaulted(fp, ".cors.maxAge")
		}
		if f.RequestMirror != nil {
			defaultObjectRef(r, fp+".requestMirror.backendRef", &f.RequestMirror.BackendRef)
			defaultMirrorFraction(r, fp+".requestMirror", f.RequestMirror)
		}
		if f.ExternalAuth != nil {
			defaultObjectRef(r, fp+".externalAuth.backendRef", &f.ExternalAuth.BackendRef)
		}
	}
}

// defaultObjectRef applies BackendObjectReference's defaults.
func defaultObjectRef(r *Route, path string, b *gwv1.BackendObjectReference) {
	// +kubebuilder:default="" (BackendObjectReference.Group)
	setShared(&r.Meta, &b.Group, &sharedCoreGroup, path, ".group")
	// +kubebuilder:default=Service (BackendObjectReference.Kind)
	setShared(&r.Meta, &b.Kind, &sharedServiceKind, path, ".kind")
	// "When unspecified, the local namespace is inferred."
	if b.Namespace == nil {
		setShared(&r.Meta, &b.Namespace, routeNamespace(r), path, ".namespace")
	}
}

func defaultGRPCRoute(r *Route) {
	for i := range r.GRPC.Rules {
		rule := &r.GRPC.Rules[i]
		rp := "spec.rules[" + strconv.Itoa(i) + "]"
		if rule.SessionPersistence != nil {
			defaultSessionPersistence(r, rp+".sessionPersistence", rule.SessionPersistence)
		}
		for k := range rule.Filters {
			if f := rule.Filters[k].RequestMirror; f != nil {
				defaultObjectRef(r, rp+".filters["+strconv.Itoa(k)+"].requestMirror.backendRef", &f.BackendRef)
				defaultMirrorFraction(r, rp+".filters["+strconv.Itoa(k)+"].requestMirror", f)
			}
		}
		for j := range rule.BackendRefs {
			for k := range rule.BackendRefs[j].Filters {
				if f := rule.BackendRefs[j].Filters[k].RequestMirror; f != nil {
					fp := rp + ".backendRefs[" + strconv.Itoa(j) + "].filters[" + strconv.Itoa(k) + "].requestMirror"
					defaultObjectRef(r, fp+".backendRef", &f.BackendRef)
					defaultMirrorFraction(r, fp, f)
				}
			}
		}
		for j := range rule.Matches {
			m := &rule.Matches[j]
			mp := rp + ".matches[" + strconv.Itoa(j) + "]"
			// +kubebuilder:default=Exact (GRPCMethodMatch.Type)
			if m.Method != nil {
				setDefault(&r.Meta, &m.Method.Type, gwv1.GRPCMethodMatchExact, mp, ".method.type")
			}
			for k := range m.Headers {
				// +kubebuilder:default=Exact (GRPCHeaderMatch.Type)
				setDefault(&r.Meta, &m.Headers[k].Type, gwv1.GRPCHeaderMatchExact, mp, ".headers["+strconv.Itoa(k)+"].type")
			}
		}
		defaultBackendRefs(r, i, len(rule.BackendRefs), func(j int) *gwv1.BackendRef { return &rule.BackendRefs[j].BackendRef })
	}
}

// defaultBackendRefs applies GEP-718's defaults to the backendRefs of rule i.
func defaultBackendRefs(r *Route, rule, n int, ref func(int) *gwv1.BackendRef) {
	for j := 0; j < n; j++ {
		b := ref(j)
		bp := backendRefPath(rule, j)
		defaultObjectRef(r, bp, &b.BackendObjectReference)
		// +kubebuilder:default=1 (BackendRef.Weight)
		setShared(&r.Meta, &b.Weight, &sharedWeight, bp, ".weight")
	}
}

// index builds the kind-independent view of a defaulted route.
func (r *Route) index() {
	r.Rules = r.Rules[:0]
	switch {
	case r.HTTP != nil:
		r.ParentRefs, r.Hostnames = r.HTTP.ParentRefs, r.HTTP.Hostnames
		r.Rules = slices.Grow(r.Rules, len(r.HTTP.Rules))
		for i, rule := range r.HTTP.Rules {
			refs := make([]RuleBackendRef, len(rule.BackendRefs))
			rp := rulePath(i)
			filterRefs := httpFilterRefs(rp+".filters", rule.Filters)
			for j, b := range rule.BackendRefs {
				refs[j] = RuleBackendRef{BackendRef: &rule.BackendRefs[j].BackendRef, Filters: len(b.Filters)}
				if len(b.Filters) == 0 {
					continue
				}
				bp := backendRefPath(i, j) + ".filters"
				refs[j].FilterProblems = httpFilterProblems(bp, b.Filters, true)
				refs[j].FilterTypes = typesOf(b.Filters, httpFilterType)
				filterRefs = append(filterRefs, httpFilterRefs(bp, b.Filters)...)
			}
			added := r.addRule(i, rule.Name, refs, len(rule.Filters))
			added.FilterRefs, added.RegexProblems = filterRefs, httpRegexProblems(rp, &r.HTTP.Rules[i])
			added.FilterProblems = httpFilterProblems(rp+".filters", rule.Filters, false)
			added.FilterTypes = typesOf(rule.Filters, httpFilterType)
		}
	case r.GRPC != nil:
		r.ParentRefs, r.Hostnames = r.GRPC.ParentRefs, r.GRPC.Hostnames
		r.Rules = slices.Grow(r.Rules, len(r.GRPC.Rules))
		for i, rule := range r.GRPC.Rules {
			refs := make([]RuleBackendRef, len(rule.BackendRefs))
			rp := rulePath(i)
			filterRefs := grpcFilterRefs(rp+".filters", rule.Filters)
			for j, b := range rule.BackendRefs {
				refs[j] = RuleBackendRef{BackendRef: &rule.BackendRefs[j].BackendRef, Filters: len(b.Filters)}
				if len(b.Filters) == 0 {
					continue
				}
				bp := backendRefPath(i, j) + ".filters"
				refs[j].FilterProblems = grpcFilterProblems(bp, b.Filters)
				refs[j].FilterTypes = typesOf(b.Filters, grpcFilterType)
				filterRefs = append(filterRefs, grpcFilterRefs(bp, b.Filters)...)
			}
			added := r.addRule(i, rule.Name, refs, len(rule.Filters))
			added.FilterRefs, added.RegexProblems = filterRefs, grpcRegexProblems(rp, &r.GRPC.Rules[i])
			added.FilterProblems = grpcFilterProblems(rp+".filters", rule.Filters)
			added.FilterTypes = typesOf(rule.Filters, grpcFilterType)
		}
	case r.TLS != nil:
		r.ParentRefs, r.Hostnames = r.TLS.ParentRefs, r.TLS.Hostnames
		r.Rules = slices.Grow(r.Rules, len(r.TLS.Rules))
		for i, rule := range r.TLS.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	case r.TCP != nil:
		r.ParentRefs = r.TCP.ParentRefs
		r.Rules = slices.Grow(r.Rules, len(r.TCP.Rules))
		for i, rule := range r.TCP.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	case r.UDP != nil:
		r.ParentRefs = r.UDP.ParentRefs
		r.Rules = slices.Grow(r.Rules, len(r.UDP.Rules))
		for i, rule := range r.UDP.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	}
}

func plainRefs(refs []gwv1.BackendRef) []RuleBackendRef {
	out := make([]RuleBackendRef, len(refs))
	for j := range refs {
		out[j] = RuleBackendRef{BackendRef: &refs[j]}
	}
	return out
}

func httpFilterRefs(path string, filters []gwv1.HTTPRouteFilter) []FilterBackendRef {
	var out []FilterBackendRef
	for k, f := range filters {
		fp := path + "[" + strconv.Itoa(k) + "]"
		if f.RequestMirror != nil {
			out = append(out, FilterBackendRef{Path: fp + ".requestMirror.backendRef", Filter: string(f.Type), BackendObjectReference: &f.RequestMirror.BackendRef})
		}
		if f.ExternalAuth != nil {
			out = append(out, FilterBackendRef{Path: fp + ".externalAuth.backendRef", Filter: string(f.Type), BackendObjectReference: &f.ExternalAuth.BackendRef})
		}
	}
	return out
}

func grpcFilterRefs(path string, filters []gwv1.GRPCRouteFilter) []FilterBackendRef {
	var out []FilterBackendRef
	for k, f := range filters {
		if f.RequestMirror != nil {
			out = append(out, FilterBackendRef{Path: path + "[" + strconv.Itoa(k) + "].requestMirror.backendRef", Filter: string(f.Type), BackendObjectReference: &f.RequestMirror.BackendRef})
		}
	}
	return out
}

func (r *Route) addRule(i int, name *gwv1.SectionName, refs []RuleBackendRef, filters int) *RouteRule {
	rule := RouteRule{Index: i, Path: rulePath(i), BackendRefs: refs, Filters: filters}
	if name != nil {
		rule.Name = string(*name)
	}
	for j := range refs {
		refs[j].Index = j
		refs[j].Path = backendRefPath(i, j)
		refs[j].WeightDefaulted = r.Defaulted.hasJoined(refs[j].Path, ".weight")
	}
	r.Rules = append(r.Rules, rule)
	return &r.Rules[len(r.Rules)-1]
}

// sharedPaths is how many rules, and backendRefs of each, have their
// paths built once (rulePaths, backendRefPaths) for every route's index:
// most routes have no more, and tens of thousands of routes would
// otherwise each hold copies of the same few strings.
const sharedPaths = 8

var rulePaths, backendRefPaths = func() (rules [sharedPaths]string, refs [sharedPaths][sharedPaths]string) {
	for i := range rules {
		rules[i] = "spec.rules[" + strconv.Itoa(i) + "]"
		for j := range refs[i] {
			refs[i][j] = rules[i] + ".backendRefs[" + strconv.Itoa(j) + "]"
		}
	}
	return rules, refs
}()

// rulePath is "spec.rules[i]".
func rulePath(i int) string {
	if i < sharedPaths {
		return rulePaths[i]
	}
	return "spec.rules[" + strconv.Itoa(i) + "]"
}

// parentRefPaths are the first paths of parentRefPath, built once like
// rulePaths.
var parentRefPaths = func() (paths [sharedPaths]string) {
	for i := range paths {
		paths[i] = "spec.parentRefs[" + strconv.Itoa(i) + "]"
	}
	return paths
}()

// parentRefPath is "spec.parentRefs[i]".
func parentRefPath(i int) string {
	if i < sharedPaths {
		return parentRefPaths[i]
	}
	return "spec.parentRefs[" + strconv.Itoa(i) + "]"
}

// backendRefPath is "spec.rules[i].backendRefs[j]".
func backendRefPath(i, j int) string {
	if i < sharedPaths && j < sharedPaths {
		return backendRefPaths[i][j]
	}
	return rulePath(i) + ".backendRefs[" + strconv.Itoa(j) + "]"
}

// setDefault fills an optional field that was not written with its default
// and records path+suffix as defaulted. The path comes in two parts so that
// no string is built for the (common) fields that were written.
func setDefault[T any](m *Meta, field **T, value T, path, suffix string) {
	if *field == nil {
		*field = &value
		m.setDefaulted(path, suffix)
	}
}

// setShared is setDefault with a value that many fields share (the
// shared* defaults, a route's namespace), for a scalar field: nothing
// writes through a field of a loaded object, so one copy serves them all,
// where every backendRef of every route had copies of its own.
func setShared[T any](m *Meta, field **T, shared *T, path, suffix string) {
	if *field == nil {
		*field = shared
		m.setDefaulted(path, suffix)
	}
}

// The scalar defaults every route repeats, one copy each (setShared).
// TestSharedDefaultsUnchanged checks that a check leaves them as they are.
var (
	sharedGatewayGroup = gwv1.Group(GroupGateway)
	sharedCoreGroup    = gwv1.Group(GroupCore)
	sharedGatewayKind  = gwv1.Kind(KindGateway)
	sharedServiceKind  = gwv1.Kind(KindService)
	sharedPathPrefix   = gwv1.PathMatchPathPrefix
	sharedRootPath     = "/"
	sharedHeaderExact  = gwv1.HeaderMatchExact
	sharedQueryExact   = gwv1.QueryParamMatchExact
	sharedWeight       = int32(1)
)

// routeNamespace is the value of the namespace fields defaulted to the
// route's own, one per route.
func routeNamespace(r *Route) *gwv1.Namespace {
	if r.defaultNamespace == nil {
		ns := gwv1.Namespace(r.Ref.Namespace)
		r.defaultNamespace = &ns
	}
	return r.defaultNamespace
}
