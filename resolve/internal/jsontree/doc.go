// Package jsontree parses each object's JSON once, into the generic tree
// the API server decodes (map[string]any, json.Number), which every reader
// of the object reads: the typed decoding (Tree.Decode, a reflection walk
// that does what encoding/json does, and says so when it cannot be sure),
// the CRD validation of package crd, and the placeholder scan. The tree's
// maps are recycled from one object to the next (Tree.Release): they are
// most of what loading would otherwise allocate.
package jsontree
