package gcpolicy

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"
)

func TestSet(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	current := func() int {
		p := debug.SetGCPercent(100)
		debug.SetGCPercent(p)
		return p
	}
	big := filepath.Join(t.TempDir(), "big.yaml")
	if err := os.WriteFile(big, make([]byte, SmallBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	// A monorepo of small files: its input allows less than the runtime
	// holds, so the limit is the least one.
	smallFiles := t.TempDir()
	for i := range SmallRun + 1 {
		if err := os.WriteFile(filepath.Join(smallFiles, fmt.Sprintf("m%d.yaml", i)), []byte("kind: Namespace\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		name                 string
		gogc                 string
		files                []string
		whileLoading, loaded int // GOGC
		large                bool
	}{
		{"pre-commit", "", make([]string, 3), 400, 400, false},
		{"small repository", "", make([]string, SmallRun), 400, 400, false},
		// Large runs grow threefold under a limit, and at the default
		// until their size, which bounds it, is known.
		{"monorepo of files that are not there", "", make([]string, SmallRun+1), 100, largeGrowth, true},
		{"a monorepo of small files", "", []string{smallFiles}, largeGrowth, largeGrowth, true},
		{"stdin, of unknown size", "", []string{"-"}, 100, largeGrowth, true},
		{"one large file", "", []string{big}, largeGrowth, largeGrowth, true},
		{"a directory of one large file", "", []string{filepath.Dir(big)}, largeGrowth, largeGrowth, true},
		{"a small directory", "", []string{"."}, 400, 400, false},
		{"user's GOGC", "150", make([]string, 10_000), 100, 100, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("GOGC", tt.gogc)
			t.Setenv("GOMEMLIMIT", "")
			debug.SetGCPercent(100)
			defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
			loaded := Set(tt.files)
			if got := current(); got != tt.whileLoading {
				t.Errorf("while loading: GOGC %d, want %d", got, tt.whileLoading)
			}
			// A large run of known size is bounded by its input from the start.
			_, bytes := measure(tt.files)
			if limit := debug.SetMemoryLimit(-1); tt.large && bytes > 0 && limit != max(inputLimit(bytes), minLimit) {
				t.Errorf("while loading: memory limit %d, want 7.5× the input's %d bytes, at least %d", limit, bytes, minLimit)
			}
			loaded()
			if got := current(); got != tt.loaded {
				t.Errorf("once loaded: GOGC %d, want %d", got, tt.loaded)
			}
			// Large runs get a memory limit, above the live heap.
			limit := debug.SetMemoryLimit(-1)
			if tt.large != (limit != math.MaxInt64) {
				t.Errorf("once loaded: memory limit %d, want one: %v", limit, tt.large)
			} else if tt.large && limit <= liveHeap() {
				t.Errorf("memory limit %d is not above the live heap %d", limit, liveHeap())
			} else if tt.large && limit < inputLimit(bytes) {
				t.Errorf("memory limit %d is below 7.5× the input's %d bytes", limit, bytes)
			}
		})
	}
}
