// Package gitops reads a repository as the clusters it deploys. A GitOps
// repository is not applied file by file: Flux applies the Kustomizations
// (kustomize.toolkit.fluxcd.io) it finds, each building its spec.path with
// its own namespace, prefixes, patches, components and variable
// substitutions, and those builds hold more Kustomizations in turn, down
// to the apps. All that one entry point reaches is one cluster, and a
// route meets its Gateway there even when the two live in different app
// folders.
//
// Assembly starts from what the inputs were read as (package cli: plain
// files, charts, root kustomizations, each loaded by package resolve) and
// from the objects that say how they are deployed (Keep). It builds every
// Flux Kustomization with Flux's own generator, build and substitution
// (package render, in a worker), finds the entry points (those no other
// one builds), and returns one world per entry point's folder, plus what
// no Kustomization deploys, judged as before. What the repository cannot
// show (a source that is another repository, a remote chart, a Secret
// that SOPS encrypts) is unknown, never an error.
package gitops
