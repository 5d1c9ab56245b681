// Package trace follows requests through a resolved graph the way a
// conformant data plane would: the Gateway and listener a request arrives
// on, the routes accepted there that serve its host, every match it
// satisfies ranked by the spec's precedence, and what the winning rule does
// (forward by weight, redirect, rewrite, or answer HTTP 500). It serves
// `gwctl explain request` (Tracer.Trace), `gwctl diff`'s sample requests
// (SampleRequests, Tracer.Destination) and the route-conflict lint rule
// (Tracer.RouteConflicts).
//
// It only reads package resolve's Graph: the core decides attachments,
// effective hostnames, backends and shadowed matches, and exports the few
// helpers a trace shares with it (HostnameMatches, the route tie-breaks
// CompareRouteAges and CompareRouteNames, NewMatchRef). What tracing alone
// needs lives here: the request and its URL form (trace.go), matching a
// request against a route's matches and applying the winning rule's
// filters (match.go), the match precedence (precedence.go), TLS, TCP and
// UDP connections (stream.go), the per-listener route index and compiled
// expressions that let Destination trace many requests fast (index.go,
// kept by the Tracer, not the graph), sample requests (sample.go) and
// route conflicts (conflict.go). Every decision carries a Reason.
package trace
