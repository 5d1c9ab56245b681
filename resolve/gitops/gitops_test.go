package gitops_test

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/gitops"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// repository writes files (name → text) into a new git work tree.
func repository(t testing.TB, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
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

// assemble reads dir, a repository or a part of it, as gwlint check does
// (its plain files and its charts, rendered with their defaults, one unit)
// and assembles its worlds.
func assemble(t testing.TB, dir string) []*resolve.Inputs {
	t.Helper()
	boundary := manifest.BoundaryFor(dir)
	tree, walkErrs := manifest.Walk(dir, nil, boundary)
	r := render.NewRenderer(boundary)
	t.Cleanup(r.Close)
	opts := resolve.Options{Keep: gitops.Keep}
	units := []*gitops.Unit{{In: resolve.Load(tree.Files, nil, opts)}}
	units[0].In.Errors = append(units[0].In.Errors, walkErrs...)
	for _, c := range tree.Charts {
		objs, errs := r.Helm(c, nil, "default", crd.APIVersions(opts.Release))
		units[0].In.Merge(resolve.LoadObjects(objs, errs, opts))
	}
	roots, included := render.Roots(tree.Kustomizations, boundary)
	for _, k := range roots {
		units = append(units, &gitops.Unit{Root: k, Load: func() *resolve.Inputs {
			built.Add(1)
			objs, errs := r.Kustomize(k)
			return resolve.LoadObjects(objs, errs, opts)
		}})
	}
	a := gitops.Assembler{Renderer: r, Options: opts, Included: included, Partial: !boundary.Whole(dir)}
	return a.Assemble(units)
}

// built counts the root kustomizations assemble has built on their own.
var built atomic.Int64

// names are the namespace/name of a world's objects of kind.
func names(in *resolve.Inputs, kind string) []string {
	var out []string
	for _, o := range in.Objects {
		if m := o.Metadata(); m.Ref.Kind == kind {
			out = append(out, m.Ref.Namespace+"/"+m.Ref.Name)
		}
	}
	slices.Sort(out)
	return out
}

func ks(name, namespace, path, extra string) string {
	return "apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata:\n  name: " + name + "\n  namespace: " + namespace +
		"\nspec:\n  interval: 1h\n  path: " + path + "\n  sourceRef:\n    kind: GitRepository\n    name: flux-system\n" + extra
}

// namespaceAppSet is an ApplicationSet whose git file generator reads the
// files pattern selects, each naming the namespace of the Application it
// makes of the file's folder.
func namespaceAppSet(pattern string) string {
	return "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: apps\nspec:\n  generators:\n" +
		"  - git:\n      repoURL: https://github.com/example/repo\n      files:\n      - path: " + pattern + "\n" +
		"  template:\n    metadata: {name: '{{namespace}}'}\n    spec:\n      source: {repoURL: https://github.com/example/repo, path: '{{path}}'}\n" +
		"      destination: {namespace: '{{namespace}}'}\n"
}

// childrenPatch is a Kustomization's spec.patches entry that patches
// every Kustomization its build gives with spec, a patch's spec: lines.
func childrenPatch(spec string) string {
	return "  patches:\n  - target: {group: kustomize.toolkit.fluxcd.io, kind: Kustomization}\n    patch: |-\n" +
		"      apiVersion: kustomize.toolkit.fluxcd.io/v1\n      kind: Kustomization\n      metadata: {name: _}\n" + spec
}

func route(name, hostname string) string {
	return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: " + name +
		"\nspec:\n  hostnames: [\"" + hostname + "\"]\n  parentRefs: [{name: gw, namespace: infra}]\n"
}

// Two clusters in one repository are two worlds, each with what its entry
// point reaches, with its own targetNamespace and substitutions; the
// shared app folder is in both.
func TestClustersAreWorlds(t *testing.T) {
	subst := "  targetNamespace: web\n  postBuild:\n    substitute: {ENV: %s}\n"
	dir := repository(t, map[string]string{
		"clusters/prod/apps.yaml":    ks("apps", "flux-system", "./apps", strings.ReplaceAll(subst, "%s", "prod")),
		"clusters/staging/apps.yaml": ks("apps", "flux-system", "./apps", strings.ReplaceAll(subst, "%s", "staging")),
		"apps/route.yaml":            route("web", "${ENV}.example.com"),
	})
	worlds := assemble(t, dir)
	if len(worlds) != 2 {
		t.Fatalf("%d worlds, want one per cluster", len(worlds))
	}
	for i, env := range []string{"prod", "staging"} {
		if got := names(worlds[i], resolve.KindHTTPRoute); !slices.Equal(got, []string{"web/web"}) {
			t.Errorf("%s: routes %v, want web/web (targetNamespace)", env, got)
		}
		r := worlds[i].Objects[0].(*resolve.Route)
		if got := string(r.Hostnames[0]); got != env+".example.com" {
			t.Errorf("%s: hostname %q, want %s.example.com", env, got, env)
		}
	}
}

// A root kustomization that gathers app folders a cluster deploys by
// another way (shelken/home-ops: infra/common lists the folders that
// infra/staging includes as ../common/...) is no cluster of its own: its
// Flux Kustomizations are built by the cluster's, with that cluster's
// patches, and never again as entry points without them (where
// ${DOMAIN} would be empty).
func TestKustomizationsAnotherClusterBuildsAreNoEntryPoints(t *testing.T) {
	patch := childrenPatch("      spec: {postBuild: {substitute: {DOMAIN: staging.example.com}}}\n")
	dir := repository(t, map[string]string{
		"clusters/staging/infra.yaml":             ks("infra", "flux-system", "./infra/staging", patch),
		"infra/staging/kustomization.yaml":        "resources: [../common/web]\n",
		"infra/common/kustomization.yaml":         "resources: [web]\n",
		"infra/common/web/kustomization.yaml":     "resources: [ks.yaml]\n",
		"infra/common/web/ks.yaml":                ks("web", "flux-system", "./infra/common/web/app", "  targetNamespace: web\n  postBuild:\n    substitute: {APP: web}\n"),
		"infra/common/web/app/kustomization.yaml": "resources: [route.yaml]\n",
		"infra/common/web/app/route.yaml":         route("web", "${APP}.${DOMAIN}"),
	})
	worlds := assemble(t, dir)
	for _, w := range worlds[1:] {
		if len(w.Objects) > 0 || len(w.Errors) > 0 {
			t.Errorf("another world (%s): %d objects, errors %v", w.Cluster, len(w.Objects), w.Errors)
		}
	}
	var hosts []string
	for _, o := range worlds[0].Objects {
		if r, ok := o.(*resolve.Route); ok {
			hosts = append(hosts, string(r.Hostnames[0]))
		}
	}
	if !slices.Equal(hosts, []string{"web.staging.example.com"}) || len(worlds[0].Errors) != 0 {
		t.Errorf("hostnames %v, errors %v; want web.staging.example.com and none", hosts, worlds[0].Errors)
	}
}

// A Flux Kustomization whose kustomization lists a remote base written
// without a scheme (github.com/...?ref=...) builds the rest, the remote
// entry unknown, as kustomize-controller builds it (Flux's generator
// filters the entries of a directory's own kustomization only in the flux
// CLI, which takes such an entry for a missing file).
func TestFluxRemoteBaseWithoutScheme(t *testing.T) {
	dir := repository(t, map[string]string{
		"clusters/prod/infra.yaml": ks("infra", "flux-system", "./infra", ""),
		"infra/kustomization.yaml": "resources:\n- github.com/rancher/local-path-provisioner/deploy?ref=v0.0.36\n- route.yaml\n",
		"infra/route.yaml":         route("web", "web.example.com"),
	})
	w := assemble(t, dir)[0]
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"default/web"}) {
		t.Errorf("routes %v, want the local one", got)
	}
	if len(w.Errors) != 0 || len(w.Unknowns) != 1 || !strings.Contains(w.Unknowns[0].Msg, "is remote") {
		t.Errorf("errors %v, unknowns %v; want the remote base unknown", w.Errors, w.Unknowns)
	}
}

// A root kustomization that none of the repository's deployers reaches is
// judged on its own, and its errors say that nothing deploys it (bykaj's
// archived apps); in a repository without deployers they say nothing of
// the kind.
func TestUndeployedRootSaysSo(t *testing.T) {
	files := map[string]string{
		"archive/app/kustomization.yaml": "resources: [route.yaml, gone.yaml]\n",
		"archive/app/route.yaml":         route("old", "old.example.com"),
	}
	for _, clusters := range []bool{false, true} {
		if clusters {
			files["clusters/prod/apps.yaml"] = ks("apps", "flux-system", "./apps", "")
			files["apps/route.yaml"] = route("web", "web.example.com")
		}
		var errs []*manifest.ReadError
		for _, w := range assemble(t, repository(t, maps.Clone(files))) {
			errs = append(errs, w.Errors...)
		}
		says := len(errs) == 1 && strings.Contains(errs[0].Msg, "no Flux Kustomization or Argo CD Application of the repository deploys this kustomization")
		if len(errs) != 1 || !strings.Contains(errs[0].Msg, "gone.yaml") || says != clusters {
			t.Errorf("clusters %v: errors %v; want gone.yaml's, saying nothing deploys it only with clusters", clusters, errs)
		}
	}
}

// Variables come from substituteFrom's ConfigMaps; a Secret that SOPS
// encrypts, or one the repository does not hold, leaves its variables
// unknown (placeholders), never empty; an opted-out object is left alone.
func TestSubstitution(t *testing.T) {
	from := "  postBuild:\n    substituteFrom:\n    - {kind: ConfigMap, name: settings}\n    - {kind: Secret, name: secrets}\n"
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "  targetNamespace: web\n"+from),
		"cluster/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: flux-system}\ndata: {DOMAIN: example.com}\n---\n" +
			"apiVersion: v1\nkind: Secret\nmetadata: {name: secrets, namespace: flux-system}\nstringData: {SECRET_DOMAIN: 'ENC[AES256_GCM,data:eA==]'}\nsops: {version: 3.9.0}\n",
		"apps/a.yaml": route("a", "a.${DOMAIN}"),
		"apps/b.yaml": route("b", "b.${SECRET_DOMAIN}"),
		"apps/c.yaml": strings.Replace(route("c", "c.${DOMAIN}"), "metadata:\n", "metadata:\n  annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}\n", 1),
	})
	worlds := assemble(t, dir)
	hostnames := map[string]string{}
	for _, o := range worlds[0].Objects {
		if r, ok := o.(*resolve.Route); ok {
			hostnames[r.Ref.Name] = string(r.Hostnames[0])
		}
	}
	want := map[string]string{"a": "a.example.com", "b": "b.${SECRET_DOMAIN}", "c": "c.${DOMAIN}"}
	for name, h := range want {
		if hostnames[name] != h {
			t.Errorf("route %s: hostname %q, want %q", name, hostnames[name], h)
		}
	}
}

// A Secret that an ExternalSecret makes holds the keys of its template
// (which replaces what dataFrom extracts), values unknown: listed after a ConfigMap in substituteFrom, it overrides
// the ConfigMap's committed default (sob/home-ops' SECRET_DOMAIN), which
// then is unknown, never the default; a variable only the ConfigMap sets
// keeps its value.
func TestSubstitutionFromExternalSecret(t *testing.T) {
	from := "  postBuild:\n    substituteFrom:\n    - {kind: ConfigMap, name: settings}\n    - {kind: Secret, name: secrets}\n"
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "  targetNamespace: web\n"+from),
		"cluster/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: flux-system}\n" +
			"data: {DOMAIN: example.com, ZONE: eu}\n---\n" +
			"apiVersion: external-secrets.io/v1\nkind: ExternalSecret\nmetadata: {name: secrets, namespace: flux-system}\n" +
			"spec:\n  secretStoreRef: {kind: ClusterSecretStore, name: vault}\n  target:\n    template:\n      data: {DOMAIN: '{{ .domain }}'}\n" +
			"  dataFrom: [{extract: {key: cluster}}]\n",
		"apps/a.yaml": route("a", "a.${DOMAIN}"),
		"apps/b.yaml": route("b", "b.${ZONE}.example.com"),
	})
	hostnames := map[string]string{}
	for _, o := range assemble(t, dir)[0].Objects {
		if r, ok := o.(*resolve.Route); ok {
			hostnames[r.Ref.Name] = string(r.Hostnames[0])
		}
	}
	if want := map[string]string{"a": "a.${DOMAIN}", "b": "b.eu.example.com"}; !maps.Equal(hostnames, want) {
		t.Errorf("hostnames %v, want %v", hostnames, want)
	}
}

// A cluster-apps Kustomization that patches every app's Kustomization
// with its substituteFrom (haraldkoch/kochhaus-home's layout): checked
// whole, an app's variables come from it, and one that no source sets is
// empty, as Flux substitutes it; checked in part (the apps folder), the
// apps are entry points that it may build, so what their own postBuild
// does not set is unknown, never empty.
func TestEntryPointOfAPartHasUnknownVariables(t *testing.T) {
	children := childrenPatch("      spec:\n        postBuild:\n          substituteFrom: [{kind: ConfigMap, name: cluster-settings}]\n")
	dir := repository(t, map[string]string{
		"kubernetes/flux/cluster/ks.yaml": ks("cluster-apps", "flux-system", "./kubernetes/apps", children),
		"kubernetes/flux/cluster/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-settings, namespace: flux-system}\n" +
			"data: {DOMAIN: example.com}\n",
		"kubernetes/apps/echo/ks.yaml":        ks("echo", "flux-system", "./kubernetes/apps/echo/app", "  postBuild:\n    substitute: {APP: echo}\n"),
		"kubernetes/apps/echo/app/route.yaml": route("echo", "${APP}.${DOMAIN}") + "---\n" + route("typo", "${APP}.${DOMIAN}"),
	})
	for _, tt := range []struct {
		path string
		want map[string]string
	}{
		{dir, map[string]string{"echo": "echo.example.com", "typo": "echo."}},
		{filepath.Join(dir, "kubernetes", "apps"), map[string]string{"echo": "echo.${DOMAIN}", "typo": "echo.${DOMIAN}"}},
	} {
		hostnames := map[string]string{}
		for _, w := range assemble(t, tt.path) {
			for _, e := range w.Errors {
				t.Errorf("%s: error %v", tt.path, e)
			}
			for _, o := range w.Objects {
				if r, ok := o.(*resolve.Route); ok {
					hostnames[r.Ref.Name] = string(r.Hostnames[0])
				}
			}
		}
		if !maps.Equal(hostnames, tt.want) {
			t.Errorf("%s: hostnames %v, want %v", tt.path, hostnames, tt.want)
		}
	}
}

// A Kustomization of another source (flux-manifests: an OCIRepository,
// path ./) holds nothing of this repository, so the cluster Kustomization
// that applies it is still the one entry point: every app is reached
// through cluster-apps, with the substitutions its patch gives them
// (gavinmcfall/home-ops's layout). Before, each was an entry point of a
// cycle, judged without them.
func TestOtherSourceHoldsNothingHere(t *testing.T) {
	children := childrenPatch("      spec:\n        postBuild:\n          substituteFrom: [{kind: ConfigMap, name: cluster-settings}]\n")
	flux := strings.Replace(ks("flux", "flux-system", "./", ""), "kind: GitRepository\n    name: flux-system", "kind: OCIRepository\n    name: flux-manifests", 1)
	dir := repository(t, map[string]string{
		"kubernetes/flux/config/kustomization.yaml":  "resources: [flux.yaml, cluster.yaml]\n",
		"kubernetes/flux/config/flux.yaml":           flux,
		"kubernetes/flux/config/cluster.yaml":        ks("cluster", "flux-system", "./kubernetes/flux", ""),
		"kubernetes/flux/cluster/kustomization.yaml": "resources: [ks.yaml]\n",
		"kubernetes/flux/cluster/ks.yaml":            ks("cluster-apps", "flux-system", "./kubernetes/apps", children),
		"kubernetes/flux/vars/kustomization.yaml":    "resources: [settings.yaml]\n",
		"kubernetes/flux/vars/settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: cluster-settings, namespace: flux-system}\n" +
			"data: {DOMAIN: example.com}\n",
		"kubernetes/apps/web/kustomization.yaml":  "resources: [./echo/ks.yaml]\n",
		"kubernetes/apps/web/echo/ks.yaml":        ks("echo", "flux-system", "./kubernetes/apps/web/echo/app", ""),
		"kubernetes/apps/web/echo/app/route.yaml": route("echo", "echo.${DOMAIN}"),
	})
	worlds := assemble(t, dir)
	if len(worlds) != 1 {
		for _, w := range worlds {
			t.Logf("world %s: %d objects", w.Cluster, len(w.Objects))
		}
		t.Fatalf("%d worlds, want the one cluster", len(worlds))
	}
	for _, o := range worlds[0].Objects {
		if r, ok := o.(*resolve.Route); ok && string(r.Hostnames[0]) != "echo.example.com" {
			t.Errorf("hostname %q, want echo.example.com (cluster-apps' substituteFrom)", r.Hostnames[0])
		}
	}
	if got := names(worlds[0], resolve.KindHTTPRoute); len(got) != 1 {
		t.Errorf("routes %v, want echo", got)
	}
}

// A GitRepository written without a namespace takes the one of the build
// that applies it: a Kustomization beside it that names it from another
// namespace builds from that other repository (bykaj/home-ops' barman
// plugin CRDs, in an archive folder nothing deploys; this repository's
// Kustomizations build from flux-system): what it deploys is unknown, and
// this repository's root is not built for it.
func TestSourceWithoutNamespace(t *testing.T) {
	crds := "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: plugin-crds}\n" +
		"spec: {url: https://github.com/example/plugin.git, ref: {tag: v1.0.0}}\n---\n" +
		"apiVersion: kustomize.toolkit.fluxcd.io/v1\nkind: Kustomization\nmetadata: {name: plugin-crds, namespace: database}\n" +
		"spec:\n  interval: 1h\n  sourceRef: {kind: GitRepository, name: plugin-crds}\n" // the root of that repository
	dir := repository(t, map[string]string{
		"archive/database/plugin/kustomization.yaml": "resources: [crds.yaml]\n",
		"archive/database/plugin/crds.yaml":          crds,
		".tool.yaml":                                 "apiVersion: v1\ndata: {a: b}\n",
		"clusters/prod/apps.yaml":                    ks("apps", "flux-system", "./apps", ""),
		"clusters/prod/infra.yaml":                   ks("infra", "flux-system", "./apps", ""),
		"apps/route.yaml":                            route("web", "web.example.com"),
	})
	for _, w := range assemble(t, dir) {
		if len(w.Errors) > 0 {
			t.Errorf("errors %v, want none (the root of this repository is not built)", w.Errors)
		}
	}
}

// A root kustomization that a Kustomization of another root's files
// deploys is not built on its own first (gavinmcfall/home-ops built each
// namespace's twice), unless that Kustomization's source is another
// repository; one that Kustomization's build does not reach after all
// (apps/extra, which apps/kustomization.yaml leaves out, as in
// toboshii/home-ops) is built on its own then, and what it deploys is a
// cluster too.
func TestRootBuiltByAnotherIsNotBuiltAlone(t *testing.T) {
	dir := repository(t, map[string]string{
		"flux/config/kustomization.yaml": "resources: [cluster.yaml]\n",
		"flux/config/cluster.yaml":       ks("cluster", "flux-system", "./flux", ""),
		// Another repository's source (Mafyuh/iac's gateway-api-crd), at
		// its root: it holds none of this one's folders (else apps/crds
		// and flux/config would hold each other, and every root would be
		// built on its own).
		"apps/crds/kustomization.yaml": "resources: [crds.yaml]\n",
		"apps/crds/crds.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: gateway-api, namespace: flux-system}\n" +
			"spec: {url: 'https://github.com/kubernetes-sigs/gateway-api', ref: {tag: v1.6.1}}\n---\n" +
			strings.Replace(ks("gateway-api-crds", "flux-system", "./", ""), "name: flux-system", "name: gateway-api", 1),
		"flux/cluster/kustomization.yaml": "resources: [ks.yaml]\n",
		"flux/cluster/ks.yaml":            ks("cluster-apps", "flux-system", "./apps", ""),
		"apps/kustomization.yaml":         "resources: [./web]\n",
		"apps/web/kustomization.yaml":     "resources: [./echo/ks.yaml]\n",
		"apps/web/echo/ks.yaml":           ks("echo", "flux-system", "./apps/web/echo/app", ""),
		"apps/web/echo/app/route.yaml":    route("echo", "echo.example.com"),
		"apps/extra/kustomization.yaml":   "resources: [ks.yaml]\n",
		"apps/extra/ks.yaml":              ks("extra", "flux-system", "./apps/extra/app", ""),
		"apps/extra/app/route.yaml":       route("extra", "extra.example.com"),
	})
	built.Store(0)
	worlds := assemble(t, dir)
	// flux/config, then apps/extra and apps/crds, which
	// apps/kustomization.yaml leaves out.
	if n := built.Load(); n != 3 {
		t.Errorf("%d root kustomizations built on their own, want 3", n)
	}
	var routes []string
	for _, w := range worlds {
		routes = append(routes, names(w, resolve.KindHTTPRoute)...)
	}
	if slices.Sort(routes); !slices.Equal(routes, []string{"default/echo", "default/extra"}) {
		t.Errorf("routes %v, want echo and extra, each once", routes)
	}
}

// What another source deploys, or a spec.path the repository lacks, is
// unknown: an info, never an error; and a Kustomization built by another
// is no entry point of its own.
func TestUnknownSources(t *testing.T) {
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "") + "---\n" +
			strings.Replace(ks("remote", "flux-system", "./deploy", ""), "kind: GitRepository", "kind: OCIRepository", 1) + "---\n" +
			ks("elsewhere", "flux-system", "./not/here", ""),
		"apps/kustomization.yaml": "resources: [child.yaml]\n",
		"apps/child.yaml":         ks("child", "flux-system", "./apps/web", ""),
		"apps/web/r.yaml":         route("web", "web.example.com"),
	})
	worlds := assemble(t, dir)
	if len(worlds) != 1 {
		t.Fatalf("%d worlds, want 1", len(worlds))
	}
	w := worlds[0]
	if len(w.Errors) != 0 || len(w.Unknowns) != 2 {
		t.Fatalf("errors %v, unknowns %v; want no error and 2 unknowns", w.Errors, w.Unknowns)
	}
	for _, u := range w.Unknowns {
		if !strings.Contains(u.Msg, "unknown") || !strings.HasSuffix(u.File, filepath.Join("cluster", "apps.yaml")) {
			t.Errorf("unknown %v", u)
		}
	}
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"default/web"}) {
		t.Errorf("routes %v, want the child's", got)
	}
}

// A chart in the repository that a HelmRelease installs (written from the
// repository's root, as Flux takes it) is judged as the release renders it,
// not on its own with its defaults alone, which no one applies.
func TestReleasedChartIsNotRenderedAlone(t *testing.T) {
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", ""),
		"apps/release.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: web, namespace: web}\nspec:\n  interval: 1h\n" +
			"  chart:\n    spec:\n      chart: /charts/app/\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n  values: {port: 8080}\n",
		"charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
		"charts/app/templates/service.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: {{ .Release.Name }}}\n" +
			"spec:\n  ports: [{port: {{ .Values.port | default 0 }}}]\n",
	})
	worlds := assemble(t, dir)
	var services []string
	for _, w := range worlds {
		for _, o := range w.Objects {
			if s, ok := o.(*resolve.Service); ok {
				services = append(services, fmt.Sprintf("%s/%s:%d", s.Ref.Namespace, s.Ref.Name, s.Spec.Ports[0].Port))
			}
		}
	}
	if !slices.Equal(services, []string{"web/web:8080"}) {
		t.Errorf("Services %v, want only the release's, web/web:8080", services)
	}
}

// A Flux Kustomization that another build gives (an app folder's
// kustomization listing its ks.yaml) builds its spec.path with its
// components: the patch there targets what a component adds. Built on its
// own, without them, that kustomization fails; that is not what Flux
// applies.
func TestKustomizationFoundInABuildIsBuiltWithItsComponents(t *testing.T) {
	svc := "apiVersion: v1\nkind: Service\nmetadata:\n  name: ${APP}-db\nspec:\n  ports: [{port: %s}]\n"
	dir := repository(t, map[string]string{
		"apps/web/kustomization.yaml": "resources: [ks.yaml]\n",
		"apps/web/ks.yaml": ks("web", "flux-system", "./apps/web/app",
			"  targetNamespace: web\n  components: [../../../components/db/]\n  postBuild:\n    substitute: {APP: web}\n"),
		"apps/web/app/kustomization.yaml":  "patchesStrategicMerge: [db-patch.yaml]\n",
		"apps/web/app/db-patch.yaml":       strings.ReplaceAll(svc, "%s", "5433"),
		"components/db/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nresources: [db.yaml]\n",
		"components/db/db.yaml":            strings.ReplaceAll(svc, "%s", "5432"),
	})
	worlds := assemble(t, dir)
	var services []string
	for _, w := range worlds {
		for _, e := range w.Errors {
			t.Errorf("error: %v", e)
		}
		services = append(services, names(w, resolve.KindService)...)
	}
	if !slices.Equal(services, []string{"web/web-db"}) {
		t.Errorf("Services %v, want web/web-db, from the component", services)
	}
}

func application(name, path, namespace, extra string) string {
	return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata:\n  name: " + name + "\n  namespace: argocd\nspec:\n  source:\n" +
		"    repoURL: https://github.com/example/repo\n    path: " + path + "\n" + extra + "  destination:\n    namespace: " + namespace + "\n"
}

// Argo CD: an ApplicationSet's git directories (less those excluded) make
// one Application each, whose destination namespace holds what names
// none; a chart source renders with its values files and values; a plain
// directory is read as it is (with recurse, below it too); a remote chart
// or a plugin is unknown.
func TestArgoCD(t *testing.T) {
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: apps\nspec:\n  generators:\n" +
			"  - git:\n      repoURL: https://github.com/example/repo\n      directories:\n      - path: apps/*\n      - path: apps/old\n        exclude: true\n" +
			"  template:\n    metadata: {name: '{{path.basename}}'}\n    spec:\n      source: {repoURL: https://github.com/example/repo, path: '{{path}}'}\n" +
			"      destination: {namespace: '{{path.basename}}'}\n" +
			"---\n" + application("chart", "charts/web", "web", "    helm:\n      valueFiles: [prod.yaml]\n      values: |\n        port: 9090\n") +
			"---\n" + application("remote", "", "x", "    chart: podinfo\n") +
			"---\n" + application("plugin", "apps/shop", "x", "    plugin: {name: sops}\n") +
			"---\n" + application("deep", "nested", "deep", "    directory: {recurse: true}\n"),
		"apps/shop/r.yaml":       route("shop", "shop.example.com"),
		"apps/old/r.yaml":        route("old", "old.example.com"),
		"nested/a/b/r.yaml":      route("deep", "deep.example.com"),
		"charts/web/Chart.yaml":  "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/values.yaml": "host: dev.example.com\nport: 80\n",
		"charts/web/prod.yaml":   "host: prod.example.com\n",
		"charts/web/templates/r.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {{ .Release.Name }}\n" +
			"spec:\n  hostnames: [{{ .Values.host }}]\n  rules: [{backendRefs: [{name: web, port: {{ .Values.port }}}]}]\n",
	})
	worlds := assemble(t, dir)
	// The cluster, and apps/old, which nothing deploys, judged alone.
	if len(worlds) != 2 || !slices.Equal(names(worlds[1], resolve.KindHTTPRoute), []string{"default/old"}) {
		t.Fatalf("%d worlds, want the cluster and apps/old's", len(worlds))
	}
	w := worlds[0]
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"deep/deep", "shop/shop", "web/chart"}) {
		t.Errorf("routes %v, want apps/shop's (old excluded), the chart's and the nested one", got)
	}
	for _, o := range w.Objects {
		if r, ok := o.(*resolve.Route); ok && r.Ref.Name == "chart" {
			if h := string(r.Hostnames[0]); h != "prod.example.com" || *r.Rules[0].BackendRefs[0].Port != 9090 {
				t.Errorf("chart route: %s port %d, want prod.example.com (valueFiles) and 9090 (values)", h, *r.Rules[0].BackendRefs[0].Port)
			}
		}
	}
	if len(w.Errors) != 0 || len(w.Unknowns) != 2 {
		t.Errorf("errors %v, unknowns %v; want none and 2 (the remote chart, the plugin)", w.Errors, w.Unknowns)
	}
}

// Argo CD: an ApplicationSet's git file generator makes one Application
// per object of each file its paths select (* crossing directories, as
// git ls-files matches), with the fields flattened and the file's
// directory as path: each app's Service lands in the namespace its
// config names, not in one default namespace where two would collide.
func TestArgoCDGitFiles(t *testing.T) {
	service := "apiVersion: v1\nkind: Service\nmetadata:\n  name: redis\nspec:\n  ports: [{port: 6379}]\n"
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: apps\nspec:\n  goTemplate: true\n  generators:\n" +
			"  - git:\n      repoURL: https://github.com/example/repo\n      files:\n      - path: apps/*/config.*\n      - path: apps/old/config.json\n        exclude: true\n" +
			"      values: {team: 'team-{{ .path.basename }}'}\n" +
			"  template:\n    metadata: {name: '{{ .app.name }}', labels: {team: '{{ .values.team }}'}}\n" +
			"    spec:\n      source: {repoURL: https://github.com/example/repo, path: '{{ .path.path }}'}\n" +
			"      destination: {namespace: '{{ .app.namespace }}'}\n",
		"apps/paperless/config.json":  `{"app": {"name": "paperless", "namespace": "paperless"}}`,
		"apps/paperless/redis.yaml":   service,
		"apps/stream/box/config.yaml": "- app: {name: box, namespace: broadcast}\n- app: {name: box-test, namespace: broadcast-test}\n",
		"apps/stream/box/redis.yaml":  service,
		"apps/old/config.json":        `{"app": {"name": "old", "namespace": "old"}}`,
		"apps/old/redis.yaml":         service,
	})
	worlds := assemble(t, dir)
	w := worlds[0]
	if got, want := names(w, "Service"), []string{"broadcast-test/redis", "broadcast/redis", "paperless/redis"}; !slices.Equal(got, want) {
		t.Errorf("Services %v, want %v", got, want)
	}
	if len(w.Errors) != 0 || len(w.Unknowns) != 0 {
		t.Errorf("errors %v, unknowns %v; want none", w.Errors, w.Unknowns)
	}
	for _, o := range w.Objects {
		if m := o.Metadata(); m.Ref.Kind == "Service" && m.Ref.Namespace == "paperless" && !strings.HasSuffix(m.Source.File, filepath.Join("paperless", "redis.yaml")) {
			t.Errorf("paperless/redis from %s", m.Source.File)
		}
	}
	// A file it cannot read fails the generator, as it fails Argo CD's:
	// it makes no Application.
	if err := os.WriteFile(filepath.Join(dir, "apps", "paperless", "config.json"), []byte(`{"app": `), 0o644); err != nil {
		t.Fatal(err)
	}
	w = assemble(t, dir)[0]
	if len(w.Errors) != 1 || !strings.HasSuffix(w.Errors[0].File, filepath.Join("paperless", "config.json")) ||
		!strings.Contains(w.Errors[0].Msg, "ApplicationSet apps: its git file generator cannot read it") || len(names(w, "Service")) != 0 {
		t.Errorf("errors %v, Services %v; want the broken config's error and none", w.Errors, names(w, "Service"))
	}
}

// A generator's selector keeps the parameter sets whose fields it
// matches (an app-config.yaml with enabled: "false" makes no
// Application); a template whose sources hold a Go template function
// gwlint does not evaluate makes Applications whose sources are unknown,
// said once.
func TestArgoCDSelectorAndUnevaluatedTemplate(t *testing.T) {
	set := func(name, generator, source string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata:\n  name: " + name + "\nspec:\n  goTemplate: true\n  generators:\n" + generator +
			"  template:\n    metadata: {name: '{{ .path.basename }}'}\n    spec:\n      source: " + source + "\n" +
			"      destination: {namespace: '{{ .path.basename }}'}\n"
	}
	files := "  - git:\n      repoURL: https://github.com/example/repo\n      files:\n      - path: apps/*/app-config.yaml\n"
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": set("apps", files+"    selector:\n      matchExpressions:\n      - {key: enabled, operator: In, values: [\"true\"]}\n",
			"{repoURL: https://github.com/example/repo, path: '{{ .path.path }}'}") +
			"---\n" + set("charts", files, `{repoURL: '{{ .chart.repo }}', chart: '{{ dig "chart" "name" "" . }}'}`),
		"apps/shop/app-config.yaml": "enabled: \"true\"\nchart: {repo: https://charts.example.com}\n",
		"apps/shop/r.yaml":          route("shop", "shop.example.com"),
		"apps/old/app-config.yaml":  "enabled: \"false\"\nchart: {repo: https://charts.example.com}\n",
		"apps/old/r.yaml":           route("old", "old.example.com"),
	})
	w := assemble(t, dir)[0]
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"shop/shop"}) {
		t.Errorf("routes %v, want shop's (old is not enabled)", got)
	}
	if len(w.Unknowns) != 1 || !strings.Contains(w.Unknowns[0].Msg, `ApplicationSet charts: its template's sources hold {{ dig "chart" "name" "" . }}, which gwlint does not evaluate`) {
		t.Errorf("unknowns %v, want the charts set's template", w.Unknowns)
	}
}

// A FIFO that a git file generator's path selects is an error, never
// read: reading it would block for ever.
func TestArgoCDGitFilesFIFO(t *testing.T) {
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": namespaceAppSet("apps/*/config.json"),
		"apps/web/r.yaml":  route("web", "web.example.com"),
	})
	if err := syscall.Mkfifo(filepath.Join(dir, "apps", "web", "config.json"), 0o600); err != nil {
		t.Skipf("no FIFO: %v", err)
	}
	w := assemble(t, dir)[0]
	if len(w.Errors) != 1 || !strings.Contains(w.Errors[0].Msg, "not a regular file") {
		t.Errorf("errors %v, want the FIFO refused", w.Errors)
	}
}

// A git file generator's paths match as git ls-files' pathspecs do by
// default: * and ? cross directories, a path without wildcards names a
// file or the files below a directory.
func TestLsFilesMatcher(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		want          bool
	}{
		{"apps/*/config.json", "apps/web/config.json", true},
		{"apps/*/config.json", "apps/web/chart/config.json", true},
		{"apps/*/config.json", "apps/config.json", false},
		{"apps/**/config.json", "apps/a/b/config.json", true},
		{"/apps/?eb/config.json", "apps/web/config.json", true},
		{"apps/[wv]eb/*.yaml", "apps/veb/x.yaml", true},
		{"apps/[!w]eb/*.yaml", "apps/web/x.yaml", false},
		{"apps/web", "apps/web/config.json", true},
		{"apps/web", "apps/website/config.json", false},
		{"apps/[web", "apps/[web", true},
	} {
		if got := gitops.LsFilesMatcher(tc.pattern)(tc.path); got != tc.want {
			t.Errorf("%q matches %q: %v, want %v", tc.pattern, tc.path, got, tc.want)
		}
	}
}

// A git file generator reads its files within the boundary: a link out of
// the repository is an error, and nothing of it reaches the output.
func TestArgoCDGitFilesLinkOutside(t *testing.T) {
	const secret = "SECRET-config"
	outside := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(outside, []byte(`{"namespace": "`+secret+`"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": namespaceAppSet("apps/**/config.json"),
		"apps/web/r.yaml":  route("web", "web.example.com"),
	})
	if err := os.Symlink(outside, filepath.Join(dir, "apps", "web", "config.json")); err != nil {
		t.Fatal(err)
	}
	w := assemble(t, dir)[0]
	for _, o := range w.Objects {
		if strings.Contains(o.Metadata().Ref.Namespace, secret) {
			t.Fatalf("read %s", o.Metadata().Ref)
		}
	}
	if len(w.Errors) != 1 || !strings.Contains(w.Errors[0].Msg, manifest.ErrOutside.Error()) || strings.Contains(w.Errors[0].Msg, secret) {
		t.Errorf("errors %v, want the link refused", w.Errors)
	}
}

// A config management plugin named for kustomize builds a kustomization
// as gwlint builds one; on a chart (kustomized-helm, which renders it into
// the all.yaml its kustomization lists), what it gives is unknown, never
// the kustomization's error, and the chart is not judged alone with its
// defaults either.
func TestArgoCDKustomizePlugin(t *testing.T) {
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": application("shop", "apps/shop", "shop", "    plugin: {name: kustomize-build-with-helm}\n") +
			"---\n" + application("web", "charts/web", "web", "    plugin: {name: kustomized-helm}\n"),
		"apps/shop/kustomization.yaml":  "resources: [r.yaml]\n",
		"apps/shop/r.yaml":              route("shop", "shop.example.com"),
		"charts/web/Chart.yaml":         "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/kustomization.yaml": "resources: [all.yaml]\n",
		"charts/web/templates/r.yaml":   route("{{ .Release.Name }}", "web.example.com"),
	})
	worlds := assemble(t, dir)
	for _, w := range worlds[1:] {
		t.Errorf("another world: %d objects, errors %v, unknowns %v", len(w.Objects), w.Errors, w.Unknowns)
	}
	w := worlds[0]
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"shop/shop"}) {
		t.Errorf("routes %v, want the kustomization's", got)
	}
	if len(w.Errors) != 0 || len(w.Unknowns) != 1 || !strings.Contains(w.Unknowns[0].Msg, "a config management plugin renders charts/web") {
		t.Errorf("errors %v, unknowns %v; want no error and the chart's plugin unknown", w.Errors, w.Unknowns)
	}
}

// What a deployer reads is read within the boundary: an Argo CD directory
// source's link out of the repository is an error, never read.
func TestArgoCDDirectoryLinkOutside(t *testing.T) {
	const secret = "SECRET-argo"
	outside := filepath.Join(t.TempDir(), "x.yaml")
	if err := os.WriteFile(outside, []byte("apiVersion: v1\nkind: Service\nmetadata: {name: "+secret+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := repository(t, map[string]string{
		"argocd/app.yaml": application("web", "web", "web", ""),
		"web/r.yaml":      route("web", "web.example.com"),
	})
	if err := os.Symlink(outside, filepath.Join(dir, "web", "leak.yaml")); err != nil {
		t.Fatal(err)
	}
	w := assemble(t, dir)[0]
	for _, o := range w.Objects {
		if strings.Contains(o.Metadata().Ref.Name, secret) {
			t.Fatalf("read %s", o.Metadata().Ref)
		}
	}
	// The application's read refuses it (the walk does too, on its own).
	if len(w.Errors) != 1 || !strings.Contains(w.Errors[0].Msg, manifest.ErrOutside.Error()) {
		t.Errorf("errors %v, want the link refused", w.Errors)
	}
}

// A substituted value points at the line that writes its ${VAR}.
func TestSubstitutedValuesKeepTheirLine(t *testing.T) {
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "  postBuild:\n    substitute: {DOMAIN: example.com}\n"),
		"apps/r.yaml":       route("web", "web.${DOMAIN}"),
	})
	for _, o := range assemble(t, dir)[0].Objects {
		if r, ok := o.(*resolve.Route); ok {
			if got, _ := r.Positions.Lookup("spec.hostnames[0]"); got != (manifest.Pos{Line: 6, Col: 15}) {
				t.Errorf("spec.hostnames[0] at %v, want 6:15, where web.${DOMAIN} is (not its parent's 6:3)", got)
			}
		}
	}
}

// A variable the repository cannot show stays a placeholder, unless the
// placeholder would break the text: a variable given a default then takes
// it, as an unset one does (the ${q:='} quoting trick of home-lab repos).
func TestSubstitutionFallsBackToDefaults(t *testing.T) {
	from := "  postBuild:\n    substitute: {EXTS: '[ {name: a}, {name: b} ]'}\n    substituteFrom:\n    - {kind: Secret, name: not-in-git}\n"
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "  targetNamespace: web\n"+from),
		"apps/cm.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\ndata:\n  extensions: ${q:='}${EXTS}${q:='}\n  domain: ${DOMAIN}\n",
		"apps/r.yaml":       route("web", "web.${DOMAIN}"),
	})
	w := assemble(t, dir)[0]
	if len(w.Errors) != 0 {
		t.Fatalf("errors %v, want the build substituted", w.Errors)
	}
	for _, o := range w.Objects {
		if r, ok := o.(*resolve.Route); ok && string(r.Hostnames[0]) != "web.${DOMAIN}" {
			t.Errorf("hostname %q, want web.${DOMAIN} (unknown)", r.Hostnames[0])
		}
	}
}

// A Kustomization whose GitRepository is another repository than this
// one (flux bootstrap's flux-system) deploys what is unknown: its path is
// not built from this repository, even when this repository has one.
func TestOtherRepositorySource(t *testing.T) {
	source := func(name, url string) string {
		return "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: " + name + ", namespace: flux-system}\nspec: {url: " + url + "}\n"
	}
	dir := repository(t, map[string]string{
		"cluster/sources.yaml": source("flux-system", "ssh://git@github.com/me/home-ops") + "---\n" + source("upstream", "https://github.com/kubernetes-sigs/external-dns.git"),
		"cluster/crds.yaml": strings.Replace(ks("crds", "flux-system", "./", ""), "name: flux-system\n", "name: upstream\n", 1) + "---\n" +
			ks("apps", "flux-system", "./apps", ""),
		"apps/r.yaml": route("web", "web.example.com"),
	})
	w := assemble(t, dir)[0]
	if len(w.Errors) != 0 || len(w.Unknowns) != 1 || !strings.Contains(w.Unknowns[0].Msg, "another repository (https://github.com/kubernetes-sigs/external-dns.git)") {
		t.Errorf("errors %v, unknowns %v; want crds unknown", w.Errors, w.Unknowns)
	}
	if got := names(w, resolve.KindHTTPRoute); !slices.Equal(got, []string{"default/web"}) {
		t.Errorf("routes %v, want apps' alone", got)
	}
}

func TestSameRepository(t *testing.T) {
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{"https://github.com/me/home-ops.git", "ssh://git@github.com/me/home-ops", true},
		{"git@github.com:me/home-ops.git", "https://github.com/Me/home-ops/", true},
		{"https://github.com/me/home-ops", "https://github.com/me/other", false},
	} {
		if got := gitops.SameRepository(c.a, c.b); got != c.same {
			t.Errorf("SameRepository(%s, %s) = %v", c.a, c.b, got)
		}
	}
}

// Without flux bootstrap's flux-system among the inputs, this repository
// is the source most Kustomizations build from; another GitRepository
// defined beside it is another repository. A path is built as
// source-controller hands it over: without .github/ and the like.
func TestThisRepositoryByUse(t *testing.T) {
	source := func(name, url string) string {
		return "apiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: " + name + ", namespace: flux-system}\nspec: {url: " + url + "}\n"
	}
	from := func(k, source string) string {
		return strings.Replace(k, "name: flux-system\n", "name: "+source+"\n", 1)
	}
	dir := repository(t, map[string]string{
		"cluster/sources.yaml": source("home", "https://github.com/me/home-ops") + "---\n" + source("crds-source", "https://github.com/cnpg/cloudnative-pg"),
		"cluster/ks.yaml": from(ks("crds", "flux-system", "./", ""), "crds-source") + "---\n" +
			from(ks("apps", "flux-system", "./apps", ""), "home") + "---\n" + from(ks("more", "flux-system", "./more", ""), "home"),
		"apps/r.yaml":                  route("web", "web.example.com"),
		"more/r.yaml":                  route("more", "more.example.com"),
		".github/ISSUE_TEMPLATE/c.yml": "blank_issues_enabled: false\n",
		"other/kustomization.yaml":     "resources: [r.yaml]\n",
		"other/r.yaml":                 route("other", "other.example.com"),
		"cluster/root.yaml":            from(ks("root", "flux-system", "./", ""), "home"),
	})
	w := assemble(t, dir)[0]
	if len(w.Errors) != 0 || len(w.Unknowns) != 1 || !strings.Contains(w.Unknowns[0].Msg, "cloudnative-pg") {
		t.Errorf("errors %v, unknowns %v; want crds unknown and the root built", w.Errors, w.Unknowns)
	}
}

// What lies beside the entry points, in their folder, and no build reads
// (applied by flux bootstrap with them) is the cluster's: a Gateway there
// meets the routes of the apps, and a file that cannot be read is still
// reported, not lost.
func TestEntryFolderIsTheClusters(t *testing.T) {
	dir := repository(t, map[string]string{
		"clusters/prod/apps.yaml": ks("apps", "flux-system", "./apps", ""),
		"clusters/prod/gateway.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: infra}\n" +
			"spec:\n  gatewayClassName: envoy\n  listeners: [{name: http, protocol: HTTP, port: 80}]\n",
		"clusters/prod/broken.yaml": "apiVersion: v1\nkind: [\n",
		"apps/r.yaml":               route("web", "web.example.com"),
	})
	worlds := assemble(t, dir)
	if len(worlds) != 1 {
		t.Fatalf("%d worlds, want the cluster alone", len(worlds))
	}
	w := worlds[0]
	if got := names(w, resolve.KindGateway); !slices.Equal(got, []string{"infra/gw"}) {
		t.Errorf("gateways %v, want the entry folder's", got)
	}
	if len(w.Errors) != 1 || !strings.HasSuffix(w.Errors[0].File, "broken.yaml") {
		t.Errorf("errors %v, want broken.yaml's", w.Errors)
	}
}

// A kustomization whose generator configures an external plugin (ksops)
// fails Flux's build, as kustomize-controller runs no plugins; Argo CD runs
// those its kustomize.buildOptions enable, which the repository need not
// show (Vikaspogu/home-ops): there the generator is unknown and the rest is
// built.
func TestExternalPluginsByDeployer(t *testing.T) {
	app := map[string]string{
		"kustomization.yaml":    "resources: [route.yaml]\ngenerators: [secret-generator.yaml]\n",
		"secret-generator.yaml": "apiVersion: viaduct.ai/v1\nkind: ksops\nmetadata: {name: secrets}\nfiles: [secret.sops.yaml]\n",
		"route.yaml":            route("web", "web.example.com"),
	}
	tree := func(entry string) map[string]string {
		files := map[string]string{"deploy/entry.yaml": entry}
		for name, text := range app {
			files["apps/web/"+name] = text
		}
		return files
	}
	flux := assemble(t, repository(t, tree(ks("web", "flux-system", "./apps/web", "  targetNamespace: web\n"))))[0]
	if len(flux.Errors) != 1 || !strings.Contains(flux.Errors[0].Msg, "unable to load external plugin 'ksops'; Flux's kustomize-controller sets neither") ||
		len(names(flux, resolve.KindHTTPRoute)) != 0 {
		t.Errorf("Flux: errors %v, routes %v; want the build's error and nothing built", flux.Errors, names(flux, resolve.KindHTTPRoute))
	}
	argo := assemble(t, repository(t, tree(application("web", "apps/web", "web", ""))))[0]
	if len(argo.Errors) != 0 || len(argo.Unknowns) != 1 || !strings.Contains(argo.Unknowns[0].Msg, "configures the plugin ksops") ||
		!slices.Equal(names(argo, resolve.KindHTTPRoute), []string{"web/web"}) {
		t.Errorf("Argo CD: errors %v, unknowns %v, routes %v; want the generator unknown and the route built", argo.Errors, argo.Unknowns, names(argo, resolve.KindHTTPRoute))
	}
}

// Argo CD's multiple sources: a chart's helm.valueFiles written
// $REF/PATH are read from the root of the source whose ref is REF
// (takanao14/homelab), and that source, without a path, deploys nothing.
// A values file that is not in the repository, or of a ref source of
// another repository, leaves what the chart deploys unknown, unless
// ignoreMissingValueFiles.
// helm.parameters are set after the files.
func TestArgoCDValuesFromARefSource(t *testing.T) {
	multiFrom := func(name, valuesRepo, valueFiles string) string {
		return "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: " + name + ", namespace: argocd}\nspec:\n  sources:\n" +
			"  - repoURL: https://github.com/example/repo\n    path: charts/web\n    helm:\n      releaseName: " + name + "\n" + valueFiles +
			"  - repoURL: " + valuesRepo + "\n    ref: values\n" +
			"  destination: {namespace: " + name + "}\n"
	}
	multi := func(name, valueFiles string) string {
		return multiFrom(name, "https://github.com/example/repo.git", valueFiles)
	}
	dir := repository(t, map[string]string{
		"argocd/apps.yaml": multi("prod", "      valueFiles: [$values/envs/prod/values.yaml]\n") +
			"---\n" + multi("elsewhere", "      valueFiles: [$config/prod.yaml]\n") +
			"---\n" + multi("optional", "      valueFiles: [$values/envs/prod/values.yaml, $values/envs/none.yaml]\n      ignoreMissingValueFiles: true\n") +
			"---\n" + multi("set", "      valueFiles: [$values/envs/prod/values.yaml]\n      parameters: [{name: host, value: set.example.com}]\n") +
			"---\n" + multiFrom("foreign", "https://github.com/example/config", "      valueFiles: [$values/envs/prod/values.yaml]\n"),
		"envs/prod/values.yaml":  "host: prod.example.com\n",
		"root-route.yaml":        route("root", "root.example.com"),
		"charts/web/Chart.yaml":  "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/values.yaml": "host: \"\"\n",
		"charts/web/templates/r.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: {{ .Release.Name }}\n" +
			"spec:\n  hostnames: [{{ .Values.host | quote }}]\n",
	})
	w := assemble(t, dir)[0]
	hosts := map[string]string{}
	for _, o := range w.Objects {
		if r, ok := o.(*resolve.Route); ok {
			hosts[r.Ref.Namespace+"/"+r.Ref.Name] = string(r.Hostnames[0])
		}
	}
	if want := map[string]string{"prod/prod": "prod.example.com", "optional/optional": "prod.example.com", "set/set": "set.example.com"}; !maps.Equal(hosts, want) {
		t.Errorf("routes %v, want %v (the values source deploys nothing, elsewhere's values are unknown)", hosts, want)
	}
	if len(w.Errors) != 0 || len(w.Unknowns) != 2 || !strings.Contains(w.Unknowns[0].Msg, "values file $config/prod.yaml is not in this repository") ||
		!strings.Contains(w.Unknowns[1].Msg, "Application foreign: values file $values/envs/prod/values.yaml is not in this repository") {
		t.Errorf("errors %v, unknowns %v; want elsewhere's and foreign's values files unknown (foreign's ref is another repository)", w.Errors, w.Unknowns)
	}
}

// A HelmRelease's chart from a GitRepository of another repository
// (samcday/home-cluster's forgejo-helm on Codeberg, chart ".") is unknown,
// not this repository's root rendered as a chart. One whose valuesFrom
// the repository cannot show (an encrypted Secret) and whose chart fails
// without those values is unknown too; with them shown, it renders.
func TestHelmReleaseOfAnotherRepositoryAndOfUnknownValues(t *testing.T) {
	release := func(name, chart, source, extra string) string {
		return "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: " + name + ", namespace: web}\nspec:\n  interval: 1h\n" +
			"  chart:\n    spec:\n      chart: " + chart + "\n      sourceRef: {kind: GitRepository, name: " + source + ", namespace: flux-system}\n" + extra
	}
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", "") +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: flux-system, namespace: flux-system}\nspec: {url: https://github.com/example/home}\n",
		"apps/forgejo.yaml": release("forgejo", ".", "forgejo-helm", "") +
			"---\napiVersion: source.toolkit.fluxcd.io/v1\nkind: GitRepository\nmetadata: {name: forgejo-helm, namespace: flux-system}\nspec: {url: https://codeberg.org/forgejo-contrib/forgejo-helm.git}\n",
		"apps/token.yaml": release("token", "charts/app", "flux-system", "  valuesFrom: [{kind: Secret, name: bootstrap-token, valuesKey: token, targetPath: token}]\n"),
		"apps/shown.yaml": release("shown", "charts/app", "flux-system", "  valuesFrom: [{kind: ConfigMap, name: token, valuesKey: token, targetPath: token}]\n") +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: token, namespace: web}\ndata: {token: abc}\n",
		"charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
		"charts/app/templates/service.yaml": "apiVersion: v1\nkind: Service\nmetadata: {name: '{{ .Release.Name }}-{{ required \"token missing\" .Values.token }}'}\n" +
			"spec:\n  ports: [{port: 80}]\n",
	})
	w := assemble(t, dir)[0]
	if got := names(w, resolve.KindService); !slices.Equal(got, []string{"web/shown-abc"}) {
		t.Errorf("Services %v, want the release whose values are shown", got)
	}
	var unknowns []string
	for _, e := range w.Unknowns {
		unknowns = append(unknowns, e.Msg)
	}
	want := []string{
		"HelmRelease forgejo: its chart https://codeberg.org/forgejo-contrib/forgejo-helm is not in the repository: what it creates is unknown (name a local copy under charts: in .gwlint.yaml)",
		"HelmRelease token takes values from Secret bootstrap-token, which the repository cannot show, and without them the chart fails (helm template: token missing): what it creates is unknown",
	}
	if len(w.Errors) != 0 || !slices.Equal(unknowns, want) {
		t.Errorf("errors %v, unknowns %q; want none and %q", w.Errors, unknowns, want)
	}
}

// A valuesFrom's targetPath sets its value as Flux does, with Helm's
// --set parser: a path with an index (samcday/home-cluster's
// bootstrapTokens[0].secret), typed unless quoted, verbatim with literal;
// later values merge over it, spec.values last.
func TestHelmReleaseValuesFromTargetPath(t *testing.T) {
	from := func(key, path string, literal bool) string {
		return fmt.Sprintf("    - {kind: ConfigMap, name: settings, valuesKey: %s, targetPath: '%s', literal: %v}\n", key, path, literal)
	}
	dir := repository(t, map[string]string{
		"cluster/apps.yaml": ks("apps", "flux-system", "./apps", ""),
		"apps/release.yaml": "apiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: cp, namespace: web}\nspec:\n  interval: 1h\n" +
			"  chart:\n    spec:\n      chart: charts/app\n      sourceRef: {kind: GitRepository, name: flux-system, namespace: flux-system}\n" +
			"  valuesFrom:\n" + from("secret", "bootstrapTokens[0].secret", false) + from("port", "port", false) + from("quoted", "version", false) +
			from("tag", "tag", false) + from("csv", "hosts", true) + "    - {kind: ConfigMap, name: settings, valuesKey: values.yaml}\n" +
			"  values: {tag: '2.0'}\n" +
			"---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: web}\n" +
			"data: {secret: s3cr3t, port: '8080', quoted: '\"1.10\"', tag: '1.5', csv: 'a.example.com,b.example.com', values.yaml: 'replicas: 2'}\n",
		"charts/app/Chart.yaml": "apiVersion: v2\nname: app\nversion: 1.0.0\n",
		"charts/app/templates/svc.yaml": "apiVersion: v1\nkind: Service\nmetadata:\n  name: out\n  annotations:\n" +
			"    secret: {{ (index .Values.bootstrapTokens 0).secret | quote }}\n    port: {{ printf \"%v %s\" .Values.port (kindOf .Values.port) | quote }}\n" +
			"    tag: {{ printf \"%v %s\" .Values.tag (kindOf .Values.tag) | quote }}\n    hosts: {{ .Values.hosts | quote }}\n" +
			"    version: {{ printf \"%v %s\" .Values.version (kindOf .Values.version) | quote }}\n    replicas: {{ .Values.replicas | quote }}\nspec:\n  ports: [{port: 80}]\n",
	})
	w := assemble(t, dir)[0]
	if len(w.Errors) != 0 || len(w.Unknowns) != 0 {
		t.Fatalf("errors %v, unknowns %v", w.Errors, w.Unknowns)
	}
	data := map[string]string{}
	for _, o := range w.Objects {
		if m := o.Metadata(); m.Ref.Kind == resolve.KindService && m.Ref.Name == "out" {
			for _, key := range []string{"secret", "port", "version", "tag", "hosts", "replicas"} {
				data[key] = m.Annotations.Get(key)
			}
		}
	}
	want := map[string]string{"secret": "s3cr3t", "port": "8080 int64", "version": "1.10 string", "tag": "2.0 string", "hosts": "a.example.com,b.example.com", "replicas": "2"}
	if !maps.Equal(data, want) {
		t.Errorf("rendered %v, want %v", data, want)
	}
}
