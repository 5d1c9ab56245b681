package resolve

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Each row of the generators table: the object it creates is Generated, and
// a neighbour it does not create is judged as before.
func TestGeneratedObjects(t *testing.T) {
	for _, tc := range []struct {
		name    string
		creator string
		created ObjectRef // Generated, and Describe names the creator
		not     ObjectRef // not created: unlisted or external as usual
		by      string    // in Describe
	}{{
		name: "cert-manager Certificate",
		creator: `
apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: example-com, namespace: network}
spec:
  secretName: example-com-tls
  dnsNames: [example.com]
  issuerRef: {name: letsencrypt, kind: ClusterIssuer}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "example-com-tls"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "network", Name: "example-com"},
		by:      "will be created by Certificate network/example-com (cert-manager)",
	}, {
		name: "cert-manager gateway-shim",
		creator: `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: external
  namespace: network
  annotations: {cert-manager.io/cluster-issuer: letsencrypt}
spec:
  gatewayClassName: acme
  listeners:
  - {name: https, protocol: HTTPS, port: 443, hostname: "*.example.com", tls: {certificateRefs: [{name: wildcard-tls}]}}
  - {name: no-hostname, protocol: HTTPS, port: 8443, tls: {certificateRefs: [{name: catch-all-tls}]}}
  - name: passthrough
    protocol: TLS
    port: 9443
    hostname: db.example.com
    tls: {mode: Passthrough, certificateRefs: [{name: db-tls}]}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "wildcard-tls"},
		// cert-manager skips a listener without a hostname.
		not: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "catch-all-tls"},
		by:  "will be created by Gateway network/external (cert-manager)",
	}, {
		name: "trust-manager Bundle",
		creator: `
apiVersion: trust.cert-manager.io/v1alpha1
kind: Bundle
metadata: {name: internal-ca}
spec:
  sources: [{useDefaultCAs: true}]
  target: {configMap: {key: ca.crt}, namespaceSelector: {matchLabels: {trust: enabled}}}`,
		created: ObjectRef{Kind: KindConfigMap, Namespace: "app", Name: "internal-ca"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "app", Name: "internal-ca"},
		by:      "will be created by Bundle internal-ca (trust-manager)",
	}, {
		name: "ExternalSecret with a target name",
		creator: `
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: cloudflare, namespace: network}
spec:
  secretStoreRef: {kind: ClusterSecretStore, name: onepassword}
  target: {name: cloudflare-tls, template: {type: kubernetes.io/tls}}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "cloudflare-tls"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "network", Name: "cloudflare"},
		by:      "will be created by ExternalSecret network/cloudflare (External Secrets Operator)",
	}, {
		name: "ExternalSecret named after itself",
		creator: `
apiVersion: external-secrets.io/v1beta1
kind: ExternalSecret
metadata: {name: grafana, namespace: observability}
spec:
  secretStoreRef: {kind: ClusterSecretStore, name: vault}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "observability", Name: "grafana"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "network", Name: "grafana"},
		by:      "will be created by ExternalSecret observability/grafana",
	}, {
		name: "ExternalSecret that creates nothing",
		creator: `
apiVersion: external-secrets.io/v1
kind: ExternalSecret
metadata: {name: merge-only, namespace: network}
spec:
  target: {creationPolicy: None}`,
		not: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "merge-only"},
	}, {
		name: "ClusterExternalSecret by namespace list",
		creator: `
apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata: {name: registry}
spec:
  externalSecretName: registry-es
  namespaces: [app, network]
  externalSecretSpec: {secretStoreRef: {kind: ClusterSecretStore, name: vault}}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "app", Name: "registry-es"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "media", Name: "registry-es"},
		by:      "will be created by ClusterExternalSecret registry",
	}, {
		name: "ClusterExternalSecret by label selector: any namespace",
		creator: `
apiVersion: external-secrets.io/v1
kind: ClusterExternalSecret
metadata: {name: wildcard}
spec:
  namespaceSelectors: [{matchLabels: {tls: wildcard}}]
  externalSecretSpec: {target: {name: wildcard-tls}}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "media", Name: "wildcard-tls"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "media", Name: "wildcard"},
		by:      "will be created by ClusterExternalSecret wildcard",
	}, {
		name: "SealedSecret: its own name, whatever the template says",
		creator: `
apiVersion: bitnami.com/v1alpha1
kind: SealedSecret
metadata: {name: example-tls, namespace: network}
spec:
  encryptedData: {tls.crt: AgBy3i4OJSWK, tls.key: AgBy3i4OJSWK}
  template: {type: kubernetes.io/tls, metadata: {name: ignored}}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "example-tls"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "network", Name: "ignored"},
		by:      "will be created by SealedSecret network/example-tls (Sealed Secrets)",
	}, {
		name: "Vault Secrets Operator",
		creator: `
apiVersion: secrets.hashicorp.com/v1beta1
kind: VaultPKISecret
metadata: {name: web-cert, namespace: app}
spec:
  mount: pki
  role: web
  commonName: web.example.com
  destination: {name: web-tls, create: true, type: kubernetes.io/tls}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "app", Name: "web-tls"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "app", Name: "web-cert"},
		by:      "will be created by VaultPKISecret app/web-cert (Vault Secrets Operator)",
	}, {
		name: "1Password operator",
		creator: `
apiVersion: onepassword.com/v1
kind: OnePasswordItem
metadata: {name: origin-cert, namespace: network}
spec: {itemPath: vaults/homelab/items/origin-cert}`,
		created: ObjectRef{Kind: KindSecret, Namespace: "network", Name: "origin-cert"},
		not:     ObjectRef{Kind: KindSecret, Namespace: "app", Name: "origin-cert"},
		by:      "(1Password Connect Operator)",
	}, {
		name: "Flagger Canary",
		creator: `
apiVersion: flagger.app/v1beta1
kind: Canary
metadata: {name: podinfo, namespace: test}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: podinfo}
  service: {port: 9898}`,
		created: ObjectRef{Kind: KindService, Namespace: "test", Name: "podinfo-primary"},
		not:     ObjectRef{Kind: KindService, Namespace: "test", Name: "podinfo-stable"},
		by:      "will be created by Canary test/podinfo (Flagger)",
	}, {
		name: "Flagger Canary with an apex Service name",
		creator: `
apiVersion: flagger.app/v1beta1
kind: Canary
metadata: {name: podinfo, namespace: test}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: podinfo}
  service: {name: frontend, port: 9898}`,
		created: ObjectRef{Kind: KindService, Namespace: "test", Name: "frontend-canary"},
		not:     ObjectRef{Kind: KindService, Namespace: "test", Name: "podinfo-canary"},
		by:      "Canary test/podinfo",
	}, {
		name: "KServe InferenceService",
		creator: `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: assist-llm, namespace: ai}
spec:
  predictor:
    model: {modelFormat: {name: huggingface}, storageUri: "pvc://models/qwen"}
  transformer:
    containers: [{name: kserve-container, image: example/transformer}]`,
		created: ObjectRef{Kind: KindService, Namespace: "ai", Name: "assist-llm-predictor"},
		not:     ObjectRef{Kind: KindService, Namespace: "ai", Name: "assist-llm-explainer"},
		by:      "will be created by InferenceService ai/assist-llm (KServe)",
	}, {
		name: "KServe InferenceService's transformer",
		creator: `
apiVersion: serving.kserve.io/v1beta1
kind: InferenceService
metadata: {name: assist-llm, namespace: ai}
spec:
  predictor: {model: {modelFormat: {name: sklearn}}}
  transformer: {containers: [{name: kserve-container, image: example/transformer}]}`,
		created: ObjectRef{Kind: KindService, Namespace: "ai", Name: "assist-llm-transformer"},
		not:     ObjectRef{Kind: KindService, Namespace: "ai", Name: "assist-llm"},
		by:      "(KServe)",
	}, {
		name: "HelmRelease: Services named after the release",
		creator: `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: radarr, namespace: media}
spec:
  chart: {spec: {chart: app-template, sourceRef: {kind: HelmRepository, name: bjw-s}}}`,
		created: ObjectRef{Kind: KindService, Namespace: "media", Name: "radarr-app"},
		not:     ObjectRef{Kind: KindService, Namespace: "media", Name: "radarrx"},
		by:      "may be created by HelmRelease media/radarr (Flux), which gwlint does not render",
	}, {
		name: "HelmRelease with a target namespace",
		creator: `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: podinfo, namespace: flux-system}
spec:
  targetNamespace: apps
  chart: {spec: {chart: podinfo, sourceRef: {kind: HelmRepository, name: podinfo}}}`,
		created: ObjectRef{Kind: KindService, Namespace: "apps", Name: "apps-podinfo"},
		not:     ObjectRef{Kind: KindService, Namespace: "apps", Name: "podinfo"},
		by:      "HelmRelease flux-system/podinfo",
	}, {
		name: "HelmRelease with fullnameOverride",
		creator: `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: ingress, namespace: network}
spec:
  chart: {spec: {chart: envoy-gateway, sourceRef: {kind: HelmRepository, name: eg}}}
  values: {fullnameOverride: envoy}`,
		created: ObjectRef{Kind: KindService, Namespace: "network", Name: "envoy"},
		not:     ObjectRef{Kind: KindService, Namespace: "network", Name: "envoyx"},
		by:      "HelmRelease network/ingress",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			// Every namespace is owned: only a creator keeps an object
			// the inputs lack from being missing.
			g := resolveYAML(t, Options{OwnedNamespaces: []string{"*"}}, tc.creator)
			if tc.created != (ObjectRef{}) {
				if _, p := g.Lookup(tc.created); p != Generated {
					t.Errorf("%s: %v, want generated", tc.created, p)
				} else if d := g.GeneratedBy(tc.created).Describe(tc.created); !strings.Contains(d, tc.by) {
					t.Errorf("%s: %q, want it to say %q", tc.created, d, tc.by)
				}
			}
			if _, p := g.Lookup(tc.not); p != Missing {
				t.Errorf("%s: %v, want missing", tc.not, p)
			}
		})
	}
}

// A generated object's contents are unknown: no verdict on them, and the
// reference resolves. A SOPS-encrypted Secret is present, its values
// unknown.
func TestGeneratedReferences(t *testing.T) {
	g := resolveYAML(t, Options{StrictRefs: true}, `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: acme}
spec: {controllerName: example.com/acme}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata:
  name: external
  namespace: network
  annotations: {cert-manager.io/cluster-issuer: letsencrypt}
spec:
  gatewayClassName: acme
  listeners:
  - name: https
    protocol: HTTPS
    port: 443
    hostname: "*.example.com"
    tls: {certificateRefs: [{name: wildcard-tls}]}
    allowedRoutes: {namespaces: {from: All}}
  - name: sops
    protocol: HTTPS
    port: 443
    hostname: "*.example.org"
    tls: {certificateRefs: [{name: example-org-tls}]}
    allowedRoutes: {namespaces: {from: All}}
---
apiVersion: v1
kind: Secret
metadata: {name: example-org-tls, namespace: network}
type: kubernetes.io/tls
stringData:
  tls.crt: ENC[AES256_GCM,data:pGsXy3dk,iv:0b1o,tag:Ag==,type:str]
  tls.key: ENC[AES256_GCM,data:WnKcnNo2,iv:0b1o,tag:Ag==,type:str]
sops:
  age: [{recipient: age1xyz, enc: "-----BEGIN AGE ENCRYPTED FILE-----"}]
  encrypted_regex: ^(data|stringData)$
  version: 3.9.0
---
apiVersion: flagger.app/v1beta1
kind: Canary
metadata: {name: podinfo, namespace: test}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: podinfo}
  service: {port: 9898}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: podinfo, namespace: test}
spec:
  parentRefs: [{name: external, namespace: network}]
  hostnames: [podinfo.example.com]
  rules:
  - backendRefs:
    - {name: podinfo-primary, port: 9898}
    - {name: podinfo-canary, port: 9898, weight: 0}`)
	gw := g.Gateway("network", "external")
	for _, l := range gw.Listeners {
		if !l.ResolvedRefs.True() || !l.Programmed.True() {
			t.Errorf("listener %s: ResolvedRefs %s (%s), Programmed %s; want both True", l.Name, l.ResolvedRefs.Reason, l.ResolvedRefs.Message, l.Programmed.Reason)
		}
	}
	if p := gw.Listeners[0].CertRefs[0].Presence; p != Generated {
		t.Errorf("wildcard-tls: %v, want generated", p)
	}
	if p := gw.Listeners[1].CertRefs[0].Presence; p != Present {
		t.Errorf("example-org-tls: %v, want present", p)
	}
	r := mustRoute(t, g, KindHTTPRoute, "test", "podinfo")
	if !r.ResolvedRefs.True() || !r.Parents[0].Accepted.True() {
		t.Errorf("route: ResolvedRefs %s (%s), Accepted %s; want both True", r.ResolvedRefs.Reason, r.ResolvedRefs.Message, r.Parents[0].Accepted.Reason)
	}
	for _, b := range r.Rules[0].Backends {
		if b.Presence != Generated || !b.Valid() {
			t.Errorf("%s: %v, problem %q; want generated, valid", b.Target, b.Presence, b.Problem)
		}
	}
}

// A reference one slip from the name of an object beside it is refused as
// a controller refuses a reference to an object that does not exist, and
// says which name was meant; a numbered sibling is not a slip.
func TestMisspeltReferences(t *testing.T) {
	g := resolveYAML(t, Options{}, world, `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: shared, namespace: infra}
spec:
  gatewayClassName: acem
  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r, namespace: app}
spec:
  parentRefs:
  - {name: sharde, namespace: infra}
  - {name: shared, namespace: infra}
  rules:
  - backendRefs: [{name: web-v3, port: 8080}]
  - backendRefs: [{name: wbe-v2, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: extra, namespace: infra}
spec:
  parentRef: {name: shraed}
  listeners: [{name: x, protocol: HTTP, port: 8080}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: BackendTLSPolicy
metadata: {name: p, namespace: app}
spec:
  targetRefs: [{group: "", kind: Service, name: web-v22}, {group: "", kind: Service, name: wbe-v2}]
  validation: {wellKnownCACertificates: System, hostname: web.app}`)
	r := mustRoute(t, g, KindHTTPRoute, "app", "r")
	for _, tc := range []struct {
		what, got, want string
	}{
		{"parentRefs[0]", r.Parents[0].Accepted.Message, `Gateway infra/sharde not found; did you mean "shared"?`},
		{"backendRefs of rules[1]", r.Rules[1].Backends[0].Message, `Service app/wbe-v2 not found; did you mean "web-v2"?`},
		{"ListenerSet parentRef", g.ListenerSet("infra", "extra").Accepted.Message, `Gateway infra/shraed not found; did you mean "shared"?`},
		{"BackendTLSPolicy targetRefs[1]", g.TLSPolicies[0].Targets[1].Message, `Service app/wbe-v2 does not exist; did you mean "web-v2"?`},
	} {
		if tc.got != tc.want {
			t.Errorf("%s: %q, want %q", tc.what, tc.got, tc.want)
		}
	}
	if p := r.Parents[0]; p.Presence != Missing || p.Accepted.Reason != ReasonNoMatchingParent {
		t.Errorf("parentRefs[0]: %v, %s; want missing, NoMatchingParent", p.Presence, p.Accepted.Reason)
	}
	if b := r.Rules[0].Backends[0]; b.Presence != Unlisted || !b.Valid() {
		t.Errorf("web-v3, a sibling of web-v2: %v, problem %q; want unlisted, valid", b.Presence, b.Problem)
	}
	if b := r.Rules[1].Backends[0]; b.Reason != ReasonBackendNotFound {
		t.Errorf("wbe-v2: reason %q, want BackendNotFound", b.Reason)
	}
	if tgt := g.TLSPolicies[0].Targets[0]; tgt.Presence != Unlisted || tgt.Reason != "" {
		t.Errorf("web-v22: %v, %q; want unlisted, accepted", tgt.Presence, tgt.Reason)
	}
	gw := g.Gateway("infra", "shared")
	if gw.ClassPresence != Missing || gw.Managed || g.Misspelling(ObjectRef{Kind: KindGatewayClass, Name: "acem"}) != "acme" {
		t.Errorf("gatewayClassName acem: %v, managed %v; want missing (acme), unmanaged", gw.ClassPresence, gw.Managed)
	}
}

// A Helm release gwlint does not render may create any Service of its
// namespace (an umbrella chart names its subcharts' as they like), unless
// the namespace is owned; a misspelling of a Service beside it is still
// one.
func TestReleaseMayCreateAnyService(t *testing.T) {
	const world = `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: cilium, namespace: kube-system}
spec:
  chart: {spec: {chart: cilium, sourceRef: {kind: HelmRepository, name: cilium}}}
---
apiVersion: v1
kind: Service
metadata: {name: kube-dns, namespace: kube-system}
spec: {ports: [{port: 53}]}`
	g := resolveYAML(t, Options{}, world)
	hubble := ObjectRef{Kind: KindService, Namespace: "kube-system", Name: "hubble-ui"}
	if _, p := g.Lookup(hubble); p != Generated {
		t.Errorf("%s: %v, want generated (maybe)", hubble, p)
	} else if d := g.GeneratedBy(hubble).Describe(hubble); !strings.Contains(d, "may be created by HelmRelease kube-system/cilium") {
		t.Errorf("%q", d)
	}
	typo := ObjectRef{Kind: KindService, Namespace: "kube-system", Name: "kube-dsn"}
	if _, p := g.Lookup(typo); p != Missing {
		t.Errorf("%s: %v, want missing (a misspelling of kube-dns)", typo, p)
	}
	owned := resolveYAML(t, Options{OwnedNamespaces: []string{"kube-system"}}, world)
	if _, p := owned.Lookup(hubble); p != Missing {
		t.Errorf("owned: %s: %v, want missing (not named after the release)", hubble, p)
	}
	other := ObjectRef{Kind: KindService, Namespace: "default", Name: "hubble-ui"}
	if _, p := g.Lookup(other); p == Generated {
		t.Errorf("%s: generated, but no release is in default", other)
	}
}

// A kustomization's helmCharts entry whose chart is not vendored (its note
// names the release) may create the Services named after the release, and
// any of its namespace, as a HelmRelease gwlint does not render may.
func TestUnrenderedChartMayCreateItsServices(t *testing.T) {
	note := &manifest.ReadError{File: "monitoring/kustomization.yaml", Pos: manifest.Pos{Line: 82, Col: 5}, Unknown: true,
		Msg:     `helmCharts: chart "kube-prometheus-stack" is not in charts/kube-prometheus-stack: kustomize would pull it`,
		Release: &manifest.Release{Name: "kube-prometheus-stack", Namespace: "monitoring"}}
	in := Load([]string{"-"}, strings.NewReader("apiVersion: v1\nkind: Service\nmetadata: {name: blackbox, namespace: monitoring}\nspec: {ports: [{port: 9115}]}"), Options{})
	in.Merge(LoadObjects(nil, []*manifest.ReadError{note}, Options{}))
	if len(in.Unknowns) != 1 || len(in.Creators) != 1 {
		t.Fatalf("%d unknowns, %d creators; want the note, and the creator it stands for", len(in.Unknowns), len(in.Creators))
	}
	// Read again (the language server's next check), it is the same
	// creator, so the world is the same one.
	first, again := LoadObjects(nil, []*manifest.ReadError{note}, Options{}), LoadObjects(nil, []*manifest.ReadError{note}, Options{})
	if again.KeepSame(first); again.Creators[0] != first.Creators[0] {
		t.Error("the same note read again is another creator")
	}
	g := Resolve(in, Options{})
	grafana := ObjectRef{Kind: KindService, Namespace: "monitoring", Name: "kube-prometheus-stack-grafana"}
	if _, p := g.Lookup(grafana); p != Generated {
		t.Errorf("%s: %v, want generated (maybe)", grafana, p)
	} else if d := g.GeneratedBy(grafana).Describe(grafana); !strings.Contains(d, "may be created by HelmChartInflationGenerator monitoring/kube-prometheus-stack (Kustomize)") {
		t.Errorf("%q", d)
	}
	if _, p := g.Lookup(ObjectRef{Kind: KindService, Namespace: "default", Name: "kube-prometheus-stack-grafana"}); p == Generated {
		t.Error("generated in default, where the chart installs nothing")
	}
}

// The keys of the Secret an ExternalSecret makes are known when its
// template's data replaces what the store gives, or when it has no
// template and no dataFrom.
func TestExternalSecretKeys(t *testing.T) {
	for _, tc := range []struct {
		spec  string
		keys  string
		known bool
	}{
		{`{"target": {"template": {"data": {"B": "x", "A": "y"}}}, "dataFrom": [{"extract": {"key": "k"}}]}`, "A,B", true},
		{`{"data": [{"secretKey": "password"}, {"secretKey": "user"}]}`, "password,user", true},
		{`{"data": [{"secretKey": "password"}], "dataFrom": [{"extract": {"key": "k"}}]}`, "", false},
		{`{"target": {"template": {"mergePolicy": "Merge", "data": {"A": "x"}}}, "data": [{"secretKey": "b"}]}`, "A,b", true},
		{`{"target": {"template": {"templateFrom": [{"configMap": {"name": "t"}}]}}}`, "", false},
		{`{"target": {"creationPolicy": "Merge"}, "data": [{"secretKey": "a"}]}`, "", false},
	} {
		var spec ExternalSecretSpec
		if err := json.Unmarshal([]byte(tc.spec), &spec); err != nil {
			t.Fatal(err)
		}
		if keys, known := spec.Keys(); strings.Join(keys, ",") != tc.keys || known != tc.known {
			t.Errorf("%s: keys %v, known %v; want %q, %v", tc.spec, keys, known, tc.keys, tc.known)
		}
	}
}
