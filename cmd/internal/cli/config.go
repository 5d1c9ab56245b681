package cli

import (
	"errors"
	"fmt"
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
		return loadConfig(f.File)
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
	return loadConfig(found)
}

// loadConfig reads a configuration file that does not lead out of its
// repository (manifest.BoundaryFor): one that a pull request may have
// made a link to a file of the CI runner is refused, unread.
func loadConfig(file string) (*lint.Config, error) {
	if err := manifest.BoundaryFor(file).Check(file); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return lint.LoadConfig(file)
}

// AddConfigFlags adds --config and --no-config.
func AddConfigFlags(fs *pflag.FlagSet, f *ConfigFlags) {
	fs.StringVar(&f.File, "config", "", "configuration file to use instead of looking for "+lint.ConfigFileName+" from the inputs upward")
	fs.BoolVar(&f.None, "no-config", false, "use no configuration file")
}
