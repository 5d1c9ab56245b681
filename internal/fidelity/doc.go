// Package fidelity measures how closely gwctl's predicted status matches the
// status that real implementations write for their own test inputs.
//
// Envoy Gateway and Istio each keep a table of translator tests: input
// objects and the status their controller writes for them. The harness
// (fidelity_test.go) reads those test data from directories named by
// environment variables, never from this repository, gives resolve the same
// inputs and the same surrounding objects the projects' test harnesses add
// (their "world": Services, Secrets, Namespaces, GatewayClasses), and
// compares condition by condition. Package statusdiff reads both statuses
// and matches their entries, as it does for gwctl diff; this package owns
// what counts as one outcome and how disagreements are grouped.
// docs/resolver.md says how to run it and what it found.
package fidelity
