package gcpolicy

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"testing"
)

// TestServer follows a language server: a folder's load under a limit
// of its input, then edits whose garbage is collected only when asked.
func TestServer(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	growth := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	collections := func() uint32 {
		var stats runtime.MemStats
		runtime.ReadMemStats(&stats)
		return stats.NumGC
	}
	file := filepath.Join(t.TempDir(), "routes.yaml")
	if err := os.WriteFile(file, make([]byte, 20<<20), 0o644); err != nil {
		t.Fatal(err)
	}
	p := NewServer()

	p.Load([]string{file})
	if limit := debug.SetMemoryLimit(-1); limit < loadLimit(20<<20) || limit > loadLimit(20<<20)+liveHeap()+(64<<20) {
		t.Errorf("while loading: memory limit %d, want 7× the input's bytes above the heap", limit)
	}
	if got := growth(); got != largeGrowth {
		t.Errorf("while loading: GOGC %d, want %d", got, largeGrowth)
	}
	before := collections()
	p.Checked()
	if collections() == before {
		t.Error("the load's check did not end with a collection")
	}
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("once loaded: memory limit %d, want none", limit)
	}
	if got := growth(); got != 100 {
		t.Errorf("once loaded: GOGC %d, want 100", got)
	}

	// No collection of the runtime's own may hide one of the policy's.
	debug.SetGCPercent(-1)
	before = collections()
	p.Collect()
	if collections() != before {
		t.Error("Collect collected after the load's collection, with nothing owed")
	}
	p.Checked()
	p.Collect()
	if after := collections(); after == before {
		t.Error("Collect did not collect after an edit's check")
	} else if p.Collect(); collections() != after {
		t.Error("Collect collected twice for one check")
	}
}

// A GOGC or GOMEMLIMIT in the environment is the user's, and so is the
// collector.
func TestServerLeavesTheUsersChoice(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(150))
	t.Setenv("GOGC", "150")
	p := NewServer()
	p.Load([]string{"routes.yaml"})
	p.Checked()
	if limit := debug.SetMemoryLimit(-1); limit != math.MaxInt64 {
		t.Errorf("memory limit %d, want none", limit)
	}
	if p := debug.SetGCPercent(150); p != 150 {
		t.Errorf("GOGC %d, want the user's 150", p)
	}
	// A nil policy is none.
	var nilPolicy *Server
	nilPolicy.Load([]string{"routes.yaml"})
	nilPolicy.Checked()
	nilPolicy.Collect()
}
