package lsp

import (
	"context"
	"fmt"
	"io"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/sourcegraph/jsonrpc2"
	"github.com/tliron/glsp"
	protocol "github.com/tliron/glsp/protocol_3_16"

	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/internal/parallel"
	"github.com/gwlint/gwlint/lint"
)

// Debounce is how long the server waits after an edit before checking,
// so that typing a word checks once.
const Debounce = 200 * time.Millisecond

// Server serves one client.
type Server struct {
	configure Configure
	handler   protocol.Handler
	conn      *jsonrpc2.Conn
	debounce  time.Duration
	gc        *gcpolicy.Server

	mu        sync.Mutex
	folders   []*folder
	docs      map[string]*document // by path
	pubs      map[*folder]*publisher
	pending   map[*folder]*time.Timer
	shutdown  bool
	checkLock sync.Mutex // one check at a time, in the order asked
	// collecting is true while a collection waits for checkLock.
	collecting atomic.Bool
}

// Serve serves the protocol over stream until the client exits or the
// stream closes, configuring each folder with configure and checking
// debounce after the last edit (Debounce for editors).
func Serve(ctx context.Context, stream io.ReadWriteCloser, configure Configure, debounce time.Duration) error {
	s := newServer(configure, debounce)
	s.mu.Lock() // the first request waits for s.conn
	s.conn = jsonrpc2.NewConn(ctx, jsonrpc2.NewBufferedStream(stream, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(s.handle))
	s.mu.Unlock()
	select {
	case <-s.conn.DisconnectNotify():
	case <-ctx.Done():
		s.conn.Close()
	}
	return nil
}

func newServer(configure Configure, debounce time.Duration) *Server {
	s := &Server{configure: configure, debounce: debounce, gc: gcpolicy.NewServer(), docs: map[string]*document{},
		pubs: map[*folder]*publisher{}, pending: map[*folder]*time.Timer{}}
	s.handler = protocol.Handler{
		Initialize:                         s.initialize,
		Initialized:                        func(*glsp.Context, *protocol.InitializedParams) error { return nil },
		Shutdown:                           s.shutdownRequest,
		SetTrace:                           func(*glsp.Context, *protocol.SetTraceParams) error { return nil },
		WorkspaceDidChangeWorkspaceFolders: s.didChangeFolders,
		WorkspaceDidChangeWatchedFiles:     s.didChangeWatchedFiles,
		TextDocumentDidOpen:                s.didOpen,
		TextDocumentDidChange:              s.didChange,
		TextDocumentDidSave:                s.didSave,
		TextDocumentDidClose:               s.didClose,
		TextDocumentHover:                  s.hover,
		TextDocumentDefinition:             s.definition,
		TextDocumentReferences:             s.references,
		TextDocumentCodeAction:             s.codeAction,
	}
	return s
}

// handle dispatches one message. A panic is that request's error: bad
// input while typing never takes the server down.
func (s *Server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			result, err = nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInternalError,
				Message: fmt.Sprintf("gwlint: %v\n%s", r, parallel.StackOf(r))}
		}
	}()
	if req.Method == "exit" {
		return nil, conn.Close()
	}
	gctx := &glsp.Context{Method: req.Method}
	if req.Params != nil {
		gctx.Params = *req.Params
	}
	r, validMethod, validParams, err := s.handler.Handle(gctx)
	switch {
	case !validMethod:
		if req.Notif {
			return nil, nil // notifications the server does not take are ignored
		}
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeMethodNotFound, Message: "method not supported: " + req.Method}
	case !validParams:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidParams, Message: fmt.Sprint(err)}
	case err != nil:
		return nil, &jsonrpc2.Error{Code: jsonrpc2.CodeInvalidRequest, Message: err.Error()}
	}
	return r, nil
}

func (s *Server) initialize(_ *glsp.Context, params *protocol.InitializeParams) (any, error) {
	var paths []string
	for _, f := range params.WorkspaceFolders {
		paths = append(paths, pathOf(f.URI))
	}
	if len(paths) == 0 && params.RootURI != nil {
		paths = append(paths, pathOf(*params.RootURI))
	}
	s.mu.Lock()
	for _, p := range paths {
		if p != "" {
			s.folders = append(s.folders, newFolder(p, s.configure, s.gc))
		}
	}
	folders := slices.Clone(s.folders)
	s.mu.Unlock()
	// The folders' files with findings are published before any is opened.
	for _, f := range folders {
		go s.check(f)
	}

	full := protocol.TextDocumentSyncKindFull
	yes := true
	supported := true
	return protocol.InitializeResult{
		Capabilities: protocol.ServerCapabilities{
			TextDocumentSync: protocol.TextDocumentSyncOptions{OpenClose: &yes, Change: &full,
				Save: &protocol.SaveOptions{IncludeText: new(bool)}},
			HoverProvider:      true,
			DefinitionProvider: true,
			ReferencesProvider: true,
			CodeActionProvider: true,
			Workspace: &protocol.ServerCapabilitiesWorkspace{
				WorkspaceFolders: &protocol.WorkspaceFoldersServerCapabilities{Supported: &supported, ChangeNotifications: &protocol.BoolOrString{Value: true}},
			},
		},
		ServerInfo: &protocol.InitializeResultServerInfo{Name: "gwlint"},
	}, nil
}

func (s *Server) shutdownRequest(*glsp.Context) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.shutdown = true
	for _, t := range s.pending {
		t.Stop()
	}
	return nil
}

func (s *Server) didChangeFolders(_ *glsp.Context, params *protocol.DidChangeWorkspaceFoldersParams) error {
	s.mu.Lock()
	for _, removed := range params.Event.Removed {
		p := pathOf(removed.URI)
		s.folders = slices.DeleteFunc(s.folders, func(f *folder) bool { return f.path == p })
	}
	var added []*folder
	for _, a := range params.Event.Added {
		if p := pathOf(a.URI); p != "" {
			f := newFolder(p, s.configure, s.gc)
			s.folders = append(s.folders, f)
			added = append(added, f)
		}
	}
	s.mu.Unlock()
	for _, f := range added {
		go s.check(f)
	}
	return nil
}

func (s *Server) didChangeWatchedFiles(_ *glsp.Context, params *protocol.DidChangeWatchedFilesParams) error {
	for _, c := range params.Changes {
		if p := pathOf(c.URI); p != "" {
			s.changed(p, true, 0)
		}
	}
	return nil
}

func (s *Server) didOpen(_ *glsp.Context, params *protocol.DidOpenTextDocumentParams) error {
	p := pathOf(params.TextDocument.URI)
	if p == "" {
		return nil
	}
	text := []byte(params.TextDocument.Text)
	s.mu.Lock()
	s.docs[p] = &document{path: p, version: params.TextDocument.Version, text: text}
	f := s.folderOfLocked(p)
	delete(s.pubs[f].sent, p)
	s.mu.Unlock()
	if f.reads(p, text) {
		// Its diagnostics are owed, and nothing else: the check finds the
		// same world, and lints the last graph again.
		s.schedule(f, 0)
		return nil
	}
	// A file opened may be one the folder did not find (new, or outside
	// it), or hold other text than the folder read: find the files again.
	s.changed(p, true, 0)
	return nil
}

func (s *Server) didChange(_ *glsp.Context, params *protocol.DidChangeTextDocumentParams) error {
	p := pathOf(params.TextDocument.URI)
	if s.applyChanges(p, params) {
		s.changed(p, false, s.debounce)
	}
	return nil
}

// applyChanges applies an edit to the open document of path, and reports
// whether there is one. The lock is released however the edit goes: a
// request's panic is its error, and must not leave the server stuck.
func (s *Server) applyChanges(path string, params *protocol.DidChangeTextDocumentParams) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	doc := s.docs[path]
	if doc == nil {
		return false
	}
	for _, c := range params.ContentChanges {
		switch c := c.(type) {
		case protocol.TextDocumentContentChangeEventWhole:
			doc.text = []byte(c.Text)
		case protocol.TextDocumentContentChangeEvent:
			// Full sync is what the server asks for; a client that sends
			// ranges anyway is applied (a range ending before it starts
			// replaces nothing).
			text := string(doc.text)
			start, end := c.Range.IndexesIn(text)
			end = max(start, end)
			doc.text = []byte(text[:start] + c.Text + text[end:])
		}
	}
	doc.version = params.TextDocument.Version
	return true
}

func (s *Server) didSave(_ *glsp.Context, params *protocol.DidSaveTextDocumentParams) error {
	if p := pathOf(params.TextDocument.URI); p != "" {
		s.changed(p, true, 0)
	}
	return nil
}

func (s *Server) didClose(_ *glsp.Context, params *protocol.DidCloseTextDocumentParams) error {
	p := pathOf(params.TextDocument.URI)
	s.mu.Lock()
	delete(s.docs, p)
	s.mu.Unlock()
	// The file on disk is what counts again.
	s.changed(p, true, 0)
	return nil
}

// lastCheck is the last check of the folder that serves path, nil when
// none serves it or it has not been checked yet. Unlike folderOfLocked,
// it makes no folder: a request about a document never opened (or not
// a file) serves nothing.
func (s *Server) lastCheck(path string) *snapshot {
	s.mu.Lock()
	f := s.innermostLocked(path)
	s.mu.Unlock()
	if path == "" || f == nil {
		return nil
	}
	return f.last.Load()
}

// innermostLocked is the innermost folder holding path, nil for none.
func (s *Server) innermostLocked(path string) *folder {
	var best *folder
	for _, f := range s.folders {
		if f.contains(path) && (best == nil || len(f.path) > len(best.path)) {
			best = f
		}
	}
	return best
}

// folderOfLocked is the innermost folder holding path; a file outside
// every folder is served on its own, as `gwlint check FILE` would.
func (s *Server) folderOfLocked(path string) *folder {
	best := s.innermostLocked(path)
	if best == nil {
		best = newFolder(path, s.configure, s.gc)
		s.folders = append(s.folders, best)
	}
	if s.pubs[best] == nil {
		s.pubs[best] = newPublisher()
	}
	return best
}

// changed forgets what the folder of path loaded of it and checks the
// folder after wait (schedule).
func (s *Server) changed(path string, reconfigure bool, wait time.Duration) {
	s.mu.Lock()
	if s.shutdown {
		s.mu.Unlock()
		return
	}
	f := s.folderOfLocked(path)
	s.mu.Unlock()
	f.forget(path, reconfigure)
	s.schedule(f, wait)
}

// schedule checks the folder after wait, unless another change comes
// first.
func (s *Server) schedule(f *folder, wait time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.shutdown {
		return
	}
	if t := s.pending[f]; t != nil {
		t.Stop()
	}
	s.pending[f] = time.AfterFunc(wait, func() { s.check(f) })
	// The debounce is time the server waits anyway: the garbage of the
	// last checks is collected then, between checks (after the one
	// running, if any), rather than inside the next one. One collection
	// waits at a time, however fast the edits come.
	if wait > 0 && s.collecting.CompareAndSwap(false, true) {
		go func() {
			s.checkLock.Lock()
			defer s.checkLock.Unlock()
			s.collecting.Store(false)
			s.gc.Collect()
		}()
	}
}

// text is the open document's text of path.
func (s *Server) text(path string) ([]byte, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if d := s.docs[path]; d != nil {
		return d.text, true
	}
	return nil, false
}

// fileLines are the lines of path: its open document's, else the file's.
func (s *Server) fileLines(path string) []string {
	if data, ok := s.text(path); ok {
		return lines(data)
	}
	return diskLines(path)
}

// linesCache is fileLines splitting each file once: the findings of a
// file of thousands of documents point at it thousands of times.
func (s *Server) linesCache() func(path string) []string {
	cache := map[string][]string{}
	return func(path string) []string {
		text, ok := cache[path]
		if !ok {
			text = s.fileLines(path)
			cache[path] = text
		}
		return text
	}
}

// check checks a folder and publishes the diagnostics that changed. It
// runs on its own goroutine, where a panic would end the process: it is
// reported to the client instead, and the diagnostics published stay.
func (s *Server) check(f *folder) {
	defer func() {
		if r := recover(); r != nil {
			s.logError(fmt.Sprintf("gwlint: checking %s: %v\n%s", f.path, r, parallel.StackOf(r)))
		}
	}()
	s.checkLock.Lock()
	defer s.checkLock.Unlock()
	defer s.gc.Checked()
	snap := f.check(s.text)
	if snap == nil {
		return
	}
	if snap.err != nil {
		s.logError(fmt.Sprintf("gwlint: %s: %v", f.path, snap.err))
		return
	}
	s.publish(f, snap)
}

// publish sends the diagnostics of the files whose findings changed.
func (s *Server) publish(f *folder, snap *snapshot) {
	s.mu.Lock()
	if s.pubs[f] == nil {
		s.pubs[f] = newPublisher()
	}
	var open []string
	for p := range s.docs {
		if f.contains(p) || f.path == p {
			open = append(open, p)
		}
	}
	changes := s.pubs[f].changes(byFile(snap.findings), open)
	s.mu.Unlock()
	files := slices.Sorted(func(yield func(string) bool) {
		for file := range changes {
			if !yield(file) {
				return
			}
		}
	})
	texts := s.linesCache()
	for _, file := range files {
		s.notify(protocol.ServerTextDocumentPublishDiagnostics, protocol.PublishDiagnosticsParams{
			URI:         uriOf(file),
			Diagnostics: diagnostics(changes[file], texts(file), texts),
		})
	}
}

func (s *Server) notify(method string, params any) {
	s.mu.Lock()
	conn := s.conn
	s.mu.Unlock()
	conn.Notify(context.Background(), method, params)
}

func (s *Server) logError(msg string) {
	s.notify(protocol.ServerWindowLogMessage, protocol.LogMessageParams{Type: protocol.MessageTypeError, Message: msg})
}

// at finds the spot at a protocol position of a document, in the last
// check of its folder.
func (s *Server) at(params protocol.TextDocumentPositionParams) (spot, bool) {
	p := pathOf(params.TextDocument.URI)
	snap := s.lastCheck(p)
	if snap == nil {
		return spot{}, false
	}
	line, col := gwlintPosition(s.fileLines(p), params.Position)
	return locate(snap.graphs, p, line, col)
}

func (s *Server) hover(_ *glsp.Context, params *protocol.HoverParams) (*protocol.Hover, error) {
	sp, ok := s.at(params.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	text := hoverText(sp)
	if text == "" {
		return nil, nil
	}
	return &protocol.Hover{Contents: protocol.MarkupContent{Kind: protocol.MarkupKindMarkdown, Value: text}}, nil
}

func (s *Server) location(pl place) protocol.Location {
	m := pl.obj.Metadata()
	text := s.fileLines(m.Source.File)
	pos := m.Position(pl.path)
	start := lspPosition(text, pos.Line, pos.Col)
	return protocol.Location{URI: uriOf(m.Source.File), Range: protocol.Range{Start: start, End: lineEnd(text, pos.Line)}}
}

func (s *Server) definition(_ *glsp.Context, params *protocol.DefinitionParams) (any, error) {
	sp, ok := s.at(params.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	pl, ok := definition(sp)
	if !ok {
		return nil, nil
	}
	return s.location(pl), nil
}

func (s *Server) references(_ *glsp.Context, params *protocol.ReferenceParams) ([]protocol.Location, error) {
	sp, ok := s.at(params.TextDocumentPositionParams)
	if !ok {
		return nil, nil
	}
	var out []protocol.Location
	for _, pl := range references(sp) {
		out = append(out, s.location(pl))
	}
	return out, nil
}

func (s *Server) codeAction(_ *glsp.Context, params *protocol.CodeActionParams) (any, error) {
	p := pathOf(params.TextDocument.URI)
	snap := s.lastCheck(p)
	if snap == nil {
		return nil, nil
	}
	texts := s.linesCache()
	text := texts(p)
	var out []protocol.CodeAction
	for _, finding := range byFile(snap.findings)[p] {
		d := diagnostics([]lint.Finding{finding}, text, texts)[0]
		if d.Range.Start.Line > params.Range.End.Line || d.Range.Start.Line < params.Range.Start.Line {
			continue
		}
		out = append(out, fixes(finding, snap.graphs, text, texts, d)...)
	}
	return out, nil
}
