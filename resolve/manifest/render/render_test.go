package render

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gwlint/gwlint/resolve/manifest"
)

const examples = "../../../testdata"

// writeTree writes files (name → text) under a new directory.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// kustomize builds dir within its default boundary.
func kustomize(t *testing.T, dir string) ([]*manifest.Object, []*manifest.ReadError) {
	t.Helper()
	return testRenderer(t).Kustomize(dir)
}

// helm renders the chart in dir within its default boundary.
func helm(t *testing.T, dir string, values []string, namespace string, apiVersions []string) ([]*manifest.Object, []*manifest.ReadError) {
	t.Helper()
	return testRenderer(t).Helm(dir, values, namespace, apiVersions)
}

// testRenderer renders within the examples' repository and the temporary
// directory that writeTree writes in: the boundary of a check of a whole
// tree. The tests of the boundary make their own.
func testRenderer(t *testing.T) *Renderer {
	r := NewRenderer(manifest.BoundaryFor(examples, os.TempDir()))
	t.Cleanup(r.Close)
	return r
}

// byKind returns the one object of that kind.
func byKind(t *testing.T, objs []*manifest.Object, kind string) *manifest.Object {
	t.Helper()
	for _, o := range objs {
		if o.Kind == kind {
			return o
		}
	}
	t.Fatalf("no %s among %d objects", kind, len(objs))
	return nil
}

// placedAt checks that o comes from file, with each path at its position.
func placedAt(t *testing.T, o *manifest.Object, file string, want map[string]manifest.Pos) {
	t.Helper()
	if o.Source.File != file {
		t.Errorf("%s from %s, want %s", o.Kind, o.Source.File, file)
	}
	for path, pos := range want {
		if got, _ := o.Positions.Lookup(path); got != pos {
			t.Errorf("%q at %v, want %v", path, got, pos)
		}
	}
}

// An overlay's objects are placed in the base files they came from: a
// field the base writes with the built value at its line, one a patch
// changed (the port) or a transformer added (the namespace) at its nearest
// parent that the base writes unchanged.
func TestKustomizePlacesFieldsInTheBase(t *testing.T) {
	objs, errs := kustomize(t, filepath.Join(examples, "kustomize", "overlays", "prod"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	route := byKind(t, objs, "HTTPRoute")
	base := filepath.Join(examples, "kustomize", "base", "store.yaml")
	if route.Source.File != base || route.Source.Doc != 1 || route.Source.Pos != (manifest.Pos{Line: 12, Col: 1}) {
		t.Errorf("HTTPRoute source = %+v, want %s, document 1, at 12:1", route.Source, base)
	}
	for path, want := range map[string]manifest.Pos{
		"spec.parentRefs[0].name":           {Line: 18, Col: 5},
		"spec.rules[0].backendRefs[0].name": {Line: 23, Col: 7},
		"spec.rules[0].backendRefs[0].port": {Line: 23, Col: 7}, // 9090 by the patch; the base says 8080
		"metadata.namespace":                {Line: 14, Col: 1}, // added by namespace: the base's metadata
	} {
		if got, _ := route.Positions.Lookup(path); got != want {
			t.Errorf("%s at %v, want %v", path, got, want)
		}
	}
	if !strings.Contains(string(route.JSON), `"port":9090`) || !strings.Contains(string(route.JSON), `"namespace":"store-prod"`) {
		t.Errorf("HTTPRoute is not the build's: %s", route.JSON)
	}
	if strings.Contains(string(route.JSON), "config.kubernetes.io") {
		t.Errorf("build annotations left in: %s", route.JSON)
	}
}

// A namePrefix changes every name; objects are still found in their
// source by the name within.
func TestKustomizeFindsRenamedObjects(t *testing.T) {
	objs, errs := kustomize(t, filepath.Join(examples, "kustomize", "overlays", "staging"))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	gw := byKind(t, objs, "Gateway")
	if pos, _ := gw.Positions.Lookup("spec.listeners[0].port"); pos != (manifest.Pos{Line: 10, Col: 5}) {
		t.Errorf("staging-web's listener port at %v, want 10:5 of base/gateway.yaml", pos)
	}
}

// The base is included by both overlays, so only they are roots, and the
// files a kustomization names are reported as included.
func TestRoots(t *testing.T) {
	k := filepath.Join(examples, "kustomize")
	roots, included := Roots([]string{filepath.Join(k, "base"), filepath.Join(k, "overlays", "prod"), filepath.Join(k, "overlays", "staging")}, manifest.BoundaryFor(k))
	want := []string{filepath.Join(k, "overlays", "prod"), filepath.Join(k, "overlays", "staging")}
	if strings.Join(roots, ",") != strings.Join(want, ",") {
		t.Errorf("roots = %v, want %v", roots, want)
	}
	if len(included) != 2 || !strings.HasSuffix(included[0], "gateway.yaml") || !strings.HasSuffix(included[1], "store.yaml") {
		t.Errorf("included = %v, want base/gateway.yaml and base/store.yaml", included)
	}
}

// A file a kustomization names from outside its directory is built, as
// Flux builds with no load restriction, so the walk does not read it
// again; one outside the boundary is refused by the build, and counts as
// included nowhere.
func TestRootsIncludeFilesWithinTheBoundary(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"app/kustomization.yaml": "resources:\n- route.yaml\n- ../shared/gw.yaml\n- ../../elsewhere.yaml\n",
		"app/route.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n",
		"shared/gw.yaml":         "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n",
	})
	if err := os.WriteFile(filepath.Join(dir, "..", "elsewhere.yaml"), []byte("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, included := Roots([]string{filepath.Join(dir, "app")}, manifest.BoundaryFor(dir))
	want := []string{filepath.Join(dir, "app", "route.yaml"), filepath.Join(dir, "shared", "gw.yaml")}
	if !slices.Equal(included, want) {
		t.Errorf("included = %v, want %v", included, want)
	}
	r := NewRenderer(manifest.BoundaryFor(dir))
	defer r.Close()
	objs, errs := r.Kustomize(filepath.Join(dir, "app"))
	if len(objs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), manifest.ErrOutside.Error()) {
		t.Errorf("Kustomize = %v, %v; want ../../elsewhere.yaml refused", objs, errs)
	}
}

// Kustomizations in a cycle (each included by another, or by itself) are
// still built, so that kustomize's refusal is reported rather than nothing
// being checked.
func TestRootsOfACycle(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"a/kustomization.yaml":    "resources:\n- gateway.yaml\n- ../b\n",
		"b/kustomization.yaml":    "resources:\n- ../a\n",
		"self/kustomization.yaml": "resources:\n- .\n",
	})
	a, b, self := filepath.Join(dir, "a"), filepath.Join(dir, "b"), filepath.Join(dir, "self")
	roots, _ := Roots([]string{a, b, self}, manifest.BoundaryFor(dir))
	if strings.Join(roots, ",") != a+","+self {
		t.Errorf("roots = %v, want %v", roots, []string{a, self})
	}
	for _, root := range roots {
		if _, errs := kustomize(t, root); len(errs) == 0 {
			t.Errorf("%s: the cycle was built without an error", root)
		}
	}
}

// What kustomize would fetch is left out of the build, and noted as
// unknown at its line; the rest is built. An entry that is neither local
// nor remote is an error, and nothing is built.
func TestKustomizeLeavesOutWhatItWouldFetch(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"overlay/kustomization.yaml": "resources:\n- ../base\n",
		"base/kustomization.yaml": "resources:\n- route.yaml\n- github.com/example/infra//gateway?ref=v1.0.0\n" +
			"- https://example.com/gateway.yaml\nhelmCharts:\n- name: store\n  repo: https://charts.example.com\n" +
			"patches:\n- path: https://example.com/patch.yaml\n" +
			"transformers:\n- http://127.0.0.1:1/t.yaml\nconfigurations:\n- https://example.com/c.yaml\n" +
			"openapi:\n  path: https://example.com/schema.json\n" +
			"components:\n- oci://ghcr.io/example/component\n",
		"base/route.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
	})
	start := time.Now()
	objs, errs := kustomize(t, filepath.Join(dir, "overlay"))
	if time.Since(start) > 10*time.Second {
		t.Errorf("took %v", time.Since(start))
	}
	file := filepath.Join(dir, "base", "kustomization.yaml")
	remote := `" is remote: gwlint fetches nothing, so what it holds is unknown and the rest is built without it`
	want := []string{
		file + `:3:3: "github.com/example/infra//gateway?ref=v1.0.0` + remote,
		file + `:4:3: "https://example.com/gateway.yaml` + remote,
		file + `:6:3: helmCharts: chart "store" is not in charts/store: kustomize would pull it`,
		file + `:9:9: "https://example.com/patch.yaml` + remote,
		file + `:11:3: "http://127.0.0.1:1/t.yaml` + remote,
		file + `:13:3: "https://example.com/c.yaml` + remote,
		file + `:15:9: "https://example.com/schema.json` + remote,
		file + `:17:3: "oci://ghcr.io/example/component` + remote,
	}
	if len(objs) != 1 || objs[0].Kind != "Service" || len(errs) != len(want) {
		t.Fatalf("Kustomize = %d objects, notes %v; want the Service and notes %q", len(objs), errs, want)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), want[i]) || !e.Unknown {
			t.Errorf("note %d = %q (unknown %v), want an unknown %q...", i, e, e.Unknown, want[i])
		}
	}
}

// A kustomization that holds only what it would fetch is built, empty,
// and included as such.
func TestKustomizeOnlyRemote(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml":          "resources:\n- ns.yaml\n- operator\n",
		"ns.yaml":                     "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: intel-device-plugins\n",
		"operator/kustomization.yaml": "helmCharts:\n- name: intel-device-plugins-operator\n  repo: https://intel.github.io/helm-charts/\n  version: 0.35.0\n",
	})
	objs, errs := kustomize(t, dir)
	if len(objs) != 1 || len(errs) != 1 || !errs[0].Unknown {
		t.Errorf("Kustomize = %d objects, errors %v; want the Namespace and a note of the chart", len(objs), errs)
	}
}

// A local entry that is not there is an error, and nothing is built.
func TestKustomizeMissingEntry(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "resources:\n- route.yaml\n- missing.yaml\n- https://example.com/gateway.yaml\n",
		"route.yaml":         "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
	})
	objs, errs := kustomize(t, dir)
	file := filepath.Join(dir, "kustomization.yaml")
	if len(objs) > 0 || len(errs) != 2 || errs[0].Error() != file+`:3:3: "missing.yaml" is not a file or directory here` || errs[0].Unknown || !errs[1].Unknown {
		t.Errorf("Kustomize = %d objects, errors %v; want nothing built, missing.yaml an error and the remote entry a note", len(objs), errs)
	}
}

// A chart of helmCharts that is vendored in the chart home is rendered as
// kustomize renders it (release name, namespace, valuesFile under
// valuesInline, CRDs when asked), and the kustomization's transformers and
// patches apply to its objects; each is placed in its template. A chart
// that is not vendored, and a remote resource, are noted as unknown.
func TestKustomizeInflatesVendoredHelmCharts(t *testing.T) {
	dir := filepath.Join("testdata", "helmcharts", "apps", "echo")
	objs, errs := kustomize(t, dir)
	file := filepath.Join(dir, "kustomization.yaml")
	wantNotes := []string{
		file + `:6:5: "https://github.com/kubernetes-sigs/gateway-api/releases/download/v1.2.0/standard-install.yaml" is remote`,
		file + `:20:5: helmCharts: chart "app-template" is not in ../../charts/app-template-4.2.0/app-template: kustomize would pull it`,
		file + `:26:11: "https://raw.githubusercontent.com/example/infra/main/patch.yaml" is remote`,
	}
	if len(errs) != len(wantNotes) {
		t.Fatalf("notes %v, want %q", errs, wantNotes)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), wantNotes[i]) || !e.Unknown {
			t.Errorf("note %d = %q (unknown %v), want an unknown %q...", i, e, e.Unknown, wantNotes[i])
		}
	}
	var kinds []string
	for _, o := range objs {
		kinds = append(kinds, o.Kind)
	}
	slices.Sort(kinds)
	if want := []string{"Gateway", "HTTPRoute", "Service"}; !slices.Equal(kinds, want) {
		t.Fatalf("kinds %v, want %v (no CRD: includeCRDs is not set)", kinds, want)
	}
	chart := filepath.Join("testdata", "helmcharts", "charts", "echo-1.0.0", "echo")
	route := byKind(t, objs, "HTTPRoute")
	placedAt(t, route, filepath.Join(chart, "templates", "httproute.yaml"), map[string]manifest.Pos{
		"":                                  {Line: 1, Col: 1},
		"metadata.name":                     {Line: 4, Col: 3},
		"spec.parentRefs[0].name":           {Line: 7, Col: 7},
		"spec.hostnames[0]":                 {Line: 9, Col: 7},
		"spec.rules[0].backendRefs[0].port": {Line: 13, Col: 11},
	})
	for _, want := range []string{`"namespace":"networking"`, `"echo.example.com"`, `{"name":"internal"}`, `"port":8080`} {
		if !strings.Contains(string(route.JSON), want) {
			t.Errorf("HTTPRoute lacks %s: %s", want, route.JSON)
		}
	}
	svc := string(byKind(t, objs, "Service").JSON)
	for _, want := range []string{`"name":"echo"`, `"io.cilium/lb-ipam-ips":"10.0.0.20"`, `"namespace":"networking"`} {
		if !strings.Contains(svc, want) {
			t.Errorf("Service lacks %s: %s", want, svc)
		}
	}
}

// The values of a chart of helmCharts are merged as valuesMerge says, and
// includeCRDs renders the chart's CRDs.
func TestKustomizeHelmChartsValues(t *testing.T) {
	chart := map[string]string{
		"charts/echo/Chart.yaml":        "apiVersion: v2\nname: echo\nversion: 1.0.0\n",
		"charts/echo/values.yaml":       "a: chart\nb: chart\nc: chart\n",
		"charts/echo/templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ .Release.Name }}\ndata:\n  a: {{ .Values.a }}\n  b: {{ .Values.b }}\n  c: {{ .Values.c }}\n",
		"charts/echo/crds/echoes.yaml":  "apiVersion: apiextensions.k8s.io/v1\nkind: CustomResourceDefinition\nmetadata:\n  name: echoes.example.com\n",
		"values.yaml":                   "a: file\nb: file\n",
		"more.yaml":                     "a: more\n",
	}
	for _, tc := range []struct{ merge, want string }{
		{"", `{"a":"more","b":"inline","c":"chart"}`},
		{"override", `{"a":"more","b":"inline","c":"chart"}`},
		{"merge", `{"a":"more","b":"file","c":"chart"}`},
		{"replace", `{"a":"more","b":"inline","c":"chart"}`},
	} {
		files := maps.Clone(chart)
		files["kustomization.yaml"] = "helmCharts:\n- name: echo\n  releaseName: cfg\n  includeCRDs: true\n  valuesFile: values.yaml\n" +
			"  additionalValuesFiles: [more.yaml]\n  valuesMerge: " + cmp.Or(tc.merge, "\"\"") + "\n  valuesInline:\n    b: inline\n"
		objs, errs := kustomize(t, writeTree(t, files))
		if len(errs) > 0 {
			t.Fatalf("valuesMerge %q: %v", tc.merge, errs)
		}
		if got := string(byKind(t, objs, "ConfigMap").JSON); !strings.Contains(got, `"data":`+tc.want) || !strings.Contains(got, `"name":"cfg"`) {
			t.Errorf("valuesMerge %q: %s, want data %s", tc.merge, got, tc.want)
		}
		byKind(t, objs, "CustomResourceDefinition")
	}
}

// A chart of helmCharts that fails to render is an error at its template;
// the rest of the kustomization is built.
func TestKustomizeHelmChartsError(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml":           "resources:\n- svc.yaml\nhelmCharts:\n- name: bad\n",
		"svc.yaml":                     "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
		"charts/bad/Chart.yaml":        "apiVersion: v2\nname: bad\nversion: 1.0.0\n",
		"charts/bad/templates/cm.yaml": "{{ required \"host is required\" .Values.host }}\n",
	})
	objs, errs := kustomize(t, dir)
	want := filepath.Join(dir, "charts", "bad", "templates", "cm.yaml") + ":1:"
	if len(objs) != 1 || len(errs) != 1 || !strings.HasPrefix(errs[0].Error(), want) || errs[0].Unknown {
		t.Errorf("Kustomize = %d objects, errors %v; want the Service and an error at %s", len(objs), errs, want)
	}
}

// A build that fails is one error at the kustomization file.
func TestKustomizeBuildError(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "resources:\n- a.yaml\n- b.yaml\n",
		"a.yaml":             "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
		"b.yaml":             "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
	})
	_, errs := kustomize(t, dir)
	if len(errs) != 1 || errs[0].File != filepath.Join(dir, "kustomization.yaml") || !strings.HasPrefix(errs[0].Msg, "kustomize build: ") {
		t.Errorf("errors = %v, want one kustomize build error at kustomization.yaml", errs)
	}
}

// A kustomization that is another tool's template (ricsanfre/pi-cluster's
// boilerplate/fluxcd-app-template) builds what is unknown until that tool
// renders it; a Helm template of one stays an error, as Helm never renders
// a kustomization.
func TestKustomizeToolTemplate(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"boilerplate/kustomization.yaml": "resources: [ns.yaml]\nconfigMapGenerator:\n  - name: {{ .app_name }}-values\n    files: [values.yaml]\n",
		"boilerplate/ns.yaml":            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: app\n",
		"boilerplate/values.yaml":        "{}\n",
		"helm/kustomization.yaml":        "resources: [ns.yaml]\nnamespace: {{ .Release.Namespace }\n",
		"helm/ns.yaml":                   "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: app\n",
	})
	if _, errs := kustomize(t, filepath.Join(dir, "boilerplate")); len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "another tool's template") {
		t.Errorf("boilerplate: errors %v; want one note that what it builds is unknown", errs)
	}
	if _, errs := kustomize(t, filepath.Join(dir, "helm")); len(errs) != 1 || errs[0].Unknown {
		t.Errorf("helm: errors %v; want one error", errs)
	}
}

// A component built alone (no kustomization of the inputs includes it)
// that kustomize cannot build without a base, as ricsanfre/pi-cluster's
// unused fluent-bit forwarding component, is unknown, not an error; one
// that builds alone gives its objects, and a kustomization that fails
// stays an error.
func TestKustomizeComponentBuiltAlone(t *testing.T) {
	const merge = "configMapGenerator:\n- name: fluent-bit-helm-values\n  behavior: merge\n  files:\n  - values.yaml\n"
	dir := writeTree(t, map[string]string{
		"forwarding/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- secret.yaml\n" + merge,
		"forwarding/secret.yaml":        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: fluent-bit-secrets\n",
		"forwarding/values.yaml":        "config: {}\n",
		"standalone/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources:\n- secret.yaml\n",
		"standalone/secret.yaml":        "apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\n",
		"overlay/kustomization.yaml":    "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n" + merge,
		"overlay/values.yaml":           "config: {}\n",
	})
	objs, errs := kustomize(t, filepath.Join(dir, "forwarding"))
	if len(objs) != 0 || len(errs) != 1 || !errs[0].Unknown || !strings.HasPrefix(errs[0].Msg, "a component that no kustomization of the inputs includes fails to build alone (kustomize build: ") {
		t.Errorf("forwarding: %d objects, errors %v; want one note that the component is unknown alone", len(objs), errs)
	}
	if objs, errs := kustomize(t, filepath.Join(dir, "standalone")); len(objs) != 1 || len(errs) != 0 {
		t.Errorf("standalone: %d objects, errors %v; want its Secret", len(objs), errs)
	}
	if _, errs := kustomize(t, filepath.Join(dir, "overlay")); len(errs) != 1 || errs[0].Unknown {
		t.Errorf("overlay: errors %v; want one error", errs)
	}
}

// A file a kustomization names that .gitignore leaves out of the
// repository (d-uzlov/k8s-homelab keeps each app's env/ on the machine it
// deploys from) is unknown, and so is what a build that needs it gives;
// one that is simply missing stays an error, and so does one that a
// negated pattern keeps in the repository.
func TestKustomizeIgnoredFiles(t *testing.T) {
	dir := writeTree(t, map[string]string{
		".git/HEAD":                 "ref: refs/heads/main\n",
		".gitignore":                "env/\n!/kept/env/\n",
		"app/kustomization.yaml":    "resources: [svc.yaml]\nsecretGenerator:\n- name: s3\n  envs: [./env/s3.env]\n",
		"app/svc.yaml":              "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
		"domain/kustomization.yaml": "configMapGenerator:\n- name: domain\n  envs: [./env/domain.env]\n",
		"route/kustomization.yaml":  "resources: [../domain, ./env/extra.yaml]\n",
		"typo/kustomization.yaml":   "resources: [svc.yml]\n",
		"kept/kustomization.yaml":   "configMapGenerator:\n- name: k\n  envs: [./env/k.env]\n",
		"kept/env/.placeholder":     "",
	})
	for _, tt := range []struct {
		dir     string
		unknown bool
		notes   int // the ignored entries noted at their lines
	}{
		{"app", true, 1},
		{"route", true, 2},
		{"typo", false, 0},
		{"kept", false, 0},
	} {
		objs, errs := kustomize(t, filepath.Join(dir, tt.dir))
		var notes, failed []*manifest.ReadError
		for _, e := range errs {
			if e.Unknown && strings.Contains(e.Msg, ".gitignore leaves it out") {
				notes = append(notes, e)
			} else {
				failed = append(failed, e)
			}
		}
		if len(objs) != 0 || len(notes) != tt.notes || len(failed) != 1 || failed[0].Unknown != tt.unknown {
			t.Errorf("%s: %d objects, errors %v; want %d notes and the build's failure (unknown: %v)", tt.dir, len(objs), errs, tt.notes, tt.unknown)
		}
	}
}

// A chart renders with its defaults and the values files over them, and
// its objects are placed at their template lines: the line of the same
// key when the value is templated. NOTES.txt and partials are not read.
func TestHelmPlacesFieldsInTemplates(t *testing.T) {
	chart := filepath.Join(examples, "helm", "store")
	objs, errs := helm(t, chart, []string{filepath.Join(examples, "helm", "prod-values.yaml")}, "shop", nil)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(objs) != 3 {
		t.Fatalf("%d objects, want the Gateway, the Service and the HTTPRoute", len(objs))
	}
	route := byKind(t, objs, "HTTPRoute")
	placedAt(t, route, filepath.Join(chart, "templates", "httproute.yaml"), map[string]manifest.Pos{
		"":                {Line: 1, Col: 1},
		"metadata.name":   {Line: 4, Col: 3},
		"metadata.labels": {Line: 5, Col: 3},
		"metadata.labels[app.kubernetes.io/name]": {Line: 5, Col: 3}, // from include: its parent
		"spec.hostnames[0]":                       {Line: 11, Col: 5},
		"spec.rules[0].backendRefs[0].port":       {Line: 19, Col: 7},
	})
	svc := string(byKind(t, objs, "Service").JSON)
	if !strings.Contains(svc, `"port":8443`) || !strings.Contains(svc, `"name":"release-name-store"`) {
		t.Errorf("Service is not rendered with prod-values.yaml as release-name: %s", svc)
	}
	if !strings.Contains(string(route.JSON), `"shop.example.com"`) {
		t.Errorf("HTTPRoute is not rendered with prod-values.yaml: %s", route.JSON)
	}
}

// A separator that {{- if -}} glues to the next line ("---# comment", as
// cert-manager's rbac.yaml renders) separates documents, as Helm splits
// a template's output, and the objects stay at their template lines.
func TestHelmGluedSeparator(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n"
	dir := writeTree(t, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
		"templates/cms.yaml": fmt.Sprintf(cm, "a") + "\n---\n\n{{- if true -}}\n\n# the second\n" + fmt.Sprintf(cm, "b") +
			"\n---\n\n{{- end -}}\n\n# the third\n" + fmt.Sprintf(cm, "c"),
	})
	objs, errs := helm(t, dir, nil, "default", nil)
	if len(objs) != 3 || len(errs) != 0 {
		t.Fatalf("Helm = %d objects, errors %v; want the three ConfigMaps", len(objs), errs)
	}
	file := filepath.Join(dir, "templates", "cms.yaml")
	placedAt(t, objs[1], file, map[string]manifest.Pos{"metadata.name": {Line: 14, Col: 3}})
	placedAt(t, objs[2], file, map[string]manifest.Pos{"metadata.name": {Line: 24, Col: 3}})
}

// A chart whose declared dependency is not vendored is not rendered, as
// helm template refuses it, rather than rendered without it; what it
// creates is unknown (fetched at deploy time), not an error.
func TestHelmMissingDependency(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n- name: redis\n  version: 1.0.0\n  repository: https://example.com/charts\n",
		"templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: app\n",
	})
	objs, errs := helm(t, dir, nil, "default", nil)
	if len(objs) != 0 || len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "dependencies redis are not in its charts/ directory") {
		t.Errorf("Helm = %d objects, errors %v; want the missing redis", len(objs), errs)
	}
}

// A template that fails to render is an error at the line Helm names.
func TestHelmTemplateError(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: broken\nversion: 0.1.0\n",
		"values.yaml":        "route: {}\n",
		"templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ .Values.route.name.first }}\n",
	})
	_, errs := helm(t, dir, nil, "default", nil)
	if len(errs) != 1 {
		t.Fatalf("errors = %v, want one", errs)
	}
	e := errs[0]
	if e.File != filepath.Join(dir, "templates", "svc.yaml") || e.Pos.Line != 4 || !strings.HasPrefix(e.Msg, "helm template: ") {
		t.Errorf("error = %v, want one at templates/svc.yaml:4", e)
	}
	// required and fail name their line in words of their own. A value
	// that required asks of the chart's user, rendered with the defaults
	// alone, is unknown: no one installs it so. Given values that lack
	// it, it is an error.
	dir = writeTree(t, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: req\nversion: 0.1.0\n",
		"templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: {{ required \"name is required\" .Values.name }}\n",
		"prod.yaml":          "replicas: 2\n",
	})
	for _, values := range [][]string{nil, {filepath.Join(dir, "prod.yaml")}} {
		_, errs = helm(t, dir, values, "default", nil)
		if len(errs) != 1 || errs[0].File != filepath.Join(dir, "templates", "svc.yaml") || errs[0].Pos.Line != 4 || !strings.Contains(errs[0].Msg, "name is required") ||
			errs[0].Unknown != (values == nil) {
			t.Errorf("required, values %v: errors = %v, want one at templates/svc.yaml:4, unknown only with the defaults", values, errs)
		}
	}
	// A subchart's required, found among the chart's dependencies as loaded.
	dir = writeTree(t, map[string]string{
		"Chart.yaml":                      "apiVersion: v2\nname: umbrella\nversion: 0.1.0\n",
		"charts/db/Chart.yaml":            "apiVersion: v2\nname: db\nversion: 0.1.0\n",
		"charts/db/templates/secret.yaml": "apiVersion: v1\nkind: Secret\nmetadata:\n  name: {{ .Values.name | default \"db\" }}\nstringData:\n  password: {{ required \"db.password is required\" .Values.password }}\n",
	})
	if _, errs = helm(t, dir, nil, "default", nil); len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "db.password is required") {
		t.Errorf("subchart's required: errors = %v, want it unknown", errs)
	}
	// A chart without default values reads values it is given: rendered
	// alone, a nil value it reads is unknown; given values that lack it,
	// or with defaults that do, an error.
	for _, tt := range []struct {
		values, given string
		unknown       bool
	}{{"", "", true}, {"", "replicas: 2\n", false}, {"other: 1\n", "", false}} {
		files := map[string]string{
			"Chart.yaml":         "apiVersion: v2\nname: apps\nversion: 0.1.0\n",
			"templates/cm.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: apps\ndata:\n  cidr: {{ .Values.network.cidr }}\n",
			"values.yaml":        tt.values,
			"global-values.yaml": tt.given,
		}
		if tt.values == "" {
			delete(files, "values.yaml")
		}
		dir = writeTree(t, files)
		var values []string
		if tt.given != "" {
			values = []string{filepath.Join(dir, "global-values.yaml")}
		}
		if _, errs = helm(t, dir, values, "default", nil); len(errs) != 1 || errs[0].Unknown != tt.unknown || !strings.Contains(errs[0].Msg, "nil pointer") {
			t.Errorf("defaults %q, values %q: errors = %v, want one, unknown %v", tt.values, tt.given, errs, tt.unknown)
		}
	}
	// fail is the chart's own verdict on its values: an error.
	dir = writeTree(t, map[string]string{
		"Chart.yaml":         "apiVersion: v2\nname: fails\nversion: 0.1.0\n",
		"templates/svc.yaml": "{{ fail \"set either a or b\" }}\n",
	})
	if _, errs = helm(t, dir, nil, "default", nil); len(errs) != 1 || errs[0].Unknown {
		t.Errorf("fail: errors = %v, want one error", errs)
	}
}

// A template gated on the Gateway API's presence renders when the caller
// says the cluster serves it, as it would on install there.
func TestHelmCapabilities(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Chart.yaml": "apiVersion: v2\nname: app\nversion: 0.1.0\n",
		"templates/route.yaml": `{{- if .Capabilities.APIVersions.Has "gateway.networking.k8s.io/v1/HTTPRoute" }}
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata:
  name: app
{{- end }}
`,
	})
	for _, c := range []struct {
		apiVersions []string
		want        int
	}{{nil, 0}, {[]string{"gateway.networking.k8s.io/v1", "gateway.networking.k8s.io/v1/HTTPRoute"}, 1}} {
		objs, errs := helm(t, dir, nil, "default", c.apiVersions)
		if len(errs) != 0 || len(objs) != c.want {
			t.Errorf("with %v: %d objects, errors %v; want %d", c.apiVersions, len(objs), errs, c.want)
		}
	}
}

// Asking for origin annotations rewrites the root kustomization: its own
// buildMetadata is kept beside it, and every other value keeps its text.
func TestKustomizeKeepsRootValues(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "resources: [route.yaml]\ncommonAnnotations:\n  release: \"1.10\"\nbuildMetadata: [managedByLabel]\n",
		"route.yaml":         "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: app\n  namespace: shop\n",
	})
	objs, errs := kustomize(t, dir)
	if len(errs) != 0 || len(objs) != 1 {
		t.Fatalf("Kustomize = %d objects, errors %v", len(objs), errs)
	}
	if got := string(objs[0].JSON); !strings.Contains(got, `"release":"1.10"`) || !strings.Contains(got, `"app.kubernetes.io/managed-by"`) {
		t.Errorf("route %s: want annotation release 1.10 and the managed-by label", got)
	}
	if src := objs[0].Source; !strings.HasSuffix(src.File, "route.yaml") {
		t.Errorf("route placed in %s, want route.yaml (its origin)", src.File)
	}
}

// Path reads a spec.path (or a chart's path in a GitRepository) relative
// to the repository's root, whether written from it or not.
func TestPath(t *testing.T) {
	for spec, want := range map[string]string{
		"./clusters/home": "clusters/home",
		"clusters/home/":  "clusters/home",
		"/charts/app/":    "charts/app",
		"./":              "",
		"/":               "",
		"":                "",
	} {
		if got, err := Path(spec); err != nil || got != filepath.FromSlash(want) {
			t.Errorf("Path(%q) = %q, %v; want %q", spec, got, err, want)
		}
	}
	for _, spec := range []string{"../other", "./apps/../../other"} {
		if got, err := Path(spec); err == nil {
			t.Errorf("Path(%q) = %q; want an error: it leaves the repository", spec, got)
		}
	}
}

// A helmCharts entry left out (its chart is not vendored) may define an
// anchor that another field names, as bjw-s' app-template example does:
// the rest builds with the value the alias stands for.
func TestKustomizeKeepsWhatAnAliasOfALeftOutEntryNames(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "helmCharts:\n- name: app-template\n  repo: https://charts.example.com\n" +
			"  releaseName: &releaseName vaultwarden\nresources:\n- service.yaml\n" +
			"commonAnnotations:\n  meta.helm.sh/release-name: *releaseName\n",
		"service.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n",
	})
	objs, errs := kustomize(t, dir)
	if len(objs) != 1 || len(errs) != 1 || !errs[0].Unknown {
		t.Fatalf("Kustomize = %d objects, notes %v; want the Service and the chart's note", len(objs), errs)
	}
	if !strings.Contains(string(objs[0].JSON), `"meta.helm.sh/release-name":"vaultwarden"`) {
		t.Errorf("Service %s; want the annotation the alias names", objs[0].JSON)
	}
}

// The note of a helmCharts entry whose chart is not vendored names the
// release kustomize would inflate: its releaseName ("release-name" when
// none) in the kustomization's namespace, else the entry's.
func TestKustomizeNamesTheReleaseOfAnUnvendoredChart(t *testing.T) {
	for _, tc := range []struct{ kustomization, name, namespace string }{
		{"helmCharts:\n- {name: grafana, repo: https://charts.example.com, releaseName: kps, namespace: monitoring}\n", "kps", "monitoring"},
		{"namespace: observability\nhelmCharts:\n- {name: grafana, repo: https://charts.example.com, namespace: monitoring}\n", "release-name", "observability"},
		{"helmCharts:\n- {name: grafana, repo: https://charts.example.com}\n", "release-name", ""},
	} {
		_, errs := kustomize(t, writeTree(t, map[string]string{"kustomization.yaml": tc.kustomization}))
		if len(errs) != 1 {
			t.Errorf("%q: notes %v; want the chart's", tc.kustomization, errs)
		} else if r := errs[0].Release; r == nil || *r != (manifest.Release{Name: tc.name, Namespace: tc.namespace}) {
			t.Errorf("%q: release %+v; want %s in %q", tc.kustomization, r, tc.name, tc.namespace)
		}
	}
}

// A generator or validator that configures an external plugin (ksops,
// which Argo CD runs with --enable-alpha-plugins), or the builtin
// HelmChartInflationGenerator (which pulls its chart with --enable-helm:
// ukyi-app/homelab), is left out and noted: what it generates is unknown,
// the rest is built. Another builtin plugin runs.
// A transformer's external plugin changes what the rest gives: the build
// is unknown.
func TestKustomizeExternalPlugins(t *testing.T) {
	ksops := "apiVersion: viaduct.ai/v1\nkind: ksops\nmetadata:\n  name: secrets\n  annotations:\n" +
		"    config.kubernetes.io/function: |\n      exec:\n        path: ksops\nfiles: [secret.sops.yaml]\n"
	builtin := "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: settings\nliterals: [mode=prod]\n"
	dir := writeTree(t, map[string]string{
		"app/kustomization.yaml": "resources: [service.yaml]\ngenerators:\n- secret-generator.yaml\n- settings.yaml\n- chart.yaml\n" +
			"- |\n  apiVersion: example.com/v1\n  kind: Inline\n  metadata: {name: x}\n" +
			"validators:\n- secret-generator.yaml\n",
		"app/secret-generator.yaml":      ksops,
		"app/settings.yaml":              builtin,
		"app/chart.yaml":                 "apiVersion: builtin\nkind: HelmChartInflationGenerator\nmetadata:\n  name: sealed-secrets\nname: sealed-secrets\nrepo: https://bitnami.github.io/sealed-secrets\n",
		"app/service.yaml":               "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
		"transformed/kustomization.yaml": "resources: [service.yaml]\ntransformers:\n- ksops.yaml\n",
		"transformed/ksops.yaml":         ksops,
		"transformed/service.yaml":       "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n",
	})
	objs, errs := kustomize(t, filepath.Join(dir, "app"))
	file := filepath.Join(dir, "app", "kustomization.yaml")
	left := "which kustomize runs only with --enable-alpha-plugins and gwlint never runs: what it "
	want := []string{
		file + `:3:3: generators: "secret-generator.yaml" configures the plugin ksops, ` + left + "generates is unknown",
		file + `:5:3: generators: "chart.yaml" configures the plugin HelmChartInflationGenerator, which kustomize runs only with --enable-helm and gwlint never runs: what it generates is unknown`,
		file + `:6:3: generators: an inline configuration configures the plugin Inline, ` + left + "generates is unknown",
		file + `:11:3: validators: "secret-generator.yaml" configures the plugin ksops, ` + left + "would refuse is unknown",
	}
	if kinds := slices.Sorted(func(yield func(string) bool) {
		for _, o := range objs {
			yield(o.Kind)
		}
	}); !slices.Equal(kinds, []string{"ConfigMap", "Service"}) || len(errs) != len(want) {
		t.Fatalf("Kustomize = %v, notes %v; want the builtin's ConfigMap, the Service and notes %q", kinds, errs, want)
	}
	for i, e := range errs {
		if !strings.HasPrefix(e.Error(), want[i]) || !e.Unknown {
			t.Errorf("note %d = %q (unknown %v), want an unknown %q...", i, e, e.Unknown, want[i])
		}
	}
	objs, errs = kustomize(t, filepath.Join(dir, "transformed"))
	if len(objs) != 0 || len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "it runs a plugin that kustomize runs only with a flag") {
		t.Errorf("transformed: %d objects, errors %v; want nothing built and a note that what it builds is unknown", len(objs), errs)
	}
}

// Values set by name (Argo CD's helm.parameters) apply after the values
// files, as helm --set does: typed, unless ForceString; a comma is part of
// the value (Argo CD escapes it), unless the value is a {list}.
func TestHelmSetParameters(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"values.yaml": "host: default.example.com\n",
		"templates/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: web\ndata:\n" +
			"  host: {{ .Values.host | quote }}\n  port: {{ kindOf .Values.port | quote }}\n  tag: {{ kindOf .Values.tag | quote }}\n" +
			"  hosts: {{ .Values.hosts | quote }}\n  list: {{ len .Values.list | quote }}\n  nested: {{ .Values.a.b | quote }}\n",
	})
	prod := []byte("host: prod.example.com\n")
	objs, errs := testRenderer(t).Release(dir, Release{Name: "web", Namespace: "web", Values: [][]byte{prod}, ValuesFrom: []string{"prod.yaml"},
		Set: []Parameter{{Name: "host", Value: "set.example.com"}, {Name: "port", Value: "8080"}, {Name: "tag", Value: "1.10", ForceString: true},
			{Name: "hosts", Value: "a.example.com,b.example.com"}, {Name: "list", Value: "{x,y,z}"}, {Name: "a.b", Value: "c"}}}, nil)
	if len(errs) != 0 || len(objs) != 1 {
		t.Fatalf("Release = %d objects, errors %v", len(objs), errs)
	}
	var cm struct{ Data map[string]string }
	if err := json.Unmarshal(objs[0].JSON, &cm); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"host": "set.example.com", "port": "int64", "tag": "string", "hosts": "a.example.com,b.example.com", "list": "3", "nested": "c"}
	if !maps.Equal(cm.Data, want) {
		t.Errorf("data %v, want %v", cm.Data, want)
	}
}
