package resolve

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
)

// KeyValues are an object's labels or annotations, sorted by key, each key
// once (Lookup and Has search them so: a KeyValues made otherwise is
// wrong). Objects only read theirs, by key or through a label selector
// (KeyValues is a labels.Labels), so a sorted slice serves where a map of
// two labels cost about 300 bytes: most objects of a repository have
// labels.
type KeyValues []KeyValue

// A label selector matches KeyValues as it matches a map.
var _ labels.Labels = KeyValues(nil)

// KeyValue is one label or annotation.
type KeyValue struct{ Key, Value string }

// keyValuesOf returns m's pairs sorted by key, nil for an empty m.
func keyValuesOf(m map[string]string) KeyValues {
	if len(m) == 0 {
		return nil
	}
	out := make(KeyValues, 0, len(m))
	for k, v := range m {
		out = append(out, KeyValue{k, v})
	}
	slices.SortFunc(out, func(a, b KeyValue) int { return strings.Compare(a.Key, b.Key) })
	return out
}

// Lookup returns the value of key and whether there is one.
func (kv KeyValues) Lookup(key string) (string, bool) {
	i, found := slices.BinarySearchFunc(kv, key, func(p KeyValue, key string) int { return strings.Compare(p.Key, key) })
	if !found {
		return "", false
	}
	return kv[i].Value, true
}

// Get returns the value of key, "" for none.
func (kv KeyValues) Get(key string) string {
	v, _ := kv.Lookup(key)
	return v
}

// Has reports whether there is a value for key.
func (kv KeyValues) Has(key string) bool {
	_, ok := kv.Lookup(key)
	return ok
}

// with returns a copy of kv in which key has value.
func (kv KeyValues) with(key, value string) KeyValues {
	i, found := slices.BinarySearchFunc(kv, key, func(p KeyValue, key string) int { return strings.Compare(p.Key, key) })
	out := slices.Clone(kv)
	if found {
		out[i].Value = value
		return out
	}
	return slices.Insert(out, i, KeyValue{key, value})
}
