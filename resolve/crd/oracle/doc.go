// Package oracle proves package crd against the real thing: its tests run
// apiextensions-apiserver's own create-path validation (structural
// defaulting, pruning of unknown fields, ObjectMeta validation, the
// kube-openapi schema validator, list-type invariants and the CEL
// validator) side by side with crd.Validate on the pinned Gateway API
// examples, invalid examples, a generated corpus and random mutations of
// all of them, and fail on any document where the two disagree.
//
// TestDefaults proves resolve's defaults table the same way: the fields the
// API server's structural defaulting adds to each document must be the ones
// resolve.Load records in Meta.Defaulted, with the same values (see
// defaults_test.go for the rules and the known divergences).
//
// It is a separate module so that gwlint itself does not depend on the
// API server and cel-go. Run it with `go test ./...` in this directory;
// it needs no network once the modules are in the cache.
package oracle
