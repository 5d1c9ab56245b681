package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/pflag"
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
