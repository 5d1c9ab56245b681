package manifest

import (
	"testing"

	"go.yaml.in/yaml/v3"
)

// An apiVersion is a Kubernetes object's when it is shaped as one; a
// number or another tool's version string is not.
func TestObjectVersion(t *testing.T) {
	for s, want := range map[string]bool{"v1": true, "apps/v1": true, "gateway.networking.k8s.io/v1beta1": true, "x/v2alpha3": true,
		"1": false, "v": false, "va": false, "apps/": false, "/v1": false, "v1beta": false, "Apps/v1": false, "skaffold/v4beta6": true, "2.0": false, `"1"`: false} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("a: "+s), &n); err != nil {
			t.Fatal(err)
		}
		if got := objectVersion(n.Content[0].Content[1]); got != want {
			t.Errorf("%s: %v", s, got)
		}
	}
}
