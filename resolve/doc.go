// Package resolve loads Gateway API manifests into one in-memory object graph
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
// Reading is package manifest's (files, YAML, JSON, positions, ignore
// comments) and validation against the CRDs is resolve/crd's; this package
// holds the meaning the Gateway API gives the objects. Load decodes each
// object into the API's typed structs (load.go), validates it and applies
// the API server's defaults (defaults.go) on the worker that read it;
// Resolve then builds the graph in steps, in this order: GatewayClasses
// (gatewayclass.go) and Gateways with their listeners, conflicts and
// conditions (gateway.go, cert.go, tls.go), route attachment (attach.go),
// backendRefs and ReferenceGrants (backend.go, grant.go, filters.go), mesh
// binding (mesh.go), BackendTLSPolicies (btls.go), shadowed matches
// (shadow.go), the features every object needs and which the implementation
// judging it lacks (features.go), and the .status a controller would write
// (status.go).
//
// Where an implementation reads the world otherwise than the API does (a
// choice the spec leaves open, a limit its conformance report does not
// show, kinds of its own), it says so through the steps of Implementation
// (implementation.go): small interfaces the core asks at fixed points, with
// a Builder that writes while Resolve runs. Each implementation is a
// package of its own under resolve/implementations, which this package does
// not import; package profile says what each supports, from its
// conformance report, and chooses the profile of each Gateway (its
// Choice). A Judge pairs that profile with the implementation's steps.
// Following requests through the graph is package resolve/trace's.
//
// An offline tool sees only part of the cluster, and unknown is not wrong.
// The model for objects that the inputs do not hold is explicit (see
// Presence): a referenced object is Generated when an object among the
// inputs will create it (generated.go: a Certificate its Secret, a Canary
// its Services), its contents unknown; Missing only on evidence that it
// does not exist (Options.StrictRefs, Options.OwnedNamespaces, or a name one
// slip of the keyboard from an object of its kind beside it); Unlisted
// when the inputs hold others of its kind there without that evidence, and
// External when they hold none: both assumed to exist. An outcome that
// depends on an object the inputs lack is Unknown (Pending), never a
// refusal. So is one that depends on a value holding a deploy-time
// placeholder (Flux's ${VAR}, Argo CD plugins' <path:...>; package
// placeholder): a reference by such a name, or of such a kind, is
// Unresolved, and hostnames holding one intersect what their literal text
// allows (unknown.go).
package resolve
