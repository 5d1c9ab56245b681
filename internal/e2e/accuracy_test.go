package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
)

// Corpus accuracy: gwlint over the generated corpora (internal/corpus),
// whose generator checks every route with a resolver of its own and lists
// each injected semantic error in EXPECTED_SEMANTIC.txt.
//
//   - The valid corpus must give no error-severity finding.
//   - Every injected semantic error must be reported by some rule at the
//     file and line the generator names.
//   - On the injected corpora, error findings about objects that were not
//     injected are false positives too.
//
// What is not so yet is listed below with the reason, so the test is green
// and the gaps are explicit. An entry that no longer applies fails the
// test: remove it.

// knownFalsePositives are rules whose error findings on the valid corpus
// are accepted for now, with the reason.
var knownFalsePositives = map[string]string{}

// knownMiss is a kind of injected error (see injectedKind) that gwlint
// does not yet report at the generator's line. A miss of that kind is
// tolerated only when rule did report the object elsewhere in the file: an
// error that is not reported at all always fails.
type knownMiss struct {
	rule string
	why  string
}

// Every injected kind is reported at the generator's line today; an entry
// here must say why a kind is not.
var knownMisses = map[string]knownMiss{}

// semanticSeeds are the seeds of the small corpora with -semantic-rate 0.1:
// one small corpus injects about ten errors, eight cover every kind.
var semanticSeeds = []uint64{1, 2, 3, 4, 5, 6, 7, 8}

func TestValidCorpusHasNoErrors(t *testing.T) {
	dir := benchutil.Corpus(t, corpus.Small)
	findings, in := lintCorpus(t, dir)
	if len(in.Objects) == 0 {
		t.Fatal("no objects loaded")
	}
	fpSeen := map[string]int{}
	for _, f := range findings {
		if f.Severity < lint.Error {
			continue
		}
		if _, known := knownFalsePositives[f.Rule]; known {
			fpSeen[f.Rule]++
			continue
		}
		t.Errorf("false positive on the valid corpus: %s: %s [%s]", rel(dir, f.File)+":"+strconv.Itoa(f.Line), f.Message, f.Rule)
	}
	for rule, why := range knownFalsePositives {
		if fpSeen[rule] == 0 {
			t.Errorf("knownFalsePositives[%q] no longer occurs: remove it (%s)", rule, why)
		} else {
			t.Logf("known false positive: %d × %s: %s", fpSeen[rule], rule, why)
		}
	}
}

func TestSemanticErrorsAreReported(t *testing.T) {
	type kindStats struct {
		expected, found int
		rules           map[string]int
		misses          []miss
	}
	stats := map[string]*kindStats{}
	for _, seed := range semanticSeeds {
		opts := corpus.DefaultOptions(corpus.Small)
		opts.Seed, opts.SemanticRate = seed, 0.1
		dir := benchutil.CorpusWith(t, opts)
		expected := readExpected(t, filepath.Join(dir, "EXPECTED_SEMANTIC.txt"))
		findings, in := lintCorpus(t, dir)
		for _, e := range in.Errors {
			t.Errorf("seed %d: read error: %v", seed, e)
		}
		byLine := map[string][]lint.Finding{}
		injected := map[string]bool{}
		for _, f := range findings {
			k := rel(dir, f.File) + ":" + strconv.Itoa(f.Line)
			byLine[k] = append(byLine[k], f)
		}
		for _, e := range expected {
			injected[e.object] = true
			s := stats[e.kind]
			if s == nil {
				s = &kindStats{rules: map[string]int{}}
				stats[e.kind] = s
			}
			s.expected++
			at := e.file + ":" + strconv.Itoa(e.line)
			if fs := byLine[at]; len(fs) > 0 {
				s.found++
				for _, f := range fs {
					s.rules[f.Rule]++
				}
				continue
			}
			s.misses = append(s.misses, miss{
				text:     fmt.Sprintf("seed %d: %s: %s (%s)%s", seed, at, e.reason, e.object, nearby(findings, dir, e)),
				reported: reportedBy(findings, dir, e),
			})
		}
		// Error findings about objects nothing was injected into.
		for _, f := range findings {
			if f.Severity < lint.Error || injected[f.Object] {
				continue
			}
			if _, known := knownFalsePositives[f.Rule]; known {
				continue
			}
			t.Errorf("seed %d: false positive: %s:%d: %s [%s]", seed, rel(dir, f.File), f.Line, f.Message, f.Rule)
		}
	}

	kinds := make([]string, 0, len(stats))
	for k := range stats {
		kinds = append(kinds, k)
	}
	sort.Strings(kinds)
	for _, k := range kinds {
		s := stats[k]
		t.Logf("%-22s %3d/%3d reported at the expected line, by %v", k, s.found, s.expected, s.rules)
		km, known := knownMisses[k]
		for _, m := range s.misses {
			if known && m.reported[km.rule] {
				t.Logf("known miss (%s %s): %s", km.rule, km.why, m.text)
			} else {
				t.Errorf("miss: %s", m.text)
			}
		}
		if known && len(s.misses) == 0 {
			t.Errorf("knownMisses[%q] is reported everywhere now: remove it", k)
		}
	}
	for k := range knownMisses {
		if stats[k] == nil {
			t.Errorf("knownMisses[%q]: no such error was injected", k)
		}
	}
}

// miss is an injected error not reported at its line, and the rules that
// reported its object in its file.
type miss struct {
	text     string
	reported map[string]bool
}

func reportedBy(findings []lint.Finding, dir string, e expectedError) map[string]bool {
	rules := map[string]bool{}
	for _, f := range findings {
		if f.Object == e.object && rel(dir, f.File) == e.file {
			rules[f.Rule] = true
		}
	}
	return rules
}

// lintCorpus runs what `gwlint check --no-config DIR` runs.
func lintCorpus(t *testing.T, dir string) ([]lint.Finding, *resolve.Inputs) {
	t.Helper()
	in := resolve.Load([]string{dir}, nil, checkOptions)
	g := resolve.Resolve(in, checkOptions)
	return runRules(g, in), in
}

// expectedError is one line of EXPECTED_SEMANTIC.txt:
// path, document index, Kind/namespace/name, reason, line.
type expectedError struct {
	file   string
	doc    int
	object string // as lint.Finding.Object: "HTTPRoute ns/name"
	kind   string // see injectedKind
	reason string
	line   int
}

func readExpected(t *testing.T, path string) []expectedError {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []expectedError
	for _, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		f := strings.Split(l, "\t")
		if len(f) != 5 {
			t.Fatalf("%s: malformed line %q", path, l)
		}
		doc, err1 := strconv.Atoi(f[1])
		line, err2 := strconv.Atoi(f[4])
		ref := strings.SplitN(f[2], "/", 3)
		if err1 != nil || err2 != nil || len(ref) != 3 {
			t.Fatalf("%s: malformed line %q", path, l)
		}
		out = append(out, expectedError{
			file: f[0], doc: doc, object: ref[0] + " " + ref[1] + "/" + ref[2],
			kind: injectedKind(f[3]), reason: f[3], line: line,
		})
	}
	return out
}

// injectedKind names the kind of an injected error by its reason text, as
// the generator's semantic injections write it.
func injectedKind(reason string) string {
	for _, k := range []struct{ prefix, kind string }{
		{"parentRef to nonexistent Gateway", "gateway-not-found"},
		{"NoMatchingParent:", "section-not-found"},
		{"NotAllowedByListeners:", "namespace-not-allowed"},
		{"NoMatchingListenerHostname:", "hostname-mismatch"},
		{"RefNotPermitted:", "ref-not-permitted"},
		{"duplicate rule name", "duplicate-rule-name"},
		{"all backendRefs of rule", "all-weights-zero"},
	} {
		if strings.HasPrefix(reason, k.prefix) {
			return k.kind
		}
	}
	if strings.HasPrefix(reason, "BackendNotFound:") {
		if strings.Contains(reason, "has no port") {
			return "backend-port"
		}
		return "backend-not-found"
	}
	return "other"
}

// nearby describes the findings about the expected error's object, to say
// where a missed error was reported instead, if anywhere.
func nearby(findings []lint.Finding, dir string, e expectedError) string {
	var parts []string
	for _, f := range findings {
		if f.Object == e.object && rel(dir, f.File) == e.file {
			parts = append(parts, fmt.Sprintf("line %d [%s]", f.Line, f.Rule))
		}
	}
	if len(parts) == 0 {
		return "; no finding about the object"
	}
	return "; reported instead at " + strings.Join(parts, ", ")
}

func rel(dir, file string) string {
	if r, err := filepath.Rel(dir, file); err == nil {
		return filepath.ToSlash(r)
	}
	return file
}
