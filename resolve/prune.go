package resolve

import (
	"encoding/json"
	"reflect"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/internal/jsontree"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// pruneSpec decodes the spec of raw into spec again without the fields
// the CRDs pruned (crd.TypeUnknownField violations): a cluster on a
// release without them never sees them (a rule's name before v1.4.0), so
// neither do the resolver and gwctl. The Go types are those of the
// release gwlint is built with, which has every field of the older ones.
func pruneSpec(raw *manifest.Object, spec any, violations []crd.Violation) {
	tree, ok := jsontree.Parse(raw.JSON)
	if !ok {
		return
	}
	defer tree.Release()
	root, _ := tree.Root["spec"].(map[string]any)
	if root == nil {
		return
	}
	pruned := false
	for _, v := range violations {
		if rest, ok := strings.CutPrefix(v.Path, "spec."); ok && v.Type == crd.TypeUnknownField {
			pruned = deletePath(root, rest) || pruned
		}
	}
	if !pruned {
		return
	}
	reflect.ValueOf(spec).Elem().SetZero()
	if !tree.Decode(root, spec) {
		// The typed decode took the document as written: without some
		// fields it still fits.
		data, _ := json.Marshal(root)
		_ = json.Unmarshal(data, spec)
	}
}

// deletePath deletes the field at path ("rules[0].name") below obj,
// reporting whether it was there.
func deletePath(obj map[string]any, path string) bool {
	var node any = obj
	for path != "" {
		name, index := path, ""
		if i := strings.IndexAny(path, ".["); i >= 0 {
			name, path = path[:i], path[i:]
		} else {
			path = ""
		}
		if strings.HasPrefix(path, "[") {
			end := strings.IndexByte(path, ']')
			if end < 0 {
				return false
			}
			index, path = path[1:end], path[end+1:]
		}
		path = strings.TrimPrefix(path, ".")
		m, ok := node.(map[string]any)
		if !ok {
			return false
		}
		if path == "" && index == "" {
			_, found := m[name]
			delete(m, name)
			return found
		}
		node = m[name]
		if index != "" {
			list, ok := node.([]any)
			i, err := strconv.Atoi(index)
			if !ok || err != nil || i < 0 || i >= len(list) {
				return false
			}
			node = list[i]
		}
	}
	return false
}
