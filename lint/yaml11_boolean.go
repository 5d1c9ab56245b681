package lint

var yaml11Boolean = &Rule{
	ID: "yaml11-boolean", Severity: Error,
	Summary: "unquoted on/off/yes/no: kubectl sends a boolean",
	Doc: Doc{
		Text: `kubectl parses manifests as YAML 1.1, where the plain scalars on, off, yes, no,
y and n (any case variant) are booleans; gwlint, like YAML 1.2, reads them as
strings. A header value, label or hostname written that way reaches the API
server as true or false and is rejected (or, in a free-form map, silently
changes type).

Fix: quote the value.`,
		Example: `headers:
- name: x-feature
  value: on      # before: the boolean true
  value: "on"    # after`,
	},
	Run: func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			m := obj.Metadata()
			for _, path := range m.Positions.YAML11Booleans() {
				p.ReportValue(m, path, nil, "%s is an unquoted YAML 1.1 boolean: kubectl sends true/false, not the string gwlint reads; quote it", path)
			}
		}
	},
}
