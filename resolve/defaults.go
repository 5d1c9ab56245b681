package resolve

import (
	"strconv"

	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Defaulting, in one place. Each default cites the +kubebuilder:default
// marker (CRD defaulting, done by the API server on create) or the spec
// sentence (implicit defaults a controller applies) it implements, and
// records the defaulted field path so output can say "(default)".

func applyDefaults(obj Object) {
	switch o := obj.(type) {
	case *Gateway:
		for i := range o.Spec.Listeners {
			l := &o.Spec.Listeners[i]
			defaultListener(&o.Meta, "spec.listeners["+strconv.Itoa(i)+"]", &l.AllowedRoutes, l.TLS)
		}
		for i := range o.Spec.Addresses {
			// +kubebuilder:default=IPAddress (GatewaySpecAddress.Type)
			if o.Spec.Addresses[i].Type == nil {
				t := gwv1.IPAddressType
				o.Spec.Addresses[i].Type = &t
				o.setDefaulted("spec.addresses[" + strconv.Itoa(i) + "].type")
			}
		}
		if tls := o.Spec.TLS; tls != nil && tls.Backend != nil && tls.Backend.ClientCertificateRef != nil {
			defaultSecretRef(&o.Meta, "spec.tls.backend.clientCertificateRef", tls.Backend.ClientCertificateRef)
		}
		if al := o.Spec.AllowedListeners; al != nil {
			// +kubebuilder:default={from: None} (AllowedListeners.Namespaces)
			if al.Namespaces == nil {
				al.Namespaces = &gwv1.ListenerNamespaces{}
				o.setDefaulted("spec.allowedListeners.namespaces")
			}
			// +kubebuilder:default=None (ListenerNamespaces.From)
			if al.Namespaces.From == nil {
				from := gwv1.NamespacesFromNone
				al.Namespaces.From = &from
				o.setDefaulted("spec.allowedListeners.namespaces.from")
			}
		}
	case *ListenerSet:
		pr := &o.Spec.ParentRef
		// +kubebuilder:default="gateway.networking.k8s.io" / Gateway (ParentGatewayReference)
		if pr.Group == nil {
			g := gwv1.Group(GroupGateway)
			pr.Group = &g
			o.setDefaulted("spec.parentRef.group")
		}
		if pr.Kind == nil {
			k := gwv1.Kind(KindGateway)
			pr.Kind = &k
			o.setDefaulted("spec.parentRef.kind")
		}
		// "When unspecified, this refers to the local namespace of the ListenerSet."
		if pr.Namespace == nil {
			ns := gwv1.Namespace(o.Ref.Namespace)
			pr.Namespace = &ns
			o.setDefaulted("spec.parentRef.namespace")
		}
		for i := range o.Spec.Listeners {
			l := &o.Spec.Listeners[i]
			defaultListener(&o.Meta, "spec.listeners["+strconv.Itoa(i)+"]", &l.AllowedRoutes, l.TLS)
		}
	case *Route:
		defaultRoute(o)
		o.index()
	}
}

// defaultListener applies the defaults of a Gateway Listener or a
// ListenerSet ListenerEntry; both share AllowedRoutes and ListenerTLSConfig.
func defaultListener(m *Meta, path string, allowed **gwv1.AllowedRoutes, tls *gwv1.ListenerTLSConfig) {
	// +kubebuilder:default={namespaces:{from: Same}} (Listener.AllowedRoutes)
	if *allowed == nil {
		*allowed = &gwv1.AllowedRoutes{}
		m.setDefaulted(path + ".allowedRoutes")
	}
	ar := *allowed
	// +kubebuilder:default={from: Same} (AllowedRoutes.Namespaces)
	if ar.Namespaces == nil {
		ar.Namespaces = &gwv1.RouteNamespaces{}
		m.setDefaulted(path + ".allowedRoutes.namespaces")
	}
	// +kubebuilder:default=Same (RouteNamespaces.From)
	if ar.Namespaces.From == nil {
		from := gwv1.NamespacesFromSame
		ar.Namespaces.From = &from
		m.setDefaulted(path + ".allowedRoutes.namespaces.from")
	}
	for k := range ar.Kinds {
		// +kubebuilder:default=gateway.networking.k8s.io (RouteGroupKind.Group)
		if ar.Kinds[k].Group == nil {
			g := gwv1.Group(GroupGateway)
			ar.Kinds[k].Group = &g
			m.setDefaulted(path + ".allowedRoutes.kinds[" + strconv.Itoa(k) + "].group")
		}
	}
	if tls == nil {
		return
	}
	// +kubebuilder:default=Terminate (ListenerTLSConfig.Mode)
	if tls.Mode == nil {
		mode := gwv1.TLSModeTerminate
		tls.Mode = &mode
		m.setDefaulted(path + ".tls.mode")
	}
	for k := range tls.CertificateRefs {
		defaultSecretRef(m, path+".tls.certificateRefs["+strconv.Itoa(k)+"]", &tls.CertificateRefs[k])
	}
}

func defaultSecretRef(m *Meta, p string, ref *gwv1.SecretObjectReference) {
	// +kubebuilder:default="" and +kubebuilder:default=Secret (SecretObjectReference)
	if ref.Group == nil {
		g := gwv1.Group(GroupCore)
		ref.Group = &g
		m.setDefaulted(p + ".group")
	}
	if ref.Kind == nil {
		kind := gwv1.Kind(KindSecret)
		ref.Kind = &kind
		m.setDefaulted(p + ".kind")
	}
	// "When unspecified, the local namespace is inferred."
	if ref.Namespace == nil {
		ns := gwv1.Namespace(m.Ref.Namespace)
		ref.Namespace = &ns
		m.setDefaulted(p + ".namespace")
	}
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
	for i := range parentRefs {
		p := &parentRefs[i]
		path := "spec.parentRefs[" + strconv.Itoa(i) + "]"
		// +kubebuilder:default=gateway.networking.k8s.io (ParentReference.Group)
		if p.Group == nil {
			g := gwv1.Group(GroupGateway)
			p.Group = &g
			r.setDefaulted(path + ".group")
		}
		// +kubebuilder:default=Gateway (ParentReference.Kind)
		if p.Kind == nil {
			k := gwv1.Kind(KindGateway)
			p.Kind = &k
			r.setDefaulted(path + ".kind")
		}
		// "When unspecified, this refers to the local namespace of the Route."
		if p.Namespace == nil {
			ns := gwv1.Namespace(r.Ref.Namespace)
			p.Namespace = &ns
			r.setDefaulted(path + ".namespace")
		}
	}
}

func defaultHTTPRoute(r *Route) {
	spec := r.HTTP
	// +kubebuilder:default={{matches: {{path: {type: "PathPrefix", value: "/"}}}}} (HTTPRouteSpec.Rules)
	if len(spec.Rules) == 0 {
		spec.Rules = []gwv1.HTTPRouteRule{{}}
		r.setDefaulted("spec.rules")
		r.setDefaulted("spec.rules[0]")
	}
	for i := range spec.Rules {
		rule := &spec.Rules[i]
		rp := "spec.rules[" + strconv.Itoa(i) + "]"
		// +kubebuilder:default={{path:{ type: "PathPrefix", value: "/"}}} (HTTPRouteRule.Matches)
		if len(rule.Matches) == 0 {
			rule.Matches = []gwv1.HTTPRouteMatch{{}}
			r.setDefaulted(rp + ".matches")
			r.setDefaulted(rp + ".matches[0]")
		}
		for j := range rule.Matches {
			m := &rule.Matches[j]
			mp := rp + ".matches[" + strconv.Itoa(j) + "]"
			// +kubebuilder:default={type: "PathPrefix", value: "/"} (HTTPRouteMatch.Path)
			if m.Path == nil {
				m.Path = &gwv1.HTTPPathMatch{}
				r.setDefaulted(mp + ".path")
			}
			// +kubebuilder:default=PathPrefix (HTTPPathMatch.Type)
			if m.Path.Type == nil {
				t := gwv1.PathMatchPathPrefix
				m.Path.Type = &t
				r.setDefaulted(mp + ".path.type")
			}
			// +kubebuilder:default="/" (HTTPPathMatch.Value)
			if m.Path.Value == nil {
				v := "/"
				m.Path.Value = &v
				r.setDefaulted(mp + ".path.value")
			}
			for k := range m.Headers {
				// +kubebuilder:default=Exact (HTTPHeaderMatch.Type)
				if m.Headers[k].Type == nil {
					t := gwv1.HeaderMatchExact
					m.Headers[k].Type = &t
					r.setDefaulted(mp + ".headers[" + strconv.Itoa(k) + "].type")
				}
			}
			for k := range m.QueryParams {
				// +kubebuilder:default=Exact (HTTPQueryParamMatch.Type)
				if m.QueryParams[k].Type == nil {
					t := gwv1.QueryParamMatchExact
					m.QueryParams[k].Type = &t
					r.setDefaulted(mp + ".queryParams[" + strconv.Itoa(k) + "].type")
				}
			}
		}
		defaultHTTPFilters(r, rp+".filters", rule.Filters)
		for j := range rule.BackendRefs {
			defaultHTTPFilters(r, rp+".backendRefs["+strconv.Itoa(j)+"].filters", rule.BackendRefs[j].Filters)
		}
		defaultBackendRefs(r, i, len(rule.BackendRefs), func(j int) *gwv1.BackendRef { return &rule.BackendRefs[j].BackendRef })
	}
}

func defaultHTTPFilters(r *Route, path string, filters []gwv1.HTTPRouteFilter) {
	for k := range filters {
		f := &filters[k]
		fp := path + "[" + strconv.Itoa(k) + "]"
		// +kubebuilder:default=302 (HTTPRequestRedirectFilter.StatusCode)
		if f.RequestRedirect != nil && f.RequestRedirect.StatusCode == nil {
			code := 302
			f.RequestRedirect.StatusCode = &code
			r.setDefaulted(fp + ".requestRedirect.statusCode")
		}
		// +kubebuilder:default=5 (HTTPCORSFilter.MaxAge)
		if f.CORS != nil && f.CORS.MaxAge == 0 {
			f.CORS.MaxAge = 5
			r.setDefaulted(fp + ".cors.maxAge")
		}
		if f.RequestMirror != nil {
			defaultObjectRef(r, fp+".requestMirror.backendRef", &f.RequestMirror.BackendRef)
		}
		if f.ExternalAuth != nil {
			defaultObjectRef(r, fp+".externalAuth.backendRef", &f.ExternalAuth.BackendRef)
		}
	}
}

// defaultObjectRef applies BackendObjectReference's defaults.
func defaultObjectRef(r *Route, path string, b *gwv1.BackendObjectReference) {
	// +kubebuilder:default="" (BackendObjectReference.Group)
	if b.Group == nil {
		g := gwv1.Group(GroupCore)
		b.Group = &g
		r.setDefaulted(path + ".group")
	}
	// +kubebuilder:default=Service (BackendObjectReference.Kind)
	if b.Kind == nil {
		k := gwv1.Kind(KindService)
		b.Kind = &k
		r.setDefaulted(path + ".kind")
	}
	// "When unspecified, the local namespace is inferred."
	if b.Namespace == nil {
		ns := gwv1.Namespace(r.Ref.Namespace)
		b.Namespace = &ns
		r.setDefaulted(path + ".namespace")
	}
}

func defaultGRPCRoute(r *Route) {
	for i := range r.GRPC.Rules {
		rule := &r.GRPC.Rules[i]
		rp := "spec.rules[" + strconv.Itoa(i) + "]"
		for k := range rule.Filters {
			if f := rule.Filters[k].RequestMirror; f != nil {
				defaultObjectRef(r, rp+".filters["+strconv.Itoa(k)+"].requestMirror.backendRef", &f.BackendRef)
			}
		}
		for j := range rule.BackendRefs {
			for k := range rule.BackendRefs[j].Filters {
				if f := rule.BackendRefs[j].Filters[k].RequestMirror; f != nil {
					defaultObjectRef(r, rp+".backendRefs["+strconv.Itoa(j)+"].filters["+strconv.Itoa(k)+"].requestMirror.backendRef", &f.BackendRef)
				}
			}
		}
		for j := range rule.Matches {
			m := &rule.Matches[j]
			mp := rp + ".matches[" + strconv.Itoa(j) + "]"
			// +kubebuilder:default=Exact (GRPCMethodMatch.Type)
			if m.Method != nil && m.Method.Type == nil {
				t := gwv1.GRPCMethodMatchExact
				m.Method.Type = &t
				r.setDefaulted(mp + ".method.type")
			}
			for k := range m.Headers {
				// +kubebuilder:default=Exact (GRPCHeaderMatch.Type)
				if m.Headers[k].Type == nil {
					t := gwv1.GRPCHeaderMatchExact
					m.Headers[k].Type = &t
					r.setDefaulted(mp + ".headers[" + strconv.Itoa(k) + "].type")
				}
			}
		}
		defaultBackendRefs(r, i, len(rule.BackendRefs), func(j int) *gwv1.BackendRef { return &rule.BackendRefs[j].BackendRef })
	}
}

// defaultBackendRefs applies GEP-718's defaults to the backendRefs of rule i.
func defaultBackendRefs(r *Route, rule, n int, ref func(int) *gwv1.BackendRef) {
	for j := 0; j < n; j++ {
		b := ref(j)
		bp := "spec.rules[" + strconv.Itoa(rule) + "].backendRefs[" + strconv.Itoa(j) + "]"
		defaultObjectRef(r, bp, &b.BackendObjectReference)
		// +kubebuilder:default=1 (BackendRef.Weight)
		if b.Weight == nil {
			w := int32(1)
			b.Weight = &w
			r.setDefaulted(bp + ".weight")
		}
	}
}

// index builds the kind-independent view of a defaulted route.
func (r *Route) index() {
	r.Rules = r.Rules[:0]
	switch {
	case r.HTTP != nil:
		r.ParentRefs, r.Hostnames = r.HTTP.ParentRefs, r.HTTP.Hostnames
		for i, rule := range r.HTTP.Rules {
			refs := make([]RuleBackendRef, len(rule.BackendRefs))
			rp := "spec.rules[" + strconv.Itoa(i) + "]"
			filterRefs := httpFilterRefs(rp+".filters", rule.Filters)
			for j, b := range rule.BackendRefs {
				refs[j] = RuleBackendRef{BackendRef: b.BackendRef, Filters: len(b.Filters)}
				filterRefs = append(filterRefs, httpFilterRefs(rp+".backendRefs["+strconv.Itoa(j)+"].filters", b.Filters)...)
			}
			r.addRule(i, rule.Name, refs, len(rule.Filters)).FilterRefs = filterRefs
		}
	case r.GRPC != nil:
		r.ParentRefs, r.Hostnames = r.GRPC.ParentRefs, r.GRPC.Hostnames
		for i, rule := range r.GRPC.Rules {
			refs := make([]RuleBackendRef, len(rule.BackendRefs))
			rp := "spec.rules[" + strconv.Itoa(i) + "]"
			filterRefs := grpcFilterRefs(rp+".filters", rule.Filters)
			for j, b := range rule.BackendRefs {
				refs[j] = RuleBackendRef{BackendRef: b.BackendRef, Filters: len(b.Filters)}
				filterRefs = append(filterRefs, grpcFilterRefs(rp+".backendRefs["+strconv.Itoa(j)+"].filters", b.Filters)...)
			}
			r.addRule(i, rule.Name, refs, len(rule.Filters)).FilterRefs = filterRefs
		}
	case r.TLS != nil:
		r.ParentRefs, r.Hostnames = r.TLS.ParentRefs, r.TLS.Hostnames
		for i, rule := range r.TLS.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	case r.TCP != nil:
		r.ParentRefs = r.TCP.ParentRefs
		for i, rule := range r.TCP.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	case r.UDP != nil:
		r.ParentRefs = r.UDP.ParentRefs
		for i, rule := range r.UDP.Rules {
			r.addRule(i, rule.Name, plainRefs(rule.BackendRefs), 0)
		}
	}
}

func plainRefs(refs []gwv1.BackendRef) []RuleBackendRef {
	out := make([]RuleBackendRef, len(refs))
	for j, b := range refs {
		out[j] = RuleBackendRef{BackendRef: b}
	}
	return out
}

func httpFilterRefs(path string, filters []gwv1.HTTPRouteFilter) []FilterBackendRef {
	var out []FilterBackendRef
	for k, f := range filters {
		fp := path + "[" + strconv.Itoa(k) + "]"
		if f.RequestMirror != nil {
			out = append(out, FilterBackendRef{Path: fp + ".requestMirror.backendRef", Filter: string(f.Type), BackendObjectReference: f.RequestMirror.BackendRef})
		}
		if f.ExternalAuth != nil {
			out = append(out, FilterBackendRef{Path: fp + ".externalAuth.backendRef", Filter: string(f.Type), BackendObjectReference: f.ExternalAuth.BackendRef})
		}
	}
	return out
}

func grpcFilterRefs(path string, filters []gwv1.GRPCRouteFilter) []FilterBackendRef {
	var out []FilterBackendRef
	for k, f := range filters {
		if f.RequestMirror != nil {
			out = append(out, FilterBackendRef{Path: path + "[" + strconv.Itoa(k) + "].requestMirror.backendRef", Filter: string(f.Type), BackendObjectReference: f.RequestMirror.BackendRef})
		}
	}
	return out
}

func (r *Route) addRule(i int, name *gwv1.SectionName, refs []RuleBackendRef, filters int) *Rule {
	rule := Rule{Index: i, Path: "spec.rules[" + strconv.Itoa(i) + "]", BackendRefs: refs, Filters: filters}
	if name != nil {
		rule.Name = string(*name)
	}
	for j := range refs {
		refs[j].Index = j
		refs[j].Path = rule.Path + ".backendRefs[" + strconv.Itoa(j) + "]"
	}
	r.Rules = append(r.Rules, rule)
	return &r.Rules[len(r.Rules)-1]
}
