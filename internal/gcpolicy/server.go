package gcpolicy

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"sync"
)

// Server is the collector's policy for a language server (gwlint lsp),
// which loads each workspace folder once, keeps it, and checks it again
// after every edit. A GOGC or GOMEMLIMIT in the environment is the user's
// choice and is left alone.
//
//   - A check that reads every file of a folder (its first) runs as a
//     large run of gwlint check loads (Set): the heap grows to three times
//     what the last collection left, under a soft limit (loadLimit) above
//     what the heap held before (the other folders). Once it has
//     published, a collection leaves only what the server keeps, its
//     freed pages go back to the system, and the default growth
//     (GOGC=100) without a limit takes over.
//   - Each check of an edit then builds a graph and drops the last (it
//     allocated 43 MB, against 108 MB kept live, on the 10,000-route
//     corpus; 27 MB since the Cache shares the routes' backends).
//     Left to the default growth, a collection fell in the middle of a
//     check every few edits, measured both graphs live, and let the heap
//     grow to twice that: 317-320 MiB at the peak, 12× the corpus. The
//     server collects instead (Collect) between checks, during an edit's
//     debounce, when it waits anyway: each check starts from what the
//     server keeps and grows by one check's allocations, with no
//     collection inside it. Measured there (docs/lsp.md): a peak of
//     196-201 MiB, 7.4-7.6×. Returning the freed pages too (debug.FreeOSMemory)
//     lowered it by 2 MB and made each edit 8 ms slower.
//
// A nil *Server leaves the collector alone.
type Server struct {
	user bool

	mu sync.Mutex
	// loading is true from Load to the end of its check.
	loading bool
	// owed is true when a check ran since the last collection.
	owed bool
}

// NewServer returns the policy of a language server.
func NewServer() *Server {
	return &Server{user: os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != ""}
}

// Load sets the collector for a check that reads every file of a folder:
// files are what it reads.
func (p *Server) Load(files []string) {
	if p == nil || p.user {
		return
	}
	_, bytes := measure(files)
	// A collection first measures what the heap holds exactly (the other
	// folders), without the garbage of their last checks.
	runtime.GC()
	debug.SetMemoryLimit(liveHeap() + max(loadLimit(bytes), minLimit))
	debug.SetGCPercent(largeGrowth)
	p.mu.Lock()
	p.loading = true
	p.mu.Unlock()
}

// Checked is called once a check has published what it found. After a
// load, it collects at once, returns the freed pages and sets the
// default growth without a limit; after an edit's check, what the check
// dropped is owed a collection (Collect).
func (p *Server) Checked() {
	if p == nil || p.user {
		return
	}
	p.mu.Lock()
	loaded := p.loading
	p.loading, p.owed = false, !loaded
	p.mu.Unlock()
	if loaded {
		debug.FreeOSMemory()
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
	}
}

// Collect collects what the checks since the last collection dropped,
// if any. The server calls it between checks when it has time to (an
// edit's debounce).
func (p *Server) Collect() {
	if p == nil {
		return
	}
	p.mu.Lock()
	owed := p.owed
	p.owed = false
	p.mu.Unlock()
	if owed {
		runtime.GC()
	}
}

// loadLimit is the soft memory limit of a folder's load, of the given
// input bytes, above what the heap held before: 7× them. The server keeps
// more than a run of gwlint check (each file's objects apart, and what
// its Cache derived), and the limit binds as it loads: its peak is then
// the limit and the binary's pages. At 7.5×, check's limit, the load's
// peak was 7.8-7.9× on the 10,000-route corpus; at 7×, 7.4× (its edits
// peak there too), and the load took no longer (docs/lsp.md).
func loadLimit(bytes int64) int64 { return bytes * 7 }
