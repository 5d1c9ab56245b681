package main

import (
	"cmp"
	"encoding/xml"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
)

// JUnit XML, as Jenkins (the junit step), GitLab (artifacts:reports:junit)
// and most CI servers read it. There is no formal standard; this follows
// the common subset that Jenkins documents
// (https://github.com/jenkinsci/junit-plugin, junit-4.xsd):
//
//   - one <testsuite> per file read, named by its path, sorted, so a CI
//     server's test view lists the manifests;
//   - one failing <testcase> per finding at or above --fail-on, named
//     "rule-id: object field-path" (stable when lines move) and classed by
//     the file; a file that could not be read (invalid-manifest) is an
//     <error>, as a test that could not run;
//   - one passing <testcase> named "gwlint" for a file without such
//     findings, so that a clean run still reports tests (Jenkins fails a
//     build whose reports hold none);
//   - findings below --fail-on in the suite's <system-out>, as text.
//
// CI servers show names, messages and text to people, so what comes from
// the inputs is escaped as in text output (cli.Escape). That also keeps
// the document well-formed: XML 1.0 cannot hold most control characters,
// not even as character references, and encoding/xml writes CDATA as is.
//
// No timestamps or durations: the output is deterministic.

type junitTestSuites struct {
	XMLName  xml.Name         `xml:"testsuites"`
	Name     string           `xml:"name,attr"`
	Tests    int              `xml:"tests,attr"`
	Failures int              `xml:"failures,attr"`
	Errors   int              `xml:"errors,attr"`
	Suites   []junitTestSuite `xml:"testsuite"`
}

type junitTestSuite struct {
	Name      string          `xml:"name,attr"`
	Tests     int             `xml:"tests,attr"`
	Failures  int             `xml:"failures,attr"`
	Errors    int             `xml:"errors,attr"`
	Cases     []junitTestCase `xml:"testcase"`
	SystemOut *junitCDATA     `xml:"system-out,omitempty"`
}

// junitCDATA is text kept as CDATA, so that its quotes and line breaks stay
// readable.
type junitCDATA struct {
	Text string `xml:",cdata"`
}

type junitTestCase struct {
	Name      string        `xml:"name,attr"`
	ClassName string        `xml:"classname,attr"`
	Failure   *junitProblem `xml:"failure,omitempty"`
	Error     *junitProblem `xml:"error,omitempty"`
}

// junitProblem is a <failure> or an <error>: message is the finding's
// message, type its rule id, and the text says where and what, as the
// text output does.
type junitProblem struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr"`
	Text    string `xml:",cdata"`
}

// junitPassName names the passing test case of a file without failures.
const junitPassName = "gwlint"

// junitOutput collects the results by file and prints one document in
// Flush, when it knows --fail-on and the files read.
type junitOutput struct {
	w       io.Writer
	results []result
}

func (o *junitOutput) Write(r result) error {
	if r.Suppression == nil {
		o.results = append(o.results, r)
	}
	return nil
}

func (o *junitOutput) Flush(s summary) error {
	suites := map[string]*junitTestSuite{}
	suite := func(file string) *junitTestSuite {
		if suites[file] == nil {
			suites[file] = &junitTestSuite{Name: cli.Escape(file)}
		}
		return suites[file]
	}
	for _, f := range s.FileNames {
		if f == "-" {
			f = "<stdin>"
		}
		suite(f)
	}
	for _, r := range o.results {
		ts := suite(r.File)
		if r.Severity < s.FailOn && r.Rule != lint.InvalidManifest.ID {
			if ts.SystemOut == nil {
				ts.SystemOut = &junitCDATA{}
			}
			ts.SystemOut.Text += junitText(r)
			continue
		}
		problem := &junitProblem{Message: cli.Escape(r.Message), Type: r.Rule, Text: junitText(r)}
		tc := junitTestCase{Name: junitCaseName(r.Finding), ClassName: ts.Name}
		if r.Rule == lint.InvalidManifest.ID {
			tc.Error = problem
			ts.Errors++
		} else {
			tc.Failure = problem
			ts.Failures++
		}
		ts.Cases = append(ts.Cases, tc)
	}
	doc := junitTestSuites{Name: "gwlint"}
	for _, ts := range suites {
		if len(ts.Cases) == 0 {
			ts.Cases = []junitTestCase{{Name: junitPassName, ClassName: ts.Name}}
		}
		ts.Tests = len(ts.Cases)
		doc.Tests += ts.Tests
		doc.Failures += ts.Failures
		doc.Errors += ts.Errors
		doc.Suites = append(doc.Suites, *ts)
	}
	slices.SortFunc(doc.Suites, func(a, b junitTestSuite) int { return cmp.Compare(a.Name, b.Name) })
	if _, err := io.WriteString(o.w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(o.w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(o.w, "\n")
	return err
}

// junitCaseName is "rule-id: object field-path", leaving out what the
// finding lacks: no line, so the name survives edits above it.
func junitCaseName(f lint.Finding) string {
	parts := []string{f.Rule + ":"}
	for _, p := range []string{f.Object, f.Path} {
		if p != "" {
			parts = append(parts, cli.Escape(p))
		}
	}
	if len(parts) == 1 {
		return f.Rule
	}
	return strings.Join(parts, " ")
}

// junitText renders a finding as the text output does, with its related
// locations.
func junitText(r result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s: %s [%s]\n", location(r.Position), r.Severity, cli.Escape(r.Message), r.Rule)
	for _, rel := range r.Related {
		fmt.Fprintf(&b, "    %s: note: %s\n", location(rel.Position), cli.Escape(rel.Message))
	}
	return b.String()
}
