package resolve

import (
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// gatewayAPICRD is a CRD of the release's install files, cut down to what
// says which release it is.
func gatewayAPICRD(plural, version, channel string) string {
	return `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  annotations:
    gateway.networking.k8s.io/bundle-version: ` + version + `
    gateway.networking.k8s.io/channel: ` + channel + `
  name: ` + plural + `.gateway.networking.k8s.io
spec:
  group: gateway.networking.k8s.io
  names: {kind: X, plural: ` + plural + `}
  scope: Namespaced`
}

func TestInstalledCRDs(t *testing.T) {
	tests := []struct {
		name string
		docs []string
		want string // "v1.2.0 experimental", or "" for none
	}{
		{"none", []string{`{apiVersion: v1, kind: Namespace, metadata: {name: a}}`}, ""},
		{"one release", []string{gatewayAPICRD("gateways", "v1.2.0", "standard"), gatewayAPICRD("httproutes", "v1.2.0", "standard")}, "v1.2.0 standard"},
		{"experimental", []string{gatewayAPICRD("gateways", "v1.3.0", "experimental")}, "v1.3.0 experimental"},
		{"the release most name", []string{gatewayAPICRD("gateways", "v1.1.0", "standard"), gatewayAPICRD("httproutes", "v1.4.1", "standard"), gatewayAPICRD("grpcroutes", "v1.4.1", "standard")}, "v1.4.1 standard"},
		{"the first on a tie", []string{gatewayAPICRD("gateways", "v1.5.0", "standard"), gatewayAPICRD("httproutes", "v1.1.0", "standard")}, "v1.5.0 standard"},
		{"a release gwlint lacks", []string{gatewayAPICRD("gateways", "v0.8.1", "standard")}, ""},
		{"no annotation", []string{`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gateways.gateway.networking.k8s.io}
spec: {group: gateway.networking.k8s.io}`}, ""},
		{"another group", []string{strings.ReplaceAll(gatewayAPICRD("backends", "v1.2.0", "standard"), "group: gateway.networking.k8s.io", "group: gateway.envoyproxy.io")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := Load([]string{"-"}, strings.NewReader(strings.Join(tt.docs, "\n---\n")), Options{})
			b, crds, ok := in.InstalledCRDs()
			got := ""
			if ok {
				got = crds.Release.String() + " " + crds.Channel.String()
			}
			if got != tt.want {
				t.Errorf("InstalledCRDs = %q (%+v), want %q", got, b, tt.want)
			}
			if ok && (b.At.File != "<stdin>" || b.At.Pos.Line == 0 || !strings.HasPrefix(b.Via, "CustomResourceDefinition ")) {
				t.Errorf("bundle %+v: want the annotation's position on stdin", b)
			}
		})
	}
}

func TestRemoteBundle(t *testing.T) {
	tests := []struct {
		url  string
		want string // "version channel", "" for no release
	}{
		{"https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.0/standard-install.yaml", "v1.2.0 standard"},
		{"https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.3.0/experimental-install.yaml", "v1.3.0 experimental"},
		{"github.com/kubernetes-sigs/gateway-api/config/crd?ref=v1.1.0", "v1.1.0 standard"},
		{"github.com/kubernetes-sigs/gateway-api/config/crd/experimental?ref=v1.2.1", "v1.2.1 experimental"},
		{"https://github.com/kubernetes-sigs/gateway-api//config/crd/experimental?ref=v1.4.0&timeout=90s", "v1.4.0 experimental"},
		{"https://github.com/kubernetes-sigs/gateway-api.git//config/crd?ref=v1.5.1", "v1.5.1 standard"},
		{"git@github.com:kubernetes-sigs/gateway-api.git//config/crd?ref=v1.0.0", "v1.0.0 standard"},
		// No release: the default branch, another directory or file,
		// another repository.
		{"github.com/kubernetes-sigs/gateway-api/config/crd", ""},
		{"github.com/kubernetes-sigs/gateway-api/config/webhook?ref=v1.0.0", ""},
		{"https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.0/webhook-install.yaml.sig", ""},
		{"https://github.com/envoyproxy/gateway/releases/download/v1.2.0/install.yaml", ""},
	}
	for _, tt := range tests {
		got := ""
		if b := remoteBundle(&manifest.ReadError{File: "kustomization.yaml", Remote: tt.url, Unknown: true}); b != nil {
			got = b.Version + " " + b.Channel
		}
		if got != tt.want {
			t.Errorf("remoteBundle(%q) = %q, want %q", tt.url, got, tt.want)
		}
	}
}

// Under an older release, the fields it prunes are gone from the typed
// objects, as from the cluster's: rules[].name before v1.4.0.
func TestOlderReleasePrunes(t *testing.T) {
	route := `
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: app}
spec:
  rules:
  - name: api
    backendRefs: [{name: web, port: 80}]`
	for _, tt := range []struct {
		release string
		name    string
	}{{"v1.2.0", ""}, {"v1.4.0", "api"}, {"v1.6.3", "api"}} {
		r, err := crd.ParseRelease(tt.release)
		if err != nil {
			t.Fatal(err)
		}
		g := resolveYAML(t, Options{Release: r}, route)
		if got := mustRoute(t, g, KindHTTPRoute, "app", "web").Rules[0].Name; got != tt.name {
			t.Errorf("%s: rule name %q, want %q", tt.release, got, tt.name)
		}
	}
}

func TestDeletePath(t *testing.T) {
	obj := map[string]any{"rules": []any{map[string]any{"name": "a", "matches": []any{}}}, "x": map[string]any{"y": 1}}
	for _, path := range []string{"rules[0].name", "x.y", "rules[3].name", "nope.deeper", "rules[0]"} {
		deletePath(obj, path)
	}
	rule := obj["rules"].([]any)[0].(map[string]any)
	if _, ok := rule["name"]; ok || len(obj["x"].(map[string]any)) != 0 || rule["matches"] == nil {
		t.Errorf("after deleting: %v", obj)
	}
}
