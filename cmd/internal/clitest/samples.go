package clitest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// Sample output in the documentation is kept true by marking it with the
// command that prints it, in an HTML comment on the line before its fenced
// block:
//
//	<!-- sample: gwlint check -o json (in cmd/gwlint/testdata/repo) -->
//
// The command runs in the directory given, relative to the root of the
// repository (the root itself when none is), and what it prints on stdout
// must match the block: line by line, except that a line "..." (indented
// or not) stands for any number of lines left out, so a sample may show an
// excerpt. A block
// that opens with the prompt "$ command" shows that command, which must be
// the marked one. Output that only a test can produce (a diff between git
// revisions of a repository the test builds) names the golden file that
// test keeps, relative to the repository's root:
//
//	<!-- sample-golden: cmd/gwctl/testdata/golden/diff-git.golden -->
//
// Output that nothing reproduces (measurements) is marked instead
//
//	<!-- sample-exempt: why -->
//
// and CheckSampleMarks makes sure no sample goes unmarked.

// DocFiles are the documents whose samples are kept true: the README and
// docs/*.md, as paths relative to the root of the repository.
func DocFiles(t testing.TB, root string) []string {
	t.Helper()
	docs, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	files := []string{"README.md"}
	for _, d := range docs {
		files = append(files, filepath.ToSlash(strings.TrimPrefix(d, root+string(filepath.Separator))))
	}
	return files
}

// Sample is a fenced block of a document and its mark.
type Sample struct {
	// File and Line say where the block opens.
	File string
	Line int
	// Lang is the block's info string ("json", "console", "").
	Lang string
	// Text is the block's content, without its fences.
	Text string
	// Command is the marked command line, Dir the directory it runs in
	// (relative to the repository's root, "" for the root).
	Command, Dir string
	// Golden is the golden file a sample-golden mark names.
	Golden string
	// Exempt is the reason given by a sample-exempt mark.
	Exempt string
	// Marked is set when the block has either mark.
	Marked bool
}

func (s *Sample) String() string { return fmt.Sprintf("%s:%d", s.File, s.Line) }

var (
	fence      = regexp.MustCompile("^```(\\S*)\\s*$")
	sampleMark = regexp.MustCompile(`^<!-- sample: (.+?)(?: \(in (\S+)\))? -->$`)
	goldenMark = regexp.MustCompile(`^<!-- sample-golden: (\S+) -->$`)
	exemptMark = regexp.MustCompile(`^<!-- sample-exempt: (.+) -->$`)
)

// ReadSamples returns every fenced block of the files (relative to root)
// with its mark. A mark that no block follows is an error.
func ReadSamples(t testing.TB, root string, files []string) []*Sample {
	t.Helper()
	var out []*Sample
	for _, file := range files {
		raw, err := os.ReadFile(filepath.Join(root, file))
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(string(raw), "\n")
		var mark *Sample // a mark waiting for its block
		for i := 0; i < len(lines); i++ {
			line := strings.TrimRight(lines[i], " ")
			if m := sampleMark.FindStringSubmatch(line); m != nil {
				mark = &Sample{Command: m[1], Dir: m[2], Marked: true}
				continue
			}
			if m := goldenMark.FindStringSubmatch(line); m != nil {
				mark = &Sample{Golden: m[1], Marked: true}
				continue
			}
			if m := exemptMark.FindStringSubmatch(line); m != nil {
				mark = &Sample{Exempt: m[1], Marked: true}
				continue
			}
			m := fence.FindStringSubmatch(line)
			if m == nil {
				if mark != nil && line != "" {
					t.Errorf("%s:%d: a sample mark must come just before its fenced block", file, i+1)
					mark = nil
				}
				continue
			}
			s := &Sample{}
			if mark != nil {
				s = mark
			}
			s.File, s.Line, s.Lang = file, i+1, m[1]
			end := i + 1
			for end < len(lines) && strings.TrimSpace(lines[end]) != "```" {
				end++
			}
			s.Text = strings.Join(lines[i+1:end], "\n")
			out = append(out, s)
			mark, i = nil, end
		}
		if mark != nil {
			t.Errorf("%s: a sample mark at the end is followed by no fenced block", file)
		}
	}
	return out
}

// outputLangs are the info strings under which documents show output;
// blocks tagged otherwise (sh, yaml, groovy) show input: commands and
// files to write.
var outputLangs = map[string]bool{"": true, "text": true, "console": true, "json": true, "xml": true}

// prompt is a console prompt running one of the commands.
var prompt = regexp.MustCompile(`(?m)^\$ (gwlint|gwctl)\b`)

// CheckSampleMarks checks that every block that shows output is marked:
// those under an output info string (none, text, console, json, xml) and
// any that holds a "$ gwlint" or "$ gwctl" prompt. Marked commands must
// run gwlint or gwctl, and exemptions give a reason.
func CheckSampleMarks(t testing.TB, samples []*Sample) {
	t.Helper()
	for _, s := range samples {
		switch {
		case !s.Marked && (outputLangs[s.Lang] || prompt.MatchString(s.Text)):
			t.Errorf("%s: this block shows output; mark it <!-- sample: COMMAND (in DIR) -->, <!-- sample-golden: FILE --> or <!-- sample-exempt: REASON -->", s)
		case s.Command != "" && !regexp.MustCompile(`^(gwlint|gwctl) `).MatchString(s.Command):
			t.Errorf("%s: sample command %q runs neither gwlint nor gwctl", s, s.Command)
		case s.Golden != "" && !regexp.MustCompile(`^cmd/(gwlint|gwctl)/testdata/golden/[^/]+\.golden$`).MatchString(s.Golden):
			t.Errorf("%s: %s is not a golden file of gwlint's or gwctl's tests", s, s.Golden)
		}
	}
}

// CheckSamples runs the command of every sample of tool (gwlint or gwctl)
// in process, with newRoot, from its directory, and compares its stdout
// with the sample, failing with a diff; a sample that names a golden file
// of the tool's tests (under cmd/TOOL/) is compared with that file. It
// changes the working directory, so it must not run in parallel with
// other tests.
func CheckSamples(t *testing.T, root string, samples []*Sample, tool string, newRoot NewRootFunc) {
	t.Helper()
	ran := 0
	for _, s := range samples {
		if strings.HasPrefix(s.Golden, "cmd/"+tool+"/") {
			ran++
			t.Run(s.String(), func(t *testing.T) {
				golden, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(s.Golden)))
				if err != nil {
					t.Fatal(err)
				}
				if err := MatchSample(s.Text, string(golden)); err != nil {
					t.Errorf("the sample is not %s: %v", s.Golden, err)
				}
			})
			continue
		}
		args := strings.Fields(s.Command)
		if len(args) == 0 || args[0] != tool {
			continue
		}
		ran++
		t.Run(s.String(), func(t *testing.T) {
			if strings.ContainsAny(s.Command, `'"|<>;&$`) {
				t.Fatalf("sample command %q: only plain words, no quoting, pipes or redirections", s.Command)
			}
			text := s.Text
			if m := regexp.MustCompile(`^\$ (.*)\n`).FindStringSubmatch(text); m != nil {
				if m[1] != s.Command {
					t.Errorf("the block shows the command %q, the mark runs %q", m[1], s.Command)
				}
				text = strings.TrimPrefix(text, m[0])
			}
			t.Chdir(filepath.Join(root, filepath.FromSlash(s.Dir)))
			stdout, _, _ := Run(newRoot, "", args[1:]...)
			if err := MatchSample(text, stdout); err != nil {
				where := "the repository's root"
				if s.Dir != "" {
					where = s.Dir
				}
				t.Errorf("the sample does not show what `%s` prints in %s: %v", s.Command, where, err)
			}
		})
	}
	if ran == 0 {
		t.Errorf("no sample runs %s", tool)
	}
}

// MatchSample reports how sample, a command's output in which a line
// "..." stands for any number of lines, differs from output. Trailing
// spaces do not count: editors strip them from documents.
func MatchSample(sample, output string) error {
	want := splitLines(sample)
	got := splitLines(output)
	var segments [][]string
	segments = append(segments, nil)
	for _, l := range want {
		if strings.TrimSpace(l) == "..." {
			segments = append(segments, nil)
			continue
		}
		segments[len(segments)-1] = append(segments[len(segments)-1], l)
	}
	pos := 0
	for i, seg := range segments {
		first, last := i == 0, i == len(segments)-1
		at := -1
		switch {
		case first && last:
			if slices.Equal(got, seg) {
				at = 0
			}
		case first:
			if len(got) >= len(seg) && slices.Equal(got[:len(seg)], seg) {
				at = 0
			}
		case last:
			if start := len(got) - len(seg); start >= pos && slices.Equal(got[start:], seg) {
				at = start
			}
		default:
			for start := pos; start+len(seg) <= len(got); start++ {
				if slices.Equal(got[start:start+len(seg)], seg) {
					at = start
					break
				}
			}
		}
		if at < 0 {
			return fmt.Errorf("no match for the lines\n%s\nafter line %d of the output; the sample against the output:\n%s",
				strings.Join(seg, "\n"), pos, lineDiff(want, got))
		}
		pos = at + len(seg)
	}
	return nil
}

func splitLines(s string) []string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// lineDiff renders the longest common subsequence of a and b as a diff:
// "-" for lines only in a, "+" only in b.
func lineDiff(a, b []string) string {
	n, m := len(a), len(b)
	lcs := make([][]int, n+1)
	for i := range lcs {
		lcs[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < n || j < m {
		switch {
		case i < n && j < m && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case j < m && (i == n || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+ " + b[j] + "\n")
			j++
		default:
			out.WriteString("- " + a[i] + "\n")
			i++
		}
	}
	return out.String()
}
