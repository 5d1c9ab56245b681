// Package resolve reads Gateway API manifests into one in-memory object graph
// and decides, the way a conformant controller would, what they mean: which
// defaults the API server fills in, which listeners every parentRef attaches
// to (or why not), which backendRefs resolve, how each rule splits its
// traffic, and the .status a controller would write.
//
// It is the single source of truth for gwlint and gwctl: lint rules and
// explain output only read the Graph, never re-derive its answers, so the two
// tools cannot disagree. Every outcome carries the API's own reason name
// (Accepted, NotAllowedByListeners, BackendNotFound, ...) and every object
// keeps a position index from field path to line:column.
//
// Reading is most of the work, so it is built for speed: the block-style
// YAML manifests are written in is read by a parser of its own (fastyaml.go)
// into the same trees yaml.v3 builds, and yaml.v3 reads whatever else; each
// object is converted to JSON, decoded, validated and defaulted on the
// worker that read it, and keeps only packed positions.
//
// An offline tool sees only part of the cluster. The model for objects that
// the inputs do not hold is explicit (see Presence): a referenced object is
// Missing when the inputs hold objects of that kind in its namespace but not
// it, and External (assumed to exist) when they hold none; Options.StrictRefs
// makes every External reference Missing.
package resolve
