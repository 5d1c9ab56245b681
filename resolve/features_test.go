package resolve_test

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve"
)

// Feature detection, feature by feature: every fixture in
// testdata/features (loaded with world.yaml) says on each line, after
// "# feature:", the features that line needs; every use resolve finds in the
// fixture must be expected there, and every expectation found.

var featureWant = regexp.MustCompile(`#\s*feature:\s*(.*)$`)

// notDetected are the features resolve cannot see in manifests, with why.
var notDetected = map[features.FeatureName]string{
	features.SupportHTTPRouteDestinationPortMatching:              "no field: it is about the port traffic arrives on",
	features.SupportHTTPRouteRetryBackendTimeout:                  "a retry behaviour, not a field",
	features.SupportHTTPRouteRetryConnectionError:                 "a retry behaviour, not a field",
	features.SupportMeshClusterIPMatching:                         "a data-plane behaviour, not a field",
	features.SupportGatewayHTTPSListenerDetectMisdirectedRequests: "a data-plane behaviour (HTTP 421), not a field",
}

func TestFeatureDetection(t *testing.T) {
	files, _ := filepath.Glob("testdata/features/*.yaml")
	covered := map[features.FeatureName]bool{}
	for _, file := range files {
		if filepath.Base(file) == "world.yaml" {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for i, line := range strings.Split(string(data), "\n") {
				if m := featureWant.FindStringSubmatch(line); m != nil {
					for _, f := range strings.Fields(m[1]) {
						want[fmt.Sprintf("%d %s", i+1, f)] = true
						covered[features.FeatureName(f)] = true
					}
				}
			}
			in := resolve.Load([]string{"testdata/features/world.yaml", file}, nil, resolve.Options{})
			for _, err := range in.Errors {
				t.Fatal(err)
			}
			g := resolve.Resolve(in, resolve.Options{})
			for _, u := range g.Features() {
				if u.Object.Source.File != file {
					continue
				}
				key := fmt.Sprintf("%d %s", u.Object.Position(u.Path).Line, u.Feature)
				if !want[key] {
					t.Errorf("%s:%s: unexpected feature use (%s %s)", file, key, u.Object.Ref, u.Path)
				}
				delete(want, key)
			}
			for key := range want {
				t.Errorf("%s:%s: feature use not found", file, key)
			}
		})
	}
	for _, f := range features.AllFeatures.UnsortedList() {
		if _, ok := notDetected[f.Name]; !covered[f.Name] && !ok {
			t.Errorf("feature %s: no fixture needs it, and it is not listed in notDetected", f.Name)
		}
	}
	for f := range notDetected {
		if covered[f] {
			t.Errorf("feature %s is in a fixture and in notDetected", f)
		}
	}
}
