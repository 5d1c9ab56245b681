package cli

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/spf13/pflag"

	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// ConfigFlags are --config and --no-config, which gwlint check and every
// gwctl command take.
type ConfigFlags struct {
	File string
	None bool
}

// LoadConfig returns the configuration of a run over paths: none with
// --no-config, the file --config names, else the .gwlint.yaml the paths
// find (lint.FindConfigFor), else the defaults. The file's name is shown
// relative to the working directory, like the inputs.
func (f ConfigFlags) LoadConfig(paths []string) (*lint.Config, error) {
	switch {
	case f.None && f.File != "":
		return nil, errors.New("--config and --no-config cannot be used together")
	case f.None:
		return &lint.Config{}, nil
	case f.File != "":
		return lint.LoadConfig(f.File)
	}
	found, err := lint.FindConfigFor(paths)
	if err != nil || found == "" {
		return &lint.Config{}, err
	}
	if wd, err := os.Getwd(); err == nil {
		if rel, err := filepath.Rel(wd, found); err == nil {
			found = rel
		}
	}
	return lint.LoadConfig(found)
}

// InputFiles expands the arguments into the files to read, in the order
// resolve.Load would read them: a directory becomes the manifest files
// under it (.yaml, .yml, .json, skipping hidden files and directories),
// sorted by path. Paths the configuration excludes are left out, whether
// named or found, and a file named twice is read once. Paths that cannot be
// read are kept, for resolve.Load to report; what a directory walk cannot
// walk is returned as errors.
func InputFiles(args []string, cfg *lint.Config) ([]string, []*manifest.ReadError) {
	var out []string
	var errs []*manifest.ReadError
	seen := map[string]bool{}
	add := func(p string) {
		key := p
		if p != "-" {
			key = filepath.Clean(p)
		}
		if !seen[key] {
			seen[key] = true
			out = append(out, p)
		}
	}
	for _, arg := range args {
		if arg == "-" {
			add(arg)
			continue
		}
		if cfg.Excludes(arg) {
			continue
		}
		info, err := os.Stat(arg)
		if err != nil || !info.IsDir() {
			add(arg)
			continue
		}
		found, walkErrs := manifest.Files(arg, cfg.Excludes)
		for _, f := range found {
			add(f)
		}
		errs = append(errs, walkErrs...)
	}
	return out, errs
}

// AddConfigFlags adds --config and --no-config.
func AddConfigFlags(fs *pflag.FlagSet, f *ConfigFlags) {
	fs.StringVar(&f.File, "config", "", "configuration file to use instead of looking for "+lint.ConfigFileName+" from the inputs upward")
	fs.BoolVar(&f.None, "no-config", false, "use no configuration file")
}
