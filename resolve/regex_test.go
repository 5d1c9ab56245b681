package resolve

import (
	"regexp"
	"strings"
	"testing"
)

// TestRegexProblemIsCompile checks that parsing a match value finds what
// compiling it would: the same values refused, with the same messages,
// the first time and once remembered.
func TestRegexProblemIsCompile(t *testing.T) {
	for _, value := range []string{
		`/items/[0-9]+`, `^/api/v[12]/.*$`, `(?i)foo|bar`, `(?P<id>[a-z]+)`, `\d{1,1000}`,
		`/items/[0-9`, `(unclosed`, `a)`, `*a`, `a**`, `\8`, `a{1001}`, `(?P<>x)`, `(?<a>x)(?<a>y)`,
		`x{2}{3}{4}{5}{6}{7}{8}`, `((a{1000}){1000}){1000}`, strings.Repeat("((", 600) + strings.Repeat("))", 600),
		"\xff", `[z-a]`, `\pX`, `(?z)`, `a++`, `(?=x)`,
	} {
		got := regexProblem(value, func() string { return "p" })
		if again := regexProblem(value, func() string { return "p" }); (again == nil) != (got == nil) {
			t.Errorf("%q: a second check (remembered) says %v, the first %v", value, again, got)
		}
		_, err := regexp.Compile(value)
		switch {
		case err == nil && got != nil:
			t.Errorf("%q compiles, but: %s", value, got[0].Message)
		case err != nil && got == nil:
			t.Errorf("%q does not compile (%v), but no problem was found", value, err)
		case err != nil && !strings.HasSuffix(got[0].Message, strings.TrimPrefix(err.Error(), "error parsing regexp: ")):
			t.Errorf("%q: %s; compiling says %v", value, got[0].Message, err)
		}
	}
}
