// Package lsp is `gwlint lsp`: a Language Server Protocol server over
// stdio that serves every workspace folder as `gwlint check DIR` would
// (the caller's Configure says how) and keeps what it read in memory, so
// that an edit re-reads one document.
//
// server.go wires the protocol (github.com/tliron/glsp's types and
// dispatch over github.com/sourcegraph/jsonrpc2) to the rest, and only
// wires: documents.go holds the editor's open documents and converts
// positions; world.go is the world model (each folder's setup, the files
// it loaded, the last graphs and findings); diagnostics.go turns findings
// into diagnostics; locate.go finds the object and field under the
// cursor, for hover.go, definition.go and actions.go.
package lsp
