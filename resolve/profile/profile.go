package profile

import (
	"fmt"
	"maps"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"

	"sigs.k8s.io/gateway-api/pkg/features"
)

// Support says whether a profile supports a feature.
type Support int

const (
	// Unknown: the implementation's report did not run the conformance
	// profile that tests the feature. It is not held against it.
	Unknown Support = iota
	Supported
	// Unsupported: the report ran the feature's conformance profile and
	// does not claim it, or --without-features removed it.
	Unsupported
)

// report is one conformance report of the generated table.
type report struct {
	name, organization, project        string
	version, mode, channel, apiVersion string
	file                               string
	profiles, supported, unsupported   []string
}

// Profile is what one implementation, in one version and mode, supports.
// Profiles are values shared by everything that reads them: never changed
// once built (Without returns a copy).
type Profile struct {
	// Name is the implementation's name ("istio"); empty for Everything.
	Name string
	// Version and Mode are the implementation version and mode of its
	// conformance report; APIVersion the Gateway API version it reported
	// against, Channel the release channel.
	Version, Mode, Channel, APIVersion string
	// Report is the report's file, relative to the conformance module's
	// reports/ directory.
	Report string
	// Implementation holds the hand-kept facts the reports do not carry.
	Implementation Implementation
	// BasedOn, for a hand-kept release (Implementation.Releases), is the
	// reported profile it extends; Report is that profile's report.
	BasedOn string

	everything bool
	supported  map[features.FeatureName]bool
	covered    map[features.FeatureName]bool
	without    []features.FeatureName
}

// Everything is the imaginary controller that supports every feature and
// nothing implementation-specific: what a Gateway of an unknown
// implementation is judged by.
var Everything = &Profile{everything: true}

// Support says whether p supports feature f.
func (p *Profile) Support(f features.FeatureName) Support {
	switch {
	case slices.Contains(p.without, f):
		return Unsupported
	case p.everything || p.supported[f]:
		return Supported
	case p.covered[f]:
		return Unsupported
	}
	return Unknown
}

// Lacks reports whether p does not support feature f: its report ran the
// feature's conformance profile and does not claim it, or --without-features
// removed it. A feature p's report did not test (Unknown) is not lacked.
func (p *Profile) Lacks(f features.FeatureName) bool { return p.Support(f) == Unsupported }

// Without returns a copy of p that lacks the features fs.
func (p *Profile) Without(fs []features.FeatureName) *Profile {
	if len(fs) == 0 {
		return p
	}
	cp := *p
	cp.without = append(slices.Clone(p.without), fs...)
	slices.Sort(cp.without)
	cp.without = slices.Compact(cp.without)
	return &cp
}

// ID names the profile as --implementation takes it: NAME@VERSION, with
// /MODE when the mode is not the default one; "" for Everything.
func (p *Profile) ID() string {
	if p.everything {
		return ""
	}
	id := p.Name
	if p.Version != "" {
		id += "@" + p.Version
	}
	if p.Mode != "" && p.Mode != defaultMode {
		id += "/" + p.Mode
	}
	return id
}

// String names the profile for messages: "istio@1.28", "every feature",
// with the removed features.
func (p *Profile) String() string {
	s := p.ID()
	if p.everything {
		s = "every feature"
	}
	if len(p.without) > 0 {
		w := make([]string, len(p.without))
		for i, f := range p.without {
			w[i] = string(f)
		}
		s += " without " + strings.Join(w, ", ")
	}
	return s
}

// AcceptsBackendKind reports whether the implementation accepts backendRefs
// of an implementation-specific kind (Envoy Gateway's Backend).
func (p *Profile) AcceptsBackendKind(group, kind string) bool {
	return slices.Contains(p.Implementation.BackendKinds, GroupKind{Group: group, Kind: kind})
}

// AcceptsPolicyTargetKind reports whether a BackendTLSPolicy may target an
// implementation-specific kind (Envoy Gateway's Backend).
func (p *Profile) AcceptsPolicyTargetKind(group, kind string) bool {
	return slices.Contains(p.Implementation.PolicyTargetKinds, GroupKind{Group: group, Kind: kind})
}

// AcceptsParametersKind reports whether the implementation takes a
// Gateway's spec.infrastructure.parametersRef of that kind.
func (p *Profile) AcceptsParametersKind(group, kind string) bool {
	return slices.Contains(p.Implementation.ParametersKinds, GroupKind{Group: group, Kind: kind})
}

// Installs reports whether the implementation creates the GatewayClass
// named class itself.
func (p *Profile) Installs(class string) bool { return p.Implementation.installs(class) }

func (impl Implementation) installs(class string) bool {
	for _, pattern := range impl.Classes {
		if ok, _ := path.Match(pattern, class); ok {
			return true
		}
	}
	return false
}

// defaultMode is the mode conformance reports give an implementation's
// ordinary configuration.
const defaultMode = "default"

// catalogue holds the profiles of one implementation, built from the two
// tables the first time one of them is asked for: a run asks for one or
// two implementations, and building all of them costs as much as the rest
// of a one-file check's resolving.
type catalogue struct {
	// profiles are the implementation's profiles, oldest first; the last
	// is the newest version.
	profiles []*Profile
	// defaultProfile is its newest version, as no mode is named.
	defaultProfile *Profile
	// versions holds, by VERSION, the profile of each version when no mode
	// is named (versionProfile).
	versions map[string]*Profile
}

// implementationNames lists every implementation with a profile (a report or hand-kept
// facts), sorted.
var implementationNames = sync.OnceValue(func() []string {
	var out []string
	for _, r := range reports {
		out = append(out, r.name)
	}
	for _, impl := range implementations {
		out = append(out, impl.Name)
	}
	slices.Sort(out)
	return slices.Compact(out)
})

// catalogues holds, by implementation name, the function that builds its
// catalogue once.
var catalogues = sync.OnceValue(func() map[string]func() *catalogue {
	out := make(map[string]func() *catalogue, len(implementationNames()))
	for _, name := range implementationNames() {
		out[name] = sync.OnceValue(func() *catalogue { return build(name) })
	}
	return out
})

// load returns the catalogue of the implementation named name, nil when
// there is none.
func load(name string) *catalogue {
	if build, ok := catalogues()[name]; ok {
		return build()
	}
	return nil
}

// defaultOf returns the default profile of the implementation named name.
func defaultOf(name string) *Profile { return load(name).defaultProfile }

// build builds the catalogue of the implementation named name: a profile
// for each of its reports, one for each of its hand-kept releases, and one
// for each version when no mode is named.
func build(name string) *catalogue {
	c := &catalogue{versions: map[string]*Profile{}}
	impl := implementationNamed(name)
	for _, r := range reports {
		if r.name != name {
			continue
		}
		p := &Profile{
			Name: r.name, Version: r.version, Mode: r.mode, Channel: r.channel, APIVersion: r.apiVersion, Report: r.file,
			Implementation: impl,
			supported:      map[features.FeatureName]bool{}, covered: map[features.FeatureName]bool{},
		}
		fileVersion := parseMinor(r.file)
		for _, name := range r.profiles {
			covered, core := coveredBy(name)
			for _, f := range covered {
				if tested(f, fileVersion) {
					p.covered[f] = true
				}
			}
			for _, f := range core {
				p.covered[f], p.supported[f] = true, true
			}
		}
		for _, f := range r.supported {
			p.supported[current(features.FeatureName(f))] = true
		}
		c.profiles = append(c.profiles, p)
	}
	c.addVersions()
	if len(c.profiles) == 0 {
		c.profiles = append(c.profiles, &Profile{Name: name, Implementation: impl})
	}
	for _, rel := range impl.Releases {
		c.profiles = append(c.profiles, c.release(rel))
	}
	c.addVersions()
	c.defaultProfile = c.versions[c.profiles[len(c.profiles)-1].Version]
	return c
}

// tested reports whether the conformance suite tested feature f when the
// report in file ran: a feature added to a conformance profile after it
// (testedSince) is Unknown to the report, not Unsupported.
func tested(f features.FeatureName, file minorVersion) bool {
	since, ok := testedFrom()[f]
	return ok && !file.older(since)
}

// testedFrom is testedSince by current feature name: the oldest version
// whose conformance tests cover each feature, under any of its names.
// Built once, as every report asks it about every feature it covers.
var testedFrom = sync.OnceValue(func() map[features.FeatureName]minorVersion {
	out := make(map[features.FeatureName]minorVersion, len(testedSince))
	for name, since := range testedSince {
		f, v := current(features.FeatureName(name)), parseMinor(since)
		if old, ok := out[f]; !ok || v.older(old) {
			out[f] = v
		}
	}
	return out
})

// minorVersion is a Gateway API minor version, v1.4 of "v1.4" or of a
// report's file "v1.4.0/istio-istio/...".
type minorVersion struct{ major, minor int }

// parseMinor reads the minor version s starts with ("v1.4", "v1.4.0/...");
// what it cannot read is v0.0.
func parseMinor(s string) minorVersion {
	s, _, _ = strings.Cut(strings.TrimPrefix(s, "v"), "/")
	major, rest, _ := strings.Cut(s, ".")
	minor, _, _ := strings.Cut(rest, ".")
	var v minorVersion
	v.major, _ = strconv.Atoi(major)
	v.minor, _ = strconv.Atoi(minor)
	return v
}

func (v minorVersion) older(than minorVersion) bool {
	return v.major < than.major || v.major == than.major && v.minor < than.minor
}

// release builds the profile of a hand-kept release: the newest reported
// profile of the implementation (as no mode is named), with the release's
// features added.
func (c *catalogue) release(rel Release) *Profile {
	base := c.versions[c.profiles[len(c.profiles)-1].Version]
	p := *base
	p.Version, p.Mode, p.BasedOn = rel.Version, defaultMode, base.ID()
	p.supported = maps.Clone(base.supported)
	for _, f := range rel.Adds {
		p.supported[f] = true
	}
	return &p
}

// addVersions adds the profile of every version that has none yet (see
// catalogue.versions).
func (c *catalogue) addVersions() {
	for _, p := range c.profiles {
		if c.versions[p.Version] == nil {
			c.versions[p.Version] = versionProfile(c.profiles, p.Version)
		}
	}
}

// versionProfile is the profile of version v among ps when no mode is
// named: its default mode's (else the first mode's by name), supporting
// also what its other modes support. Modes differ in how an implementation
// deploys, not in what it implements: Envoy Gateway's default mode runs
// its proxies in its own namespace, where the GatewayInfrastructure test
// does not look for them, and only its gateway namespace mode passes it.
func versionProfile(ps []*Profile, v string) *Profile {
	var base *Profile
	var modes []*Profile
	for _, p := range ps {
		if p.Version != v {
			continue
		}
		modes = append(modes, p)
		if base == nil || isDefaultMode(p.Mode) && !isDefaultMode(base.Mode) {
			base = p
		}
	}
	if len(modes) == 1 {
		return base
	}
	merged := *base
	merged.supported, merged.covered = maps.Clone(base.supported), maps.Clone(base.covered)
	for _, p := range modes {
		maps.Copy(merged.supported, p.supported)
		maps.Copy(merged.covered, p.covered)
	}
	return &merged
}

func isDefaultMode(mode string) bool { return mode == defaultMode || mode == "" }

func current(f features.FeatureName) features.FeatureName {
	if n, ok := formerFeatureNames[f]; ok {
		return n
	}
	return f
}

// Names lists every implementation with a profile, sorted.
func Names() []string { return implementationNames() }

// Defaults returns each implementation's default profile, sorted by name.
func Defaults() []*Profile {
	out := make([]*Profile, len(implementationNames()))
	for i, n := range implementationNames() {
		out[i] = defaultOf(n)
	}
	return out
}

// Lookup finds the profile an --implementation value names: NAME (its
// newest version), NAME@VERSION (a leading v optional) or
// NAME@VERSION/MODE.
func Lookup(selector string) (*Profile, error) {
	name, ver, _ := strings.Cut(selector, "@")
	c := load(name)
	if c == nil {
		return nil, fmt.Errorf("unknown implementation %q (known: %s)", name, strings.Join(implementationNames(), ", "))
	}
	if ver == "" {
		return c.defaultProfile, nil
	}
	ver, mode, withMode := strings.Cut(ver, "/")
	var versions []string
	for _, p := range c.profiles {
		if strings.TrimPrefix(p.Version, "v") == strings.TrimPrefix(ver, "v") {
			if !withMode {
				return c.versions[p.Version], nil
			}
			if p.Mode == mode {
				return p, nil
			}
		}
		versions = append(versions, p.ID())
	}
	return nil, fmt.Errorf("implementation %s has no profile %q (known: %s)", name, selector, strings.Join(versions, ", "))
}

// forController returns the default profile of the implementation whose
// GatewayClass controllerName is controller, or nil.
func forController(controller string) *Profile {
	for _, impl := range implementations {
		if slices.Contains(impl.ControllerNames, controller) {
			return defaultOf(impl.Name)
		}
	}
	return nil
}

// forClass returns the default profile of the implementation that
// installs the GatewayClass named class itself, or nil.
func forClass(class string) *Profile {
	for _, impl := range implementations {
		if impl.installs(class) {
			return defaultOf(impl.Name)
		}
	}
	return nil
}

// Known reports whether p is a real implementation's profile, not
// Everything: only then does it say what is implementation-specific.
func (p *Profile) Known() bool { return !p.everything }

// namingClass returns the default profiles of the implementations that
// install a GatewayClass named class or whose documentation names theirs
// so (Implementation.ClassNames), sorted by name.
func namingClass(class string) []*Profile {
	var out []*Profile
	for _, impl := range implementations {
		if impl.installs(class) || slices.ContainsFunc(impl.ClassNames, func(pattern string) bool {
			ok, _ := path.Match(pattern, class)
			return ok
		}) {
			out = append(out, defaultOf(impl.Name))
		}
	}
	return out
}

// owningGroup returns the default profile of the one implementation whose
// API group group is: by its objects alone (Implementation.Groups), or,
// with refs, also as the group of a kind it takes by reference (a
// backendRef, policy target or parameters kind). Nil when none
// or several are (InferencePool's group is many implementations'), and for
// the core group and the API's own groups (*k8s.io).
func owningGroup(group string, refs bool) *Profile {
	if group == "" || strings.HasSuffix(group, "k8s.io") {
		return nil
	}
	var owner *Implementation
	for i := range implementations {
		impl := &implementations[i]
		owns := slices.Contains(impl.Groups, group)
		if refs {
			for _, kinds := range [][]GroupKind{impl.BackendKinds, impl.PolicyTargetKinds, impl.ParametersKinds} {
				owns = owns || slices.ContainsFunc(kinds, func(gk GroupKind) bool { return gk.Group == group })
			}
		}
		if !owns {
			continue
		}
		if owner != nil {
			return nil
		}
		owner = impl
	}
	if owner == nil {
		return nil
	}
	return defaultOf(owner.Name)
}

// owningChart returns the default profile of the implementation that
// publishes the Helm chart named chart (Implementation.Charts), or nil.
func owningChart(chart string) *Profile {
	for _, impl := range implementations {
		if slices.Contains(impl.Charts, chart) {
			return defaultOf(impl.Name)
		}
	}
	return nil
}

// Supporting names the implementations whose default profile supports f.
func Supporting(f features.FeatureName) []string {
	var out []string
	for _, p := range Defaults() {
		if p.Support(f) == Supported {
			out = append(out, p.Name)
		}
	}
	return out
}

// ParseFeatures reads feature names (--without-features), refusing names
// pkg/features does not define.
func ParseFeatures(names []string) ([]features.FeatureName, error) {
	var out []features.FeatureName
	for _, n := range names {
		f := features.FeatureName(strings.TrimSpace(n))
		if f == "" {
			continue
		}
		if features.GetFeature(f).Name != f {
			return nil, fmt.Errorf("unknown feature %q (see sigs.k8s.io/gateway-api/pkg/features)", n)
		}
		out = append(out, f)
	}
	return out, nil
}
