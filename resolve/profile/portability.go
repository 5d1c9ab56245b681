package profile

import "sigs.k8s.io/gateway-api/pkg/features"

// Verdict is how one implementation's default profile meets a set of
// features.
type Verdict struct {
	Profile *Profile
	// Unsupported are the features its report does not claim; Unknown those
	// of conformance profiles it did not run. Both keep the order of the
	// features asked about.
	Unsupported, Unknown []features.FeatureName
}

// SupportsAll reports whether the implementation supports every feature
// asked about.
func (v Verdict) SupportsAll() bool { return len(v.Unsupported) == 0 && len(v.Unknown) == 0 }

// Portability judges fs against every implementation's default profile,
// in the order of Defaults.
func Portability(fs []features.FeatureName) []Verdict {
	var out []Verdict
	for _, p := range Defaults() {
		v := Verdict{Profile: p}
		for _, f := range fs {
			switch p.Support(f) {
			case Unsupported:
				v.Unsupported = append(v.Unsupported, f)
			case Unknown:
				v.Unknown = append(v.Unknown, f)
			}
		}
		out = append(out, v)
	}
	return out
}
