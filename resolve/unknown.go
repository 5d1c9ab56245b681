package resolve

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/resolve/placeholder"
)

// Values holding a deploy-time placeholder (Flux's ${VAR}, Argo CD
// plugins' <path:...>, see package placeholder) are unknown until
// substitution: the resolver decides nothing from them that could be an
// error. A name or namespace holding one makes a reference Unresolved
// (Graph.Lookup), and so does a kind or group (kindUnknown), before any
// verdict on the kind; a hostname holding one intersects what its literal text
// allows (hostname.go); a sectionName holding one selects an unknown
// listener; and a number field holding one (`port: ${PORT}`, which Flux
// substitutes before the YAML is parsed) is recorded in Meta.Unknown, since
// the typed structs cannot hold it (a Service's, in ServicePort.Unknown).

// unknownValues returns the field paths of the document's string values
// that hold a placeholder, with the values as written; nil when none does.
// doc is the document js parsed (package jsontree), whose strings may
// share js's memory.
func unknownValues(js []byte, doc map[string]any, syntax placeholder.Syntax) map[string]string {
	if !bytes.Contains(js, []byte("${")) && !bytes.Contains(js, []byte("<")) && !bytes.Contains(js, []byte("{{")) {
		return nil // the common case, without walking
	}
	var out map[string]string
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch x := v.(type) {
		case string:
			if syntax.Contains(x) {
				if out == nil {
					out = map[string]string{}
				}
				out[path] = strings.Clone(x)
			}
		case []any:
			for i, it := range x {
				walk(path+"["+strconv.Itoa(i)+"]", it)
			}
		case map[string]any:
			for k, it := range x {
				if path == "" {
					walk(k, it)
				} else {
					walk(path+"."+k, it)
				}
			}
		}
	}
	walk("", doc)
	return out
}

// UnknownAt returns the value written at path + suffix when it holds a
// deploy-time placeholder, and whether it does. It is asked for every
// backendRef's port, of objects nearly all of which hold none: the path is
// joined only for one that does.
func (m *Meta) UnknownAt(path, suffix string) (string, bool) {
	if len(m.Unknown) == 0 {
		return "", false
	}
	v, ok := m.Unknown[path+suffix]
	return v, ok
}

// unknownOnPath reports whether a value holding a placeholder was written
// at path, list indices aside (encoding/json's errors name none).
func (m *Meta) unknownOnPath(path string) bool {
	want := StripIndices(path)
	for k := range m.Unknown {
		if StripIndices(k) == want {
			return true
		}
	}
	return false
}
