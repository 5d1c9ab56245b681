// Package reportgen turns the Gateway API conformance reports into the
// generated table of package profile (zz_generated_profiles.go). The
// generator (internal/genprofiles, run by go generate) writes it, and
// profile's tests regenerate it in memory to prove it matches the reports.
package reportgen

import (
	"bytes"
	"errors"
	"fmt"
	"go/format"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/util/version"
	"sigs.k8s.io/yaml"
)

// ConformanceModule is the module whose reports/ directory holds the
// reports; it is released with the API and has the same version.
const ConformanceModule = "sigs.k8s.io/gateway-api/conformance"

// ModuleDir locates the conformance module the way resolve's conformance
// tests do: $GWLINT_CONFORMANCE_DIR, or the module cache's copy of the
// release of sigs.k8s.io/gateway-api that go.mod pins. It is not a
// dependency (Makefile: testdata-modules downloads it).
func ModuleDir() (string, error) {
	if dir := os.Getenv("GWLINT_CONFORMANCE_DIR"); dir != "" {
		return dir, nil
	}
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Version}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		return "", fmt.Errorf("go list -m sigs.k8s.io/gateway-api: %w", err)
	}
	v := strings.TrimSpace(string(out))
	cache, err := exec.Command("go", "env", "GOMODCACHE").Output()
	if err != nil {
		return "", fmt.Errorf("go env GOMODCACHE: %w", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(cache)), filepath.FromSlash(ConformanceModule)+"@"+v)
	if _, err := os.Stat(filepath.Join(dir, "reports")); err != nil {
		return "", fmt.Errorf("conformance module %s@%s not available (%w); fetch it with: "+
			"(cd \"$(mktemp -d)\" && go mod download %s@%s)", ConformanceModule, v, err, ConformanceModule, v)
	}
	return dir, nil
}

// Report is what the table keeps of one conformance report.
type Report struct {
	// Name is the implementation's name: its project, lower-cased, blanks
	// as dashes ("envoy-gateway", "istio").
	Name         string
	Organization string
	Project      string
	Version      string // implementation.version
	Mode         string
	Channel      string // gatewayAPIChannel
	APIVersion   string // gatewayAPIVersion
	File         string // relative to the module's reports/ directory
	// Profiles are the conformance profiles the report ran, sorted.
	Profiles []string
	// Supported and Unsupported are the union of the profiles' extended
	// supportedFeatures and unsupportedFeatures, sorted; a feature that one
	// profile supports is not unsupported. Supported also holds the
	// features of the provisional tests the report passed
	// (succeededProvisionalTests, provisionalTestFeatures).
	Supported   []string
	Unsupported []string
}

// rawReport is the part of a ConformanceReport (conformance/apis/v1) read.
type rawReport struct {
	GatewayAPIVersion string `json:"gatewayAPIVersion"`
	GatewayAPIChannel string `json:"gatewayAPIChannel"`
	Mode              string `json:"mode"`
	Implementation    struct {
		Organization string `json:"organization"`
		Project      string `json:"project"`
		Version      string `json:"version"`
	} `json:"implementation"`
	Profiles []struct {
		Name     string `json:"name"`
		Extended *struct {
			SupportedFeatures   []string `json:"supportedFeatures"`
			UnsupportedFeatures []string `json:"unsupportedFeatures"`
		} `json:"extended"`
	} `json:"profiles"`
	SucceededProvisionalTests []string `json:"succeededProvisionalTests"`
}

// provisionalTestFeatures are the features each provisional conformance
// test that a report lists as passed exercises, beyond the core ones of its
// profile (the test's Features in conformance/tests of the release the
// report ran; the test GatewayInfrastructure, now
// GatewayInfrastructureMetadata, exercises the feature under the name the
// reports still list it by). A report may pass a provisional test without claiming its
// feature in supportedFeatures (Envoy Gateway v1.8.0's gateway namespace
// mode and GatewayInfrastructure): the feature works. Read refuses a report
// that lists a test not here, so the table never silently drops one.
var provisionalTestFeatures = map[string][]string{
	"GatewayInfrastructure":                 {"GatewayInfrastructurePropagation"},
	"GatewayOptionalAddressValue":           {"GatewayAddressEmpty"},
	"GRPCRouteNamedRule":                    {"GRPCRouteNamedRouteRule"},
	"HTTPRoute303Redirect":                  {"HTTPRoute303RedirectStatusCode"},
	"HTTPRoute307Redirect":                  {"HTTPRoute307RedirectStatusCode"},
	"HTTPRoute308Redirect":                  {"HTTPRoute308RedirectStatusCode"},
	"HTTPRouteNamedRule":                    {"HTTPRouteNamedRouteRule"},
	"HTTPRouteRequestPercentageMirror":      {"HTTPRouteRequestPercentageMirror"},
	"MeshHTTPRouteNamedRule":                {"MeshHTTPRouteNamedRouteRule"},
	"TLSRouteMixedTerminationSameNamespace": {"TLSRouteModeTerminate", "TLSRouteModeMixed"},
	"TLSRouteTerminateSimpleSameNamespace":  {"TLSRouteModeTerminate"},
	"UDPRoute":                              {"UDPRoute"},
}

// Read reads every report under reportsDir and keeps, per implementation,
// the reports of the newest Gateway API minor version it reported against
// (patch releases add no features), sorted by name, implementation version
// and mode. The version is the report's directory (reports/v1.5/...), where
// upstream files it: a few old reports carry a commit in gatewayAPIVersion.
//
// since maps every feature any report lists (supported, unsupported, or by
// a provisional test it passed) to the oldest Gateway API minor version
// ("v1.2") of a report that lists it: the suite tested it from then on. A
// report lists every extended feature of the profiles it ran, so one it
// does not list was not yet tested when it ran (HTTPRouteRetry, which no
// report of v1.5 lists).
func Read(reportsDir string) (reports []Report, since map[string]string, err error) {
	var all []Report
	err = filepath.WalkDir(reportsDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var raw rawReport
		if err := yaml.Unmarshal(data, &raw); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		rel, _ := filepath.Rel(reportsDir, path)
		r := Report{
			Name:         slug(raw.Implementation.Project),
			Organization: raw.Implementation.Organization,
			Project:      raw.Implementation.Project,
			Version:      raw.Implementation.Version,
			Mode:         raw.Mode,
			Channel:      raw.GatewayAPIChannel,
			APIVersion:   raw.GatewayAPIVersion,
			File:         filepath.ToSlash(rel),
		}
		if r.Name == "" || r.APIVersion == "" {
			return fmt.Errorf("%s: no implementation.project or gatewayAPIVersion", path)
		}
		supported, unsupported := map[string]bool{}, map[string]bool{}
		for _, p := range raw.Profiles {
			r.Profiles = append(r.Profiles, p.Name)
			if p.Extended == nil {
				continue
			}
			for _, f := range p.Extended.SupportedFeatures {
				supported[f] = true
			}
			for _, f := range p.Extended.UnsupportedFeatures {
				unsupported[f] = true
			}
		}
		for _, test := range raw.SucceededProvisionalTests {
			fs, ok := provisionalTestFeatures[test]
			if !ok {
				return fmt.Errorf("%s: provisional test %q: add the features it exercises to provisionalTestFeatures", path, test)
			}
			for _, f := range fs {
				supported[f] = true
			}
		}
		for f := range supported {
			r.Supported = append(r.Supported, f)
			delete(unsupported, f)
		}
		for f := range unsupported {
			r.Unsupported = append(r.Unsupported, f)
		}
		slices.Sort(r.Profiles)
		r.Profiles = slices.Compact(r.Profiles)
		slices.Sort(r.Supported)
		slices.Sort(r.Unsupported)
		all = append(all, r)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if len(all) == 0 {
		return nil, nil, errors.New(reportsDir + ": no reports")
	}
	newest := map[string]*version.Version{}
	oldest := map[string]*version.Version{}
	for _, r := range all {
		v, err := minor(r.File)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: Gateway API version directory: %w", r.File, err)
		}
		if n := newest[r.Name]; n == nil || v.GreaterThan(n) {
			newest[r.Name] = v
		}
		for _, f := range slices.Concat(r.Supported, r.Unsupported) {
			if o := oldest[f]; o == nil || v.LessThan(o) {
				oldest[f] = v
			}
		}
	}
	since = map[string]string{}
	for f, v := range oldest {
		since[f] = fmt.Sprintf("v%d.%d", v.Major(), v.Minor())
	}
	out := slices.DeleteFunc(all, func(r Report) bool {
		v, _ := minor(r.File)
		return !v.EqualTo(newest[r.Name])
	})
	slices.SortFunc(out, func(a, b Report) int {
		if c := strings.Compare(a.Name, b.Name); c != 0 {
			return c
		}
		if c := CompareVersions(a.Version, b.Version); c != 0 {
			return c
		}
		if c := strings.Compare(a.Mode, b.Mode); c != 0 {
			return c
		}
		return strings.Compare(a.File, b.File)
	})
	return out, since, nil
}

// minor is the major.minor of the Gateway API version directory a report
// is filed in ("v1.5.1/..." → 1.5).
func minor(file string) (*version.Version, error) {
	dir, _, _ := strings.Cut(file, "/")
	parsed, err := version.ParseGeneric(dir)
	if err != nil {
		return nil, err
	}
	return version.MajorMinor(parsed.Major(), parsed.Minor()), nil
}

// CompareVersions orders implementation versions as semantic versions
// where they are ("v1.19.0-pre.2" < "v1.19.0"; "1.28" is 1.28.0), and as
// text otherwise ("main", "latest" sort before any number).
func CompareVersions(a, b string) int {
	va, errA := parseVersion(a)
	vb, errB := parseVersion(b)
	switch {
	case errA == nil && errB == nil:
		switch {
		case va.LessThan(vb):
			return -1
		case va.GreaterThan(vb):
			return 1
		}
		return strings.Compare(a, b)
	case errA == nil:
		return 1
	case errB == nil:
		return -1
	}
	return strings.Compare(a, b)
}

var leadingNonDigits = regexp.MustCompile(`^[^0-9]*`)

func parseVersion(s string) (*version.Version, error) {
	s = leadingNonDigits.ReplaceAllString(s, "") // "v1.2", "enterprise-2.18", "version-2.18"
	if v, err := version.ParseSemantic(s); err == nil {
		return v, nil
	}
	v, err := version.ParseGeneric(s)
	if err != nil {
		return nil, err
	}
	// ParseGeneric drops what follows the numbers; keep a pre-release
	// ("2.1.0-main") below its release.
	if i := strings.IndexByte(s, '-'); i >= 0 {
		return version.ParseSemantic(fmt.Sprintf("%d.%d.%d%s", v.Major(), v.Minor(), v.Patch(), s[i:]))
	}
	return v, nil
}

var nonName = regexp.MustCompile(`[^a-z0-9.]+`)

// slug names an implementation by its project: lower case, runs of other
// characters as one dash ("Application Gateway for Containers" →
// "application-gateway-for-containers").
func slug(project string) string {
	return strings.Trim(nonName.ReplaceAllString(strings.ToLower(project), "-"), "-")
}

// Render writes the generated Go file of package profile: the reports and
// since (Read).
func Render(reports []Report, since map[string]string, moduleVersion string) ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, "// Code generated by internal/genprofiles from the conformance reports of %s@%s. DO NOT EDIT.\n\n", ConformanceModule, moduleVersion)
	b.WriteString("package profile\n\n")
	b.WriteString("// reports are the conformance reports of the newest Gateway API minor version\n")
	b.WriteString("// each implementation reported against, sorted by name, version and mode.\n")
	b.WriteString("var reports = []report{\n")
	list := func(s []string) string {
		if len(s) == 0 {
			return "nil"
		}
		q := make([]string, len(s))
		for i, v := range s {
			q[i] = fmt.Sprintf("%q", v)
		}
		return "[]string{" + strings.Join(q, ", ") + "}"
	}
	for _, r := range reports {
		fmt.Fprintf(&b, "\t{\n\t\tname: %q, organization: %q, project: %q,\n", r.Name, r.Organization, r.Project)
		fmt.Fprintf(&b, "\t\tversion: %q, mode: %q, channel: %q, apiVersion: %q,\n", r.Version, r.Mode, r.Channel, r.APIVersion)
		fmt.Fprintf(&b, "\t\tfile: %q,\n", r.File)
		fmt.Fprintf(&b, "\t\tprofiles: %s,\n", list(r.Profiles))
		fmt.Fprintf(&b, "\t\tsupported: %s,\n", list(r.Supported))
		fmt.Fprintf(&b, "\t\tunsupported: %s,\n\t},\n", list(r.Unsupported))
	}
	b.WriteString("}\n\n")
	b.WriteString("// testedSince maps each feature a report lists to the oldest Gateway API\n")
	b.WriteString("// minor version of a report that lists it: the suite tests it from then on.\n")
	b.WriteString("var testedSince = map[string]string{\n")
	for _, f := range slices.Sorted(maps.Keys(since)) {
		fmt.Fprintf(&b, "\t%q: %q,\n", f, since[f])
	}
	b.WriteString("}\n")
	return format.Source(b.Bytes())
}

// Generate reads the reports of the conformance module at moduleDir and
// renders the table.
func Generate(moduleDir string) ([]byte, error) {
	reports, since, err := Read(filepath.Join(moduleDir, "reports"))
	if err != nil {
		return nil, err
	}
	_, v, _ := strings.Cut(filepath.Base(moduleDir), "@")
	return Render(reports, since, v)
}
