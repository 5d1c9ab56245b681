package fidelity

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/implementations/envoygateway"
)

// EnvoyGateway's translator tests (internal/gatewayapi/testdata): X.in.yaml
// holds the inputs as lists keyed by kind (gateways, httpRoutes, ...),
// X.out.yaml the same objects with their status, beside the IR.
var EnvoyGateway = &Project{
	Name:           "envoy-gateway",
	Implementation: "envoy-gateway",
	Env:            "GWLINT_FIDELITY_ENVOY_GATEWAY",
	Subdir:         "internal/gatewayapi/testdata",
	Controllers:    []string{egController},
	MeshController: egController,
	Cases:          envoyGatewayCases,
}

const (
	egController = "gateway.envoyproxy.io/gatewayclass-controller"
	// egClass is the one GatewayClass the translator under test serves.
	egClass = "envoy-gateway-class"
)

// egKinds maps the keys of the keyed-lists format to the apiVersion and
// kind an item gets when it names none. Keys not listed (the
// implementation's policies, EnvoyProxy, Backend, EndpointSlices, the IR)
// are passed on when their items say what they are, and resolve skips
// kinds it does not model.
var egKinds = map[string][2]string{
	"gatewayClass":       {"gateway.networking.k8s.io/v1", "GatewayClass"},
	"gateways":           {"gateway.networking.k8s.io/v1", "Gateway"},
	"listenerSets":       {"gateway.networking.k8s.io/v1", "ListenerSet"},
	"httpRoutes":         {"gateway.networking.k8s.io/v1", "HTTPRoute"},
	"httproutes":         {"gateway.networking.k8s.io/v1", "HTTPRoute"},
	"grpcRoutes":         {"gateway.networking.k8s.io/v1", "GRPCRoute"},
	"tlsRoutes":          {"gateway.networking.k8s.io/v1alpha2", "TLSRoute"},
	"tcpRoutes":          {"gateway.networking.k8s.io/v1alpha2", "TCPRoute"},
	"udpRoutes":          {"gateway.networking.k8s.io/v1alpha2", "UDPRoute"},
	"referenceGrants":    {"gateway.networking.k8s.io/v1beta1", "ReferenceGrant"},
	"backendTLSPolicies": {"gateway.networking.k8s.io/v1", "BackendTLSPolicy"},
	"services":           {"v1", "Service"},
	"namespaces":         {"v1", "Namespace"},
	"secrets":            {"v1", "Secret"},
	"configMaps":         {"v1", "ConfigMap"},
	"configmaps":         {"v1", "ConfigMap"},
	"serviceImports":     {"multicluster.x-k8s.io/v1alpha1", "ServiceImport"},
}

func envoyGatewayCases(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.in.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var base []manifest
	if data, err := os.ReadFile(filepath.Join(dir, "base", "base.yaml")); err == nil {
		if base, err = egObjects(data); err != nil {
			return nil, fmt.Errorf("base/base.yaml: %w", err)
		}
	}
	var cases []*Case
	for _, in := range files {
		name := strings.TrimSuffix(filepath.Base(in), ".in.yaml")
		c, err := envoyGatewayCase(name, in, strings.TrimSuffix(in, ".in.yaml")+".out.yaml", base)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func envoyGatewayCase(name, inFile, outFile string, base []manifest) (*Case, error) {
	inData, err := os.ReadFile(inFile)
	if err != nil {
		return nil, err
	}
	objs, err := egObjects(inData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", inFile, err)
	}
	outData, err := os.ReadFile(outFile)
	if err != nil {
		return nil, err
	}
	outObjs, err := egObjects(outData)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", outFile, err)
	}
	var defaults struct {
		Spec *struct {
			MergeBackends *struct{} `json:"mergeBackends"`
		} `json:"envoyProxyDefaultSpec"`
	}
	if err := yaml.Unmarshal(inData, &defaults); err != nil {
		return nil, fmt.Errorf("%s: %w", inFile, err)
	}
	c := &Case{Name: name, Implementation: egImplementation(name, defaults.Spec != nil && defaults.Spec.MergeBackends != nil)}
	egDeclarationOrder(objs)
	world := envoyGatewayWorld()
	if err := egClassProxy(inData, append(objs, world...)); err != nil {
		return nil, fmt.Errorf("%s: %w", inFile, err)
	}
	world = append(world, base...)
	if c.Inputs, err = inputs(objs, world); err != nil {
		return nil, err
	}
	c.Environment = egUncreatedNamespaces(objs, world)
	maps.Copy(c.Environment, egProxiesNotLookedUp(objs))
	if c.Want, err = wanted(outObjs, objs); err != nil {
		return nil, fmt.Errorf("%s: %w", outFile, err)
	}
	return c, nil
}

// egPolicyKinds are Envoy Gateway's policy kinds whose conflicts the
// order of processing settles.
var egPolicyKinds = []string{envoygateway.KindBackendTrafficPolicy, envoygateway.KindClientTrafficPolicy,
	envoygateway.KindEnvoyExtensionPolicy, envoygateway.KindSecurityPolicy}

// egDeclarationOrder gives the policies of each of Envoy Gateway's kinds
// creation times in the order the case declares them, when none has one.
// Its translator takes the policies of a kind in the order it is given
// them, the first to hold a target winning it: in a cluster the provider
// sorts them, oldest first, then by namespace/name (resource.go
// Resources.Sort); the translator test does not, and "the testdata loader
// iterates in YAML declaration order"
// (testdata/backendtlspolicy-wildcard-older-than-sectioned.in.yaml).
func egDeclarationOrder(objs []manifest) {
	for _, kind := range egPolicyKinds {
		var policies []map[string]any
		for _, m := range objs {
			if m["kind"] != kind {
				continue
			}
			meta, ok := m["metadata"].(map[string]any)
			if !ok || meta["creationTimestamp"] != nil {
				policies = nil
				break
			}
			policies = append(policies, meta)
		}
		for i, meta := range policies {
			meta["creationTimestamp"] = fmt.Sprintf("2000-01-01T00:%02d:%02dZ", i/60, i%60)
		}
	}
}

// egProxiesNotLookedUp are the outcomes of Gateways whose parametersRef
// names an EnvoyProxy the case lacks. In a cluster the provider looks it
// up and refuses the Gateway, InvalidParameters, before its listeners are
// translated (internal/provider/kubernetes/controller.go
// processGatewayParamsRef); the translator test has no provider, and
// attachEnvoyProxy (contexts.go) falls back to the class's.
func egProxiesNotLookedUp(objs []manifest) map[string]string {
	proxies := map[string]bool{}
	for _, m := range objs {
		if m["kind"] == "EnvoyProxy" {
			proxies[identity(m)] = true
		}
	}
	out := map[string]string{}
	for _, m := range objs {
		if m["kind"] != "Gateway" {
			continue
		}
		spec, _ := m["spec"].(map[string]any)
		infra, _ := spec["infrastructure"].(map[string]any)
		ref, _ := infra["parametersRef"].(map[string]any)
		if ref["kind"] != "EnvoyProxy" {
			continue
		}
		meta, _ := m["metadata"].(map[string]any)
		proxy := identity(manifest{"kind": "EnvoyProxy", "metadata": map[string]any{"namespace": meta["namespace"], "name": ref["name"]}})
		if proxies[proxy] {
			continue
		}
		why := "the test has no provider to find that " + proxy + " does not exist"
		gw := identity(m)
		for _, typ := range []string{"Accepted", "Programmed"} {
			out[EnvironmentKey(gw, ScopeGateway, "", typ)] = why
		}
		listeners, _ := spec["listeners"].([]any)
		for _, l := range listeners {
			name, _ := l.(map[string]any)["name"].(string)
			for _, typ := range []string{"Accepted", "Programmed", "ResolvedRefs", "Conflicted", "attachedRoutes", "supportedKinds"} {
				out[EnvironmentKey(gw, ScopeListener, name, typ)] = why
			}
		}
	}
	return out
}

// egConfigs are the cases Envoy Gateway's translator test configures
// otherwise than its default, with the Backend API on and the proxy in
// Kubernetes (internal/gatewayapi/translator_test.go, testCasesConfig: a
// case listed there has BackendEnabled and RunningOnHost as the entry
// says, false when it says nothing).
var egConfigs = map[string]func(*envoygateway.Config){
	"backend-invalid-feature-disabled":                                            egBackendOff,
	"envoypatchpolicy-invalid-feature-disabled":                                   egBackendOff,
	"gateway-namespace-mode-infra-httproute":                                      egBackendOff,
	"envoyextensionpolicy-lua-feature-disabled":                                   egLuaOff,
	"envoyextensionpolicy-with-extproc-with-backendtlspolicy-shared-secret":       egBackendOff,
	"envoyextensionpolicy-with-extproc-with-backendtlspolicy-per-resource-secret": egBackendOff,
	"backend-with-localhost-host-infra":                                           egOnHost,
	"httproute-attaching-to-listener-with-backend-backendref-host-infra":          egOnHost,
}

// egUncreatedNamespaces marks the Accepted outcome of every route whose
// namespace the case creates no Namespace for. Envoy Gateway's translator
// refuses such a route on every listener (internal/gatewayapi/contexts.go,
// AllowsNamespace: "if namespace == nil { return false }", so
// NotAllowedByListeners), which its test shows and a cluster never does: a
// route's namespace exists.
func egUncreatedNamespaces(objs, world []manifest) map[string]string {
	created := map[string]bool{}
	for _, m := range slices.Concat(objs, world) {
		if m["kind"] == "Namespace" {
			meta, _ := m["metadata"].(map[string]any)
			name, _ := meta["name"].(string)
			created[name] = true
		}
	}
	out := map[string]string{}
	for _, m := range objs {
		kind, _ := m["kind"].(string)
		if !strings.HasSuffix(kind, "Route") {
			continue
		}
		meta, _ := m["metadata"].(map[string]any)
		ns, _ := meta["namespace"].(string)
		if ns == "" {
			ns = "default"
		}
		if !created[ns] {
			out[EnvironmentKey(identity(m), ScopeRouteParent, "", "Accepted")] = "the test creates no Namespace " + ns
		}
	}
	return out
}

// egImplementation is Envoy Gateway's reading of the world in the case:
// its configuration as egConfigs says, and mergeBackends when the case's
// envoyProxyDefaultSpec merges backends. It registers no extension filter
// kinds (only TestTranslateWithExtensionKinds does, on
// testdata/extensions).
func egImplementation(name string, mergeBackends bool) envoygateway.Implementation {
	config := envoygateway.Config{ExtensionFilters: envoygateway.ExtensionFilters{Known: true},
		ProxyDefaults: envoygateway.ProxyDefaults{MergeBackends: mergeBackends}}
	if configure := egConfigs[name]; configure != nil {
		configure(&config)
	}
	return envoygateway.Implementation{Config: config}
}

func egBackendOff(config *envoygateway.Config) { config.Backend.Disabled = true }
func egOnHost(config *envoygateway.Config)     { config.Backend.OnHost = true }

// egLuaOff: the case's LuaEnvoyExtensionPolicyDisabled, with the Backend
// API off as for every case listed.
func egLuaOff(config *envoygateway.Config) {
	egBackendOff(config)
	config.LuaDisabled = true
}

// egClassProxy points the GatewayClass's parametersRef at the case's
// envoyProxyForGatewayClass, as the translator test gives it to the class
// whatever the class names (translator.go GetRelevantGateways reads
// resources.EnvoyProxyForGatewayClass; most cases' classes name none).
func egClassProxy(inData []byte, objs []manifest) error {
	var doc struct {
		Proxy *struct {
			Metadata struct{ Namespace, Name string }
		} `json:"envoyProxyForGatewayClass"`
	}
	if err := yaml.Unmarshal(inData, &doc); err != nil || doc.Proxy == nil {
		return err
	}
	for _, m := range objs {
		meta, _ := m["metadata"].(map[string]any)
		if m["kind"] != "GatewayClass" || meta["name"] != egClass {
			continue
		}
		spec, _ := m["spec"].(map[string]any)
		if spec == nil {
			spec = map[string]any{}
			m["spec"] = spec
		}
		spec["parametersRef"] = map[string]any{"group": "gateway.envoyproxy.io", "kind": "EnvoyProxy",
			"namespace": doc.Proxy.Metadata.Namespace, "name": doc.Proxy.Metadata.Name}
	}
	return nil
}

// egObjects reads the keyed-lists format into manifests with apiVersion
// and kind filled in. A key holds a list of objects, or one object
// (gatewayClass).
func egObjects(data []byte) ([]manifest, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, err
	}
	var out []manifest
	for _, key := range slices.Sorted(maps.Keys(doc)) {
		var items []any
		switch v := doc[key].(type) {
		case []any:
			items = v
		case map[string]any:
			if _, ok := v["metadata"]; ok {
				items = []any{v}
			}
		}
		for _, item := range items {
			m, ok := item.(map[string]any)
			if !ok {
				continue
			}
			if def, ok := egKinds[key]; ok {
				if m["apiVersion"] == nil {
					m["apiVersion"] = def[0]
				}
				if m["kind"] == nil {
					m["kind"] = def[1]
				}
			}
			if m["kind"] == nil || m["apiVersion"] == nil {
				continue
			}
			out = append(out, m)
		}
	}
	return out, nil
}

// envoyGatewayWorld is what Envoy Gateway's translator test adds to every
// case's inputs (internal/gatewayapi/translator_test.go): its GatewayClass,
// the Services service-1 … service-4 and mirror-service in default and
// otel-collector in monitoring, and the Namespaces envoy-gateway and
// default. base/base.yaml (its Secrets) is read from the test data.
func envoyGatewayWorld() []manifest {
	world := []manifest{gatewayClass(egClass, egController)}
	ports := []servicePort{{"http", 8080, "TCP"}, {"https", 8443, "TCP"}, {"tcp", 8163, "TCP"}, {"udp", 8162, "UDP"}}
	for i := 1; i <= 4; i++ {
		world = append(world, service("default", fmt.Sprintf("service-%d", i), ports...))
	}
	world = append(world,
		service("default", "mirror-service", servicePort{"http", 8080, "TCP"}),
		service("monitoring", "otel-collector", servicePort{"grpc", 4317, "TCP"}, servicePort{"zipkin", 9411, "TCP"}),
		namespace("envoy-gateway", nil),
		namespace("default", nil),
	)
	return world
}

type servicePort struct {
	name     string
	port     int
	protocol string
}

func service(ns, name string, ports ...servicePort) manifest {
	var ps []any
	for _, p := range ports {
		ps = append(ps, map[string]any{"name": p.name, "port": p.port, "protocol": p.protocol})
	}
	return manifest{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"namespace": ns, "name": name},
		"spec":     map[string]any{"ports": ps},
	}
}

func namespace(name string, labels map[string]string) manifest {
	meta := map[string]any{"name": name}
	if len(labels) > 0 {
		meta["labels"] = labels
	}
	return manifest{"apiVersion": "v1", "kind": "Namespace", "metadata": meta}
}

func gatewayClass(name, controller string) manifest {
	return manifest{
		"apiVersion": "gateway.networking.k8s.io/v1", "kind": "GatewayClass",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"controllerName": controller},
	}
}
