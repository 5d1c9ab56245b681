package render

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// FluxBuild is a Flux Kustomization (kustomize.toolkit.fluxcd.io) whose
// spec.path is built, as its kustomize-controller would build it from a
// source that holds the repository: the Kustomization as applied, the
// repository's root, the file it is written in, and the variables of its
// post-build substitution. It is part of a render's request, which the
// worker shares (see job.FluxBuild for its fields).
type FluxBuild = job.FluxBuild

// Flux builds the Flux Kustomization fb in a worker and places the objects
// of the build in their source files. dir is spec.path as the user would
// name it.
func (r *Renderer) Flux(dir string, fb FluxBuild) ([]*manifest.Object, []*manifest.ReadError) {
	return r.placeBuild(dir, fb.File, r.run(job.Request{Kustomize: true, Dir: dir, Flux: &fb}, fb.File))
}

// Path is a Flux Kustomization's spec.path, cleaned: relative to the
// repository's root, "" for the root itself. A path written from the root
// ("/charts/app") is relative to it too, as Flux's securejoin and Argo CD
// read it. A path that leaves the root is an error.
func Path(spec string) (string, error) {
	p := filepath.Clean(filepath.FromSlash(strings.TrimPrefix(spec, "./")))
	p = strings.TrimLeft(p, string(filepath.Separator))
	if p == "." || p == "" {
		return "", nil
	}
	if !filepath.IsLocal(p) {
		return "", fmt.Errorf("spec.path %q leaves the repository", spec)
	}
	return p, nil
}
