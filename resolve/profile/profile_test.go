package profile

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/profile/internal/reportgen"
)

// TestGeneratedTableMatchesReports regenerates zz_generated_profiles.go from
// the conformance module's reports and compares: the table is the reports.
// It skips when the module is absent, unless GWLINT_REQUIRE_CONFORMANCE is set.
func TestGeneratedTableMatchesReports(t *testing.T) {
	dir, err := reportgen.ModuleDir()
	if err != nil {
		if os.Getenv("GWLINT_REQUIRE_CONFORMANCE") != "" {
			t.Fatal(err)
		}
		t.Skip(err)
	}
	want, err := reportgen.Generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("zz_generated_profiles.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("zz_generated_profiles.go does not match the conformance reports; run go generate ./resolve/profile")
	}
}

// TestEveryImplementationHasAProfile: every hand-kept implementation is
// named as a report names it, so that its facts meet its features.
func TestEveryImplementationHasAProfile(t *testing.T) {
	prev := ""
	for _, impl := range implementations {
		if impl.Name <= prev {
			t.Errorf("implementations are not sorted by name: %q after %q", impl.Name, prev)
		}
		prev = impl.Name
		p, err := Lookup(impl.Name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Version == "" {
			t.Errorf("%s: no conformance report names it", impl.Name)
		}
		if len(impl.ControllerNames) == 0 {
			t.Errorf("%s: no controllerName", impl.Name)
		}
	}
}

// TestReportedFeaturesAreKnown: every feature a conformance report claims
// is one the pinned pkg/features defines, under its name or under a former
// name that formerFeatureNames maps. A claim gwlint does not know is never
// looked up, so the implementation would seem not to support the feature.
func TestReportedFeaturesAreKnown(t *testing.T) {
	for _, r := range reports {
		for _, f := range r.supported {
			if name := current(features.FeatureName(f)); features.GetFeature(name).Name != name {
				t.Errorf("%s claims %s, which the pinned sigs.k8s.io/gateway-api/pkg/features does not define: "+
					"if pkg/features renamed it, map the old name in formerFeatureNames (conformance.go)", r.file, f)
			}
		}
	}
}

func TestSupport(t *testing.T) {
	eg, err := Lookup("envoy-gateway")
	if err != nil {
		t.Fatal(err)
	}
	istio, _ := Lookup("istio")
	cilium, _ := Lookup("cilium")
	cases := []struct {
		p    *Profile
		f    features.FeatureName
		want Support
	}{
		{Everything, features.SupportHTTPRouteCORS, Supported},
		{Everything.Without([]features.FeatureName{features.SupportHTTPRouteCORS}), features.SupportHTTPRouteCORS, Unsupported},
		{eg, features.SupportHTTPRouteCORS, Supported},
		{eg, features.SupportHTTPRoute, Supported},                // core of GATEWAY-HTTP
		{eg, features.SupportTCPRoute, Unknown},                   // no report runs GATEWAY-TCP
		{cilium, features.SupportHTTPRouteCORS, Unsupported},      // GATEWAY-HTTP ran, CORS not claimed
		{istio, features.SupportGatewayInfrastructure, Supported}, // reported under its former name
	}
	for _, c := range cases {
		if got := c.p.Support(c.f); got != c.want {
			t.Errorf("%s: Support(%s) = %v, want %v", c.p, c.f, got, c.want)
		}
		if got := c.p.Lacks(c.f); got != (c.want == Unsupported) {
			t.Errorf("%s: Lacks(%s) = %v with Support %v", c.p, c.f, got, c.want)
		}
	}
}

// Support counts what a report's passed provisional tests exercise, what
// another mode of the version claims (when no mode is named), and holds no
// feature against a report that ran before the suite tested it.
func TestSupportFromReports(t *testing.T) {
	eg, _ := Lookup("envoy-gateway@v1.8.0")
	egDefault, _ := Lookup("envoy-gateway@v1.8.0/default")
	ngf, _ := Lookup("nginx-gateway-fabric")
	istio, _ := Lookup("istio@1.28")
	cases := []struct {
		p    *Profile
		f    features.FeatureName
		want Support
	}{
		// Its gateway namespace mode passes the provisional test; its
		// default mode's report lists the feature as unsupported.
		{eg, features.SupportGatewayInfrastructure, Supported},
		{egDefault, features.SupportGatewayInfrastructure, Unsupported},
		{eg, features.SupportHTTPRouteCORS, Supported},
		// Claimed by no report but by its passed provisional test UDPRoute.
		{ngf, features.SupportUDPRoute, Supported},
		// No report lists HTTPRouteRetry: the suite of v1.5 had no test.
		{istio, features.SupportHTTPRouteRetry, Unknown},
		{eg, features.SupportHTTPRouteRetry, Unknown},
		// Tested from v1.5 on: unknown to Istio's report of v1.4.
		{istio, features.SupportListenerSet, Unknown},
		{istio, features.SupportMeshClusterIPMatching, Unsupported},
	}
	for _, c := range cases {
		if got := c.p.Support(c.f); got != c.want {
			t.Errorf("%s: Support(%s) = %v, want %v", c.p, c.f, got, c.want)
		}
	}
	if eg.ID() != "envoy-gateway@v1.8.0" || egDefault.ID() != eg.ID() {
		t.Errorf("IDs %s, %s", eg.ID(), egDefault.ID())
	}
}

// A report that passed a provisional test the table does not map is
// refused, so that no passed test is dropped unseen.
func TestUnknownProvisionalTestRefused(t *testing.T) {
	dir := t.TempDir()
	report := `apiVersion: gateway.networking.k8s.io/v1
kind: ConformanceReport
gatewayAPIVersion: v1.5.1
gatewayAPIChannel: experimental
mode: default
implementation: {organization: acme, project: acme, version: v1.0.0}
profiles:
- name: GATEWAY-HTTP
  core: {result: success}
succeededProvisionalTests: [HTTPRouteTeleport]
`
	if err := os.MkdirAll(dir+"/v1.5/acme", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dir+"/v1.5/acme/report.yaml", []byte(report), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := reportgen.Read(dir); err == nil || !strings.Contains(err.Error(), "HTTPRouteTeleport") {
		t.Errorf("Read = %v, want an error naming the test", err)
	}
}

func TestLookup(t *testing.T) {
	for sel, want := range map[string]string{
		"envoy-gateway":       "envoy-gateway@v1.8.0",
		"envoy-gateway@1.8.0": "envoy-gateway@v1.8.0",
		"envoy-gateway@v1.8.0/gateway-namespace-mode": "envoy-gateway@v1.8.0/gateway-namespace-mode",
		"nginx-gateway-fabric@v2.5.0":                 "nginx-gateway-fabric@v2.5.0",
		"nginx-gateway-fabric":                        "nginx-gateway-fabric@v2.6.0",
		"istio":                                       "istio@1.30",
		"istio@1.28":                                  "istio@1.28",
	} {
		p, err := Lookup(sel)
		if err != nil {
			t.Errorf("Lookup(%q): %v", sel, err)
			continue
		}
		if p.ID() != want {
			t.Errorf("Lookup(%q) = %s, want %s", sel, p.ID(), want)
		}
	}
	for _, sel := range []string{"nope", "istio@0.1", "envoy-gateway@v1.8.0/nope"} {
		if _, err := Lookup(sel); err == nil {
			t.Errorf("Lookup(%q) succeeded", sel)
		}
	}
}

// A hand-kept release is its implementation's newest report with the
// features it added.
func TestHandKeptRelease(t *testing.T) {
	reported, err := Lookup("istio@1.28")
	if err != nil {
		t.Fatal(err)
	}
	released, err := Lookup("istio@1.30")
	if err != nil {
		t.Fatal(err)
	}
	if released.BasedOn != "istio@1.28" || released.Report != reported.Report || reported.BasedOn != "" {
		t.Errorf("istio@1.30 based on %q with report %q; want istio@1.28's %q", released.BasedOn, released.Report, reported.Report)
	}
	for _, f := range []features.FeatureName{features.SupportTLSRouteModeTerminate, features.SupportTLSRouteModeMixed} {
		if reported.Support(f) == Supported || released.Support(f) != Supported {
			t.Errorf("%s: 1.28 %v, 1.30 %v; want supported from 1.30 only", f, reported.Support(f), released.Support(f))
		}
	}
	if released.Support(features.SupportHTTPRouteQueryParamMatching) != reported.Support(features.SupportHTTPRouteQueryParamMatching) {
		t.Error("istio@1.30 lost what istio@1.28 reported")
	}
}

func TestSelectionByControllerAndClass(t *testing.T) {
	if p := forController("istio.io/mesh-controller"); p == nil || p.Name != "istio" {
		t.Errorf("forController(istio.io/mesh-controller) = %v", p)
	}
	if p := forController("example.com/acme"); p != nil {
		t.Errorf("forController(example.com/acme) = %v, want none", p)
	}
	for class, want := range map[string]string{"istio-waypoint": "istio", "gke-l7-global-external-managed": "gke-gateway", "kgateway": "kgateway"} {
		if p := forClass(class); p == nil || p.Name != want {
			t.Errorf("forClass(%s) = %v, want %s", class, p, want)
		}
	}
	if p := forClass("eg"); p != nil {
		t.Errorf("forClass(eg) = %v: Envoy Gateway installs no class", p)
	}
	eg, _ := Lookup("envoy-gateway")
	if !eg.AcceptsBackendKind("gateway.envoyproxy.io", "Backend") || Everything.AcceptsBackendKind("gateway.envoyproxy.io", "Backend") {
		t.Error("Backend: accepted by envoy-gateway only")
	}
	if !eg.AcceptsParametersKind("gateway.envoyproxy.io", "EnvoyProxy") || eg.AcceptsParametersKind("", "ConfigMap") || Everything.AcceptsParametersKind("gateway.envoyproxy.io", "EnvoyProxy") {
		t.Error("EnvoyProxy parameters: taken by envoy-gateway only, which takes no ConfigMap")
	}
}

func TestParseFeatures(t *testing.T) {
	got, err := ParseFeatures([]string{"TLSRouteModeTerminate", " HTTPRouteCORS"})
	if err != nil || len(got) != 2 || got[1] != features.SupportHTTPRouteCORS {
		t.Errorf("ParseFeatures = %v, %v", got, err)
	}
	if _, err := ParseFeatures([]string{"TLSRouteModeTerminat"}); err == nil {
		t.Error("an unknown feature is accepted")
	}
}

func TestSupportingNamesImplementations(t *testing.T) {
	got := Supporting(features.SupportHTTPRouteCORS)
	if !strings.Contains(strings.Join(got, " "), "envoy-gateway") || strings.Contains(strings.Join(got, " "), "cilium") {
		t.Errorf("Supporting(HTTPRouteCORS) = %v", got)
	}
}

func TestPortability(t *testing.T) {
	fs := []features.FeatureName{features.SupportHTTPRoute, features.SupportHTTPRouteCORS, features.SupportTCPRoute}
	for _, v := range Portability(fs) {
		switch v.Profile.Name {
		case "cilium":
			if len(v.Unsupported) != 1 || v.Unsupported[0] != features.SupportHTTPRouteCORS || v.SupportsAll() {
				t.Errorf("cilium: %+v", v)
			}
		case "envoy-gateway":
			if len(v.Unsupported) != 0 || len(v.Unknown) != 1 || v.Unknown[0] != features.SupportTCPRoute {
				t.Errorf("envoy-gateway: %+v", v)
			}
		}
	}
}
