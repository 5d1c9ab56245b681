package e2e

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gwlint/gwlint/internal/benchutil"

	"github.com/sourcegraph/jsonrpc2"
)

// lspEdits is how many edits BenchmarkResources's lsp makes after the
// initial load: each changes the world's objects and so re-resolves the
// whole folder, so that what the server holds while it checks again counts
// in its peak.
const lspEdits = 10

// measureLSP runs `gwlint lsp` as an editor would on the corpus directory:
// it opens one file, waits for its diagnostics, edits it lspEdits times
// (adding benchutil.LSPEdit, then taking it out), waiting for the
// diagnostics of each, and shuts the server down. It reports the server
// process's peak RSS against the corpus's bytes, the bound of gwlint check.
func measureLSP(b *testing.B, gwlint, dir, file string, corpusBytes int64) {
	var peak int64
	for b.Loop() {
		peak = max(peak, lspPeak(b, gwlint, dir, file))
	}
	b.ReportMetric(float64(peak)/(1<<20), "peak-MiB")
	b.ReportMetric(float64(peak)/float64(corpusBytes), "rss-x-input")
	b.ReportMetric(float64(corpusBytes)/(1<<20), "input-MiB")
}

func lspPeak(b *testing.B, gwlint, dir, file string) int64 {
	b.Helper()
	cmd := exec.Command(gwlint, "lsp")
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	uri := "file://" + file
	published := make(chan []json.RawMessage, 100)
	conn := jsonrpc2.NewConn(context.Background(), jsonrpc2.NewBufferedStream(stdio{stdout, stdin}, jsonrpc2.VSCodeObjectCodec{}),
		jsonrpc2.HandlerWithError(func(_ context.Context, _ *jsonrpc2.Conn, req *jsonrpc2.Request) (any, error) {
			if req.Method == "textDocument/publishDiagnostics" && req.Params != nil {
				var p struct {
					URI         string            `json:"uri"`
					Diagnostics []json.RawMessage `json:"diagnostics"`
				}
				if json.Unmarshal(*req.Params, &p) == nil && p.URI == uri {
					published <- p.Diagnostics
				}
			}
			return nil, nil
		}))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	call := func(method string, params any) {
		if err := conn.Call(ctx, method, params, nil); err != nil {
			b.Fatalf("%s: %v", method, err)
		}
	}
	notify := func(method string, params any) {
		if err := conn.Notify(ctx, method, params); err != nil {
			b.Fatalf("%s: %v", method, err)
		}
	}
	// wait waits for the file's diagnostics that do or do not report the
	// edited route.
	wait := func(added bool) {
		for {
			select {
			case ds := <-published:
				reported := false
				for _, d := range ds {
					reported = reported || strings.Contains(string(d), `"`+benchutil.LSPEditRule+`"`)
				}
				if reported == added {
					return
				}
			case <-ctx.Done():
				b.Fatalf("no diagnostics of %s (route added: %v)", file, added)
			}
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	call("initialize", map[string]any{"processId": os.Getpid(), "workspaceFolders": []map[string]string{{"uri": "file://" + dir, "name": "corpus"}}})
	notify("initialized", map[string]any{})
	notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "yaml", "version": 1, "text": string(data)}})
	wait(false)
	for i := range lspEdits {
		text, added := string(data), i%2 == 0
		if added {
			text += benchutil.LSPEdit
		}
		notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": uri, "version": i + 2},
			"contentChanges": []map[string]string{{"text": text}},
		})
		wait(added)
	}
	call("shutdown", nil)
	notify("exit", nil)
	if err := cmd.Wait(); err != nil {
		b.Fatalf("gwlint lsp: %v", err)
	}
	conn.Close()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024 // Linux reports KiB
	}
	return 0
}

// stdio is a child's stdout and stdin as one stream.
type stdio struct {
	io.ReadCloser
	io.WriteCloser
}

func (s stdio) Close() error {
	s.WriteCloser.Close()
	return s.ReadCloser.Close()
}
