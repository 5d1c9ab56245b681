package render

import (
	"bytes"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// outsideFile writes a file outside the tree a test renders, holding
// secret: what a link out of the tree must never bring back.
func outsideFile(t *testing.T, secret string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "secret")
	if err := os.WriteFile(p, []byte(secret), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// link makes a symbolic link at name in dir.
func link(t *testing.T, target, dir, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
		t.Fatal(err)
	}
}

// leaked reports whether secret is in any object or error.
func leaked(secret string, objs []*manifest.Object, errs []*manifest.ReadError) bool {
	for _, o := range objs {
		if strings.Contains(string(o.JSON), secret) {
			return true
		}
	}
	for _, e := range errs {
		if strings.Contains(e.Error(), secret) {
			return true
		}
	}
	return false
}

const chartYAML = "apiVersion: v2\nname: c\nversion: 0.1.0\n"

// configMap is a template that puts what expr gives into a ConfigMap.
func configMap(expr string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  x: {{ " + expr + " | toString | quote }}\n"
}

// A chart reads nothing outside the boundary, whichever of Helm's ways to
// read a file it takes, and the link is an error at the link.
func TestHelmReadsNothingOutside(t *testing.T) {
	const secret = "SECRET-b7f3e1"
	outside := outsideFile(t, secret)
	outsideDir := filepath.Dir(outside)
	for _, c := range []struct {
		name   string
		link   string // name of the link in the chart
		target string
		tmpl   string
	}{
		{"Files.Get of a link", "env", outside, configMap(`.Files.Get "env"`)},
		{"Files.Get of /proc/self/environ", "env", "/proc/self/environ", configMap(`.Files.Get "env"`)},
		{"Files.Get through ..", "o", "../../../../../../../../../../" + outside[1:], configMap(`.Files.Get "o"`)},
		{"Files.Glob of a directory link", "d", outsideDir, configMap(`(.Files.Glob "d/*").AsConfig`)},
		{"Files.AsSecrets", "d", outsideDir, configMap(`(.Files.Glob "d/**").AsSecrets`)},
		{"Files.Lines", "env", outside, configMap(`.Files.Lines "env"`)},
		{"tpl of a file", "env", outside, configMap(`tpl (.Files.Get "env") .`)},
		{"a template that is a link", "templates/t.yaml", outside, ""},
		{"values.yaml that is a link", "values.yaml", outside, configMap(`.Values`)},
		{"a link to a device", "z", "/dev/zero", configMap(`.Files.Get "z"`)},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{"Chart.yaml": chartYAML}
			if c.tmpl != "" {
				files["templates/cm.yaml"] = c.tmpl
			}
			dir := writeTree(t, files)
			link(t, c.target, dir, c.link)
			r := NewRenderer(manifest.NewBoundary(dir))
			defer r.Close()
			objs, errs := r.Helm(dir, nil, "default", nil)
			if leaked(secret, objs, errs) || leaked("PATH=", objs, errs) {
				t.Fatalf("leaked: %v %v", objs, errs)
			}
			if len(objs) != 0 || len(errs) != 1 || errs[0].File != filepath.Join(dir, c.link) ||
				!strings.Contains(errs[0].Msg, manifest.ErrOutside.Error()) {
				t.Errorf("Helm = %d objects, %v; want one error at the link", len(objs), errs)
			}
		})
	}
}

// A values file named by the user is read within its own boundary.
func TestHelmValuesFileOutside(t *testing.T) {
	const secret = "SECRET-values"
	dir := writeTree(t, map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(".Values")})
	link(t, outsideFile(t, "x: "+secret), dir, "ci-values.yaml")
	r := NewRenderer(manifest.NewBoundary(dir))
	defer r.Close()
	values := filepath.Join(dir, "ci-values.yaml")
	objs, errs := r.Helm(dir, []string{values}, "default", nil)
	if leaked(secret, objs, errs) || len(errs) != 1 || errs[0].File != values {
		t.Errorf("Helm = %v, %v; want one error at the values file", objs, errs)
	}
}

// Links within the boundary are followed as Helm follows them, a loop
// ends, and a link to a file elsewhere in the repository is read.
func TestHelmFollowsLinksWithin(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"chart/Chart.yaml":        chartYAML,
		"chart/templates/cm.yaml": configMap(`.Files.Get "shared/v"`),
		"common/v":                "shared-value",
	})
	link(t, "../common", dir, "chart/shared")
	link(t, ".", dir, "chart/loop")
	r := NewRenderer(manifest.NewBoundary(dir))
	defer r.Close()
	objs, errs := r.Helm(filepath.Join(dir, "chart"), nil, "default", nil)
	if len(errs) != 0 || len(objs) != 1 || !strings.Contains(string(objs[0].JSON), "shared-value") {
		t.Errorf("Helm = %v, %v; want the ConfigMap with the shared value", objs, errs)
	}
}

// A kustomization reads nothing outside the boundary, by any of its
// fields.
func TestKustomizeReadsNothingOutside(t *testing.T) {
	const secret = "SECRET-k8a2"
	outside := outsideFile(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: leak\ndata:\n  x: "+secret+"\n")
	outsideBase := filepath.Join(filepath.Dir(outside), "base")
	if err := os.MkdirAll(outsideBase, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(outsideBase, "kustomization.yaml"), []byte("resources:\n- ../secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	outsideChart := filepath.Join(filepath.Dir(outside), "charts", "c")
	if err := os.MkdirAll(filepath.Join(outsideChart, "templates"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`"` + secret + `"`)} {
		if err := os.WriteFile(filepath.Join(outsideChart, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	inChart := map[string]string{"charts/c/Chart.yaml": chartYAML, "charts/c/templates/cm.yaml": configMap(".Values.x")}
	for _, c := range []struct {
		name, kustomization string
		links               map[string]string // name → target
		files               map[string]string // name → text
	}{
		{"a chart home outside", "helmGlobals:\n  chartHome: " + filepath.Dir(outsideChart) + "\nhelmCharts:\n- name: c\n", nil, nil},
		{"a chart through a link", "helmCharts:\n- name: c\n", map[string]string{"charts/c": outsideChart}, nil},
		{"a values file of a chart", "helmCharts:\n- name: c\n  valuesFile: values.yaml\n", map[string]string{"values.yaml": outside}, inChart},
		{"a resource that is a link", "resources:\n- leak.yaml\n", map[string]string{"leak.yaml": outside}, nil},
		{"a resource by absolute path", "resources:\n- " + outside + "\n", nil, nil},
		{"a base outside", "resources:\n- " + outsideBase + "\n", nil, nil},
		{"a base through a directory link", "resources:\n- b\n", map[string]string{"b": outsideBase}, nil},
		{"a component outside", "components:\n- " + outsideBase + "\n", nil, nil},
		{"a generator's file", "configMapGenerator:\n- name: g\n  files:\n  - leak\n", map[string]string{"leak": outside}, nil},
		{"a generator's env file", "secretGenerator:\n- name: g\n  envs:\n  - leak.env\n", map[string]string{"leak.env": outside}, nil},
		{"a patch", "resources: []\npatches:\n- path: leak.yaml\n", map[string]string{"leak.yaml": outside}, nil},
		{"the kustomization itself", "", map[string]string{"kustomization.yaml": outside}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := maps.Clone(c.files)
			if files == nil {
				files = map[string]string{}
			}
			if c.kustomization != "" {
				files["kustomization.yaml"] = c.kustomization
			}
			dir := writeTree(t, files)
			for name, target := range c.links {
				link(t, target, dir, name)
			}
			r := NewRenderer(manifest.NewBoundary(dir))
			defer r.Close()
			objs, errs := r.Kustomize(dir)
			if leaked(secret, objs, errs) || len(objs) != 0 || !slices.ContainsFunc(errs, func(e *manifest.ReadError) bool { return !e.Unknown }) {
				t.Errorf("Kustomize = %v, %v; want an error and nothing read", objs, errs)
			}
		})
	}
}

// testLimits are small, so that the tests of the limits are quick.
var testLimits = Limits{Time: 2 * time.Second, Memory: 256 << 20, Output: 1 << 20}

// A render past its limits is stopped and is an error at the chart or the
// kustomization, quickly; the renderer goes on with the next render.
func TestRenderLimits(t *testing.T) {
	define := `{{- define "x" }}{{ include "x" . }}{{ include "x" . }}{{ end }}`
	for _, c := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"a huge string", map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`repeat 1500000000 "x"`)}, "memory"},
		{"output past the limit", map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`repeat 2000000 "x"`)}, "MiB, the limit of one render"},
		{"include recursion", map[string]string{"Chart.yaml": chartYAML, "templates/_h.tpl": define, "templates/cm.yaml": configMap(`include "x" .`)}, ""},
		{"nested ranges", map[string]string{"Chart.yaml": chartYAML,
			"templates/cm.yaml": `{{ $l := until 100000 }}{{ range $l }}{{ range $l }}{{ range $l }}x{{ end }}{{ end }}{{ end }}`}, ""},
		{"an alias bomb in a kustomization's resource", map[string]string{"kustomization.yaml": "resources:\n- bomb.yaml\n", "bomb.yaml": bomb}, "billion-laughs"},
		{"an alias bomb in values.yaml", map[string]string{"Chart.yaml": chartYAML, "values.yaml": "x: 1\n" + bomb, "templates/cm.yaml": configMap(".Values")}, "billion-laughs"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeTree(t, c.files)
			r := NewRenderer(manifest.NewBoundary(dir))
			r.Limits = testLimits
			defer r.Close()
			start := time.Now()
			var errs []*manifest.ReadError
			if _, ok := c.files["kustomization.yaml"]; ok {
				_, errs = r.Kustomize(dir)
			} else {
				_, errs = r.Helm(dir, nil, "default", nil)
			}
			if took := time.Since(start); took > 4*testLimits.Time {
				t.Errorf("took %s", took)
			}
			if len(errs) != 1 || !strings.Contains(errs[0].Msg, c.want) {
				t.Fatalf("errors = %v, want one saying %q", errs, c.want)
			}
			// The next render is served.
			ok := writeTree(t, map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`"fine"`)})
			r.Boundary = manifest.NewBoundary(ok)
			if objs, errs := r.Helm(ok, nil, "default", nil); len(objs) != 1 || len(errs) != 0 {
				t.Errorf("next render = %v, %v", objs, errs)
			}
		})
	}
}

// bomb is a billion-laughs document: nine levels of ten aliases.
const bomb = `a: &a ["x","x","x","x","x","x","x","x","x","x"]
b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]
c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]
d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]
e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]
f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]
g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]
h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g,*g]
i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h,*h]
`

// A chart's values.schema.json is not followed: its $refs could fetch a
// URL or read a file outside the boundary.
func TestHelmSchemaRefsAreNotFollowed(t *testing.T) {
	const secret = "SECRET-schema"
	outside := outsideFile(t, `{"type": "object", "description": "`+secret+`"}`)
	dir := writeTree(t, map[string]string{
		"Chart.yaml":        chartYAML,
		"templates/cm.yaml": configMap(`"ok"`),
		"values.schema.json": `{"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
  "properties": {"a": {"$ref": "file://` + outside + `"}, "b": {"$ref": "http://127.0.0.1:1/x.json"}}}`,
		"values.yaml": "a: {}\nb: {}\n",
	})
	r := NewRenderer(manifest.NewBoundary(dir))
	defer r.Close()
	objs, errs := r.Helm(dir, nil, "default", nil)
	if leaked(secret, objs, errs) || len(errs) != 0 || len(objs) != 1 {
		t.Errorf("Helm = %v, %v; want the ConfigMap, no schema followed", objs, errs)
	}
}

// A patch of what an unvendored chart or a remote entry would create has
// nothing to apply to: the build goes on without the patches of that
// kustomization, and says so; a patch of nothing else is still an error.
func TestKustomizePatchOfWhatWasLeftOut(t *testing.T) {
	const patch = "patches:\n- patch: |\n    apiVersion: storage.k8s.io/v1\n    kind: StorageClass\n    metadata: {name: csi}\n    parameters: {a: b}\n"
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "resources: [ns.yaml]\nhelmCharts:\n- name: csi\n  repo: https://example.com/charts\n  version: 1.0.0\n" + patch,
		"ns.yaml":            "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: csi\n",
	})
	objs, errs := kustomize(t, dir)
	if len(objs) != 1 || slices.ContainsFunc(errs, func(e *manifest.ReadError) bool { return !e.Unknown }) ||
		!slices.ContainsFunc(errs, func(e *manifest.ReadError) bool { return strings.Contains(e.Msg, "its patches are not applied") }) {
		t.Errorf("Kustomize = %d objects, %v; want the Namespace and the patches noted as not applied", len(objs), errs)
	}
	dir = writeTree(t, map[string]string{"kustomization.yaml": "resources: [ns.yaml]\n" + patch,
		"ns.yaml": "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: csi\n"})
	if _, errs := kustomize(t, dir); len(errs) != 1 || errs[0].Unknown {
		t.Errorf("errors %v, want the patch's failure", errs)
	}
}

// A generator's file that is a URL (name=https://...) is left out and
// noted, and the rest is built: kustomize would fetch it.
func TestKustomizeRemoteGeneratorFile(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"kustomization.yaml": "configMapGenerator:\n- name: dashboards\n  files:\n  - local.json\n  - cluster.json=https://example.com/cluster.json\n",
		"local.json":         "{}\n",
	})
	objs, errs := kustomize(t, dir)
	if len(objs) != 1 || len(errs) != 1 || !errs[0].Unknown || !strings.Contains(errs[0].Msg, "is remote") {
		t.Errorf("Kustomize = %d objects, %v; want the ConfigMap and the URL noted as unknown", len(objs), errs)
	}
}

// A chart directory outside the boundary (a local copy that the
// repository's configuration names) is not listed, let alone read.
func TestHelmChartOutside(t *testing.T) {
	outside := writeTree(t, map[string]string{"Chart.yaml": chartYAML, "templates/SECRET-name.yaml": configMap(`"x"`)})
	r := NewRenderer(manifest.NewBoundary(t.TempDir()))
	defer r.Close()
	objs, errs := r.Helm(outside, nil, "default", nil)
	if leaked("SECRET-name", objs, errs) || len(objs) != 0 || len(errs) != 1 || errs[0].File != outside {
		t.Errorf("Helm = %v, %v; want one error at the chart's directory", objs, errs)
	}
}

// Without its worker program, a render is an error at the chart that says
// how to install it; nothing else fails.
func TestWorkerMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	dir := writeTree(t, map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`"x"`)})
	r := NewRenderer(manifest.NewBoundary(dir))
	defer r.Close()
	objs, errs := r.Helm(dir, nil, "default", nil)
	if len(objs) != 0 || len(errs) != 1 || errs[0].File != filepath.Join(dir, "Chart.yaml") ||
		!strings.Contains(errs[0].Msg, "cannot start a render worker: gwlint-render") || !strings.Contains(errs[0].Msg, "go install github.com/gwlint/gwlint/cmd/gwlint-render@") {
		t.Errorf("render without a worker = %v, %v; want one error at Chart.yaml saying how to install gwlint-render", objs, errs)
	}
}

// TestWorkerOfAnotherRelease: a gwlint-render that speaks another render
// protocol refuses to serve, and the render's error says why, where it
// would have dropped the fields it does not know.
func TestWorkerOfAnotherRelease(t *testing.T) {
	real, err := exec.LookPath(WorkerProgram)
	if err != nil {
		t.Fatalf("no %s on PATH: %v", WorkerProgram, err)
	}
	cmd := exec.Command(real)
	cmd.Env = []string{job.WorkerEnv + "=0"}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err == nil || !strings.HasPrefix(stderr.String(), job.ProtocolMismatch) {
		t.Fatalf("worker asked for protocol 0: %v, %q; want a refusal starting %q", err, stderr.String(), job.ProtocolMismatch)
	}
	// An old worker on PATH, as the real one answers a parent of another
	// protocol.
	old := t.TempDir()
	script := "#!/bin/sh\necho '" + strings.TrimSpace(stderr.String()) + "' >&2\nexit 2\n"
	if err := os.WriteFile(filepath.Join(old, WorkerProgram), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", old)
	dir := writeTree(t, map[string]string{"Chart.yaml": chartYAML, "templates/cm.yaml": configMap(`"x"`)})
	r := NewRenderer(manifest.NewBoundary(dir))
	defer r.Close()
	objs, errs := r.Helm(dir, nil, "default", nil)
	if len(objs) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Msg, job.ProtocolMismatch) || !strings.Contains(errs[0].Msg, "same release") {
		t.Errorf("render by a worker of another release = %v, %v; want one error saying so", objs, errs)
	}
}
