package cli

import (
	"io"
	"os"

	"github.com/mattn/go-isatty"
)

// IOStreams are a command's standard streams and the facts about the
// terminal that colour depends on. main fills them from the process; tests
// pass buffers, so no command ever probes the real terminal.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer
	// OutIsTTY reports whether Out is a terminal.
	OutIsTTY bool
	// NoColor reports whether NO_COLOR is set to a non-empty value.
	NoColor bool
}

// System returns the process's streams: stdin, stdout and stderr, whether
// stdout is a terminal, and whether NO_COLOR is set.
func System() *IOStreams {
	fd := os.Stdout.Fd()
	return &IOStreams{
		In: os.Stdin, Out: os.Stdout, ErrOut: os.Stderr,
		OutIsTTY: isatty.IsTerminal(fd) || isatty.IsCygwinTerminal(fd),
		NoColor:  os.Getenv("NO_COLOR") != "",
	}
}
