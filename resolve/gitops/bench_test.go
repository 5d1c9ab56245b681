package gitops_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fluxLayout writes a Flux repository of apps apps in namespaces of ten,
// laid out as home-lab repositories are: an entry point building
// apps/, one kustomization per namespace listing its apps' Kustomizations,
// each app's Kustomization building its folder (substituted, its
// targetNamespace set), and one Gateway every route attaches to.
func fluxLayout(b *testing.B, apps int) string {
	files := map[string]string{
		"clusters/prod/apps.yaml": ks("cluster-apps", "flux-system", "./apps", ""),
		"apps/network/gateway/gateway.yaml": "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: gw, namespace: infra}\n" +
			"spec:\n  gatewayClassName: envoy\n  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]\n",
	}
	namespaces := map[string][]string{}
	for i := range apps {
		ns, app := fmt.Sprintf("ns%03d", i/10), fmt.Sprintf("app%04d", i)
		namespaces[ns] = append(namespaces[ns], "- ./"+app+"/ks.yaml")
		dir := "apps/" + ns + "/" + app
		files[dir+"/ks.yaml"] = ks(app, "flux-system", "./"+dir+"/app", "  targetNamespace: "+ns+"\n  postBuild:\n    substitute: {APP: "+app+"}\n")
		files[dir+"/app/kustomization.yaml"] = "resources: [route.yaml, service.yaml]\n"
		files[dir+"/app/route.yaml"] = route(app, "${APP}.example.com")
		files[dir+"/app/service.yaml"] = "apiVersion: v1\nkind: Service\nmetadata: {name: " + app + "}\nspec: {ports: [{port: 80}]}\n"
	}
	var nsList []string
	for ns, entries := range namespaces {
		files["apps/"+ns+"/kustomization.yaml"] = "resources:\n" + strings.Join(entries, "\n") + "\n"
		nsList = append(nsList, "- ./"+ns)
	}
	files["apps/kustomization.yaml"] = "resources:\n- ./network/gateway/gateway.yaml\n" + strings.Join(nsList, "\n") + "\n"
	dir := b.TempDir()
	files[".git/HEAD"] = "ref: refs/heads/main\n"
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// BenchmarkAssembleFlux assembles the cluster of a Flux repository of
// 1,000 apps: each app's Kustomization built in a render worker.
func BenchmarkAssembleFlux(b *testing.B) {
	dir := fluxLayout(b, 1000)
	b.ResetTimer()
	for b.Loop() {
		worlds := assemble(b, dir)
		if n := len(worlds[0].Objects); n != 2001 {
			b.Fatalf("%d objects, want 2001", n)
		}
	}
}
