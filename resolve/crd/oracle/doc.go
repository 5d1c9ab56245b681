// Package oracle proves package crd against the real thing: its tests run
// apiextensions-apiserver's own create-path validation (structural
// defaulting, pruning of unknown fields, ObjectMeta validation, the
// kube-openapi schema validator, list-type invariants and the CEL
// validator) side by side with crd.Validate on the Gateway API examples,
// invalid examples, the case table, a generated corpus and random mutations
// of all of them, and fail on any document where the two disagree. Each
// test runs once per release crd knows (subtests named v1.0.0 ... v1.7.0),
// against that release's CRDs and on its own examples; the expectations
// written for the pinned release (which cases and generated documents are
// flagged) are checked under it alone, agreement under all.
// ORACLE_RELEASES=v1.2.0,v1.6.3 runs some releases only.
//
// TestDefaults proves resolve's defaults table the same way: the fields the
// API server's structural defaulting adds to each document must be the ones
// resolve.Load records in Meta.Defaulted, with the same values (see
// defaults_test.go for the rules and the known divergences).
//
// It is a separate module so that gwlint itself does not depend on the
// API server and cel-go. Run it with `go test ./...` in this directory
// (about a minute on 2 cores); each release's module is fetched with
// `go mod download` into the module cache (outside any module, so no
// go.mod lists them), after which it needs no network. A release whose
// go.mod asks for a newer Go than the one running (v1.7.0 needs Go 1.27)
// is downloaded but not extracted by the go command: the oracle extracts
// the files it reads from the module zip into a temporary directory.
package oracle
