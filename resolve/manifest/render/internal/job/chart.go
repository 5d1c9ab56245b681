package job

import (
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Helm's own bounds on a chart (loader.MaxDecompressedFileSize and
// MaxDecompressedChartSize of helm.sh/helm/v3/pkg/chart/loader), copied so
// that the parent, which reads values files, links nothing of Helm's (the
// worker's tests check the copies). Its directory loader applies them to
// each file but not to their sum.
const (
	MaxChartFile int64 = 5 << 20
	MaxChart     int64 = 100 << 20
)

// ReadBounded reads a file of a chart or its values: within the
// boundary, a regular file or a pipe (`--values <(sops -d ...)`) no larger
// than Helm reads, with YAML that does not expand past what a manifest may.
func ReadBounded(p string, b manifest.Boundary) ([]byte, error) {
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
	data, err := io.ReadAll(io.LimitReader(f, MaxChartFile+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > MaxChartFile {
		return nil, fmt.Errorf("%s is larger than %d MiB, the most Helm reads of a chart's file", p, MaxChartFile>>20)
	}
	if e := manifest.CheckAliases(p, data); e != nil {
		return nil, e
	}
	return data, nil
}
