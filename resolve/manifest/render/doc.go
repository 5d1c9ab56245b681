// Package render reads what is not a manifest until it is rendered: a
// Kustomize directory, built with the kustomize API (sigs.k8s.io/kustomize/api),
// and a Helm chart directory, rendered with the Helm SDK (helm.sh/helm/v3).
// Both run offline: nothing is fetched and no cluster is asked.
//
// The rendered objects come back as manifest.Objects whose Source, positions
// and ignore directives are those of the files a person edits, so that a
// finding points at a line that can be changed. How a rendered field is
// placed there (see Kustomize and Helm):
//
//   - kustomize: each object's source file is known (kustomize's origin
//     annotation); the object is found there by kind and name, and each
//     field that the source writes with the same value points at its line.
//     A field that a patch or a transformer changed or added points at its
//     nearest parent that the source writes with its value: the patch's
//     own line is not pointed at.
//   - Helm: each object's template file is known; within it, a field
//     points at the first line, after the line its predecessor was placed
//     at, that writes the same text or at least the same key. A field
//     that no such line writes (a toYaml block, a range's later items)
//     points at its parent, and an object that cannot be found at all at
//     line 1 of its template.
//
// A directory walk (manifest.Walk) says which directories to render; Roots
// says which kustomizations are built on their own.
package render
