// Package lint turns the resolver's answers into findings. A Rule is a
// small value — a stable id, a severity, a summary, a doc and a check — and
// every rule is listed once, in Rules. Rules only read the resolve.Graph:
// they never re-derive attachments, references or splits, so gwlint and
// gwctl cannot disagree. A finding's position comes from the object's
// position index by field path; a defaulted field points at its nearest
// written parent.
package lint
