package manifest

import (
	"bytes"
	"strings"
)

// IgnoreDirective is a `# gwlint:ignore rule-id[,rule-id] reason` comment.
// The reader keeps them (comments are otherwise lost on the way to JSON) so
// that lint can suppress findings on the line they name.
type IgnoreDirective struct {
	Line int // where the comment is
	Col  int // the column of its '#'
	// Target is the line it applies to: its own line for a trailing
	// comment, else the next line that is neither blank nor a comment.
	Target int
	Rules  []string
	Reason string
}

const ignoreMarker = "gwlint:ignore"

// IgnoreDirectives finds the ignore directives of one file's text. Most files
// have none, and a single bytes.Contains keeps those free.
func IgnoreDirectives(data []byte) []IgnoreDirective {
	if !bytes.Contains(data, []byte(ignoreMarker)) {
		return nil
	}
	lines := strings.Split(string(data), "\n")
	var out []IgnoreDirective
	for i, line := range lines {
		hash := strings.Index(line, "#")
		if hash < 0 {
			continue
		}
		comment := strings.TrimSpace(line[hash+1:])
		rest, ok := strings.CutPrefix(comment, ignoreMarker)
		if !ok {
			continue
		}
		fields := strings.Fields(rest)
		d := IgnoreDirective{Line: i + 1, Col: hash + 1, Target: i + 1}
		if len(fields) > 0 {
			for _, id := range strings.Split(fields[0], ",") {
				if id != "" {
					d.Rules = append(d.Rules, id)
				}
			}
			d.Reason = strings.Join(fields[1:], " ")
		}
		if strings.TrimSpace(line[:hash]) == "" {
			d.Target = nextContentLine(lines, i+1)
		}
		out = append(out, d)
	}
	return out
}

func nextContentLine(lines []string, from int) int {
	for j := from; j < len(lines); j++ {
		t := strings.TrimSpace(lines[j])
		if t != "" && !strings.HasPrefix(t, "#") {
			return j + 1
		}
	}
	return 0
}
