package manifest

import (
	"bytes"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/gwlint/gwlint/internal/corpus"
)

// The fast parser must give exactly yaml.v3's trees, or give up.

// decodeV3 is what parseFile does without the fast path: the documents
// yaml.v3 decodes, and its error if any.
func decodeV3(data []byte) ([]*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var docs []*yaml.Node
	for {
		var n yaml.Node
		if err := dec.Decode(&n); err != nil {
			if err == io.EOF {
				return docs, nil
			}
			return docs, err
		}
		docs = append(docs, &n)
	}
}

// equalNodes says where a and b differ in anything but comments, or "".
func equalNodes(a, b *yaml.Node, path string) string {
	if a.Kind != b.Kind || a.Style != b.Style || a.Tag != b.Tag || a.Value != b.Value || a.Anchor != b.Anchor ||
		a.Line != b.Line || a.Column != b.Column || len(a.Content) != len(b.Content) || (a.Alias == nil) != (b.Alias == nil) {
		return fmt.Sprintf("%s: fast {K%d S%d %s %q &%s @%d:%d len%d} yaml.v3 {K%d S%d %s %q &%s @%d:%d len%d}", path,
			a.Kind, a.Style, a.Tag, a.Value, a.Anchor, a.Line, a.Column, len(a.Content),
			b.Kind, b.Style, b.Tag, b.Value, b.Anchor, b.Line, b.Column, len(b.Content))
	}
	for i := range a.Content {
		if d := equalNodes(a.Content[i], b.Content[i], fmt.Sprintf("%s/%d", path, i)); d != "" {
			return d
		}
	}
	return ""
}

// differential checks the fast parser against yaml.v3 on data and reports
// whether the fast path took it.
func differential(t testing.TB, p *fastParser, data []byte) bool {
	t.Helper()
	fast, ok := fastParse(p, data)
	if p.bug != nil {
		t.Fatalf("fast parser panicked: %v\n%s", p.bug, data)
	}
	if !ok {
		return false
	}
	want, err := decodeV3(data)
	if err != nil {
		t.Fatalf("fast path accepted what yaml.v3 rejects (%v):\n%s", err, data)
	}
	if len(fast) != len(want) {
		t.Fatalf("fast path read %d documents, yaml.v3 %d:\n%s", len(fast), len(want), data)
	}
	for i := range fast {
		if d := equalNodes(fast[i], want[i], fmt.Sprintf("doc%d", i)); d != "" {
			t.Fatalf("%s\n%s", d, data)
		}
	}
	return true
}

// fastParse is how parsePiece asks the fast parser to read a whole file.
func fastParse(p *fastParser, data []byte) ([]*yaml.Node, bool) {
	if fast, _ := scanText(data); !fast {
		return nil, false
	}
	return p.parse(data, 1)
}

var fastCases = []struct {
	name string
	in   string
	fast bool // whether the fast path must take it
}{
	{"empty", "", true},
	{"comments only: no document", "# a\n\n  # b\n", true},
	{"lone separator: an empty document, null at the stream end", "---\n", true},
	{"separator without newline", "---", true},
	{"two separators: the first null sits on the second", "---\n---\n", true},
	{"trailing separator makes an empty document", "a: 1\n---\n", true},
	{"comment after separator moves the null", "a: 1\n--- # c\n# x\n", true},
	{"leading separator", "---\napiVersion: v1\nkind: Service\n", true},
	{"indented root", "\n\n  a: 1\n  b: 2\n", true},
	{"empty values: null right after the colon", "a:\nb:   # c\n\nc: 2", true},
	{"empty sequence items", "- \n- a\n-", true},
	{"indentless sequence", "k:\n- a\n-\nj: 1\n", true},
	{"nested sequences and compact mappings", "- - a\n  - b\n- k: v\n  l: w\n-   x: 1\n    y:\n    - z\n", true},
	{"item on the next line", "- # c\n  a\n-\n  k: v\n", true},
	{"plain scalar tags", "a: 0x1F\nb: 0o17\nc: 017\nd: 1_000\ne: +1\nf: .5\ng: 1e3\nh: -0\ni: 2001-12-14\nj: .inf\nk: 1.\nl: 0b11\nm: 10s\nn: 1.2.3.4\no: <<\np: ~\nq: 09\nr: 1e\ns: +.5\nt: -.inf\nu: 0x\nv: 1__0\nw: yes\nx: NULL\ny: 2001-12-14T21:59:43.10-05:00\nz: 1e400\naa: -0b101\nab: 0o9\nac: 18446744073709551615\nad: 99999999999999999999\nae: True\naf: 1.5e+3\nag: -.5\nah: 2001-13-14\n", true},
	{"quoted scalars", "a: 'it''s'\nb: \"\\x41\\u00e9\\t\\U0001F600\\\\\\\"\"\nc: \"x  \" # c\nd: ''\ne: \"<<\"\n\"f\": 1\n'g' : 2\n", true},
	{"plain scalars with indicators inside", "a: b#c\nd: e:f\ng: h - i\nj: k, [l]\nm: -1\n-n: o\n", true},
	{"non-ASCII columns count characters", "é: ü\nx: [é, b]\nñ: {ä: ö}\n", true},
	{"flow collections", "a: [a, \"b\", {c: d}]\nb: {}\nc: [ ]\nd: {\"e\": [1, 2], f: 'g'}\n", true},
	{"literal block scalars", "a: |\n  x\n   y\n\n  z\n\nb: |-\n  x\n\nc: |+\n  x\n\n\nd: |\ne: 1\n", true},
	{"folded block scalars", "a: >\n  p\n  q\n\n  r\n   s\n  t\nb: >-\n  x\n", true},
	{"block scalar with a whitespace line", "a: |\n  x\n     \nb: 1", true},
	{"block scalar in a sequence", "- |\n  x\n- k: |\n    y\n  j: 1\n", true},
	{"block scalar at the end without newline", "a: |\n  x", true},
	{"block scalar containing # and ---", "a: |\n  # not a comment\n  --- not a marker\n", true},
	{"document root scalar", "hello\n---\nworld\n", true},
	{"key with spaces before the colon", "a : 1\n", true},
	{"block scalar header comment and keep chomping at the end", "a: | # c\n  x\nb: |+\n  y\n\n", true},
	{"block scalar ended by a comment at a lower indentation", "a: |\n# c\nb: >\n  x\n # c\nc: 1\n", true},
	{"block scalar with spaces at the end", "a: |\n  x\n     ", true},
	{"sequence of mappings with an indentless sequence inside", "a:\n- b:\n  - c\n  d: 1\n- e\n", true},
	{"values on their own line", "a:\n  [1, 2]\nb:\n  'x'\nc:\n  y\n", true},
	{"trailing spaces", "a: b   \nc: 'd'   \n", true},
	{"empty document between documents", "a: 1\n---\n---\nb: 2\n", true},
	{"flow collections in sequences", "- {a: b}\n- [a, [b, c]]\n- - []\n", true},
	{"a dash as a key", "-: v\n", true},
	{"empty nested items", "- -\n- - \n", true},
	{"quoted values that look like keys", "a: \"b: c\"\nd: 'e # f'\n", true},
	{"long values are fine: only keys have libyaml's length limit", "a: " + strings.Repeat("v", 3000) + "\nb: c\n", true},
	{"long values in a sequence", "- " + strings.Repeat("w", 3000) + "\n- '" + strings.Repeat("x", 3000) + "'\n", true},
	{"a long one-line flow sequence (columns must be counted in linear time)", "a: [" + strings.Repeat("1, ", 20000) + "é]\n", true},
	{"deep nesting", strings.Repeat("- ", 600) + "x\n", false},
	{"long quoted key", "'" + strings.Repeat("k", 1100) + "': v\n", false},
	{"long flow key", "{" + strings.Repeat("k", 1100) + ": v}\n", false},

	{"tab anywhere", "a:\tb\n", false},
	{"CRLF", "a: 1\r\n", false},
	{"BOM", "\ufeffa: 1\n", false},
	{"anchor and alias", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"directive", "%YAML 1.2\n---\na: 1\n", false},
	{"complex key", "? a\n: b\n", false},
	{"multi-line plain scalar", "a: b\n  c\n", false},
	{"multi-line quoted scalar", "a: \"b\n  c\"\n", false},
	{"line continuation in double quotes", "a: \"b\\\n  c\"\n", false},
	{"multi-line flow", "a: [1,\n  2]\n", false},
	{"document end marker", "a: 1\n... # c\n...\n---\nb\n", true},
	{"document end marker closing an empty document", "---\n...\n---\n...", true},
	{"content after a document end marker", "a: 1\n...\nb: 2\n", false},
	{"document end marker first", "...\na: 1\n", false},
	{"explicit indentation indicator", "a: |2\n   x\n", false},
	{"value after separator", "--- a\n", false},
	{"mapping in a value", "a: b: c\n", false},
	{"sequence in a value", "a: - b\n", false},
	{"bad indentation", "a:\n    b: 1\n  c: 2\n", false},
	{"sequence entry among keys", "a: 1\n- b\n", false},
	{"key without colon", "a: 1\nb\n", false},
	{"unknown escape", "a: \"\\q\"\n", false},
	{"surrogate escape", "a: \"\\ud800\"\n", false},
	{"trailing comma", "a: [1, 2,]\n", false},
	{"colon in flow plain scalar", "a: [http://x]\n", false},
	{"comment touching a quoted scalar", "a: 'b'#c\n", false},
	{"over-indented leading blank line in block scalar", "a: |\n     \n  x\n", false},
	{"NEL", "a: b\u0085c\n", false},
	{"control character", "a: \x01\n", false},
	{"long key", strings.Repeat("k", 1100) + ": v\n", false},
}

func TestFastYAMLCases(t *testing.T) {
	var p fastParser
	for _, c := range fastCases {
		t.Run(c.name, func(t *testing.T) {
			if got := differential(t, &p, []byte(c.in)); got != c.fast {
				t.Errorf("fast path taken: %v, want %v", got, c.fast)
			}
		})
	}
}

// TestPlainTag compares plainTag with yaml.v3 on scalars of every kind.
func TestPlainTag(t *testing.T) {
	for _, s := range []string{"1", "-1", "+1", "0x1F", "-0x1F", "0o17", "-0o17", "017", "08", "0b101", "-0b101", "0b2", "0b", "-0b", "0o", "-0o", "1_000", "_1", "1.5", "1.", ".5", "-.5", "1e3", "1E3", "1e+3", "1.5e-3", ".e3", "1e", "e3",
		"9223372036854775808", "18446744073709551616", "-9223372036854775809", "1e400", "0x1p-2", "inf", "+inf", "nan", ".NaN", "-.Inf", "2001-12-14", "2001-12-14t21:59:43Z", "2001-12-14 21:59:43.10", "2001-12-14T21:59:43+01:00", "2001-12-14 21:59:43.10 -5", "20011-12-14",
		"10s", "1.2.3.4", "1/2", "+", ".", "..", "-.", "0", "00", "-0", "+0", "0.0", "true", "True", "tRue", "yes", "off", "~", "null", "Null", "nUll", "<<", "<", "a", "-a", "+a", ".a"} {
		var n yaml.Node
		if err := yaml.Unmarshal([]byte("v: "+s), &n); err != nil {
			t.Fatal(err)
		}
		if want := n.Content[0].Content[1].Tag; plainTag(s) != want {
			t.Errorf("plainTag(%q) = %s, yaml.v3 says %s", s, plainTag(s), want)
		}
	}
}

// manifestFiles lists the .yaml, .yml and .json files under root.
func manifestFiles(t testing.TB, root string) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && IsManifestName(d.Name()) {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// fastHitRate runs the differential check on every file and logs how many
// the fast path took.
func fastHitRate(t *testing.T, name string, files []string) float64 {
	t.Helper()
	var p fastParser
	hits := 0
	var missed []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if differential(t, &p, data) {
			hits++
		} else if len(missed) < 5 {
			missed = append(missed, filepath.Base(f))
		}
	}
	rate := float64(hits) / float64(max(len(files), 1))
	t.Logf("%s: fast path took %d of %d files (%.1f%%); missed e.g. %v", name, hits, len(files), 100*rate, missed)
	return rate
}

func gatewayAPIDir(t *testing.T) string {
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil || len(bytes.TrimSpace(out)) == 0 {
		t.Fatalf("go list -m sigs.k8s.io/gateway-api: %v", err)
	}
	return string(bytes.TrimSpace(out))
}

func TestFastYAMLRepoFiles(t *testing.T) {
	out, err := exec.Command("git", "-C", "..", "ls-files", "*.yaml", "*.yml", "*.json").Output()
	if err != nil {
		t.Skipf("git ls-files: %v", err)
	}
	var files []string
	for _, f := range strings.Fields(string(out)) {
		files = append(files, filepath.Join("..", f))
	}
	fastHitRate(t, "repository files", files)
}

func TestFastYAMLUpstreamExamples(t *testing.T) {
	dir := gatewayAPIDir(t)
	fastHitRate(t, "gateway-api examples", manifestFiles(t, filepath.Join(dir, "examples")))
	fastHitRate(t, "gateway-api invalid examples", manifestFiles(t, filepath.Join(dir, "hack", "invalid-examples")))
}

func TestFastYAMLGeneratedCorpus(t *testing.T) {
	if testing.Short() {
		t.Skip("generates a corpus")
	}
	plain := corpus.DefaultOptions(corpus.Small)
	broken := plain
	broken.InvalidRate, broken.SemanticRate = 0.05, 0.2
	for _, opts := range []corpus.Options{plain, broken} {
		dir, err := corpus.Cached(opts)
		if err != nil {
			t.Fatal(err)
		}
		if rate := fastHitRate(t, "corpus "+opts.Key(), manifestFiles(t, dir)); rate < 0.99 {
			t.Errorf("fast path took only %.1f%% of the generated corpus", 100*rate)
		}
	}
}

// TestIsYAMLFloat compares isYAMLFloat with the regular expression it
// replaces.
func TestIsYAMLFloat(t *testing.T) {
	re := regexp.MustCompile(`^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`)
	for _, s := range []string{"", "1", "-1", "+", ".", ".5", "5.", "1.5", "1e5", "1e", "e5", "1.e5", ".e5", "+.5e-3", "1.5.5", "1x", "--1", "1e+", "1E-0"} {
		if isYAMLFloat(s) != re.MatchString(s) {
			t.Errorf("isYAMLFloat(%q) = %v", s, isYAMLFloat(s))
		}
	}
}

// TestFastYAMLMutations runs the differential check on line-level edits
// of the table inputs and a few manifests: the edits that move input
// across the edges of the subset, which random byte mutations rarely hit.
func TestFastYAMLMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("about 40,000 variants")
	}
	seeds := []string{}
	for _, c := range fastCases {
		seeds = append(seeds, c.in)
	}
	files, _ := filepath.Glob("../../testdata/examples/*.yaml")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, string(data))
	}
	inserts := []string{" ", "  ", "- ", "-", "? ", ": ", ":", "#", " #", "&a ", "*a", "!t ", "'", "\"", "[", "]", "{", "}", ",", "|", "|-", ">+", "---", "...", "--- ", "x", "1", "~", "a: ", "'a': ", "[a]", "{a: b}", "\t", "é"}
	var p fastParser
	variants, hits := 0, 0
	try := func(lines []string) {
		variants++
		if differential(t, &p, []byte(strings.Join(lines, "\n"))) {
			hits++
		}
	}
	for _, seed := range seeds {
		lines := strings.Split(seed, "\n")
		for i, line := range lines {
			edit := func(l string) {
				v := slices.Clone(lines)
				v[i] = l
				try(v)
			}
			try(slices.Delete(slices.Clone(lines), i, i+1))
			try(slices.Insert(slices.Clone(lines), i, line))
			edit(strings.TrimPrefix(line, " "))
			edit(strings.Replace(line, ": ", ":", 1))
			edit(strings.Replace(line, ": ", ":\n  ", 1))
			indent := len(line) - len(strings.TrimLeft(line, " "))
			for _, ins := range inserts {
				edit(line[:indent] + ins + line[indent:])
				edit(line + ins)
				if j := strings.Index(line, ": "); j >= 0 {
					edit(line[:j+2] + ins + line[j+2:])
				}
			}
		}
	}
	t.Logf("fast path took %d of %d variants", hits, variants)
}

func FuzzFastYAML(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c.in))
	}
	for _, name := range []string{"../../testdata/examples", "../testdata/conformance"} {
		files, _ := filepath.Glob(filepath.Join(name, "*.yaml"))
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	var p fastParser
	f.Fuzz(func(t *testing.T, data []byte) {
		differential(t, &p, data)
	})
}

// BenchmarkFastYAML compares the fast path with yaml.v3 on the files of the
// small generated corpus.
func BenchmarkFastYAML(b *testing.B) {
	dir, err := corpus.Cached(corpus.DefaultOptions(corpus.Small))
	if err != nil {
		b.Fatal(err)
	}
	var files [][]byte
	var size int64
	for _, f := range manifestFiles(b, dir) {
		data, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		files = append(files, data)
		size += int64(len(data))
	}
	b.Run("scanText", func(b *testing.B) {
		b.SetBytes(size)
		for b.Loop() {
			for _, data := range files {
				if fast, _ := scanText(data); !fast {
					b.Fatal("a corpus file is not plain")
				}
			}
		}
	})
	b.Run("fast", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		var p fastParser
		for b.Loop() {
			for _, data := range files {
				if _, ok := fastParse(&p, data); !ok {
					b.Fatal("fast path refused a corpus file")
				}
			}
		}
	})
	b.Run("yaml.v3", func(b *testing.B) {
		b.SetBytes(size)
		b.ReportAllocs()
		for b.Loop() {
			for _, data := range files {
				if _, err := decodeV3(data); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
}

// FuzzSplitDocuments checks the document splitter against yaml.v3 reading
// the whole file: wherever yaml.v3 reads a file, reading it piece by piece
// (splitDocuments, then yaml.v3 or the fast parser on each piece, positions
// moved to the file's) gives the same documents at the same positions.
// Aliases of another document's anchors, which yaml.v3 allows across a
// file and kubectl's splitting does not, are left out.
func FuzzSplitDocuments(f *testing.F) {
	for _, c := range fastCases {
		f.Add([]byte(c.in))
	}
	for _, glob := range []string{"../../testdata/examples/*.yaml", "../../testdata/read/*.*", "../../cmd/gwlint/testdata/badinput/*"} {
		files, _ := filepath.Glob(glob)
		for _, file := range files {
			if data, err := os.ReadFile(file); err == nil {
				f.Add(data)
			}
		}
	}
	f.Add([]byte("{\"a\": 1}{\"b\": [2]}\n {\"c\": \"}\"}"))
	var p fastParser
	f.Fuzz(func(t *testing.T, data []byte) {
		text, terr := decodeText(data)
		if terr != nil {
			return
		}
		whole, err := decodeV3(text)
		if err != nil || aliasAcrossDocuments(whole) {
			return
		}
		n := 0 // documents read so far
		compare := func(docs []*yaml.Node, what string) {
			for _, d := range docs {
				if n >= len(whole) {
					t.Fatalf("more documents in pieces than in the file:\n%q", text)
				}
				if diff := equalNodes(d, whole[n], fmt.Sprintf("%s doc%d", what, n)); diff != "" {
					t.Fatalf("%s\n%q", diff, text)
				}
				n++
			}
		}
		for _, pc := range splitDocuments(text) {
			piece := text[pc.start:pc.end]
			docs, err := decodeV3(piece)
			if err != nil {
				t.Fatalf("piece %+v fails (%v) where the whole file reads:\n%q", pc, err, text)
			}
			for _, d := range docs {
				shiftNodes(d, pc.line-1, 1, pc.col)
			}
			start := n
			compare(docs, "yaml.v3")
			// The fast parser's trees live until its next parse: compare
			// them at once.
			if fast, _ := scanText(piece); fast && pc.col == 0 {
				if fastDocs, ok := p.parse(piece, pc.line); ok {
					n = start
					compare(fastDocs, "fast")
				}
			}
		}
		if n != len(whole) {
			t.Fatalf("%d documents in pieces, %d in the file:\n%q", n, len(whole), text)
		}
	})
}

// aliasAcrossDocuments reports whether an alias of one document refers to
// an anchor of another.
func aliasAcrossDocuments(docs []*yaml.Node) bool {
	for _, doc := range docs {
		own := map[*yaml.Node]bool{}
		var anchors, check func(n *yaml.Node) bool
		anchors = func(n *yaml.Node) bool {
			own[n] = true
			for _, c := range n.Content {
				anchors(c)
			}
			return false
		}
		check = func(n *yaml.Node) bool {
			if n.Kind == yaml.AliasNode && !own[n.Alias] {
				return true
			}
			return slices.ContainsFunc(n.Content, check)
		}
		anchors(doc)
		if check(doc) {
			return true
		}
	}
	return false
}
