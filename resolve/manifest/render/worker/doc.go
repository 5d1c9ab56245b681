// Package worker is the render worker, the gwlint-render program's whole
// work: it builds kustomizations (sigs.k8s.io/kustomize/api, as Flux's
// kustomize-controller does) and renders Helm charts (helm.sh/helm/v3)
// that a render.Renderer asks of it over its pipes (Serve), offline and
// within the boundary the request names.
//
// Its packages (Helm, kustomize, Flux, the Kubernetes libraries they
// need) are linked into gwlint-render alone: in gwlint and gwctl their
// initialisation cost every run, rendering or not, more time than a
// check of a small file takes.
package worker
