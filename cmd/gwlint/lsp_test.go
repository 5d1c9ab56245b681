package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/cmd/internal/lsp"
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
	server, client := net.Pipe()
	opts := &checkOptions{IO: &cli.IOStreams{}, Channel: "standard"}
	c := &lspClient{t: t, done: make(chan struct{}), diags: map[string][]diagnostic{}, seen: make(chan struct{}, 1000)}
	go func() {
		defer close(c.done)
		if err := lsp.Serve(context.Background(), server, opts.lspSetup, debounce); err != nil {
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
