package worker

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strconv"

	"go.yaml.in/yaml/v3"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// chartRequest is the render of the chart as kustomize's `helm template` runs
// it: releaseName (a stand-in for --generate-name's random name when
// there is none), namespace, apiVersions, includeCRDs, and the values
// over the chart's defaults in kustomize's order: valuesFile and
// valuesInline merged as valuesMerge says (override: inline wins; merge:
// the file wins; replace: inline alone), then additionalValuesFiles.
// kfile names the kustomization, where an error in valuesInline is.
func chartRequest(c job.HelmChart, kfile string, b manifest.Boundary, output int) (job.Request, error) {
	req := job.Request{Dir: c.ChartDir(), Namespace: cmp.Or(c.Namespace, "default"), ReleaseName: c.ReleaseName,
		APIVersions: c.ApiVersions, CRDs: c.IncludeCRDs, Output: output}
	add := func(name string, data []byte) {
		req.ValueFiles = append(req.ValueFiles, name)
		req.Values = append(req.Values, data)
	}
	file := func(name string) error {
		p := name
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Dir, p)
		}
		data, err := job.ReadBounded(p, b)
		if err != nil {
			return err
		}
		add(p, data)
		return nil
	}
	var inline []byte
	if len(c.ValuesInline) > 0 {
		var err error
		if inline, err = yaml.Marshal(c.ValuesInline); err != nil {
			return req, err
		}
	}
	merge := cmp.Or(c.ValuesMerge, "override")
	switch {
	case merge != "override" && merge != "merge" && merge != "replace":
		return req, fmt.Errorf("valuesMerge must be one of [merge override replace]")
	case inline != nil && merge == "merge":
		add(kfile, inline)
	}
	if c.ValuesFile != "" && (inline == nil || merge != "replace") {
		if err := file(c.ValuesFile); err != nil {
			return req, err
		}
	}
	if inline != nil && merge != "merge" {
		add(kfile, inline)
	}
	for _, f := range c.AdditionalValuesFiles {
		if err := file(f); err != nil {
			return req, err
		}
	}
	return req, nil
}

// inflate renders the chart c inside a worker and returns its templates as
// files that the kustomization lists among its resources in place of the
// entry: kustomize then applies the kustomization's transformers to them
// as it does to a generator's output. Each file is named after its
// template, below a directory of the entry's own, so that the template
// each rendered object came from is known (virtualFile.template).
func inflate(c job.HelmChart, kfile string, b manifest.Boundary, output int) (map[string]virtualFile, []*manifest.ReadError) {
	req, err := chartRequest(c, kfile, b, output)
	if err != nil {
		return nil, []*manifest.ReadError{job.AsReadError(kfile, fmt.Sprintf("helmCharts[%d]: ", c.Index), err)}
	}
	resp := renderChart(req, b)
	if len(resp.Errors) > 0 {
		return nil, resp.Errors
	}
	files := map[string]virtualFile{}
	for _, t := range resp.Templates {
		name := filepath.Join(virtualDir, strconv.Itoa(c.Index), filepath.FromSlash(t.Name))
		files[name] = virtualFile{text: []byte(t.Text), template: job.TemplateFile(req.Dir, t.Name)}
	}
	return files, nil
}

// virtualDir is the directory, below a kustomization's, of the files that
// stand for its rendered helmCharts. A leading dot keeps it from meeting a
// directory of the repository's.
const virtualDir = ".gwlint-helmCharts"

// virtualFile is one rendered template of a chart that a kustomization's
// helmCharts names.
type virtualFile struct {
	text     []byte
	template string // the template file, absolute
}
