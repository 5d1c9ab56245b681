package cli

import (
	"github.com/fatih/color"
	"github.com/spf13/pflag"
)

// Colour modes of --color.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// AddColorFlag adds --color, which takes one of the colour modes and
// defaults to auto.
func AddColorFlag(fs *pflag.FlagSet, mode *string) {
	fs.StringVar(mode, "color", ColorAuto, "colour text output: auto (on a terminal, unless NO_COLOR is set), always or never")
}

// CheckColor checks the value of --color.
func CheckColor(mode string) error {
	return OneOf("color", mode, ColorAuto, ColorAlways, ColorNever)
}

// ColorEnabled decides colour once per run: always, never, or auto, which
// colours only a terminal and honours NO_COLOR (https://no-color.org).
func ColorEnabled(mode string, streams *IOStreams) bool {
	switch mode {
	case ColorAlways:
		return true
	case ColorNever:
		return false
	}
	return streams.OutIsTTY && !streams.NoColor
}

// NewColor returns a colour with the given attributes, enabled or disabled
// on its own, so that the package-global color.NoColor is never touched
// and concurrent runs (tests) cannot affect each other.
func NewColor(enabled bool, attrs ...color.Attribute) *color.Color {
	c := color.New(attrs...)
	if enabled {
		c.EnableColor()
	} else {
		c.DisableColor()
	}
	return c
}
