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
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"

	utiljson "k8s.io/apimachinery/pkg/util/json"
	"sigs.k8s.io/yaml"

	"github.com/gwlint/gwlint/resolve/crd"
)

// document is one Gateway API object of a corpus.
type document struct {
	name       string // file, plus #index for multi-document files
	file       string
	index      int
	ch         crd.Channel
	apiVersion string
	kind       string
	json       []byte
}

var (
	setupOnce sync.Once
	moduleDir string
	realCRDs  map[gvkch]*realVersion
	setupErr  error
)

func setup(t *testing.T) {
	t.Helper()
	setupOnce.Do(func() {
		if moduleDir, setupErr = gatewayAPIDir(); setupErr == nil {
			realCRDs, setupErr = loadCRDs(moduleDir)
		}
	})
	if setupErr != nil {
		t.Fatal(setupErr)
	}
}

// readCorpus returns the Gateway API documents of the YAML files under
// dir. Files under an "experimental" directory use that channel.
func readCorpus(t *testing.T, dir string) []document {
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
		rel, _ := filepath.Rel(dir, p)
		ch := crd.Standard
		if strings.Contains(rel, "experimental") {
			ch = crd.Experimental
		}
		for i, y := range splitYAML(data) {
			js, err := yaml.YAMLToJSON(y)
			if err != nil {
				return fmt.Errorf("%s#%d: %w", rel, i, err)
			}
			var tm struct{ APIVersion, Kind string }
			if json.Unmarshal(js, &tm) != nil {
				continue
			}
			c := ch
			if !crd.Known(tm.APIVersion, tm.Kind, c) {
				if c = crd.Experimental; !crd.Known(tm.APIVersion, tm.Kind, c) {
					continue
				}
			}
			docs = append(docs, document{name: fmt.Sprintf("%s#%d", rel, i), file: rel, index: i, ch: c, apiVersion: tm.APIVersion, kind: tm.Kind, json: js})
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
	rv := realCRDs[gvkch{group, version, d.kind, d.ch}]
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
	for _, v := range crd.Validate(d.apiVersion, d.kind, obj, d.ch) {
		gw[finding{v.Path, v.Type}] = v.Message
	}
	if after := string(mustMarshal(t, obj)); after != before {
		t.Errorf("%s: crd.Validate modified the document", d.name)
	}
	// gwlint itself validates with ValidateOwned, changing the document.
	owned := map[finding]string{}
	for _, v := range crd.ValidateOwned(d.apiVersion, d.kind, obj, d.ch) {
		owned[finding{v.Path, v.Type}] = v.Message
	}
	if !maps.Equal(owned, gw) {
		t.Errorf("%s: crd.ValidateOwned found %v, crd.Validate %v", d.name, owned, gw)
	}
	return outcome{gw: gw, real: real.findings, typeErr: real.typeErr}
}

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

// TestExamples: every example of the pinned module is valid for both.
func TestExamples(t *testing.T) {
	setup(t)
	var st stats
	for _, d := range readCorpus(t, filepath.Join(moduleDir, "examples")) {
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
	if st.docs < 50 {
		t.Errorf("only %d example documents found", st.docs)
	}
}

// TestSeeds: the hand-written seeds of the mutation test are valid.
func TestSeeds(t *testing.T) {
	setup(t)
	var st stats
	for _, d := range readCorpus(t, "testdata/seeds") {
		o := run(t, d)
		st.record(o)
		if len(o.gw) > 0 || len(o.real) > 0 || !o.agree() {
			t.Errorf("%s (%s): a seed must be valid%s", d.name, d.kind, o.diff())
			for _, f := range sortedFindings(o.real) {
				t.Logf("    %s %q: %s", f.path, f.typ, o.real[f])
			}
		}
	}
	t.Log(st)
}

// TestInvalidExamples: both flag every invalid example, the same way.
func TestInvalidExamples(t *testing.T) {
	setup(t)
	var st stats
	for _, d := range readCorpus(t, filepath.Join(moduleDir, "hack/invalid-examples")) {
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
}

// TestGeneratedCorpus runs the shared corpus generator with injected CRD
// errors: both must agree everywhere and flag every injected document.
func TestGeneratedCorpus(t *testing.T) {
	setup(t)
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

	var st stats
	seen := 0
	for _, d := range readCorpus(t, out) {
		o := run(t, d)
		st.record(o)
		if !o.agree() {
			t.Errorf("%s: disagreement%s", d.name, o.diff())
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
	if seen != len(expected) {
		t.Errorf("found %d of the %d injected documents", seen, len(expected))
	}
	t.Logf("%s; %d injected errors, all flagged by both", st, len(expected))
}
