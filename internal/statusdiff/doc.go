// Package statusdiff compares Gateway API statuses condition by condition.
//
// It reads a status in the API's schema reduced to what decides an
// outcome: conditions (type, status, reason; messages and times are the
// writer's own prose), listeners, route parents and policy ancestors. A
// status comes either typed, from what gwlint writes (resolve's
// Graph.Statuses, what gwctl status prints), or as JSON, from a manifest
// another controller wrote. Pairs then matches the entries of two statuses
// of one object — its own conditions, each listener by name, each route
// parent and policy ancestor by its reference with defaults applied — so
// that two writers compare alike however each spelled a reference.
//
// gwctl diff pairs the statuses of two versions of the manifests;
// internal/fidelity pairs gwlint's with those Envoy Gateway and Istio
// expect in their own tests.
package statusdiff
