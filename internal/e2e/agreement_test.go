package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
)

// TestGwlintAndGwctlAgree: on GitOps trees, where the inputs are
// assembled into worlds, gwctl status agrees with every
// listener-no-routes finding of gwlint check and every listener it does
// not report: both judge each world on its own.
func TestGwlintAndGwctlAgree(t *testing.T) {
	if testing.Short() {
		t.Skip("builds gwlint and gwctl")
	}
	gwlint, gwctl := command(t, "gwlint"), command(t, "gwctl")
	// A cluster, and a route that nothing deploys beside it, which must
	// not attach to the cluster's Gateway in either tool.
	leftover := t.TempDir()
	if err := os.CopyFS(leftover, os.DirFS(filepath.Join("..", "..", "testdata", "gitops", "flux"))); err != nil {
		t.Fatal(err)
	}
	stray := "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: stray, namespace: default}\n" +
		"spec:\n  parentRefs: [{name: envoy-internal, namespace: network}]\n"
	if err := os.WriteFile(filepath.Join(leftover, "stray.yaml"), []byte(stray), 0o644); err != nil {
		t.Fatal(err)
	}
	gateway := "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: envoy-internal, namespace: network}\n" +
		"spec:\n  gatewayClassName: envoy\n  listeners: [{name: http, protocol: HTTP, port: 80, allowedRoutes: {namespaces: {from: All}}}]\n"
	if err := os.WriteFile(filepath.Join(leftover, "kubernetes", "apps", "network", "envoy-gateway", "app", "internal.yaml"), []byte(gateway), 0o644); err != nil {
		t.Fatal(err)
	}
	kustomization := filepath.Join(leftover, "kubernetes", "apps", "network", "envoy-gateway", "app", "kustomization.yaml")
	if err := os.WriteFile(kustomization, []byte("resources: [gateway.yaml, internal.yaml]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tree := range []string{filepath.Join("..", "..", "testdata", "gitops", "flux"), filepath.Join("..", "..", "testdata", "gitops", "argocd"), leftover} {
		t.Run(filepath.Base(tree), func(t *testing.T) {
			out, _ := exec.Command(gwlint, "check", "-o", "json", tree).Output()
			var report struct {
				Findings []struct {
					Rule, Object, Message string
				} `json:"findings"`
			}
			if err := json.Unmarshal(out, &report); err != nil {
				t.Fatalf("gwlint: %v\n%s", err, out)
			}
			listenerName := regexp.MustCompile(`listener (\S+) \(`)
			noRoutes := map[string]bool{} // "Gateway ns/name listener"
			for _, f := range report.Findings {
				if f.Rule == "listener-no-routes" {
					noRoutes[f.Object+" "+listenerName.FindStringSubmatch(f.Message)[1]] = true
				}
			}
			out, err := exec.Command(gwctl, "status", "-o", "json", "-f", tree).Output()
			if err != nil {
				t.Fatalf("gwctl: %v", err)
			}
			var list struct {
				Items []struct {
					Kind     string
					Metadata struct{ Name, Namespace string }
					Status   struct {
						Listeners []struct {
							Name           string
							AttachedRoutes int
						}
					}
				}
			}
			if err := json.Unmarshal(out, &list); err != nil {
				t.Fatal(err)
			}
			listeners := 0
			for _, item := range list.Items {
				if item.Kind != "Gateway" {
					continue
				}
				mayAttach := routesMayComeFrom(t, gwctl, tree, item.Metadata.Namespace, item.Metadata.Name)
				for _, l := range item.Status.Listeners {
					listeners++
					key := "Gateway " + item.Metadata.Namespace + "/" + item.Metadata.Name + " " + l.Name
					// A release gwlint does not render may make its routes:
					// then none counted is no finding.
					if (l.AttachedRoutes == 0 && mayAttach[l.Name] == "") != noRoutes[key] {
						t.Errorf("%s: gwctl status says %d attached routes (more may come from %q), gwlint listener-no-routes: %v",
							key, l.AttachedRoutes, mayAttach[l.Name], noRoutes[key])
					}
				}
			}
			if listeners == 0 {
				t.Fatal("no listener in gwctl status")
			}
		})
	}
}

// routesMayComeFrom is, by listener name, what gwctl explain gateway says
// may create routes that attach beyond those counted.
func routesMayComeFrom(t *testing.T, gwctl, tree, namespace, name string) map[string]string {
	t.Helper()
	out, err := exec.Command(gwctl, "explain", "gateway", name, "-n", namespace, "-o", "json", "-f", tree).Output()
	if err != nil {
		t.Fatalf("gwctl explain gateway %s/%s: %v", namespace, name, err)
	}
	var explained struct {
		Listeners []struct {
			Name              string `json:"name"`
			RoutesMayComeFrom string `json:"routesMayComeFrom"`
		} `json:"listeners"`
	}
	if err := json.Unmarshal(out, &explained); err != nil {
		t.Fatal(err)
	}
	may := map[string]string{}
	for _, l := range explained.Listeners {
		may[l.Name] = l.RoutesMayComeFrom
	}
	return may
}
