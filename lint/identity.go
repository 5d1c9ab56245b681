package lint

import (
	"regexp"
	"strings"
	"sync"
)

// positionInMessage is a file:line[:col] that a message names, and
// lineInMessage a line number ("no such finding on line 43").
var (
	positionInMessage = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`[^\s"'(]*?([^\s"'(/]+\.(?:ya?ml|json)):\d+(?::\d+)?`)
	})
	lineInMessage = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bline \d+\b`) })
)

// messageWithoutLines is a message with the positions it cites reduced to
// their files' base names and its line numbers to "line N": what stays
// when lines merely move.
func messageWithoutLines(msg string) string {
	return lineInMessage().ReplaceAllString(positionInMessage().ReplaceAllString(msg, "$1"), "line N")
}

// Identity is what makes two findings the same across two versions of the
// manifests: rule, object, field path and message, without line numbers
// (in the position or cited in the message), so that lines that merely
// moved make no new finding. gwctl diff and gwlint check --new-from-rev
// compare findings by it.
func (f Finding) Identity() string {
	return f.Rule + "\x00" + f.Object + "\x00" + f.Path + "\x00" + messageWithoutLines(f.Message)
}

// Relabel names the files of f by rel, in its positions and its message:
// a finding read from a copy of the manifests (a git revision written to a
// temporary directory) is shown, and compared, as the user knows them.
func (f Finding) Relabel(rel func(string) string) Finding {
	if f.File != "" {
		shown := rel(f.File)
		f.Message = strings.ReplaceAll(f.Message, f.File, shown)
		f.File = shown
	}
	if f.Related != nil {
		related := make([]Related, len(f.Related))
		for i, r := range f.Related {
			r.File = rel(r.File)
			related[i] = r
		}
		f.Related = related
	}
	return f
}
