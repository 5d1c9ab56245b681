// Package manifest reads Kubernetes manifests as they are written, before
// anything gives them meaning: it walks files and directories (and stdin),
// splits multi-document YAML, JSON and kubectl Lists into objects, converts
// each to JSON as the API server would read it, and keeps the position of
// every field, so that whatever is later found about
// "spec.rules[0].backendRefs[1].port" can be shown at its file:line:col.
// It also finds the gwlint:ignore comments of each file.
//
// It knows YAML and Kubernetes' object envelope (apiVersion, kind, List),
// nothing of Gateway API: package resolve decodes, defaults and resolves what
// it reads, and resolve/crd validates it. One broken file or document is a
// ReadError and reading goes on with the rest.
//
// Reading is most of the work of a lint run, so it is built for speed:
// files are read and converted on every core; the block-style YAML that
// manifests are written in is parsed by a parser of its own (fastyaml.go)
// into the same trees yaml.v3 builds, and yaml.v3 reads whatever else;
// positions are packed (positions.go) and unpacked only for a finding.
// ReadEach lets a caller decode each object on the worker that read it.
package manifest
