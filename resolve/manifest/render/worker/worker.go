package worker

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"runtime/debug"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// exitBroken is the exit code of a worker whose pipes failed.
const exitBroken = 3

// Main is the worker program's main: it serves the requests of the gwlint
// or gwctl that started it (which says so in its environment) on file
// descriptors 3 and 4, and returns its exit code.
func Main() int {
	protocol, ok := os.LookupEnv(job.WorkerEnv)
	if !ok {
		fmt.Fprintln(os.Stderr, "gwlint-render renders charts and kustomizations for gwlint and gwctl, which start it: it is not run by hand")
		return 2
	}
	if protocol != job.Protocol {
		fmt.Fprintf(os.Stderr, "%s: it speaks render protocol %s, its parent %s; install the gwlint-render of the same release as gwlint\n",
			job.ProtocolMismatch, job.Protocol, protocol)
		return 2
	}
	return serve(os.NewFile(3, "requests"), os.NewFile(4, "responses"))
}

// serve answers requests until its parent closes them.
func serve(in, out *os.File) int {
	disconnect()
	// A render allocates much and keeps little: collecting at the default
	// growth spent a third of a GitOps repository's renders in the
	// collector. It collects at 5× what is live instead, and harder near
	// half the memory a render may hold (its parent watches the resident
	// size), which also returns memory to the system between renders.
	debug.SetGCPercent(400)
	for {
		var req job.Request
		if err := job.ReadFrame(in, 1<<30, &req); err != nil { // from the parent: trusted
			if errors.Is(err, io.EOF) {
				return 0
			}
			return exitBroken
		}
		if req.Memory > 0 {
			debug.SetMemoryLimit(req.Memory / 2)
		}
		resp := handle(req)
		if err := job.WriteFrame(out, resp); err != nil {
			return exitBroken
		}
	}
}

// handle runs one render inside the worker.
func handle(req job.Request) (resp job.Response) {
	defer func() {
		// A panic in a renderer (Helm, kustomize) is this render's error.
		if v := recover(); v != nil {
			resp = job.Response{Errors: []*manifest.ReadError{{File: req.Dir, Msg: fmt.Sprintf("render failed: internal error: %v", v)}}}
		}
	}()
	b := manifest.NewBoundary(req.Roots...)
	if req.Kustomize {
		return buildKustomization(req, b)
	}
	return renderChart(req, b)
}

// disconnect makes the process's HTTP clients on the default transport, and
// its host name lookups, fail: a render must not reach the network from a
// CI runner, whatever a chart or a kustomization names (kustomize's remote
// bases and files are refused before, at their line). It is called once,
// in a worker, before its first render.
func disconnect() {
	http.DefaultTransport = offlineTransport{}
	net.DefaultResolver = &net.Resolver{PreferGo: true, Dial: func(context.Context, string, string) (net.Conn, error) {
		return nil, errOffline
	}}
}

var errOffline = errors.New("gwlint fetches nothing")

type offlineTransport struct{}

func (offlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("%s %s: %w", req.Method, req.URL.Redacted(), errOffline)
}
