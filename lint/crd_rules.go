package lint

import "github.com/gwlint/gwlint/resolve/crd"

// reportViolations reports what the pinned CRDs reject, for every
// violation that match selects.
func reportViolations(match func(crd.Violation) bool) func(*Pass) {
	return func(p *Pass) {
		for _, obj := range p.Graph.Objects {
			m := obj.Metadata()
			for _, v := range m.Violations {
				if !match(v) || v.StandardOnly {
					continue // experimental-channel-only reports a StandardOnly one
				}
				if v.Message == portlessServiceMessage {
					continue // backend-service-no-port reports it, with GEP-718's reason
				}
				p.Report(m, v.Path, nil, "%s: %s", v.Path, v.Message)
			}
		}
	}
}

// schemaViolation selects every violation but an unknown field.
func schemaViolation(v crd.Violation) bool { return v.Type != crd.TypeUnknownField }

// unknownFieldViolation selects unknown fields, except the legacy fields
// that legacy-backend-fields says how to migrate.
func unknownFieldViolation(v crd.Violation) bool {
	return v.Type == crd.TypeUnknownField && !isLegacyField(v.Path)
}

// portlessServiceMessage is the CEL message backend-service-no-port
// reports in its own words.
const portlessServiceMessage = "Invalid value: Must have port for Service reference"

func isLegacyField(path string) bool {
	_, legacy := legacyFields[blankIndices(path)]
	return legacy
}

var crdValidation = &Rule{
	ID: "crd-validation", Severity: Error, ReportsViolations: true,
	Summary: "the API server would reject this value (CRD schema or CEL)",
	Doc: Doc{
		Text: `Every check of the pinned Gateway API CRDs (--channel standard or experimental):
types, enums, patterns, lengths, ranges, required fields, list uniqueness and
every x-kubernetes-validations (CEL) rule, after the API server's defaulting;
and, for core Services, port and numeric targetPort numbers outside 1-65535.
kubectl apply fails with the same message.

Fix: as the message says. For example, "Must have port for Service reference":`,
		Example: `backendRefs:
- name: store        # before: kind defaults to Service, which needs a port
- name: store        # after
  port: 8080`,
	},
	Run: reportViolations(schemaViolation),
}

var unknownField = &Rule{
	ID: "unknown-field", Severity: Error, ReportsViolations: true,
	Summary: "field is not in the CRD schema (a typo?)",
	Doc: Doc{
		Text: `A field the CRD schema does not declare is rejected by kubectl's strict field
validation, or silently dropped by the API server — either way it has no
effect. Usually a typo (weigth, backendRef) or a field of another channel
(use --channel experimental for experimental fields). When the misspelt
field's absence also breaks a required field or a CEL rule of its object,
the finding names the field that was meant, and crd-validation does not
report the same mistake again.

Fix:`,
		Example: `- name: store
  weigth: 10      # before
  weight: 10      # after`,
	},
	Run: reportViolations(unknownFieldViolation),
}
