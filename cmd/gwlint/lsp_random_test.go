package main

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/internal/corpus"
)

// TestLSPRandomEdits replays a long deterministic sequence of random
// edits on a small generated corpus through the server, as open
// documents and as files changed on disk, and after each compares the
// diagnostics it published for every file with a cold `gwlint check` of
// the same tree: the incremental result must be the full rebuild's.
func TestLSPRandomEdits(t *testing.T) {
	steps := 80
	if testing.Short() {
		steps = 30
	}
	dir := t.TempDir()
	opts := corpus.Options{Seed: 3, Routes: 40, Namespaces: 4, SemanticRate: 0.1}
	if _, err := corpus.Generate(opts, dir); err != nil {
		t.Fatal(err)
	}
	tree := &editTree{t: t, dir: dir, rng: rand.New(rand.NewPCG(25, 1)), files: map[string]string{}, open: map[string]bool{}}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(p, ".yaml") {
			data, _ := os.ReadFile(p)
			tree.files[p] = string(data)
		}
		return nil
	})
	// The sentinel is an open document that every step changes last, its
	// finding on another line each time: once its new diagnostic is
	// published, the server has checked every edit before it (edits are
	// applied in order, a check that an edit interrupted publishes
	// nothing, and the sentinel is the last file a check publishes).
	tree.sentinel = filepath.Join(dir, "zz-sentinel.yaml")
	tree.write(tree.sentinel, sentinelText(0))
	c := startLSP(t, dir, 0)
	tree.c = c
	tree.openDoc(tree.sentinel)
	tree.sync(0)
	tree.compare("initial load")
	for step := 1; step <= steps; step++ {
		what := tree.edit()
		tree.sync(step)
		tree.compare(fmt.Sprintf("step %d: %s", step, what))
	}
	c.exit()
}

// editTree is the tree the test edits: every file's text, written to disk
// as it changes, and the files the editor has open.
type editTree struct {
	t        *testing.T
	c        *lspClient
	dir      string
	rng      *rand.Rand
	files    map[string]string
	open     map[string]bool
	versions int32
	sentinel string
	added    int
}

func sentinelText(step int) string {
	return strings.Repeat("# sentinel\n", step%2) + "kind: [\n"
}

func (e *editTree) write(path, text string) {
	e.t.Helper()
	e.files[path] = text
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

func (e *editTree) openDoc(path string) {
	e.open[path] = true
	e.c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "file://" + path, LanguageID: "yaml", Version: e.version(), Text: e.files[path]}})
}

func (e *editTree) version() int32 {
	e.versions++
	return e.versions
}

// set changes a file's text on disk and tells the server as an editor
// would: a change (and sometimes a save) of an open document, a watched
// file changed otherwise.
func (e *editTree) set(path, text string) {
	_, existed := e.files[path]
	e.write(path, text)
	if e.open[path] {
		e.c.change(path, e.version(), text)
		if e.rng.IntN(3) == 0 {
			e.c.notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + path}})
		}
		return
	}
	kind := protocol.FileChangeTypeChanged
	if !existed {
		kind = protocol.FileChangeTypeCreated
	}
	e.watched(path, kind)
}

func (e *editTree) watched(path string, kind protocol.UInteger) {
	e.c.notify("workspace/didChangeWatchedFiles", protocol.DidChangeWatchedFilesParams{
		Changes: []protocol.FileEvent{{URI: "file://" + path, Type: kind}}})
}

// pick is a random file other than the sentinel whose text matches re,
// or "" when none does.
func (e *editTree) pick(re *regexp.Regexp) string {
	var paths []string
	for p, text := range e.files {
		if p != e.sentinel && re.MatchString(text) {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return ""
	}
	slices.Sort(paths)
	return paths[e.rng.IntN(len(paths))]
}

var (
	portLine      = regexp.MustCompile(`(?m)^(\s*-?\s*port: )\d+$`)
	serviceName   = regexp.MustCompile(`(?m)^kind: Service\nmetadata:\n  name: \S+$`)
	parentRefs    = regexp.MustCompile(`(?m)^  parentRefs:\n  - .*\n(    .*\n)*`)
	routeName     = regexp.MustCompile(`(?m)^kind: HTTPRoute\nmetadata:\n  name: (\S+)$`)
	brokenSuffix  = "\n---\nkind: [\n"
	anyText       = regexp.MustCompile(`(?s).`)
	brokenPattern = regexp.MustCompile(regexp.QuoteMeta(brokenSuffix) + `$`)
)

// edit makes one random edit and says what it did.
func (e *editTree) edit() string {
	switch e.rng.IntN(9) {
	case 0: // change a port
		if p := e.pick(portLine); p != "" {
			ports := []string{"80", "81", "443", "8080", "9090", "9999"}
			n := 0
			target := e.rng.IntN(len(portLine.FindAllStringIndex(e.files[p], -1)))
			text := portLine.ReplaceAllStringFunc(e.files[p], func(m string) string {
				n++
				if n-1 != target {
					return m
				}
				return portLine.ReplaceAllString(m, "${1}"+ports[e.rng.IntN(len(ports))])
			})
			e.set(p, text)
			return "port in " + p
		}
	case 1: // rename a Service
		if p := e.pick(serviceName); p != "" {
			e.set(p, serviceName.ReplaceAllStringFunc(e.files[p], func(m string) string {
				if e.rng.IntN(2) == 0 {
					return m
				}
				return m + "-renamed"
			}))
			return "Service renamed in " + p
		}
	case 2: // break YAML
		if p := e.pick(anyText); p != "" && !brokenPattern.MatchString(e.files[p]) {
			e.set(p, e.files[p]+brokenSuffix)
			return "broke " + p
		}
	case 3: // fix it
		if p := e.pick(brokenPattern); p != "" {
			e.set(p, strings.TrimSuffix(e.files[p], brokenSuffix))
			return "mended " + p
		}
	case 4: // delete a parentRef
		if p := e.pick(parentRefs); p != "" {
			loc := parentRefs.FindStringIndex(e.files[p])
			text := e.files[p]
			block := text[loc[0]:loc[1]]
			// Drop the first item: its "  - " line and the lines under it.
			lines := strings.SplitAfter(block, "\n")
			end := 2
			for end < len(lines) && strings.HasPrefix(lines[end], "    ") {
				end++
			}
			kept := lines[0] + strings.Join(lines[end:], "")
			e.set(p, text[:loc[0]]+kept+text[loc[1]:])
			return "parentRef deleted in " + p
		}
	case 5: // add a route, copied from another under a new name
		if p := e.pick(routeName); p != "" {
			e.added++
			m := routeName.FindStringSubmatchIndex(e.files[p])
			text := e.files[p]
			route := text[m[0]:m[3]] + fmt.Sprintf("-added-%d", e.added) + text[m[3]:]
			if end := strings.Index(route, "\n---\n"); end >= 0 {
				route = route[:end+1]
			}
			added := filepath.Join(filepath.Dir(p), fmt.Sprintf("added-%d.yaml", e.added))
			e.set(added, "apiVersion: gateway.networking.k8s.io/v1\n"+route)
			return "added " + added
		}
	case 6: // delete a file, closing it first when open
		if p := e.pick(anyText); p != "" {
			if e.open[p] {
				e.closeDoc(p)
			}
			delete(e.files, p)
			if err := os.Remove(p); err != nil {
				e.t.Fatal(err)
			}
			e.watched(p, protocol.FileChangeTypeDeleted)
			return "deleted " + p
		}
	case 7: // open a document
		if p := e.pick(anyText); p != "" && !e.open[p] {
			e.openDoc(p)
			return "opened " + p
		}
	case 8: // close a document
		for _, p := range slices.Sorted(func(yield func(string) bool) {
			for p := range e.open {
				if p != e.sentinel && !yield(p) {
					return
				}
			}
		}) {
			e.closeDoc(p)
			return "closed " + p
		}
	}
	return "nothing"
}

func (e *editTree) closeDoc(path string) {
	delete(e.open, path)
	e.c.notify("textDocument/didClose", protocol.DidCloseTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + path}})
}

// sync changes the sentinel and waits for its new diagnostic.
func (e *editTree) sync(step int) {
	e.t.Helper()
	text := sentinelText(step)
	e.write(e.sentinel, text)
	e.c.change(e.sentinel, e.version(), text)
	e.c.waitDiagnostics(e.sentinel, fmt.Sprintf("of step %d", step), func(ds []diagnostic) bool {
		return len(ds) == 1 && int(ds[0].Range.Start.Line) == step%2
	})
}

// compare checks that the diagnostics published for every file are a cold
// gwlint check's of the tree on disk: rule, file, start and message.
func (e *editTree) compare(step string) {
	e.t.Helper()
	stdout, stderr, _ := clitest.Run(newRootCmd, "", "check", "-o", "json", e.dir)
	var report struct {
		Findings []struct {
			Rule, File, Object, Path, Message string
			Line, Column                      int
		}
	}
	if err := json.Unmarshal([]byte(stdout), &report); err != nil {
		e.t.Fatalf("%s: gwlint check: %v\n%s", step, err, stderr)
	}
	var want []string
	for _, f := range report.Findings {
		msg := f.Message
		if f.Object != "" {
			msg += " (" + f.Object + " " + f.Path + ")"
		}
		line, col := max(f.Line-1, 0), max(f.Column-1, 0)
		if f.Line < 1 {
			col = 0
		}
		want = append(want, fmt.Sprintf("%s:%d:%d %s %s", f.File, line, col, f.Rule, msg))
	}
	var got []string
	e.c.mu.Lock()
	for uri, ds := range e.c.diags {
		for _, d := range ds {
			got = append(got, fmt.Sprintf("%s:%d:%d %s %s", strings.TrimPrefix(uri, "file://"), d.Range.Start.Line, d.Range.Start.Character, d.Code, d.Message))
		}
	}
	e.c.mu.Unlock()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		e.t.Fatalf("%s: published diagnostics differ from gwlint check's\n%s", step, listDiff(got, want))
	}
}

// listDiff lists what only got and only want hold.
func listDiff(got, want []string) string {
	var b strings.Builder
	for _, g := range got {
		if !slices.Contains(want, g) {
			fmt.Fprintf(&b, "  published only: %s\n", g)
		}
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			fmt.Fprintf(&b, "  gwlint check only: %s\n", w)
		}
	}
	return b.String()
}
