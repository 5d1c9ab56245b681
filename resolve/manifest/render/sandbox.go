package render

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"sync"
	"time"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// Limits bound each render. A chart's templates and a kustomization's
// transformers are programs that the inputs' author wrote, so a render
// runs in a worker process of its own (this same executable, see init)
// that can be stopped: a template that loops, recurses or allocates
// without end costs a finding, not the run.
type Limits struct {
	// Time is the longest one render may take.
	Time time.Duration
	// Memory is the most heap a worker may hold while rendering.
	Memory int64 // resident, where the system tells it (Linux)
	// Output is the most text one render may produce: every template of a
	// chart, every resource of a build, together.
	Output int
}

// DefaultLimits are far above what real renders need (see
// docs/security.md: the largest charts measured render a few MiB in well
// under a second) and far below what would hurt a CI runner.
var DefaultLimits = Limits{Time: 5 * time.Second, Memory: 1 << 30, Output: 32 << 20}

// workerEnv, set in a process's environment, makes it a render worker
// (see init).
const workerEnv = "GWLINT_RENDER_WORKER"

// exitBroken is the exit code of a worker whose pipes failed.
const exitBroken = 3

// init turns this process into a render worker when started as one: every
// binary that renders (gwlint, gwctl, and the tests of the packages that
// call them) can then start workers from its own executable, with nothing
// to install. A worker never returns to the program's main.
func init() {
	if _, ok := os.LookupEnv(workerEnv); ok {
		os.Exit(serve(os.NewFile(3, "requests"), os.NewFile(4, "responses")))
	}
}

// request is one render asked of a worker.
type request struct {
	Kustomize bool // else Helm
	Dir       string
	Roots     []string // the boundary (manifest.Boundary)
	Output    int      // Limits.Output

	// Kustomize only: the Flux Kustomization that builds Dir, if any.
	Flux *FluxBuild

	// Helm only. The values files are read by the parent, each within
	// its own boundary (Renderer.Values).
	ValueFiles  []string
	Values      [][]byte
	ReleaseName string
	Namespace   string
	APIVersions []string
	CRDs        bool // the chart's crds/ are rendered too (helm template --include-crds)
}

// response is what a render produced, still unread text: the parent parses
// it, with the limits every manifest is read with.
type response struct {
	Templates []template // Helm: the rendered templates, sorted by name
	Resources []built    // Kustomize: the resources of the build, in order
	// Kustomize: the templates of helmCharts as their charts rendered
	// them, named by their files relative to the directory built.
	Inflated []template
	Errors   []*manifest.ReadError
}

// serve answers requests until its parent closes them.
func serve(in, out *os.File) int {
	disconnect()
	for {
		var req request
		if err := readFrame(in, 1<<30, &req); err != nil { // from the parent: trusted
			if errors.Is(err, io.EOF) {
				return 0
			}
			return exitBroken
		}
		resp := handle(req)
		if err := writeFrame(out, resp); err != nil {
			return exitBroken
		}
		debug.FreeOSMemory() // the next render starts small: its parent watches its resident size
	}
}

// handle runs one render inside the worker.
func handle(req request) (resp response) {
	defer func() {
		// A panic in a renderer (Helm, kustomize) is this render's error.
		if v := recover(); v != nil {
			resp = response{Errors: []*manifest.ReadError{{File: req.Dir, Msg: fmt.Sprintf("render failed: internal error: %v", v)}}}
		}
	}()
	b := manifest.NewBoundary(req.Roots...)
	if req.Kustomize {
		return buildKustomization(req, b)
	}
	return renderChart(req, b)
}

// Renderer renders charts and kustomizations in worker processes, inside
// a boundary and within limits. Its methods may be called from several
// goroutines; Close stops its workers.
type Renderer struct {
	// Boundary is what a chart or a kustomization may read.
	Boundary manifest.Boundary
	// Values is what a Helm values file may be: the user names each.
	Values manifest.Boundary
	Limits Limits

	mu   sync.Mutex
	idle []*worker
}

// NewRenderer renders within boundary b (values files too) and
// DefaultLimits.
func NewRenderer(b manifest.Boundary) *Renderer {
	return &Renderer{Boundary: b, Values: b, Limits: DefaultLimits}
}

// Close stops the idle workers. A Renderer can still be used after it,
// starting new ones.
func (r *Renderer) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, w := range r.idle {
		w.stop()
	}
	r.idle = nil
}

// errTimeout, errMemory: a render that went past its limits.
var (
	errTimeout = errors.New("timeout")
	errMemory  = errors.New("memory")
)

// run has a worker render req, and says why not when it could not: a
// render past its limits is an error at what, which names the chart or
// kustomization (its Chart.yaml or kustomization file).
func (r *Renderer) run(req request, what string) response {
	req.Roots = r.Boundary.Roots()
	req.Output = r.Limits.Output
	w, err := r.worker()
	if err != nil {
		return failed(what, "cannot start a render worker: "+err.Error())
	}
	resp, err := w.do(req, r.Limits)
	if err != nil {
		w.stop()
		switch {
		case errors.Is(err, errTimeout):
			return failed(what, fmt.Sprintf("rendering took longer than %s, the limit of one render: stopped (a template or transformer that loops or recurses without end?)", r.Limits.Time))
		case errors.Is(err, errMemory):
			return failed(what, fmt.Sprintf("rendering used more than %d MiB of memory, the limit of one render: stopped (a template that builds huge strings, or a YAML alias bomb?)", r.Limits.Memory>>20))
		}
		return failed(what, "the render worker failed: "+err.Error())
	}
	r.mu.Lock()
	r.idle = append(r.idle, w)
	r.mu.Unlock()
	// kustomize names the files it reads by absolute paths; they are
	// shown as the inputs are.
	for _, e := range resp.Errors {
		e.File = Shown(e.File, req.Dir)
	}
	return resp
}

// Shown is a path as like, an input's path, is named: as it is when like
// is absolute, else relative to the working directory.
func Shown(path, like string) string {
	if filepath.IsAbs(like) || !filepath.IsAbs(path) {
		return path
	}
	wd, err := os.Getwd()
	if err != nil {
		return path
	}
	if rel, err := filepath.Rel(wd, path); err == nil {
		return rel
	}
	return path
}

func failed(file, msg string) response {
	return response{Errors: []*manifest.ReadError{{File: file, Msg: msg}}}
}

// worker is one worker process.
type worker struct {
	cmd      *exec.Cmd
	requests io.WriteCloser
	replies  io.ReadCloser
	stderr   bytes.Buffer // what the Go runtime says when it crashes
}

// worker returns an idle worker, or starts one.
func (r *Renderer) worker() (*worker, error) {
	r.mu.Lock()
	if n := len(r.idle); n > 0 {
		w := r.idle[n-1]
		r.idle = r.idle[:n-1]
		r.mu.Unlock()
		return w, nil
	}
	r.mu.Unlock()
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	reqR, reqW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	respR, respW, err := os.Pipe()
	if err != nil {
		reqR.Close()
		reqW.Close()
		return nil, err
	}
	w := &worker{requests: reqW, replies: respR}
	start := func(isolated bool) error {
		w.cmd = exec.Command(exe)
		// An empty environment: a template has nothing of the CI's to
		// read, even through a hole in the boundary.
		w.cmd.Env = []string{workerEnv + "=1"}
		w.cmd.ExtraFiles = []*os.File{reqR, respW}
		w.stderr.Reset()
		w.cmd.Stderr = &limitedWriter{w: &w.stderr, n: 4 << 10}
		if isolated {
			isolate(w.cmd)
		}
		return w.cmd.Start()
	}
	// Where the system lets it, the worker has no network at all; where
	// it does not, it is disconnected all the same (disconnect).
	err = start(true)
	if err != nil {
		err = start(false)
	}
	reqR.Close()
	respW.Close()
	if err != nil {
		reqW.Close()
		respR.Close()
		return nil, err
	}
	return w, nil
}

// do sends one request and waits for its response, at most limits.Time.
func (w *worker) do(req request, limits Limits) (response, error) {
	type result struct {
		resp response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var res result
		if res.err = writeFrame(w.requests, req); res.err == nil {
			// JSON may escape each byte of the output in six.
			res.err = readFrame(w.replies, 6*limits.Output+1<<20, &res.resp)
		}
		done <- res
	}()
	timer := time.NewTimer(limits.Time)
	defer timer.Stop()
	// The worker's memory is watched from here: a worker cannot watch its
	// own, as one huge allocation stops all of its goroutines while the
	// collector waits for it.
	poll := time.NewTicker(10 * time.Millisecond)
	defer poll.Stop()
	for {
		select {
		case res := <-done:
			if res.err != nil {
				return response{}, w.failure(res.err)
			}
			return res.resp, nil
		case <-timer.C:
			return response{}, errTimeout
		case <-poll.C:
			if rss, ok := residentSize(w.cmd.Process.Pid); ok && rss > limits.Memory {
				return response{}, errMemory
			}
		}
	}
}

// failure explains a worker that stopped answering.
func (w *worker) failure(err error) error {
	w.stop()
	if bytes.Contains(w.stderr.Bytes(), []byte("out of memory")) {
		return errMemory
	}
	return err
}

// stop ends the worker and waits for it.
func (w *worker) stop() {
	w.requests.Close()
	if w.cmd.ProcessState == nil {
		_ = w.cmd.Process.Kill()
		_ = w.cmd.Wait()
	}
	w.replies.Close()
}

// writeFrame writes v as JSON, preceded by its length.
func writeFrame(w io.Writer, v any) error {
	data, err := json.Marshal(v)
	if err != nil {
		return err
	}
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(data)))
	if _, err := w.Write(n[:]); err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}

// readFrame reads a frame of at most max bytes into v.
func readFrame(r io.Reader, max int, v any) error {
	var n [8]byte
	if _, err := io.ReadFull(r, n[:]); err != nil {
		return err
	}
	size := binary.BigEndian.Uint64(n[:])
	if size > uint64(max) {
		return fmt.Errorf("a reply of %d bytes, more than the %d allowed", size, max)
	}
	data := make([]byte, size)
	if _, err := io.ReadFull(r, data); err != nil {
		return err
	}
	return json.Unmarshal(data, v)
}

// limitedWriter keeps the first n bytes written to it.
type limitedWriter struct {
	w io.Writer
	n int
}

func (l *limitedWriter) Write(p []byte) (int, error) {
	if l.n > 0 {
		k := min(len(p), l.n)
		l.n -= k
		_, _ = l.w.Write(p[:k])
	}
	return len(p), nil
}
