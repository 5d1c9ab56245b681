package cli

import (
	"fmt"
	"runtime"
	"runtime/debug"

	"github.com/spf13/cobra"
)

// BuildInfo is what a binary knows of its own build. Release builds set
// Version, Commit and Date with -ldflags (-X main.version=... in each
// command's main); `go install module/cmd/gwlint@version` sets none, and
// the Go toolchain's build information fills them in.
type BuildInfo struct {
	Version, Commit, Date string
}

// Resolve fills what the linker flags left empty from the build
// information the Go toolchain embeds: the module version of a `go install`,
// and the VCS revision and time of a build from a checkout.
func (b BuildInfo) Resolve() BuildInfo {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return b.orUnknown()
	}
	if (b.Version == "" || b.Version == "dev") && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = info.Main.Version
	}
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision" && b.Commit == "":
			b.Commit = s.Value
		case s.Key == "vcs.time" && b.Date == "":
			b.Date = s.Value
		case s.Key == "vcs.modified" && s.Value == "true" && b.Commit != "":
			b.Commit += "-dirty"
		}
	}
	return b.orUnknown()
}

func (b BuildInfo) orUnknown() BuildInfo {
	for _, f := range []*string{&b.Version, &b.Commit, &b.Date} {
		if *f == "" {
			*f = "unknown"
		}
	}
	return b
}

// String is the one line `--version` and `version` print.
func (b BuildInfo) String() string {
	return fmt.Sprintf("%s (commit %s, built %s, %s)", b.Version, b.Commit, b.Date, runtime.Version())
}

// newVersionCmd is the `version` subcommand, which prints what --version
// prints.
func newVersionCmd(name string, info BuildInfo) *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "Print the version, commit and build date",
		Example: "  " + name + " version",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			_, err := fmt.Fprintf(cmd.OutOrStdout(), "%s %s\n", name, info)
			return OutputError(ExitUsage, err)
		},
	}
}
