package manifest

import (
	"bytes"

	"go.yaml.in/yaml/v3"
)

// CheckAliases returns an error at the first alias of data's YAML
// documents that makes them expand past what Read allows in any file (a
// budget linear in the file's size), or nests them deeper than Read reads:
// for YAML that another library reads, expanding every alias, such as the
// files a kustomization or a Helm chart holds. nil when there is none,
// and when data is not YAML (its reader says so).
func CheckAliases(file string, data []byte) *ReadError {
	if !bytes.Contains(data, []byte("*")) && !bytes.Contains(data, []byte("<<")) {
		return nil // no alias, no merge key: nothing expands
	}
	budget := minAliasBudget + len(data)
	sizes := map[*yaml.Node]int{} // expanded sizes of the nodes measured
	var size func(n *yaml.Node, depth int) (int, *yaml.Node)
	size = func(n *yaml.Node, depth int) (int, *yaml.Node) {
		if depth > maxDepth {
			return budget + 1, n
		}
		if s, ok := sizes[n]; ok {
			return s, nil
		}
		sizes[n] = budget + 1 // an alias of a node being measured: a cycle
		total := 1
		if n.Kind == yaml.AliasNode && n.Alias != nil {
			s, at := size(n.Alias, depth+1)
			if at != nil {
				return s, at
			}
			total += s
		}
		for _, c := range n.Content {
			s, at := size(c, depth+1)
			if at != nil {
				return s, at
			}
			if total += s; total > budget {
				return total, c
			}
		}
		sizes[n] = total
		return total, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for spent := 0; ; {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			return nil // the end, or not YAML: its reader reports it
		}
		s, at := size(&doc, 0)
		if spent += s; at == nil && spent > budget {
			at = &doc
		}
		if at != nil {
			return &ReadError{File: file, Pos: nodePos(at), Msg: aliasBudgetExceeded}
		}
	}
}
