package resolve

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
	gwv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Objects that other objects create. A repository keeps a TLS Secret as a
// cert-manager Certificate, a Service as a Flagger Canary, never as the
// object a reference names: that object is not in git, as it should not
// be. An object that an input will create is Generated: it exists, and its
// contents (a Service's ports, a Secret's certificate) are unknown, so
// nothing that depends on them is an error.
//
// generators is the table of what creates what, one row per kind of
// creator, each citing its project's documentation. To teach gwlint a new
// operator, add a row: its group and kinds, and a function from one object
// to what it creates.
var generators = []generatorRow{{
	Project: "cert-manager", Group: "cert-manager.io", Kinds: []string{"Certificate"},
	Source: "https://cert-manager.io/docs/usage/certificate/",
	// "spec.secretName: the name of the Secret resource that will be
	// automatically created and managed by this Certificate", in the
	// Certificate's namespace.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				SecretName string `json:"secretName"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		return sameNamespace(o, KindSecret, doc.Spec.SecretName)
	},
}, {
	Project: "cert-manager", Group: GroupGateway, Kinds: []string{KindGateway},
	Source: "https://cert-manager.io/docs/usage/gateway/",
	// The gateway-shim: a Gateway annotated cert-manager.io/issuer or
	// cert-manager.io/cluster-issuer gets a Certificate, hence a Secret,
	// for each certificateRef of each listener it can serve
	// (certificate-shim's validateGatewayListenerBlock).
	creates: func(o Object) []Creation {
		gw := o.(*Gateway)
		issuer := gw.Annotations.Has("cert-manager.io/issuer")
		clusterIssuer := gw.Annotations.Has("cert-manager.io/cluster-issuer")
		if !issuer && !clusterIssuer {
			return nil
		}
		var out []Creation
		for _, l := range gw.Spec.Listeners {
			if !certManagerServes(l, gw.Ref.Namespace) {
				continue
			}
			for _, ref := range l.TLS.CertificateRefs {
				out = append(out, Creation{Ref: ObjectRef{Kind: KindSecret, Namespace: gw.Ref.Namespace, Name: string(ref.Name)}})
			}
		}
		return out
	},
}, {
	Project: "trust-manager", Group: "trust.cert-manager.io", Kinds: []string{"Bundle"}, ClusterScoped: true,
	Source: "https://cert-manager.io/docs/trust/trust-manager/",
	// A Bundle writes its CA certificates to a ConfigMap and/or a Secret
	// named after it, in every namespace its namespaceSelector selects
	// (by labels: any namespace may be one).
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				Target struct {
					ConfigMap *json.RawMessage `json:"configMap"`
					Secret    *json.RawMessage `json:"secret"`
				} `json:"target"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		var out []Creation
		if doc.Spec.Target.ConfigMap != nil {
			out = append(out, Creation{Ref: ObjectRef{Kind: KindConfigMap, Name: o.Metadata().Ref.Name}, AnyNamespace: true})
		}
		if doc.Spec.Target.Secret != nil {
			out = append(out, Creation{Ref: ObjectRef{Kind: KindSecret, Name: o.Metadata().Ref.Name}, AnyNamespace: true})
		}
		return out
	},
}, {
	Project: "External Secrets Operator", Group: "external-secrets.io", Kinds: []string{"ExternalSecret"},
	Source: "https://external-secrets.io/latest/api/externalsecret/",
	// ExternalSecretSpec.Secret; Merge writes into a Secret that must
	// exist.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec ExternalSecretSpec `json:"spec"`
		}
		decodeCreator(o, &doc)
		return sameNamespace(o, KindSecret, doc.Spec.Secret(o.Metadata().Ref.Name))
	},
}, {
	Project: "External Secrets Operator", Group: "external-secrets.io", Kinds: []string{"ClusterExternalSecret"}, ClusterScoped: true,
	Source: "https://external-secrets.io/latest/api/clusterexternalsecret/",
	// An ExternalSecret named spec.externalSecretName (default: its own
	// name) in each namespace it selects: those spec.namespaces lists, and
	// any namespace when label selectors choose them.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				ExternalSecretName string             `json:"externalSecretName"`
				ExternalSecretSpec ExternalSecretSpec `json:"externalSecretSpec"`
				Namespaces         []string           `json:"namespaces"`
				NamespaceSelector  *json.RawMessage   `json:"namespaceSelector"`
				NamespaceSelectors []json.RawMessage  `json:"namespaceSelectors"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		spec := doc.Spec
		name := spec.ExternalSecretSpec.Secret(cmp.Or(spec.ExternalSecretName, o.Metadata().Ref.Name))
		if name == "" {
			return nil
		}
		if spec.NamespaceSelector != nil || len(spec.NamespaceSelectors) > 0 {
			return []Creation{{Ref: ObjectRef{Kind: KindSecret, Name: name}, AnyNamespace: true}}
		}
		var out []Creation
		for _, ns := range spec.Namespaces {
			out = append(out, Creation{Ref: ObjectRef{Kind: KindSecret, Namespace: ns, Name: name}})
		}
		return out
	},
}, {
	Project: "Sealed Secrets", Group: "bitnami.com", Kinds: []string{"SealedSecret"},
	Source: "https://github.com/bitnami-labs/sealed-secrets#sealedsecrets-as-templates-for-secrets",
	// The controller unseals it into a Secret of its own name and
	// namespace, whatever spec.template.metadata says (Unseal: "Ensure
	// these are set to what we expect").
	creates: func(o Object) []Creation {
		return sameNamespace(o, KindSecret, o.Metadata().Ref.Name)
	},
}, {
	Project: "Vault Secrets Operator", Group: "secrets.hashicorp.com",
	Kinds:  []string{"VaultStaticSecret", "VaultDynamicSecret", "VaultPKISecret", "HCPVaultSecretsApp"},
	Source: "https://developer.hashicorp.com/vault/docs/deploy/kubernetes/vso/api-reference",
	// spec.destination.name in the object's namespace: created when
	// destination.create is set, else one that must exist already, which
	// the operator writes to.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				Destination struct {
					Name string `json:"name"`
				} `json:"destination"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		return sameNamespace(o, KindSecret, doc.Spec.Destination.Name)
	},
}, {
	Project: "1Password Connect Operator", Group: "onepassword.com", Kinds: []string{"OnePasswordItem"},
	Source: "https://github.com/1Password/onepassword-operator#usage",
	// "a Kubernetes Secret with the same name as the OnePasswordItem", in
	// its namespace.
	creates: func(o Object) []Creation {
		return sameNamespace(o, KindSecret, o.Metadata().Ref.Name)
	},
}, {
	Project: "Flagger", Group: "flagger.app", Kinds: []string{"Canary"},
	Source: "https://docs.flagger.app/usage/how-it-works",
	// The apex Service spec.service.name (default spec.targetRef.name) and
	// its -primary and -canary Services, in the Canary's namespace.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				TargetRef struct {
					Name string `json:"name"`
				} `json:"targetRef"`
				Service struct {
					Name string `json:"name"`
				} `json:"service"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		apex := cmp.Or(doc.Spec.Service.Name, doc.Spec.TargetRef.Name)
		if apex == "" {
			return nil
		}
		var out []Creation
		for _, name := range []string{apex, apex + "-primary", apex + "-canary"} {
			out = append(out, Creation{Ref: ObjectRef{Kind: KindService, Namespace: o.Metadata().Ref.Namespace, Name: name}})
		}
		return out
	},
}, {
	Project: "KServe", Group: "serving.kserve.io", Kinds: []string{"InferenceService"},
	Source: "https://github.com/kserve/kserve/blob/aaac4e294dae2c7b1aa1886447793f3aa1c30912/pkg/constants/constants.go",
	// The predictor's Service, NAME-predictor (NAME-PREDICTOR-predictor
	// with spec.predictor.name: PredictorServiceName), and NAME-transformer
	// and NAME-explainer for those components, in the InferenceService's
	// namespace: raw deployments' own Services, or Knative's for its
	// Knative Services of those names.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				Predictor struct {
					Name string `json:"name"`
				} `json:"predictor"`
				Transformer *json.RawMessage `json:"transformer"`
				Explainer   *json.RawMessage `json:"explainer"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		name := o.Metadata().Ref.Name
		names := []string{name + "-predictor"}
		if p := doc.Spec.Predictor.Name; p != "" {
			names[0] = name + "-" + p + "-predictor"
		}
		if doc.Spec.Transformer != nil {
			names = append(names, name+"-transformer")
		}
		if doc.Spec.Explainer != nil {
			names = append(names, name+"-explainer")
		}
		var out []Creation
		for _, n := range names {
			out = append(out, sameNamespace(o, KindService, n)...)
		}
		return out
	},
}, {
	Project: "Flux", Group: "helm.toolkit.fluxcd.io", Kinds: []string{"HelmRelease"},
	Source: "https://fluxcd.io/flux/components/helm/helmreleases/",
	// A release gwlint does not render: its chart names its Services, by
	// Helm's convention after the release (spec.releaseName, default
	// "[targetNamespace-]name") or values.fullnameOverride, in
	// spec.targetNamespace (default its own). A Service whose name starts
	// with one of those may be the release's; any other is judged as
	// usual.
	creates: func(o Object) []Creation {
		var doc struct {
			Spec struct {
				ReleaseName     string `json:"releaseName"`
				TargetNamespace string `json:"targetNamespace"`
				Values          struct {
					FullnameOverride any `json:"fullnameOverride"`
				} `json:"values"`
			} `json:"spec"`
		}
		decodeCreator(o, &doc)
		m := o.Metadata()
		ns := cmp.Or(doc.Spec.TargetNamespace, m.Ref.Namespace)
		release := doc.Spec.ReleaseName
		if release == "" {
			release = m.Ref.Name
			if doc.Spec.TargetNamespace != "" {
				release = doc.Spec.TargetNamespace + "-" + m.Ref.Name
			}
		}
		out := []Creation{{Ref: ObjectRef{Kind: KindService, Namespace: ns, Name: release}, Prefix: true}}
		if full, ok := doc.Spec.Values.FullnameOverride.(string); ok && full != "" && full != release {
			out = append(out, Creation{Ref: ObjectRef{Kind: KindService, Namespace: ns, Name: full}, Prefix: true})
		}
		return out
	},
}, {
	Project: "Kustomize", Group: groupKustomize, Kinds: []string{kindHelmChartInflation},
	Source: "https://kubectl.docs.kubernetes.io/references/kustomize/builtins/#_helmchartinflationgenerator_",
	// A kustomization's helmCharts entry whose chart is not vendored
	// (unrenderedChart): its Services are named after the release, as a
	// HelmRelease's are.
	creates: func(o Object) []Creation {
		m := o.Metadata()
		return []Creation{{Ref: ObjectRef{Kind: KindService, Namespace: m.Ref.Namespace, Name: m.Ref.Name}, Prefix: true}}
	},
}}

// The kind that stands for a kustomization's helmCharts entry, as
// kustomize's builtin generator is named.
const (
	groupKustomize         = "kustomize.config.k8s.io"
	kindHelmChartInflation = "HelmChartInflationGenerator"
)

// unrenderedChart is the creator that a helmCharts entry gwlint could not
// render stands for (its note, e), named after its release, in its
// namespace or else defaultNS.
func unrenderedChart(e *manifest.ReadError, defaultNS string) *Creator {
	c := &Creator{row: generatorRowOf(groupKustomize, kindHelmChartInflation)}
	c.Ref = ObjectRef{Kind: qualifiedKind(groupKustomize, kindHelmChartInflation),
		Namespace: cmp.Or(e.Release.Namespace, defaultNS), Name: e.Release.Name}
	c.Source = manifest.Source{File: e.File, Pos: e.Pos}
	// A digest of what it stands for, so that a build read again keeps
	// it (Inputs.KeepSame) and the world stays the same one.
	c.document, _ = json.Marshal(e.Release)
	c.digest = digestOf(c.document)
	return c
}

// generatorRow is one kind of object that creates others.
type generatorRow struct {
	// Project is the project whose controller does the creating.
	Project string
	Group   string
	Kinds   []string
	// ClusterScoped kinds have no namespace.
	ClusterScoped bool
	// Source is the project's documentation of what it creates.
	Source string
	// creates lists what o, an object of one of Kinds, will create.
	creates func(o Object) []Creation
}

// Creation is an object that a creator will create.
type Creation struct {
	Ref ObjectRef
	// AnyNamespace: created in namespaces chosen by labels, so in any
	// namespace as far as the inputs tell; Ref.Namespace is empty.
	AnyNamespace bool
	// Prefix: the creator may create objects whose names start with
	// Ref.Name ("radarr", "radarr-web"), not one of that name exactly.
	Prefix bool
}

// Creator is an object of a kind gwlint does not otherwise read, held for
// the objects it creates (a Certificate, an ExternalSecret, a Canary).
// Its Ref's kind is qualified: Certificate.cert-manager.io.
type Creator struct {
	Meta
	row *generatorRow
	// document is the creator as written (JSON), which its row reads.
	document json.RawMessage
}

// Generation says which object will create a referenced object.
type Generation struct {
	// By is the creator: a Creator or, for cert-manager's gateway-shim, a
	// Gateway.
	By Object
	// Project is the project whose controller creates it; Source its
	// documentation.
	Project, Source string
	// Maybe is set when the creator may create it (a Helm release's
	// Services, named after the release by convention).
	Maybe bool
}

// Describe says in words which object creates ref.
func (gen *Generation) Describe(ref ObjectRef) string {
	if gen.Maybe {
		return fmt.Sprintf("%s %s may be created by %s, which gwlint does not render", ref.Kind, ref.NamespacedName(), gen.Creator())
	}
	return fmt.Sprintf("%s %s will be created by %s", ref.Kind, ref.NamespacedName(), gen.Creator())
}

// Creator names the creating object and its project: "Certificate
// network/example-com (cert-manager)".
func (gen *Generation) Creator() string {
	by := gen.By.Metadata().Ref
	return fmt.Sprintf("%s %s (%s)", unqualifiedKind(by.Kind), by.NamespacedName(), gen.Project)
}

// GeneratedBy returns which object among the inputs will create ref, or
// nil when none will.
func (g *Graph) GeneratedBy(ref ObjectRef) *Generation {
	if gen := g.createdBy(ref); gen != nil {
		return gen
	}
	if !g.opts.StrictRefs && !g.holdsAll(ref.Namespace) {
		return g.releaseIn(ref)
	}
	return nil
}

// releaseIn returns a Helm release gwlint does not render that may
// create ref, of a kind a release's charts create, in its namespace,
// whatever its name: a chart's subcharts name their objects as they like
// (cilium's hubble-ui), so a namespace that holds such a release holds
// objects gwlint cannot list. nil when there is none.
func (g *Graph) releaseIn(ref ObjectRef) *Generation {
	for _, p := range g.prefixes[kindNS{ref.Kind, ref.Namespace}] {
		if kind := unqualifiedKind(p.gen.By.Metadata().Ref.Kind); kind == "HelmRelease" || kind == kindHelmChartInflation {
			return p.gen
		}
	}
	return nil
}

// createdBy returns which object among the inputs will create ref, by
// its name, or nil.
func (g *Graph) createdBy(ref ObjectRef) *Generation {
	if gen := g.creations[ref]; gen != nil {
		return gen
	}
	if gen := g.creations[ObjectRef{Kind: ref.Kind, Name: ref.Name}]; gen != nil && ref.Namespace != "" {
		return gen // created in any namespace
	}
	for _, p := range g.prefixes[kindNS{ref.Kind, ref.Namespace}] {
		if ref.Name == p.name || strings.HasPrefix(ref.Name, p.name+"-") {
			return p.gen
		}
	}
	return nil
}

type prefixCreation struct {
	name string
	gen  *Generation
}

// UnrenderedRelease is a Helm release among the inputs that gwlint does
// not render (a HelmRelease whose chart is not in the repository, a
// kustomize helmCharts entry that is not vendored) in a namespace whose
// routes l admits, or may admit; nil when there is none. Its chart may
// create routes that attach to l (bjw-s' app-template writes them from
// the release's values), which the inputs cannot show.
func (g *Graph) UnrenderedRelease(l *Listener) *Generation {
	ar := l.AllowedRoutes.Namespaces
	var keys []kindNS
	for key := range g.prefixes {
		if key.kind == KindService {
			keys = append(keys, key)
		}
	}
	slices.SortFunc(keys, func(a, b kindNS) int { return strings.Compare(a.ns, b.ns) })
	for _, key := range keys {
		if adm, _ := g.namespaceAllowed(*ar.From, ar.Selector, l.Owner().Ref.Namespace, key.ns); adm != refused {
			return g.prefixes[key][0].gen
		}
	}
	return nil
}

// indexCreations records what every creator among the inputs and every
// Gateway will create. The first creator of an object, in input order, is
// the one named.
func (g *Graph) indexCreations(creators []*Creator) {
	add := func(row *generatorRow, by Object) {
		for _, c := range row.creates(by) {
			gen := &Generation{By: by, Project: row.Project, Source: row.Source, Maybe: c.Prefix}
			ref := c.Ref
			if c.Prefix {
				key := kindNS{ref.Kind, ref.Namespace}
				g.prefixes[key] = append(g.prefixes[key], prefixCreation{ref.Name, gen})
				continue
			}
			if ref.Name == "" || g.creations[ref] != nil {
				continue
			}
			g.creations[ref] = gen
			if !c.AnyNamespace {
				key := kindNS{ref.Kind, ref.Namespace}
				g.createdNames[key] = append(g.createdNames[key], ref.Name)
			}
		}
	}
	for _, c := range creators {
		add(c.row, c)
	}
	for _, row := range generators {
		if row.Group == GroupGateway {
			for _, gw := range g.Gateways {
				add(&row, gw.Gateway)
			}
		}
	}
}

// generatorRowOf returns the row for objects of group and kind that gwlint
// reads only as creators, or nil.
func generatorRowOf(group, kind string) *generatorRow {
	if group == GroupGateway {
		return nil // read in full; their rows run on the typed objects
	}
	for i, row := range generators {
		if row.Group == group && contains(row.Kinds, kind) {
			return &generators[i]
		}
	}
	return nil
}

// certManagerServes reports whether cert-manager's gateway-shim makes
// certificates for listener l of a Gateway in namespace ns: an HTTPS or
// TLS listener with a hostname, terminating TLS, whose certificateRefs are
// all Secrets in the Gateway's namespace (it skips the whole listener
// otherwise).
func certManagerServes(l gwv1.Listener, ns string) bool {
	if l.Protocol != gwv1.HTTPSProtocolType && l.Protocol != gwv1.TLSProtocolType {
		return false
	}
	if l.Hostname == nil || *l.Hostname == "" || l.TLS == nil || len(l.TLS.CertificateRefs) == 0 {
		return false
	}
	if l.TLS.Mode != nil && *l.TLS.Mode != gwv1.TLSModeTerminate {
		return false
	}
	for _, ref := range l.TLS.CertificateRefs {
		if ref.Group != nil && *ref.Group != "" && *ref.Group != "core" ||
			ref.Kind != nil && *ref.Kind != KindSecret ||
			ref.Namespace != nil && string(*ref.Namespace) != ns {
			return false
		}
	}
	return true
}

// ExternalSecretSpec is the part of an ExternalSecret's spec (External
// Secrets Operator, https://external-secrets.io/latest/api/externalsecret/)
// that says which Secret it makes and with which keys.
type ExternalSecretSpec struct {
	Target struct {
		Name           string `json:"name"`
		CreationPolicy string `json:"creationPolicy"`
		Template       *struct {
			MergePolicy  string                     `json:"mergePolicy"`
			Data         map[string]json.RawMessage `json:"data"`
			TemplateFrom []json.RawMessage          `json:"templateFrom"`
		} `json:"template"`
	} `json:"target"`
	Data []struct {
		SecretKey string `json:"secretKey"`
	} `json:"data"`
	DataFrom []json.RawMessage `json:"dataFrom"`
}

// Secret is the name of the Secret the ExternalSecret named name makes:
// spec.target.name, "defaults to the .metadata.name of the ExternalSecret
// resource"; "" when it makes none (creationPolicy None).
func (s ExternalSecretSpec) Secret(name string) string {
	if s.Target.CreationPolicy == "None" {
		return ""
	}
	return cmp.Or(s.Target.Name, name)
}

// Keys are the keys of the Secret it makes, sorted, and whether they are
// known: its template's data, which replaces what the store gives
// (mergePolicy Replace, the default), else its data entries. Keys that
// come from elsewhere too (dataFrom without a replacing template,
// templateFrom, creationPolicy Merge into a Secret that exists) are not.
func (s ExternalSecretSpec) Keys() ([]string, bool) {
	t := s.Target.Template
	var keys []string
	switch {
	case s.Target.CreationPolicy == "Merge", t != nil && len(t.TemplateFrom) > 0:
		return nil, false
	case t != nil && t.MergePolicy != "Merge":
		keys = slices.Collect(maps.Keys(t.Data))
	case len(s.DataFrom) > 0:
		return nil, false
	default:
		if t != nil {
			keys = slices.Collect(maps.Keys(t.Data))
		}
		for _, d := range s.Data {
			keys = append(keys, d.SecretKey)
		}
	}
	slices.Sort(keys)
	return slices.Compact(keys), true
}

// decodeCreator decodes the creator o's document into doc. A field of an
// unexpected type leaves doc's zero value, which creates nothing: the
// creator's own CRD, not gwlint, judges its fields.
func decodeCreator(o Object, doc any) {
	_ = json.Unmarshal(o.(*Creator).document, doc)
}

// sameNamespace is the object of kind and name in o's namespace, if name
// is set.
func sameNamespace(o Object, kind, name string) []Creation {
	if name == "" {
		return nil
	}
	return []Creation{{Ref: ObjectRef{Kind: kind, Namespace: o.Metadata().Ref.Namespace, Name: name}}}
}

// unqualifiedKind is a qualified kind's name alone: Certificate for
// Certificate.cert-manager.io.
func unqualifiedKind(kind string) string {
	name, _, _ := strings.Cut(kind, ".")
	return name
}
