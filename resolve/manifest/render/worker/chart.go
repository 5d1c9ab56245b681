package worker

import (
	"bytes"
	"fmt"
	"os"
	"path"
	"path/filepath"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// loadChart loads the chart in dir as Helm's loader.LoadDir does
// (.helmignore, its defaults, symbolic links followed), but reads nothing
// outside the boundary: a link that leaves it is an error at the link, and
// its target is never opened, so that `.Files.Get` cannot read a CI
// runner's files into a finding. The files' sizes are bounded one by one
// and together, and their YAML's aliases (values.yaml, Chart.yaml) as in
// any manifest.
func loadChart(dir string, b manifest.Boundary) (*chart.Chart, error) {
	// A chart named from outside (a charts: copy in .gwlint.yaml, which
	// a pull request writes): not even its listing is read.
	if err := b.Check(dir); err != nil {
		return nil, &manifest.ReadError{File: dir, Msg: "helm: " + err.Error()}
	}
	rules := ignore.Empty()
	if data, err := job.ReadBounded(filepath.Join(dir, ignore.HelmIgnore), b); err == nil {
		if rules, err = ignore.Parse(bytes.NewReader(data)); err != nil {
			return nil, err
		}
	} else if !os.IsNotExist(err) {
		return nil, err
	}
	rules.AddDefaults()
	l := chartLoader{boundary: b, rules: rules, visited: map[string]bool{}}
	if err := l.dir(dir, ""); err != nil {
		return nil, err
	}
	return loader.LoadFiles(l.files)
}

type chartLoader struct {
	boundary manifest.Boundary
	rules    *ignore.Rules
	visited  map[string]bool // directories read, resolved: a link may lead back
	files    []*loader.BufferedFile
	size     int64
}

// dir reads the files of the chart's directory p, named name within the
// chart ("" for its top).
func (l *chartLoader) dir(p, name string) error {
	resolved, err := filepath.EvalSymlinks(p)
	if err != nil {
		return err
	}
	if l.visited[resolved] {
		return nil
	}
	l.visited[resolved] = true
	entries, err := os.ReadDir(p)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := l.entry(filepath.Join(p, e.Name()), path.Join(name, e.Name())); err != nil {
			return err
		}
	}
	return nil
}

// entry reads one file or directory of the chart, following a link that
// stays within the boundary.
func (l *chartLoader) entry(p, name string) error {
	if err := l.boundary.Check(p); err != nil {
		return &manifest.ReadError{File: p, Msg: "helm: " + err.Error()}
	}
	info, err := os.Stat(p)
	if err != nil {
		return fmt.Errorf("%s: %w", name, err)
	}
	if info.IsDir() {
		if l.rules.Ignore(name, info) {
			return nil
		}
		return l.dir(p, name)
	}
	if l.rules.Ignore(name, info) {
		return nil
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("cannot load irregular file %s as it has file mode type bits set", name)
	}
	data, err := job.ReadBounded(p, l.boundary)
	if err != nil {
		return err
	}
	if l.size += int64(len(data)); l.size > job.MaxChart {
		return fmt.Errorf("the chart's files are larger than %d MiB together", job.MaxChart>>20)
	}
	l.files = append(l.files, &loader.BufferedFile{Name: name, Data: bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})})
	return nil
}
