package worker

import (
	"context"
	"regexp"
	"slices"
	"strings"

	fluxkustomize "github.com/fluxcd/pkg/kustomize"
	"github.com/fluxcd/pkg/sourceignore"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// fluxKustomization is the kustomization Flux generates for fb in dir: the
// directory's own, or one listing every manifest below it, with the
// Kustomization's transformations added. It returns its text and the file
// it stands for.
func fluxKustomization(fb *job.FluxBuild, dir string) ([]byte, string, error) {
	ks := unstructured.Unstructured{Object: fb.Object}
	// kustomize-controller's generator (NewGenerator) takes a directory's
	// own kustomization as written: the ignore filter of the flux CLI's
	// would take a remote base without a scheme (github.com/org/repo?ref=)
	// for a missing file.
	gen := fluxkustomize.NewGenerator(fb.Root, ks)
	if manifest.KustomizationFile(dir, nil) == "" {
		// The one it writes lists the manifests of source-controller's
		// artifact: without what it leaves out of every artifact of a
		// repository (its VCS, CI and binary files), and .sourceignore's.
		exclude := strings.ReplaceAll(strings.Join([]string{sourceignore.ExcludeVCS, sourceignore.ExcludeExt,
			sourceignore.ExcludeCI, sourceignore.ExcludeExtra}, ","), ",", "\n")
		gen = fluxkustomize.NewGeneratorWithIgnore(fb.Root, exclude, ks)
	}
	data, file, _, err := gen.GenerateManifest(dir)
	return data, file, err
}

// varReference finds the names of ${VAR} substitutions, and whether they
// give a default (${VAR:=x}, ${VAR:-x}, ${VAR=x}, ${VAR-x}), as Flux's
// envsubst reads them.
var varReference = regexp.MustCompile(`\$\{([_a-zA-Z][_a-zA-Z0-9]*)(:?[=-])?`)

// substitution is the post-build substitution of one build.
type substitution struct {
	kustomization unstructured.Unstructured
	// fallback, when not nil, substitutes the unknown variables that a
	// resource gives a default as unset: its default. A resource whose
	// text a placeholder would break (${q:='} quoting what follows) is
	// substituted with it.
	fallback *unstructured.Unstructured
}

// newSubstitution prepares the substitution of the resources of a build: the
// known variables, and for each variable the resources name that is not
// known but may be set at deploy time (Unknown), its own placeholder, so
// that the value stays unknown rather than becoming empty.
func newSubstitution(fb *job.FluxBuild, resources []*resource.Resource) (*substitution, error) {
	if !fb.Substitute {
		return nil, nil
	}
	vars := map[string]any{}
	for k, v := range fb.Vars {
		vars[k] = v
	}
	defaulted := map[string]bool{} // unknown variables some reference gives a default
	if fb.Unknown {
		for _, res := range resources {
			data, err := res.AsYAML()
			if err != nil {
				return nil, err
			}
			for _, m := range varReference.FindAllSubmatch(data, -1) {
				name := string(m[1])
				if _, known := fb.Vars[name]; known {
					continue
				}
				vars[name] = "${" + name + "}"
				if len(m[2]) > 0 {
					defaulted[name] = true
				}
			}
		}
	}
	with := func(vars map[string]any) (*unstructured.Unstructured, error) {
		ks := unstructured.Unstructured{Object: runtime.DeepCopyJSON(fb.Object)}
		return &ks, unstructured.SetNestedField(ks.Object, vars, "spec", "postBuild", "substitute")
	}
	ks, err := with(vars)
	if err != nil {
		return nil, err
	}
	s := &substitution{kustomization: *ks}
	if len(defaulted) > 0 {
		unset := map[string]any{}
		for k, v := range vars {
			if !defaulted[k] {
				unset[k] = v
			}
		}
		if s.fallback, err = with(unset); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// apply substitutes res in place, unless it opts out
// (kustomize.toolkit.fluxcd.io/substitute: disabled).
func (s *substitution) apply(res *resource.Resource) error {
	// Without a cluster: the variables of substituteFrom are in Vars
	// already, read from the repository.
	_, err := fluxkustomize.SubstituteVariables(context.Background(), nil, s.kustomization, res, fluxkustomize.SubstituteWithDryRun(true))
	if err != nil && s.fallback != nil {
		_, err = fluxkustomize.SubstituteVariables(context.Background(), nil, *s.fallback, res, fluxkustomize.SubstituteWithDryRun(true))
	}
	return err
}

// generatedFS is a file system with one file more: the kustomization that
// Flux generates, read in place of the directory's own.
type generatedFS struct {
	filesys.FileSystem
	file string // absolute
	data []byte
}

func (f generatedFS) ReadFile(path string) ([]byte, error) {
	if job.Clean(path) == f.file {
		return slices.Clone(f.data), nil
	}
	return f.FileSystem.ReadFile(path)
}

func (f generatedFS) Exists(path string) bool {
	return job.Clean(path) == f.file || f.FileSystem.Exists(path)
}

func (f generatedFS) IsDir(path string) bool {
	return job.Clean(path) != f.file && f.FileSystem.IsDir(path)
}
