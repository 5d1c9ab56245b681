package gitops_test

import (
	"strings"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/gitops"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Flux objects as home-lab repositories write them.
const (
	// onedr0p/home-ops kubernetes/apps/network/envoy-gateway/app.
	envoyGatewayOCI = `
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata: {name: envoy-gateway, namespace: network}
spec:
  interval: 15m
  layerSelector: {mediaType: application/vnd.cncf.helm.chart.content.v1.tar+gzip, operation: copy}
  ref: {tag: 1.9.0}
  url: oci://mirror.gcr.io/envoyproxy/gateway-helm`
	envoyGatewayRelease = `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: envoy-gateway, namespace: network}
spec:
  chartRef: {kind: OCIRepository, name: envoy-gateway}
  interval: 1h
  values:
    config:
      envoyGateway:
        provider: {type: Kubernetes, kubernetes: {deploy: {type: GatewayNamespace}}}`
	nginxRelease = `
apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: nginx-gateway, namespace: nginx-gateway}
spec:
  interval: 1h
  chart:
    spec:
      chart: nginx-gateway-fabric
      version: 2.2.1
      sourceRef: {kind: HelmRepository, name: nginx, namespace: flux-system}`
	// Cilium is a CNI first: its chart says nothing of the Gateways.
	ciliumOCI = `
apiVersion: source.toolkit.fluxcd.io/v1
kind: OCIRepository
metadata: {name: cilium, namespace: kube-system}
spec:
  interval: 15m
  ref: {tag: 1.18.2}
  url: oci://quay.io/cilium/charts/cilium`
	appTemplate = `
apiVersion: source.toolkit.fluxcd.io/v1
kind: HelmChart
metadata: {name: radarr, namespace: flux-system}
spec:
  chart: app-template
  sourceRef: {kind: HelmRepository, name: bjw-s}`
	gateway = `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: external, namespace: network}
spec:
  gatewayClassName: internet
  listeners: [{name: http, protocol: HTTP, port: 80}]`
)

func TestHelmChart(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{envoyGatewayOCI, "gateway-helm"},
		{nginxRelease, "nginx-gateway-fabric"},
		{appTemplate, "app-template"},
		// Its source names the chart.
		{envoyGatewayRelease, ""},
		// A chart in the repository, by its directory.
		{"apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: x}\nspec: {chart: {spec: {chart: ./charts/kgateway/, sourceRef: {kind: GitRepository, name: flux-system}}}}", "kgateway"},
		// Flux's own manifests, not a chart: no implementation's name.
		{"apiVersion: source.toolkit.fluxcd.io/v1\nkind: OCIRepository\nmetadata: {name: flux}\nspec: {url: oci://ghcr.io/fluxcd/flux-manifests}", "flux-manifests"},
		{"apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: nginx}\nspec: {type: oci, url: oci://ghcr.io/nginx/charts}", ""},
		{gateway, ""},
	} {
		in := resolve.Load([]string{"-"}, strings.NewReader(tc.doc), resolve.Options{HelmChart: gitops.HelmChart})
		got := strings.Join(in.HelmCharts, ",")
		if got != tc.want {
			t.Errorf("%s: chart %q, want %q", strings.TrimSpace(tc.doc)[:60], got, tc.want)
		}
	}
	if got := gitops.HelmChart(&manifest.Object{APIVersion: "helm.toolkit.fluxcd.io/v2", Kind: "HelmRelease", JSON: []byte(`{"spec":{"chart":7}}`)}); got != "" {
		t.Errorf("a HelmRelease of another shape: chart %q", got)
	}
}

// The chart of an implementation that a repository installs says which
// implementation runs its Gateways, when no GatewayClass is among the
// inputs; a CNI's chart does not, and two implementations' decide nothing.
func TestHelmChartIsEvidence(t *testing.T) {
	for _, tc := range []struct {
		name string
		docs []string
		want string
	}{
		{"Envoy Gateway's chart", []string{envoyGatewayOCI, envoyGatewayRelease, ciliumOCI, appTemplate, gateway},
			"envoy-gateway@v1.8.0, inferred from the Helm chart gateway-helm"},
		{"a CNI's chart", []string{ciliumOCI, gateway}, ""},
		{"two implementations' charts", []string{envoyGatewayOCI, nginxRelease, gateway},
			"none inferred: the evidence names envoy-gateway (the Helm chart gateway-helm) and nginx-gateway-fabric (the Helm chart nginx-gateway-fabric)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := resolve.Options{Keep: gitops.Keep, HelmChart: gitops.HelmChart, Implementations: implementations.All()}
			in := resolve.Load([]string{"-"}, strings.NewReader(strings.Join(tc.docs, "\n---\n")), opts)
			gw := resolve.Resolve(in, opts).Gateway("network", "external")
			got := ""
			if gw.Inferred != nil {
				got = gw.Inferred.String()
			}
			if got != tc.want {
				t.Errorf("inferred %q\nwant     %q", got, tc.want)
			}
		})
	}
}
