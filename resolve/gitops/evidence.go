package gitops

import (
	"encoding/json"
	"path"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// HelmChart names the Helm chart a Flux object installs
// (resolve.Options.HelmChart): a HelmRelease's spec.chart.spec.chart, a
// HelmChart's spec.chart, an OCIRepository's artifact (the last element of
// spec.url: oci://mirror.gcr.io/envoyproxy/gateway-helm is gateway-helm);
// "" for any other object. A HelmRelease whose chartRef names its source
// says nothing itself: the source does. A chart given as a path in a
// GitRepository is named by its directory.
func HelmChart(o *manifest.Object) string {
	group, _, _ := strings.Cut(o.APIVersion, "/")
	var obj struct {
		Spec struct {
			Chart json.RawMessage `json:"chart"`
			URL   string          `json:"url"`
		} `json:"spec"`
	}
	switch {
	case group == groupFluxHelm && o.Kind == "HelmRelease",
		group == groupFluxSource && (o.Kind == "HelmChart" || o.Kind == "OCIRepository"):
	default:
		return ""
	}
	if json.Unmarshal(o.JSON, &obj) != nil {
		return ""
	}
	var chart string
	switch o.Kind {
	case "HelmRelease":
		var c struct {
			Spec struct {
				Chart string `json:"chart"`
			} `json:"spec"`
		}
		if json.Unmarshal(obj.Spec.Chart, &c) != nil {
			return ""
		}
		chart = c.Spec.Chart
	case "HelmChart":
		if json.Unmarshal(obj.Spec.Chart, &chart) != nil {
			return ""
		}
	default:
		chart = strings.TrimPrefix(obj.Spec.URL, "oci://")
	}
	if chart = strings.TrimRight(chart, "/"); chart == "" {
		return ""
	}
	return path.Base(chart)
}
