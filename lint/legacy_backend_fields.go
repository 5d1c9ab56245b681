package lint

import (
	"strings"
)

// legacyFields maps a pre-v1alpha2 field, by its path with list indices
// blanked, to how GEP-718 replaced it.
var legacyFields = map[string]string{
	"spec.rules[].forwardTo":                 "rules[].forwardTo became rules[].backendRefs",
	"spec.rules[].forwardTo[].serviceName":   "forwardTo[].serviceName became backendRefs[].name (kind defaults to Service)",
	"spec.rules[].backendRefs[].serviceName": "serviceName became name (kind defaults to Service)",
	"spec.rules[].backendRefs[].backendRef":  "the nested backendRef became the backendRefs entry itself: move its name, namespace, kind and port up one level",
	"spec.rules[].forwardTo[].backendRef":    "the nested backendRef became the backendRefs entry itself: move its name, namespace, kind and port up one level",
}

var legacyBackendFields = &Rule{
	ID: "legacy-backend-fields", Severity: Error,
	Summary: "route uses pre-GEP-718 fields (forwardTo, serviceName)",
	Doc: Doc{
		Text: `GEP-718 replaced v1alpha1's forwardTo/serviceName (and the nested backendRef)
with backendRefs: a list of references whose kind defaults to Service, which
then need a port, and whose weight defaults to 1. The API server rejects or
drops the old fields as unknown, so such a rule has no backends.

Fix:`,
		Example: `rules:
- forwardTo:            # before
  - serviceName: store
    port: 8080
- backendRefs:          # after
  - name: store
    port: 8080`,
	},
	Run: func(p *Pass) {
		for _, r := range p.Graph.Routes {
			// Only the paths of such keys are built: nearly every route
			// has none.
			for _, path := range r.Positions.KeyPaths("forwardTo", "serviceName", "backendRef") {
				if !strings.HasPrefix(path, "spec.rules[") {
					continue
				}
				if hint, legacy := legacyFields[blankIndices(path)]; legacy {
					field := path[strings.LastIndexByte(path, '.')+1:]
					p.Report(&r.Meta, path, nil, "%s is not a field of %s %s: %s (GEP-718)", field, r.APIVersion, r.Kind(), hint)
				}
			}
		}
	},
}

// blankIndices turns "spec.rules[0].backendRefs[12]" into "spec.rules[].backendRefs[]".
func blankIndices(path string) string {
	var b strings.Builder
	inIndex := false
	for _, c := range path {
		switch {
		case c == '[':
			inIndex = true
			b.WriteRune(c)
		case c == ']':
			inIndex = false
			b.WriteRune(c)
		case !inIndex || c < '0' || c > '9':
			b.WriteRune(c)
		}
	}
	return b.String()
}
