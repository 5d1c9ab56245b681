package oracle

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/crd"
)

// document is one Gateway API object of a corpus, validated against the
// CRDs of one release and channel.
type document struct {
	name       string // file, plus #index for multi-document files
	file       string
	index      int
	rel        crd.Release
	ch         crd.Channel
	apiVersion string
	kind       string
	json       []byte
}

// release is one Gateway API release: its module (examples, invalid
// examples, CRDs) and its CRDs compiled the way the API server does.
type release struct {
	rel          crd.Release
	dir          string
	real         map[gvkch]*realVersion
	ruleMessages map[string]bool // of the CEL rules of the served specs
}

var (
	releasesMu sync.Mutex
	releases   = map[crd.Release]*release{}
)

// setupRelease loads a release once.
func setupRelease(t *testing.T, rel crd.Release) *release {
	t.Helper()
	releasesMu.Lock()
	defer releasesMu.Unlock()
	if r := releases[rel]; r != nil {
		return r
	}
	dir, err := gatewayAPIDir(rel)
	if err != nil {
		t.Fatal(err)
	}
	real, msgs, err := loadCRDs(dir)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	r := &release{rel: rel, dir: dir, real: real, ruleMessages: msgs}
	releases[rel] = r
	return r
}

// extractRoot holds, for the test binary's life, the releases the go
// command does not extract (gatewayAPIDir).
var extractRoot string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "gwlint-oracle-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	extractRoot = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// Of the pinned release, for the tests that only it concerns.
var (
	moduleDir string
	realCRDs  map[gvkch]*realVersion
)

func setup(t *testing.T) {
	t.Helper()
	r := setupRelease(t, crd.Pinned)
	moduleDir, realCRDs = r.dir, r.real
}

// eachRelease runs f for every release crd knows, the pinned one first, as
// subtests named by the release. ORACLE_RELEASES=v1.2.0,v1.6.3 runs some.
func eachRelease(t *testing.T, f func(t *testing.T, r *release)) {
	rels := append([]crd.Release{crd.Pinned}, slices.DeleteFunc(crd.Releases(), func(r crd.Release) bool { return r == crd.Pinned })...)
	if names := os.Getenv("ORACLE_RELEASES"); names != "" {
		rels = nil
		for name := range strings.SplitSeq(names, ",") {
			rel, err := crd.ParseRelease(name)
			if err != nil {
				t.Fatal(err)
			}
			rels = append(rels, rel)
		}
	}
	for _, rel := range rels {
		t.Run(rel.String(), func(t *testing.T) { f(t, setupRelease(t, rel)) })
	}
}

// readCorpus returns the Gateway API documents of the YAML files under
// dir that release rel serves. Files under an "experimental" directory use
// that channel.
func readCorpus(t *testing.T, dir string, rel crd.Release) []document {
	t.Helper()
	var docs []document
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		file, _ := filepath.Rel(dir, p)
		ch := crd.Standard
		if strings.Contains(file, "experimental") {
			ch = crd.Experimental
		}
		for i, y := range splitYAML(data) {
			js, err := yaml.YAMLToJSON(y)
			if err != nil {
				return fmt.Errorf("%s#%d: %w", file, i, err)
			}
			var tm struct{ APIVersion, Kind string }
			if json.Unmarshal(js, &tm) != nil {
				continue
			}
			c := ch
			if !crd.Known(tm.APIVersion, tm.Kind, crd.CRDs{Release: rel, Channel: c}) {
				if c = crd.Experimental; !crd.Known(tm.APIVersion, tm.Kind, crd.CRDs{Release: rel, Channel: c}) {
					continue
				}
			}
			docs = append(docs, document{name: fmt.Sprintf("%s#%d", file, i), file: file, index: i, rel: rel, ch: c, apiVersion: tm.APIVersion, kind: tm.Kind, json: js})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// outcome is the comparison of one document.
type outcome struct {
	gw, real map[finding]string
	typeErr  bool
}

func (o outcome) agree() bool {
	if len(o.gw) != len(o.real) {
		return false
	}
	for f := range o.gw {
		if _, ok := o.real[f]; !ok {
			return false
		}
	}
	return true
}

// diff describes the disagreement.
func (o outcome) diff() string {
	var b strings.Builder
	for _, f := range sortedFindings(o.gw) {
		if _, ok := o.real[f]; !ok {
			fmt.Fprintf(&b, "\n    only gwlint:     %s %q: %s", f.path, f.typ, o.gw[f])
		}
	}
	for _, f := range sortedFindings(o.real) {
		if _, ok := o.gw[f]; !ok {
			fmt.Fprintf(&b, "\n    only apiserver:  %s %q: %s", f.path, f.typ, o.real[f])
		}
	}
	return b.String()
}

func sortedFindings(m map[finding]string) []finding {
	fs := make([]finding, 0, len(m))
	for f := range m {
		fs = append(fs, f)
	}
	sort.Slice(fs, func(i, j int) bool {
		if fs[i].path != fs[j].path {
			return fs[i].path < fs[j].path
		}
		return fs[i].typ < fs[j].typ
	})
	return fs
}

// run validates a document both ways.
func run(t *testing.T, d document) outcome {
	t.Helper()
	group, version, _ := strings.Cut(d.apiVersion, "/")
	releasesMu.Lock()
	rv := releases[d.rel].real[gvkch{group, version, d.kind, d.ch}]
	releasesMu.Unlock()
	if rv == nil {
		t.Fatalf("%s: crd.Known but no real CRD for %s %s", d.name, d.apiVersion, d.kind)
	}

	var u map[string]any
	if err := utiljson.Unmarshal(d.json, &u); err != nil {
		t.Fatalf("%s: %v", d.name, err)
	}
	real := rv.validate(u)

	dec := json.NewDecoder(bytes.NewReader(d.json))
	dec.UseNumber()
	var obj map[string]any
	if err := dec.Decode(&obj); err != nil {
		t.Fatalf("%s: %v", d.name, err)
	}
	before := string(mustMarshal(t, obj))
	gw := map[finding]string{}
	for _, v := range crd.Validate(d.apiVersion, d.kind, obj, d.crds()) {
		gw[finding{v.Path, v.Type}] = v.Message
	}
	if after := string(mustMarshal(t, obj)); after != before {
		t.Errorf("%s: crd.Validate modified the document", d.name)
	}
	// gwlint itself validates with ValidateOwned, changing the document.
	owned := map[finding]string{}
	for _, v := range crd.ValidateOwned(d.apiVersion, d.kind, obj, d.crds()) {
		owned[finding{v.Path, v.Type}] = v.Message
	}
	if !maps.Equal(owned, gw) {
		t.Errorf("%s: crd.ValidateOwned found %v, crd.Validate %v", d.name, owned, gw)
	}
	return outcome{gw: gw, real: real.findings, typeErr: real.typeErr}
}

func (d document) crds() crd.CRDs { return crd.CRDs{Release: d.rel, Channel: d.ch} }

func mustMarshal(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// stats counts documents and their agreement.
type stats struct {
	docs, agreed, flaggedBoth, cleanBoth int
}

func (s *stats) record(o outcome) {
	s.docs++
	if o.agree() {
		s.agreed++
	}
	switch {
	case len(o.gw) > 0 && len(o.real) > 0:
		s.flaggedBoth++
	case len(o.gw) == 0 && len(o.real) == 0:
		s.cleanBoth++
	}
}

func (s stats) String() string {
	return fmt.Sprintf("%d documents, %d agree on every (path, type), %d flagged by both, %d clean for both", s.docs, s.agreed, s.flaggedBoth, s.cleanBoth)
}

// TestExamples: every example of each release is valid for both, under
// that release's CRDs.
func TestExamples(t *testing.T) {
	eachRelease(t, func(t *testing.T, r *release) {
		var st stats
		for _, d := range readCorpus(t, filepath.Join(r.dir, "examples"), r.rel) {
			o := run(t, d)
			st.record(o)
			if len(o.gw) > 0 || len(o.real) > 0 || !o.agree() {
				t.Errorf("%s (%s): an example must be valid%s", d.name, d.kind, o.diff())
				for f, m := range o.gw {
					t.Logf("    gwlint: %s %s: %s", f.path, f.typ, m)
				}
			}
		}
		t.Log(st)
		if st.docs < 30 {
			t.Errorf("only %d example documents found", st.docs)
		}
	})
}

// TestSeeds: the hand-written seeds of the mutation test are valid under
// the pinned release, or those of a file named for a release
// (v1.7.0.yaml) under that release; under the others, both agree on them.
func TestSeeds(t *testing.T) {
	eachRelease(t, func(t *testing.T, r *release) {
		var st stats
		for _, d := range readCorpus(t, "testdata/seeds", r.rel) {
			o := run(t, d)
			st.record(o)
			validUnder := crd.Pinned
			if rel, err := crd.ParseRelease(strings.TrimSuffix(filepath.Base(d.file), ".yaml")); err == nil {
				validUnder = rel
			}
			if r.rel == validUnder && (len(o.gw) > 0 || len(o.real) > 0) || !o.agree() {
				t.Errorf("%s (%s): a seed must be valid%s", d.name, d.kind, o.diff())
				for _, f := range sortedFindings(o.real) {
					t.Logf("    %s %q: %s", f.path, f.typ, o.real[f])
				}
			}
		}
		t.Log(st)
	})
}

// TestInvalidExamples: both flag every invalid example of each release,
// the same way.
func TestInvalidExamples(t *testing.T) {
	eachRelease(t, func(t *testing.T, r *release) {
		var st stats
		for _, d := range readCorpus(t, filepath.Join(r.dir, "hack/invalid-examples"), r.rel) {
			o := run(t, d)
			st.record(o)
			if len(o.real) == 0 {
				t.Errorf("%s: the API server accepts this invalid example", d.name)
			}
			if len(o.gw) == 0 {
				t.Errorf("%s: gwlint accepts this invalid example", d.name)
			}
			if !o.agree() {
				t.Errorf("%s: disagreement%s", d.name, o.diff())
			}
		}
		t.Log(st)
	})
}

// TestGeneratedCorpus runs the shared corpus generator with injected CRD
// errors: both must agree everywhere under every release, and, under the
// pinned release the generator writes for, flag exactly the injected
// documents.
func TestGeneratedCorpus(t *testing.T) {
	genDir, _ := filepath.Abs("../../../../shared/bench/gen")
	if _, err := os.Stat(filepath.Join(genDir, "main.go")); err != nil {
		t.Skipf("corpus generator not found at %s", genDir)
	}
	out := t.TempDir()
	cmd := exec.Command("go", "run", ".", "-size", "small", "-invalid-rate", "0.1", "-out", out)
	cmd.Dir = genDir
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("generator: %v\n%s", err, msg)
	}
	expected := map[string]string{} // file#index -> reason
	f, err := os.Open(filepath.Join(out, "EXPECTED_INVALID.txt"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for sc := bufio.NewScanner(f); sc.Scan(); {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 4 {
			continue
		}
		i, _ := strconv.Atoi(cols[1])
		expected[fmt.Sprintf("%s#%d", cols[0], i)] = cols[3]
	}
	eachRelease(t, func(t *testing.T, r *release) {
		var st stats
		seen := 0
		for _, d := range readCorpus(t, out, r.rel) {
			o := run(t, d)
			st.record(o)
			if !o.agree() {
				t.Errorf("%s: disagreement%s", d.name, o.diff())
			}
			if r.rel != crd.Pinned {
				continue
			}
			if reason, ok := expected[d.name]; ok {
				seen++
				if len(o.gw) == 0 || len(o.real) == 0 {
					t.Errorf("%s: injected %q, flagged by gwlint: %t, by the API server: %t", d.name, reason, len(o.gw) > 0, len(o.real) > 0)
				}
			} else if len(o.gw) > 0 || len(o.real) > 0 {
				t.Errorf("%s: not injected but flagged%s", d.name, o.diff())
			}
		}
		if r.rel == crd.Pinned && seen != len(expected) {
			t.Errorf("found %d of the %d injected documents", seen, len(expected))
		}
		t.Log(st)
	})
}
