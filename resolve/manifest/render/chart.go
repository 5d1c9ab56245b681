package render

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Helm's own bounds on a chart (loader.MaxDecompressedFileSize and
// MaxDecompressedChartSize), which its directory loader applies to each
// file but not to their sum.
var (
	maxChartFile = loader.MaxDecompressedFileSize
	maxChart     = loader.MaxDecompressedChartSize
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
	if data, err := readBounded(filepath.Join(dir, ignore.HelmIgnore), b); err == nil {
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
	data, err := readBounded(p, l.boundary)
	if err != nil {
		return err
	}
	if l.size += int64(len(data)); l.size > maxChart {
		return fmt.Errorf("the chart's files are larger than %d MiB together", maxChart>>20)
	}
	l.files = append(l.files, &loader.BufferedFile{Name: name, Data: bytes.TrimPrefix(data, []byte{0xEF, 0xBB, 0xBF})})
	return nil
}

// readBounded reads a file of a chart or its values: within the
// boundary, a regular file or a pipe (`--values <(sops -d ...)`) no larger
// than Helm reads, with YAML that does not expand past what a manifest may.
func readBounded(p string, b manifest.Boundary) ([]byte, error) {
	if err := b.Check(p); err != nil {
		return nil, &manifest.ReadError{File: p, Msg: err.Error()}
	}
	info, err := os.Stat(p)
	switch {
	case err != nil:
		return nil, err
	case !info.Mode().IsRegular() && info.Mode()&fs.ModeNamedPipe == 0:
		return nil, &fs.PathError{Op: "read", Path: p, Err: fmt.Errorf("not a regular file")}
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxChartFile+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > maxChartFile {
		return nil, fmt.Errorf("%s is larger than %d MiB, the most Helm reads of a chart's file", p, maxChartFile>>20)
	}
	if e := manifest.CheckAliases(p, data); e != nil {
		return nil, e
	}
	return data, nil
}
