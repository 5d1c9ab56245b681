// Package cases loads testdata/cases.yaml, the table of crd.Validate cases
// shared by package crd's tests and the oracle module, which checks them
// against the API server's own validation.
package cases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// Case is one document to validate and the violations wanted.
type Case struct {
	Name  string
	Base  string
	Set   map[string]any
	Unset []string
	Want  []Want
	// Releases are the violations wanted under other releases than the
	// pinned one (which Want is for), by version ("v1.2.0"); an empty
	// list wants none.
	Releases map[string][]Want
	// NotServed lists releases whose CRDs do not serve the document's kind
	// and version.
	NotServed []string

	Channel string // "standard" or "experimental", from the base
	Doc     []byte // the resulting document, JSON
}

// Want is one wanted violation: Path and Type exactly, Message a substring.
type Want struct {
	Path, Type, Message string
}

type file struct {
	Bases map[string]map[string]any
	Cases []Case
}

// Load reads a cases file and builds each case's document.
func Load(path string) ([]Case, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	js, err := yaml.YAMLToJSON(data)
	if err != nil {
		return nil, err
	}
	var f file
	dec := json.NewDecoder(bytes.NewReader(js))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for i := range f.Cases {
		c := &f.Cases[i]
		base, ok := f.Bases[c.Base]
		if !ok {
			return nil, fmt.Errorf("%s: case %q: no base %q", path, c.Name, c.Base)
		}
		doc := DeepCopy(base).(map[string]any)
		c.Channel = "standard"
		if ch, ok := doc["channel"].(string); ok {
			c.Channel = ch
			delete(doc, "channel")
		}
		for _, p := range c.Unset {
			if err := edit(doc, p, nil, true); err != nil {
				return nil, fmt.Errorf("%s: case %q: unset %s: %w", path, c.Name, p, err)
			}
		}
		// Parents first.
		paths := make([]string, 0, len(c.Set))
		for p := range c.Set {
			paths = append(paths, p)
		}
		sort.Slice(paths, func(i, j int) bool { return len(paths[i]) < len(paths[j]) })
		for _, p := range paths {
			if err := edit(doc, p, literal(DeepCopy(c.Set[p])), false); err != nil {
				return nil, fmt.Errorf("%s: case %q: set %s: %w", path, c.Name, p, err)
			}
		}
		if c.Doc, err = json.Marshal(doc); err != nil {
			return nil, err
		}
	}
	return f.Cases, nil
}

// literal turns "json:<number>" strings into JSON numbers.
func literal(v any) any {
	switch x := v.(type) {
	case string:
		if n, ok := strings.CutPrefix(x, "json:"); ok {
			return json.Number(n)
		}
	case map[string]any:
		for k, c := range x {
			x[k] = literal(c)
		}
	case []any:
		for i, c := range x {
			x[i] = literal(c)
		}
	}
	return v
}

// edit sets (or, with unset, removes) the value at path, a field.Path
// without map keys, creating objects on the way.
func edit(doc map[string]any, path string, v any, unset bool) error {
	var cur any = doc
	segs := strings.Split(path, ".")
	for i, seg := range segs {
		name, idx := seg, -1
		if j := strings.IndexByte(seg, '['); j >= 0 {
			n, err := strconv.Atoi(strings.TrimSuffix(seg[j+1:], "]"))
			if err != nil {
				return err
			}
			name, idx = seg[:j], n
		}
		m, ok := cur.(map[string]any)
		if !ok {
			return fmt.Errorf("%s is not an object", seg)
		}
		last := i == len(segs)-1
		if idx < 0 {
			switch {
			case last && unset:
				delete(m, name)
			case last:
				m[name] = v
			default:
				if _, ok := m[name]; !ok {
					m[name] = map[string]any{}
				}
				cur = m[name]
			}
			continue
		}
		l, ok := m[name].([]any)
		if !ok || idx >= len(l) {
			return fmt.Errorf("%s: no item %d", name, idx)
		}
		switch {
		case last && unset:
			m[name] = append(l[:idx:idx], l[idx+1:]...)
		case last:
			l[idx] = v
		default:
			cur = l[idx]
		}
	}
	return nil
}

// DeepCopy copies a decoded JSON value (maps, lists and scalars).
func DeepCopy(v any) any {
	switch x := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, c := range x {
			m[k] = DeepCopy(c)
		}
		return m
	case []any:
		l := make([]any, len(x))
		for i, c := range x {
			l[i] = DeepCopy(c)
		}
		return l
	}
	return v
}
