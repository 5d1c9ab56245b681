package fidelity

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"maps"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"go.yaml.in/yaml/v3"
)

// Istio's Gateway API conversion tests (pilot/pkg/config/kube/gateway/
// testdata): X.yaml holds plain manifests, X.status.yaml.golden the status
// Istio writes for them.
var Istio = &Project{
	Name:           "istio",
	Implementation: "istio",
	Env:            "GWLINT_FIDELITY_ISTIO",
	Subdir:         "pilot/pkg/config/kube/gateway/testdata",
	Controllers: []string{
		"istio.io/gateway-controller", "istio.io/mesh-controller",
		"istio.io/eastwest-controller", "istio.io/unmanaged-gateway",
	},
	// Istio writes its gateway controller for Service (mesh) parents.
	MeshController: "istio.io/gateway-controller",
	Cases:          istioCases,
}

// istioClasses are the GatewayClasses Istio serves without their being
// created (its built-in classes, ambient and multi-network enabled as in
// its tests).
var istioClasses = [][2]string{
	{"istio", "istio.io/gateway-controller"},
	{"istio-waypoint", "istio.io/mesh-controller"},
	{"istio-east-west", "istio.io/eastwest-controller"},
	{"istio-remote", "istio.io/unmanaged-gateway"},
}

func istioCases(dir string) ([]*Case, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.status.yaml.golden"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	var cases []*Case
	for _, golden := range files {
		name := strings.TrimSuffix(filepath.Base(golden), ".status.yaml.golden")
		c, err := istioCase(name, filepath.Join(dir, name+".yaml"), golden)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		cases = append(cases, c)
	}
	return cases, nil
}

func istioCase(name, inFile, golden string) (*Case, error) {
	objs, err := readManifests(inFile)
	if err != nil {
		return nil, err
	}
	outObjs, err := readManifests(golden)
	if err != nil {
		return nil, err
	}
	c := &Case{Name: name}
	if c.Inputs, err = inputs(objs, istioWorld(objs)); err != nil {
		return nil, err
	}
	if c.Want, err = wanted(outObjs, objs); err != nil {
		return nil, fmt.Errorf("%s: %w", golden, err)
	}
	c.Environment = istioUndeployed(objs)
	return c, nil
}

// istioUndeployed are the outcomes that depend on Istio's test lacking the
// Service Istio deploys for a Gateway: in a cluster its deployment
// controller creates <name>-<class> (<name> for waypoints and east-west
// gateways; gatewaycommon.GetDefaultName, the gateway.istio.io/name-override
// annotation) with every listener's port, for a Gateway IsManaged calls
// managed (no address, or one IP address). The conversion test runs no
// deployment controller and registers only istioServices, so Istio writes
// such a Gateway Programmed=False/AddressNotUsable ("hostname ... not
// found") where a cluster has it programmed; gwctl predicts the cluster.
// (No case has a ListenerSet on such a Gateway.)
func istioUndeployed(objs []manifest) map[string]string {
	controllers := map[string]string{}
	for _, c := range istioClasses {
		controllers[c[0]] = c[1]
	}
	for _, m := range objs {
		if m["kind"] == "GatewayClass" {
			meta, _ := m["metadata"].(map[string]any)
			spec, _ := m["spec"].(map[string]any)
			name, _ := meta["name"].(string)
			controllers[name], _ = spec["controllerName"].(string)
		}
	}
	out := map[string]string{}
	for _, m := range objs {
		if m["kind"] != "Gateway" {
			continue
		}
		meta, _ := m["metadata"].(map[string]any)
		spec, _ := m["spec"].(map[string]any)
		class, _ := spec["gatewayClassName"].(string)
		controller := controllers[class]
		switch controller {
		case "istio.io/gateway-controller", "istio.io/mesh-controller", "istio.io/eastwest-controller":
		default:
			continue // not Istio's, or remote: nothing is deployed
		}
		addrs, _ := spec["addresses"].([]any)
		if len(addrs) > 1 {
			continue
		}
		if len(addrs) == 1 {
			if typ, _ := addrs[0].(map[string]any)["type"].(string); typ != "" && typ != "IPAddress" {
				continue // a Service it is given, not one it deploys
			}
		}
		name, _ := meta["name"].(string)
		deployed := name + "-" + class
		if controller != "istio.io/gateway-controller" {
			deployed = name
		}
		if annotations, _ := meta["annotations"].(map[string]any); annotations["gateway.istio.io/name-override"] != nil {
			deployed, _ = annotations["gateway.istio.io/name-override"].(string)
		}
		ns, _ := meta["namespace"].(string)
		if ns == "" {
			ns = "default"
		}
		if slices.Contains(istioServices, ns+"/"+deployed) {
			continue
		}
		out[EnvironmentKey(identity(m), ScopeGateway, "", "Programmed")] = "the test does not deploy Service " + ns + "/" + deployed
	}
	return out
}

// readManifests reads a multi-document YAML file of manifests.
func readManifests(file string) ([]manifest, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var out []manifest
	for {
		var m manifest
		if err := dec.Decode(&m); err != nil {
			if errors.Is(err, io.EOF) {
				return out, nil
			}
			return nil, fmt.Errorf("%s: %w", file, err)
		}
		if m["kind"] == nil {
			continue
		}
		// JSON has no timestamps: yaml.v3 reads an unquoted one as a
		// time.Time, which json.Marshal writes in RFC 3339, as the API
		// server would.
		if _, err := json.Marshal(m); err != nil {
			return nil, fmt.Errorf("%s: %s: %w", file, identity(m), err)
		}
		out = append(out, m)
	}
}

// istioServices are the Services Istio's conversion test registers around
// every case (pilot/pkg/config/kube/gateway/conversion_test.go: those with
// a cluster-local hostname, which it also creates as Kubernetes Services),
// all with ports http 80, tcp 34000 and tcp-other 34001, and https 443
// for istio-ingressgateway, the Service of its manual Gateways.
// InferencePool services are left out: gwlint does not model
// InferencePools.
var istioServices = []string{
	"istio-system/istio-ingressgateway", "istio-system/httpbin", "istio-system/istiod", "istio-system/echo",
	"default/httpbin", "default/httpbin-second", "default/httpbin-wildcard", "default/foo-svc",
	"default/httpbin-other", "default/example", "default/echo", "default/svc4", "default/httpbin-zero",
	"default/httpbin-mirror", "default/httpbin-foo", "default/httpbin-alt", "default/httpbin-bad",
	"default/echo-1", "default/echo-2", "default/echo-port", "default/not-found",
	"apple/httpbin-apple", "banana/httpbin-banana", "cert/httpbin", "service/my-svc",
	"allowed-1/a-example", "allowed-2/a-example", "allowed-1/b-example", "allowed-1/svc1",
	"allowed-1/svc2", "allowed-2/svc2", "allowed-2/svc3",
	"group-namespace1/httpbin", "group-namespace2/httpbin",
}

// istioSecrets are the TLS Secrets of the same test; "malformed" holds no
// PEM. Istio's are untyped (Istio reads tls.crt and tls.key from any
// Secret); they are given type kubernetes.io/tls here, as a cluster's TLS
// Secrets have, so that the comparison is about what Istio decides, not
// about a shortcut of its fixtures.
var istioSecrets = []string{
	"istio-system/my-cert-http", "istio-system/my-cert", "istio-system/my-cert-http2",
	"ns2/ns2-cert", "ns3/ns3-cert", "ns4/ns4-cert", "cert/cert",
	"bookinfo/bookinfo-secret", "bookinfo/another-secret",
}

// istioWorld is what Istio's conversion test adds around a case's objects:
// the Services and Secrets above, the ConfigMaps CA certificates are read
// from, its built-in GatewayClasses, and a
// Namespace for every namespace the objects are in, labelled
// istio.io/test-name-part with the part of its name before the first "-".
func istioWorld(objs []manifest) []manifest {
	var world []manifest
	for _, c := range istioClasses {
		world = append(world, gatewayClass(c[0], c[1]))
	}
	ports := []servicePort{{"http", 80, "TCP"}, {"tcp", 34000, "TCP"}, {"tcp-other", 34001, "TCP"}}
	for _, nn := range istioServices {
		ns, name, _ := strings.Cut(nn, "/")
		if nn == "istio-system/istio-ingressgateway" {
			world = append(world, service(ns, name, append([]servicePort{{"https", 443, "TCP"}}, ports...)...))
			continue
		}
		world = append(world, service(ns, name, ports...))
	}
	crt, key := testCertificate()
	for _, nn := range istioSecrets {
		ns, name, _ := strings.Cut(nn, "/")
		secret := tlsSecret(ns, name, crt, key)
		if nn == "istio-system/my-cert-http" { // it also holds the certificate as a CA
			secret["stringData"].(map[string]any)["ca.crt"] = crt
		}
		world = append(world, secret)
	}
	world = append(world, tlsSecret("istio-system", "malformed", "SGVsbG8gd29ybGQK", "SGVsbG8gd29ybGQK"))
	// The ConfigMaps CA certificates are read from, good and bad.
	world = append(world,
		configMap("istio-system", "my-cert-http", "ca.crt", crt),
		configMap("istio-system", "malformed", "not-ca.crt", "hello"),
		configMap("istio-system", "malformed-trustbundle", "ca.crt", "hello"),
		configMap("default", "auth-cert", "ca.crt", crt),
		configMap("default", "malformed", "not-ca.crt", "hello"),
	)
	namespaces := map[string]bool{}
	for _, m := range objs {
		if meta, ok := m["metadata"].(map[string]any); ok {
			if ns, _ := meta["namespace"].(string); ns != "" {
				namespaces[ns] = true
			}
		}
	}
	for _, ns := range slices.Sorted(maps.Keys(namespaces)) {
		part, _, _ := strings.Cut(ns, "-")
		world = append(world, namespace(ns, map[string]string{"istio.io/test-name-part": part}))
	}
	return world
}

func configMap(ns, name, key, value string) manifest {
	return manifest{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"namespace": ns, "name": name},
		"data":     map[string]any{key: value},
	}
}

func tlsSecret(ns, name, crt, key string) manifest {
	return manifest{
		"apiVersion": "v1", "kind": "Secret", "type": "kubernetes.io/tls",
		"metadata":   map[string]any{"namespace": ns, "name": name},
		"stringData": map[string]any{"tls.crt": crt, "tls.key": key},
	}
}

// testCertificate is a self-signed certificate and its key, made once.
var testCertificate = sync.OnceValues(func() (string, string) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		panic(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: "fidelity.test"},
		DNSNames:     []string{"*"},
		NotBefore:    time.Unix(0, 0),
		NotAfter:     time.Unix(1<<33, 0),
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		panic(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}))
})
