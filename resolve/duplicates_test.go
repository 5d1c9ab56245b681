package resolve

import (
	"os"
	"path/filepath"
	"testing"
)

// Of the files no GitOps deployer reaches (Inputs.Unreached), a definition
// repeats only the last one of its own directory: two clusters' bootstrap
// folders may each hold a route or Secret of one name. The definitions the
// last one replaces are still left out of the graph (and of its feature
// uses), wherever they are.
func TestDuplicatesOfUnreachedFiles(t *testing.T) {
	dir := t.TempDir()
	route := func(host string) string {
		return "apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata: {name: web, namespace: app}\n" +
			"spec:\n  hostnames: [" + host + "]\n  parentRefs: [{name: gw}]\n"
	}
	files := map[string]string{
		"prod/route.yaml":         route("prod.example.com"),
		"staging/route.yaml":      route("staging.example.com"),
		"staging/route-next.yaml": route("next.example.com"),
	}
	var paths []string
	for _, name := range []string{"prod/route.yaml", "staging/route.yaml", "staging/route-next.yaml"} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	for _, unreached := range []bool{false, true} {
		in := Load(paths, nil, Options{})
		in.Unreached = unreached
		g := Resolve(in, Options{})
		if len(g.Routes) != 1 || string(g.Routes[0].Hostnames[0]) != "next.example.com" {
			t.Fatalf("unreached %v: %d routes, want the last definition", unreached, len(g.Routes))
		}
		if len(g.Duplicates) != 2 {
			t.Fatalf("unreached %v: %d duplicates, want 2", unreached, len(g.Duplicates))
		}
		prod, staging := g.Objects[0], g.Objects[1]
		want := []Object{prod, prod}
		if unreached {
			want = []Object{nil, staging}
		}
		for i, d := range g.Duplicates {
			if d.Previous != want[i] {
				t.Errorf("unreached %v: duplicate %d repeats %v, want %v", unreached, i, d.Previous, want[i])
			}
		}
	}
}
