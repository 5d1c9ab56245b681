package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/clitest"
	"github.com/gwlint/gwlint/cmd/internal/lsp"
	"github.com/gwlint/gwlint/lint"
)

// lspClient is a scripted editor: it talks to an in-process gwlint lsp
// over a pipe and keeps the diagnostics published for each file.
type lspClient struct {
	t    testing.TB
	conn *jsonrpc2.Conn
	done chan struct{}

	mu    sync.Mutex
	diags map[string][]diagnostic
	seen  chan struct{} // signalled at every publish
}

func startLSP(t testing.TB, dir string, debounce time.Duration) *lspClient {
	t.Helper()
	opts := &checkOptions{IO: &cli.IOStreams{}, Channel: "standard"}
	return startLSPWith(t, dir, debounce, opts.lspSetup)
}

// startLSPWith is startLSP with the folders set up by configure.
func startLSPWith(t testing.TB, dir string, debounce time.Duration, configure lsp.Configure) *lspClient {
	t.Helper()
	server, client := net.Pipe()
	c := &lspClient{t: t, done: make(chan struct{}), diags: map[string][]diagnostic{}, seen: make(chan struct{}, 1000)}
	go func() {
		defer close(c.done)
		if err := lsp.Serve(context.Background(), server, configure, debounce); err != nil {
			t.Errorf("Serve: %v", err)
		}
	}()
	c.conn = jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(client, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == protocol.ServerTextDocumentPublishDiagnostics {
				var p struct {
					URI         string
					Diagnostics []diagnostic
				}
				if err := json.Unmarshal(*req.Params, &p); err != nil {
					t.Errorf("publishDiagnostics: %v", err)
				}
				c.mu.Lock()
				c.diags[p.URI] = p.Diagnostics
				c.mu.Unlock()
				c.seen <- struct{}{}
			}
			return nil, nil
		}))
	uri := "file://" + dir
	c.call("initialize", protocol.InitializeParams{WorkspaceFolders: []protocol.WorkspaceFolder{{URI: uri, Name: "tree"}}}, nil)
	c.notify("initialized", protocol.InitializedParams{})
	return c
}

// diagnostic is a protocol.Diagnostic as a client reads it: glsp's
// IntegerOrString cannot be decoded (its UnmarshalJSON has a value
// receiver), so the code is read as the string gwlint sends.
type diagnostic struct {
	protocol.Diagnostic
	Code string `json:"code"`
}

func (c *lspClient) call(method string, params, result any) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := c.conn.Call(ctx, method, params, result); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	if err := c.conn.Notify(context.Background(), method, params); err != nil {
		c.t.Fatalf("%s: %v", method, err)
	}
}

// waitDiagnostics waits until the diagnostics of file satisfy ok.
func (c *lspClient) waitDiagnostics(file string, what string, ok func([]diagnostic) bool) []diagnostic {
	c.t.Helper()
	uri := "file://" + file
	timeout := time.After(time.Minute)
	for {
		c.mu.Lock()
		d, published := c.diags[uri]
		c.mu.Unlock()
		if published && ok(d) {
			return d
		}
		select {
		case <-c.seen:
		case <-timeout:
			c.t.Fatalf("%s: no diagnostics %s; last: %+v", file, what, d)
		}
	}
}

func (c *lspClient) open(file string) string {
	data, err := os.ReadFile(file)
	if err != nil {
		c.t.Fatal(err)
	}
	c.notify("textDocument/didOpen", protocol.DidOpenTextDocumentParams{TextDocument: protocol.TextDocumentItem{
		URI: "file://" + file, LanguageID: "yaml", Version: 1, Text: string(data)}})
	return string(data)
}

func (c *lspClient) change(file string, version int32, text string) {
	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument:   protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: "file://" + file}, Version: version},
		ContentChanges: []any{protocol.TextDocumentContentChangeEventWhole{Text: text}},
	})
}

// exit shuts the server down as an editor does and waits for Serve to
// return.
func (c *lspClient) exit() {
	c.call("shutdown", nil, nil)
	c.notify("exit", nil)
	select {
	case <-c.done:
	case <-time.After(time.Minute):
		c.t.Fatal("the server did not exit after shutdown and exit")
	}
}

func position(text, line string, col int) protocol.Position {
	for i, l := range strings.Split(text, "\n") {
		if l == line {
			return protocol.Position{Line: protocol.UInteger(i), Character: protocol.UInteger(col)}
		}
	}
	panic("no line " + line)
}

func hasRule(rule string) func([]diagnostic) bool {
	return func(ds []diagnostic) bool {
		for _, d := range ds {
			if d.Code == rule {
				return true
			}
		}
		return false
	}
}

func none(ds []diagnostic) bool { return len(ds) == 0 }

func copyTree(t *testing.T, from string) string {
	t.Helper()
	dir := t.TempDir()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(from, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestLSP scripts an editor session: a typo raises a diagnostic at the
// field, its fix clears it, hover and definition answer from the graph,
// half-written YAML neither crashes the server nor loses the other
// files' diagnostics, and shutdown and exit end it.
func TestLSP(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lsp"))
	c := startLSP(t, dir, lsp.Debounce)
	route := filepath.Join(dir, "route.yaml")
	text := c.open(route)
	c.waitDiagnostics(route, "none on open", none)

	// A typo raises backend-not-found at the backendRef's name line.
	typo := strings.Replace(text, "name: store-canary", "name: store-canry", 1)
	c.change(route, 2, typo)
	ds := c.waitDiagnostics(route, "backend-not-found", hasRule("backend-not-found"))
	want := position(typo, "    - name: store-canry", 6)
	if got := ds[0].Range; got.Start != want || got.End.Line != want.Line || got.End.Character != 23 {
		t.Errorf("range = %+v, want from %+v to the end of the value (character 23)", got, want)
	}
	if ds[0].CodeDescription == nil || !strings.HasSuffix(ds[0].CodeDescription.HRef, "rules.md#backend-not-found") {
		t.Errorf("codeDescription = %+v", ds[0].CodeDescription)
	}

	// Its fix, applied, clears it.
	var actions []protocol.CodeAction
	c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + route},
		Range: ds[0].Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{ds[0].Diagnostic}}}, &actions)
	if len(actions) != 2 || actions[0].Title != "Change to store-canary" || !strings.Contains(actions[1].Title, "gwlint:ignore") {
		t.Fatalf("code actions = %+v", actions)
	}
	edit := actions[0].Edit.Changes["file://"+route][0]
	lines := strings.Split(typo, "\n")
	l := lines[edit.Range.Start.Line]
	lines[edit.Range.Start.Line] = l[:edit.Range.Start.Character] + edit.NewText + l[edit.Range.End.Character:]
	c.change(route, 3, strings.Join(lines, "\n"))
	c.waitDiagnostics(route, "cleared by the fix", none)

	// Hover on the parentRef names its Gateway and listener.
	var hover protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + route}, Position: position(text, "  - name: shared", 10)}}, &hover)
	hoverJSON, _ := json.Marshal(hover.Contents)
	if !strings.Contains(string(hoverJSON), "Gateway infra/shared") || !strings.Contains(string(hoverJSON), "listener `web`") {
		t.Errorf("hover on the parentRef = %s", hoverJSON)
	}

	// The definition of a backendRef is its Service's port.
	var loc protocol.Location
	c.call("textDocument/definition", protocol.DefinitionParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + route}, Position: position(text, "    - name: store", 12)}}, &loc)
	services, _ := os.ReadFile(filepath.Join(dir, "service.yaml"))
	if want := position(string(services), "  - port: 8080", 4); loc.URI != "file://"+filepath.Join(dir, "service.yaml") || loc.Range.Start != want {
		t.Errorf("definition of the backendRef = %+v, want service.yaml at %+v", loc, want)
	}

	// Half-written YAML is a diagnostic of its own file; the other
	// file's stay.
	gateway := filepath.Join(dir, "gateway.yaml")
	gwText := c.open(gateway)
	c.change(route, 4, typo)
	c.waitDiagnostics(route, "backend-not-found again", hasRule("backend-not-found"))
	c.change(gateway, 2, gwText[:len(gwText)/2]+"\n  listeners: [\n  - {name: ")
	c.waitDiagnostics(gateway, "invalid-manifest", hasRule("invalid-manifest"))
	c.waitDiagnostics(route, "backend-not-found kept", hasRule("backend-not-found"))
	c.exit()
}

// TestLSPClientDies: a client that dies closes the server's stdin without
// shutdown or exit; the server must end too, not linger.
func TestLSPClientDies(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lsp"))
	server := clitest.Command(t, "lsp")
	stdin, err := server.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	server.Stdout = io.Discard
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	initialize, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize",
		"params": protocol.InitializeParams{RootURI: ptr("file://" + dir)}})
	fmt.Fprintf(stdin, "Content-Length: %d\r\n\r\n%s", len(initialize), initialize)
	stdin.Close()
	exited := make(chan error, 1)
	go func() { exited <- server.Wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("gwlint lsp after its client died: %v", err)
		}
	case <-time.After(time.Minute):
		server.Process.Kill()
		t.Fatal("gwlint lsp still runs a minute after its client closed stdin")
	}
}

func ptr[T any](v T) *T { return &v }

// TestLSPHugePaste pastes megabytes of routes into a document: while the
// server checks them, it still answers hovers and takes edits of other
// documents, and then publishes the paste's findings and keeps the other
// files'.
func TestLSPHugePaste(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lsp"))
	// A rule that holds the check of the paste until the test has been
	// answered meanwhile: the check is slow, deterministically.
	var paste atomic.Bool
	var once sync.Once
	checking, release := make(chan struct{}), make(chan struct{})
	hold := &lint.Rule{ID: "hold", Severity: lint.Info, Summary: "holds the check of the paste", Run: func(*lint.Pass) {
		if paste.Load() {
			once.Do(func() {
				close(checking)
				<-release
			})
		}
	}}
	opts := &checkOptions{IO: &cli.IOStreams{}, Channel: "standard"}
	c := startLSPWith(t, dir, 0, func(path string) (*lsp.Setup, error) {
		s, err := opts.lspSetup(path)
		if err == nil {
			s.Rules = append(s.Rules, hold)
		}
		return s, err
	})
	route, gateway := filepath.Join(dir, "route.yaml"), filepath.Join(dir, "gateway.yaml")
	text := c.open(route)
	gwText := c.open(gateway)
	c.waitDiagnostics(route, "none on open", none)
	c.waitDiagnostics(gateway, "none on open", none)

	var huge strings.Builder
	huge.WriteString(text)
	for i := 0; huge.Len() < 8<<20; i++ {
		fmt.Fprintf(&huge, "\n---\n%s", strings.Replace(strings.Replace(text, "name: store\n", fmt.Sprintf("name: pasted-%d\n", i), 1),
			"name: store-canary", "name: store-canry", 1))
	}
	paste.Store(true)
	c.change(route, 2, huge.String())
	<-checking
	var hover protocol.Hover
	c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
		TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + route}, Position: position(text, "  - name: shared", 10)}}, &hover)
	if hoverJSON, _ := json.Marshal(hover.Contents); !strings.Contains(string(hoverJSON), "Gateway infra/shared") {
		t.Errorf("hover during the paste's check = %s", hoverJSON)
	}
	c.change(gateway, 2, gwText+"\n---\nkind: [\n")
	close(release)
	ds := c.waitDiagnostics(route, "the paste's", hasRule("backend-not-found"))
	if len(ds) < 1000 {
		t.Errorf("%d diagnostics for the paste, want one for each pasted route", len(ds))
	}
	c.waitDiagnostics(gateway, "the edit made during the paste's check", hasRule("invalid-manifest"))
	c.exit()
}

// TestLSPGraphFixes: the fixes that need the graph's facts are offered on
// their diagnostic, and applying one (to the open route, or to another
// file, saved) clears it.
func TestLSPGraphFixes(t *testing.T) {
	const shop = `apiVersion: v1
kind: Service
metadata:
  name: inventory
  namespace: shop
spec:
  ports:
  - port: 80`
	for _, tc := range []struct {
		name      string
		from, to  string // the edit of route.yaml that raises rule
		rule      string
		title     string // of the preferred fix
		fixedFile string // the file the fix edits or creates
		config    string // .gwlint.yaml, if any
	}{
		{name: "port of the Service", from: "port: 8080\n      weight: 90", to: "port: 8081\n      weight: 90",
			rule: "backend-port-not-found", title: "Change port to 8080", fixedFile: "route.yaml"},
		{name: "ReferenceGrant beside the target", from: "name: store-canary\n      port: 8080", to: "name: inventory\n      namespace: shop\n      port: 80",
			rule: "backend-ref-not-permitted", title: "Add a ReferenceGrant in namespace shop for Service shop/inventory", fixedFile: "shop.yaml"},
		{name: "ReferenceGrant in a new file", from: "name: store-canary\n      port: 8080", to: "name: billing\n      namespace: shop\n      port: 80",
			rule: "backend-ref-not-permitted", title: "Add a ReferenceGrant in namespace shop for Service shop/billing (new file referencegrant-app-service.yaml)",
			// Only where the inputs hold the namespace whole is a missing
			// grant not one kept elsewhere.
			fixedFile: "referencegrant-app-service.yaml", config: "ownedNamespaces: [shop]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyTree(t, filepath.Join("testdata", "lsp"))
			if err := os.WriteFile(filepath.Join(dir, "shop.yaml"), []byte(shop), 0o644); err != nil {
				t.Fatal(err)
			}
			if tc.config != "" {
				if err := os.WriteFile(filepath.Join(dir, ".gwlint.yaml"), []byte(tc.config), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			c := startLSP(t, dir, lsp.Debounce)
			route := filepath.Join(dir, "route.yaml")
			text := c.open(route)
			c.waitDiagnostics(route, "none on open", none)
			broken := strings.Replace(text, tc.from, tc.to, 1)
			c.change(route, 2, broken)
			ds := c.waitDiagnostics(route, tc.rule, hasRule(tc.rule))
			var actions []protocol.CodeAction
			c.call("textDocument/codeAction", protocol.CodeActionParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + route},
				Range: ds[0].Range, Context: protocol.CodeActionContext{Diagnostics: []protocol.Diagnostic{ds[0].Diagnostic}}}, &actions)
			if len(actions) != 2 || actions[0].Title != tc.title || actions[0].IsPreferred == nil || !*actions[0].IsPreferred {
				t.Fatalf("code actions = %+v, want %q (preferred) and the ignore comment", actions, tc.title)
			}
			fixed := applyEdit(t, actions[0].Edit, map[string]string{route: broken})
			if _, ok := fixed[filepath.Join(dir, tc.fixedFile)]; !ok || len(fixed) != 1 {
				t.Fatalf("the fix edits %v, want %s", fixed, tc.fixedFile)
			}
			for file, text := range fixed {
				if file == route {
					c.change(route, 3, text)
					continue
				}
				if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
					t.Fatal(err)
				}
				c.notify("textDocument/didSave", protocol.DidSaveTextDocumentParams{TextDocument: protocol.TextDocumentIdentifier{URI: "file://" + file}})
			}
			c.waitDiagnostics(route, "without "+tc.rule, func(ds []diagnostic) bool { return !hasRule(tc.rule)(ds) })
			if fixed[filepath.Join(dir, "shop.yaml")] != "" {
				// The target is among the inputs: the fix leaves nothing to report.
				c.waitDiagnostics(route, "none after the fix", none)
			}
			c.exit()
		})
	}
}

// applyEdit applies a workspace edit to the files' texts (open, else on
// disk) and returns the texts of the files it edits or creates. Its
// texts are ASCII: characters are bytes.
func applyEdit(t *testing.T, edit *protocol.WorkspaceEdit, open map[string]string) map[string]string {
	t.Helper()
	out := map[string]string{}
	textOf := func(file string) string {
		if text, ok := out[file]; ok {
			return text
		}
		if text, ok := open[file]; ok {
			return text
		}
		data, _ := os.ReadFile(file)
		return string(data)
	}
	apply := func(uri string, e protocol.TextEdit) {
		file := strings.TrimPrefix(uri, "file://")
		lines := strings.Split(textOf(file), "\n")
		offset := func(p protocol.Position) int {
			n := 0
			for _, l := range lines[:p.Line] {
				n += len(l) + 1
			}
			return n + int(p.Character)
		}
		text := textOf(file)
		out[file] = text[:offset(e.Range.Start)] + e.NewText + text[offset(e.Range.End):]
	}
	for uri, edits := range edit.Changes {
		for _, e := range edits {
			apply(uri, e)
		}
	}
	// documentChanges decode as JSON objects: a CreateFile has a kind, a
	// TextDocumentEdit a textDocument.
	for _, change := range edit.DocumentChanges {
		data, _ := json.Marshal(change)
		var c struct {
			Kind, URI    string
			TextDocument protocol.TextDocumentIdentifier
			Edits        []protocol.TextEdit
		}
		if err := json.Unmarshal(data, &c); err != nil {
			t.Fatal(err)
		}
		switch c.Kind {
		case "create":
			out[strings.TrimPrefix(c.URI, "file://")] = ""
		case "":
			for _, e := range c.Edits {
				apply(c.TextDocument.URI, e)
			}
		default:
			t.Fatalf("document change %s", data)
		}
	}
	return out
}

// TestLSPMalformedRequests sends what a careless client might: a ranged
// edit whose range ends before it starts, and hovers on a document that
// is not a file and on one never opened. The server answers each (the
// hovers with nothing) and keeps serving.
func TestLSPMalformedRequests(t *testing.T) {
	dir := copyTree(t, filepath.Join("testdata", "lsp"))
	c := startLSP(t, dir, 0)
	route := filepath.Join(dir, "route.yaml")
	text := c.open(route)
	c.waitDiagnostics(route, "none on open", none)

	c.notify("textDocument/didChange", protocol.DidChangeTextDocumentParams{
		TextDocument: protocol.VersionedTextDocumentIdentifier{TextDocumentIdentifier: protocol.TextDocumentIdentifier{URI: "file://" + route}, Version: 2},
		ContentChanges: []any{protocol.TextDocumentContentChangeEvent{
			Range: &protocol.Range{Start: protocol.Position{Line: 3, Character: 4}, End: protocol.Position{Line: 1, Character: 0}}, Text: "# inserted\n"}},
	})
	for _, uri := range []string{"untitled:Untitled-1", "file://" + filepath.Join(dir, "never-opened.yaml")} {
		var hover *protocol.Hover
		c.call("textDocument/hover", protocol.HoverParams{TextDocumentPositionParams: protocol.TextDocumentPositionParams{
			TextDocument: protocol.TextDocumentIdentifier{URI: uri}, Position: protocol.Position{Line: 1, Character: 1}}}, &hover)
		if hover != nil {
			t.Errorf("hover on %s = %+v, want none", uri, hover)
		}
	}
	// Still serving: a typo raises its finding.
	c.change(route, 3, strings.Replace(text, "name: store-canary", "name: store-canry", 1))
	c.waitDiagnostics(route, "backend-not-found after the malformed requests", hasRule("backend-not-found"))
	c.exit()
}
