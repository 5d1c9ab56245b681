package render

import (
	"encoding/json"
	"reflect"
	"strings"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// firstLine is where an object is placed when its source cannot be found.
var firstLine = manifest.Pos{Line: 1, Col: 1}

// relocated returns rendered as written in its source file: its JSON and
// kind, with the source's file, document, ignore directives and the
// positions at reports for each path.
func relocated(rendered *manifest.Object, src manifest.Source, ignores []manifest.IgnoreDirective,
	at func(path string, now manifest.KeyValue, parent manifest.Pos) manifest.KeyValue) *manifest.Object {
	o := *rendered
	o.Source = src
	o.Ignores = ignores
	o.Positions = rendered.Positions.Relocate(at)
	if pos, ok := o.Positions.Lookup(""); ok {
		o.Source.Pos = pos
	}
	return &o
}

// sameValues reports, for a path of both documents, whether the source
// writes the value the rendered object has. A mapping or a sequence counts
// as the same (its fields are compared one by one); a scalar must be
// equal, or be one a substitution made from the source's.
func sameValues(rendered, source any) func(path string) bool {
	return func(path string) bool {
		a, ok1 := manifest.ValueAt(rendered, path)
		b, ok2 := manifest.ValueAt(source, path)
		if !ok1 || !ok2 {
			return false
		}
		switch a.(type) {
		case map[string]any, []any:
			switch b.(type) {
			case map[string]any, []any:
				return true
			}
			return false
		}
		// A value Flux substituted is where its ${VAR} is written.
		if s, ok := b.(string); ok && strings.Contains(s, "${") {
			return true
		}
		return reflect.DeepEqual(a, b)
	}
}

// decoded is the object's JSON decoded, nil if it cannot be.
func decoded(o *manifest.Object) any {
	var v any
	if json.Unmarshal(o.JSON, &v) != nil {
		return nil
	}
	return v
}

// metadataName returns the object's metadata.name and namespace.
func metadataName(o *manifest.Object) (name, namespace string) {
	var doc struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(o.JSON, &doc) // an object without them is found by kind alone
	return doc.Metadata.Name, doc.Metadata.Namespace
}
