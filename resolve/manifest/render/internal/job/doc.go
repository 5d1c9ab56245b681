// Package job holds what the renderer (package render, in gwlint and gwctl)
// and its worker (package worker, in gwlint-render) share: a render's
// Request and Response and their frames on the worker's pipes, and what
// both sides read of the inputs, within the boundary: a kustomization's
// includes and helmCharts, a chart's or a values file's text.
//
// It links nothing of Helm's, kustomize's or Flux's, so that a check that
// renders nothing does not pay for their packages (their initialisation
// took most of a small check's time): those live in the worker alone.
package job
