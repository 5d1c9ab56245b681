package render

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render/internal/job"
)

// Limits bound each render. A chart's templates and a kustomization's
// transformers are programs that the inputs' author wrote, so a render
// runs in a worker process of its own (the program gwlint-render, see
// findWorker) that can be stopped: a template that loops, recurses or allocates
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
func (r *Renderer) run(req job.Request, what string) job.Response {
	req.Roots = r.Boundary.Roots()
	req.Output, req.Memory = r.Limits.Output, r.Limits.Memory
	w, err := r.worker()
	if err != nil {
		return job.Failed(what, "cannot start a render worker: "+err.Error())
	}
	resp, err := w.do(req, r.Limits)
	if err != nil {
		w.stop()
		switch {
		case errors.Is(err, errTimeout):
			return job.Failed(what, fmt.Sprintf("rendering took longer than %s, the limit of one render: stopped (a template or transformer that loops or recurses without end?)", r.Limits.Time))
		case errors.Is(err, errMemory):
			return job.Failed(what, fmt.Sprintf("rendering used more than %d MiB of memory, the limit of one render: stopped (a template that builds huge strings, or a YAML alias bomb?)", r.Limits.Memory>>20))
		}
		return job.Failed(what, "the render worker failed: "+err.Error())
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

// worker is one worker process.
type worker struct {
	cmd      *exec.Cmd
	requests io.WriteCloser
	replies  io.ReadCloser
	stderr   bytes.Buffer // what the Go runtime says when it crashes
}

// WorkerProgram is the render worker's program. It alone links Helm's and
// kustomize's packages, whose initialisation would cost every run of
// gwlint and gwctl, rendering or not, more than a small check takes.
const WorkerProgram = "gwlint-render"

// findWorker returns the worker's program: beside this executable, where
// a release archive, make install and go install put it, else on PATH.
// It is looked for only when something is to be rendered.
func findWorker() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	name := WorkerProgram
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	beside := filepath.Join(filepath.Dir(exe), name)
	if info, err := os.Stat(beside); err == nil && info.Mode().IsRegular() {
		return beside, nil
	}
	if p, err := exec.LookPath(WorkerProgram); err == nil {
		return p, nil
	}
	return "", fmt.Errorf("%s, the program that renders charts and kustomizations for gwlint and gwctl, is neither beside %s nor on PATH: "+
		"install it with `go install github.com/gwlint/gwlint/cmd/gwlint-render@VERSION` (the version of gwlint) or `make install`, "+
		"or use a release archive, which holds it", WorkerProgram, exe)
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
	exe, err := findWorker()
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
		w.cmd.Env = []string{job.WorkerEnv + "=" + job.Protocol}
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
func (w *worker) do(req job.Request, limits Limits) (job.Response, error) {
	type result struct {
		resp job.Response
		err  error
	}
	done := make(chan result, 1)
	go func() {
		var res result
		if res.err = job.WriteFrame(w.requests, req); res.err == nil {
			// JSON may escape each byte of the output in six.
			res.err = job.ReadFrame(w.replies, 6*limits.Output+1<<20, &res.resp)
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
				return job.Response{}, w.failure(res.err)
			}
			return res.resp, nil
		case <-timer.C:
			return job.Response{}, errTimeout
		case <-poll.C:
			if rss, ok := residentSize(w.cmd.Process.Pid); ok && rss > limits.Memory {
				return job.Response{}, errMemory
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
	if msg := w.stderr.String(); strings.HasPrefix(msg, job.ProtocolMismatch) {
		return errors.New(strings.TrimSpace(msg))
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
