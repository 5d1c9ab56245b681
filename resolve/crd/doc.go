// Package crd reports what the Kubernetes API server would reject in a
// Gateway API object, natively and in microseconds: the OpenAPI schema of
// the CRDs (types, enums, patterns, formats, lengths, item and property
// counts, bounds, required fields, list-map and list-set uniqueness), every
// x-kubernetes-validations CEL rule, unknown fields, and ObjectMeta
// validation, for every served version of both release channels
// (config/crd/standard and config/crd/experimental of
// sigs.k8s.io/gateway-api) of every release from v1.0.0 to v1.7.0.
//
// # Releases
//
// A CRDs value names what a cluster runs: a Release and a Channel. The zero
// Release is the one go.mod pins (v1.6.3, Pinned), so zero-valued options
// validate as gwlint always has; newer releases (v1.7.0) are known and
// selectable all the same. The releases are listed once, in internal/gen's
// Releases: to add the next one, append it there and run
// go generate ./resolve/crd. An unknown field that a newer release declares
// names it (Violation.AddedIn), except under the pinned release, whose
// messages stay what they were before newer releases were known.
//
// Validate and ValidateOwned take the object as the generic tree the API
// server decodes; ValidateJSON takes package manifest's JSON and builds that
// tree itself, in one pass and from recycled maps (package jsontree, whose
// tree package resolve also decodes its typed objects from).
//
// # Why native
//
// The API server's own path (apiextensions-apiserver, kube-openapi,
// cel-go) costs milliseconds per CRD to set up and far more per object
// than a linter can afford, and drags the API server's dependencies into
// gwlint. Here the schemas are Go tables generated from the CRD YAMLs
// (zz_generated_schemas.go, by internal/gen from each release's module zip;
// one table per release and channel, a node identical anywhere emitted
// once; go generate regenerates it and TestGeneratedUpToDate fails when it
// is stale), the patterns are
// hand-written matchers proven equal to their regexps (patterns.go), and
// each CEL rule is a hand translation registered under its exact rule text,
// once for all releases (cel_*.go; TestEveryRuleImplemented fails on a rule
// of any release without one).
//
// # What it follows
//
// Validate follows the API server's create path: prune unknown fields
// (reported like kubectl's strict field validation does), drop null
// non-nullable fields without default, apply the schema defaults, drop
// status (create does), validate ObjectMeta, the schema, list-type
// invariants, then the CEL rules on the defaulted object. It keeps the
// quirks that change what is reported: kube-openapi's checks that apply to
// a value of the wrong type, its string checks stopping at the first
// failure, lengths in runes, int32 ranges, enum matching by Go conversion;
// CEL's errors on absent fields and on floats in integer fields, its
// error-absorbing && and ||, and a rule that never passes
// (XBackend's port name: an optional never equals null).
//
// It departs from the API server on purpose in two ways, both for a
// linter's sake: after a "blocking" schema error the API server runs no
// CEL rule at all, while Validate still reports the rules that fail (not
// the rules that fail to evaluate, which then only echo a missing required
// field, and no CEL at all when a value has the wrong JSON type); and it
// reports every malformed ObjectMeta field rather than the first. Paths of
// map keys use the field.Path form ("labels[app]") everywhere. Transition
// rules (oldSelf) only run on update and are never evaluated.
//
// # How parity is proven
//
// The nested module oracle/ (cd resolve/crd/oracle && go test ./...) runs
// the real thing, apiextensions-apiserver's structural schema, pruning,
// defaulting, ObjectMeta, kube-openapi and CEL validators, side by side
// with Validate, once per release with that release's CRDs: on its
// examples (all valid), hack/invalid-examples (all flagged), the case
// tables testdata/cases.yaml and testdata/releases.yaml (also run by this
// package's tests), the shared bench corpus generator with injected errors,
// and thousands of random mutations of all of them, and fails on any
// document where the sets of (path, type) differ.
package crd
