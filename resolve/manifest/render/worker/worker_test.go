package worker

import (
	"errors"
	"net"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
	"helm.sh/helm/v3/pkg/chart/loader"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// A worker reaches no network: its HTTP clients on the default transport
// and its host name lookups fail, the backstop for what a chart or a
// kustomization might name that the offline check does not know. (This
// process disconnects as a worker does.)
func TestWorkerIsDisconnected(t *testing.T) {
	disconnect()
	if _, err := http.Get("http://127.0.0.1:1/x.yaml"); err == nil || !strings.Contains(err.Error(), "gwlint fetches nothing") {
		t.Errorf("http.Get: %v, want gwlint's refusal", err)
	}
	if _, err := net.LookupHost("example.com"); err == nil || !strings.Contains(err.Error(), "gwlint fetches nothing") {
		t.Errorf("LookupHost: %v, want gwlint's refusal", err)
	}
}

// The parent's copies of Helm's bounds on a chart's files are Helm's.
func TestChartBoundsAreHelms(t *testing.T) {
	if job.MaxChartFile != loader.MaxDecompressedFileSize || job.MaxChart != loader.MaxDecompressedChartSize {
		t.Errorf("job.MaxChartFile, MaxChart = %d, %d; Helm's are %d, %d", job.MaxChartFile, job.MaxChart,
			loader.MaxDecompressedFileSize, loader.MaxDecompressedChartSize)
	}
}

// The parent's copies of kustomize's helmCharts types read an entry as
// kustomize does: the same fields, of the same types and tags.
func TestHelmChartTypesAreKustomizes(t *testing.T) {
	for _, c := range []struct{ copied, kustomize any }{
		{job.KustomizeHelmChart{}, types.HelmChart{}},
		{job.KustomizeHelmGlobals{}, types.HelmGlobals{}},
	} {
		a, b := reflect.TypeOf(c.copied), reflect.TypeOf(c.kustomize)
		if a.NumField() != b.NumField() {
			t.Errorf("%v has %d fields, kustomize's %v %d", a, a.NumField(), b, b.NumField())
			continue
		}
		for i := range a.NumField() {
			fa, fb := a.Field(i), b.Field(i)
			if fa.Name != fb.Name || fa.Type != fb.Type || fa.Tag != fb.Tag {
				t.Errorf("%v.%s %v `%s`, kustomize's %s %v `%s`", a, fa.Name, fa.Type, fa.Tag, fb.Name, fb.Type, fb.Tag)
			}
		}
	}
	if job.KustomizeHelmHome != types.HelmDefaultHome {
		t.Errorf("job.KustomizeHelmHome = %q, kustomize's is %q", job.KustomizeHelmHome, types.HelmDefaultHome)
	}
}

// Aliases of aliases can stand for billions of nodes: expanding them stops
// at its budget.
func TestExpandAliasesIsBounded(t *testing.T) {
	bomb := "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	prev := "a"
	for _, name := range []string{"b", "c", "d", "e", "f", "g", "h", "i"} {
		bomb += name + ": &" + name + " [*" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev +
			", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + ", *" + prev + "]\n"
		prev = name
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(bomb), &doc); err != nil {
		t.Fatal(err)
	}
	if expandAliases(&doc, maxExpandedNodes) {
		t.Error("expanded 10^9 nodes within the budget")
	}
	var small yaml.Node
	if err := yaml.Unmarshal([]byte("a: &n web\nb: *n\n"), &small); err != nil {
		t.Fatal(err)
	}
	if !expandAliases(&small, maxExpandedNodes) {
		t.Fatal("ran out of budget on two nodes")
	}
	var plain yaml.Node
	if err := yaml.Unmarshal([]byte("resources: [a.yaml, b.yaml, c.yaml]\n"), &plain); err != nil {
		t.Fatal(err)
	}
	if !expandAliases(&plain, 1) {
		t.Error("a tree without aliases counted against the budget")
	}
	if out, _ := yaml.Marshal(&small); string(out) != "a: web\nb: web\n" {
		t.Errorf("expanded to %q, want the alias's value and no anchor", out)
	}
}

// kustomize prints some values as Go pointers, which differ in every run:
// the message keeps the rest.
func TestStableDropsGoPointers(t *testing.T) {
	err := errors.New(`merging from generator &{0x25848902e9c0 0x258488f9be00}: configmap "values" does not exist`)
	if got, want := stable(err).Error(), `merging from generator: configmap "values" does not exist`; got != want {
		t.Errorf("stable = %q, want %q", got, want)
	}
	plain := errors.New("no matches for Id Service")
	if stable(plain) != plain {
		t.Error("a message without pointers changed")
	}
}
