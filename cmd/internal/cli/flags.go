package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
	"sigs.k8s.io/gateway-api/pkg/features"

	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/profile"
)

// OneOf checks a flag value against its allowed values.
func OneOf(flag, value string, allowed ...string) error {
	for _, a := range allowed {
		if value == a {
			return nil
		}
	}
	return fmt.Errorf("invalid value %q for --%s: must be one of %s", value, flag, strings.Join(allowed, ", "))
}

// AddStrictRefsFlag adds --strict-refs, which sets resolve.Options.StrictRefs.
func AddStrictRefsFlag(fs *pflag.FlagSet, strict *bool) {
	fs.BoolVar(strict, "strict-refs", false,
		"treat every referenced object outside the inputs as missing instead of external")
}

// AddGatewayAPIVersionFlag adds --gateway-api-version, which sets
// resolve.Options.Release.
func AddGatewayAPIVersionFlag(fs *pflag.FlagSet, version *string) {
	fs.StringVar(version, "gateway-api-version", "",
		"Gateway API release whose CRDs the cluster runs, vX.Y.Z or vX.Y for its newest patch (default: the release of the Gateway API CRDs among the inputs, else "+crd.Pinned.String()+"; see gwlint releases)")
}

// Release reads --gateway-api-version or the configuration's
// gatewayAPIVersion; "" is the default release.
func Release(version string) (crd.Release, error) {
	if version == "" {
		return crd.Pinned, nil
	}
	r, err := crd.ParseRelease(version)
	if err != nil {
		return crd.Pinned, fmt.Errorf("--gateway-api-version: %w", err)
	}
	return r, nil
}

// Implementation holds --implementation and --without-features, the
// selection of the implementation profile that judges the inputs (the same
// in both commands).
type Implementation struct {
	Name            string
	WithoutFeatures []string
}

// AddImplementationFlags adds --implementation and --without-features.
func AddImplementationFlags(fs *pflag.FlagSet, impl *Implementation) {
	fs.StringVar(&impl.Name, "implementation", "",
		"judge every Gateway by this implementation's profile, NAME[@VERSION]; by default the one its GatewayClass names (see docs/implementations.md)")
	fs.StringSliceVar(&impl.WithoutFeatures, "without-features", nil,
		"features (as sigs.k8s.io/gateway-api/pkg/features names them) the implementation lacks, comma-separated")
}

// Profile looks the selection up: the chosen profile (nil when none was
// named) and the features to remove.
func (impl Implementation) Profile() (*profile.Profile, []features.FeatureName, error) {
	without, err := profile.ParseFeatures(impl.WithoutFeatures)
	if err != nil {
		return nil, nil, fmt.Errorf("--without-features: %w", err)
	}
	if impl.Name == "" {
		return nil, without, nil
	}
	p, err := profile.Lookup(impl.Name)
	if err != nil {
		return nil, nil, fmt.Errorf("--implementation: %w", err)
	}
	return p, without, nil
}

// CheckPaths refuses an empty path among the inputs: it names no file, and
// is usually an unset shell variable ("gwlint check $DIR").
func CheckPaths(paths []string) error {
	for _, p := range paths {
		if p == "" {
			return fmt.Errorf(`an empty path names no file or directory (use "." for the current directory)`)
		}
	}
	return nil
}
