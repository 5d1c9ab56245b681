// Package gcpolicy sets the garbage collector for one run of gwlint check
// or a gwctl command, by its size. It is shared by cmd/gwlint, cmd/gwctl
// and the end-to-end benchmark, so that the benchmark measures what users
// run.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"

	"github.com/gwlint/gwlint/resolve/manifest"
)

// SmallRun is the number of files, and SmallBytes their total size, up to
// which a run counts as small: a pre-commit hook's handful of files, or a
// small repository. One large file (a rendered chart, a cluster's objects
// saved as a List) is a large run.
const (
	SmallRun   = 500
	SmallBytes = 4 << 20
)

// Set sets the collector for a run over the input paths (files,
// directories, "-" for stdin) and returns the function to call once the
// inputs are loaded. A GOGC or GOMEMLIMIT in the environment is the user's
// choice and is left alone.
//
//   - Small runs (at most SmallRun files of at most SmallBytes in all, and
//     no stdin, which may bring `kubectl get -A -o yaml` of a whole
//     cluster) let the heap grow fourfold before collecting (GOGC=400):
//     their peak stays in the tens of megabytes, and the collections the
//     default would make cost a fifth of their time.
//   - Large runs collect at 50% growth while loading, then at 30%: the
//     heap then holds everything loaded (about 4× the input bytes), and
//     resolving and linting only add to it, so the default's headroom of
//     100% would set the peak RSS. Measured on the 10,000-route corpus
//     (27.8 MB): 220-226 MiB at the default, 193-203 MiB at 70/30 and
//     187-197 MiB at 50/30 (7.4x the corpus at most), for 10-25% more CPU
//     (docs/performance.md).
//   - Large runs also get, once loaded, a soft memory limit of 1.5× the
//     live heap plus 64 MiB, which makes the runtime return freed pages at
//     once and hold the peak down. With the Kustomize and Helm libraries
//     (36 MiB more of the binary resident), one 50 MB file peaked at 8.8×
//     its size without it and 7.7× with it, in 22 collections instead of
//     16; on the medium corpus 32 instead of 30. A tighter limit (1.25×
//     plus 32 MiB) had the collector run back to back: the runtime counts
//     all the memory it holds against the limit, not the live heap alone.
//     The limit is soft: a run whose live heap outgrows it is slowed (the
//     runtime caps collection at half the CPU), never stopped.
func Set(paths []string) (loaded func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	if small(paths) {
		debug.SetGCPercent(400)
		return func() {}
	}
	debug.SetGCPercent(50)
	return func() {
		debug.SetGCPercent(30)
		// A collection now measures the live heap exactly: a stale, low
		// measure would set a limit below it.
		runtime.GC()
		debug.SetMemoryLimit(liveHeap()*3/2 + 64<<20)
	}
}

// liveHeap returns the bytes the last collection found live.
func liveHeap() int64 {
	sample := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	return int64(sample[0].Value.Uint64())
}

// small reports whether paths hold at most SmallRun manifest files of at
// most SmallBytes in all. Stdin is never small. What cannot be stat'ed
// counts as a file of no bytes.
func small(paths []string) bool {
	if slices.Contains(paths, "-") {
		return false
	}
	var files []string
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			tree, _ := manifest.Walk(p, nil, manifest.BoundaryFor(p))
			found := tree.Files
			files = append(files, found...)
		} else {
			files = append(files, p)
		}
		if len(files) > SmallRun {
			return false
		}
	}
	var n int64
	for _, f := range files {
		if info, err := os.Stat(f); err == nil {
			n += info.Size()
		}
	}
	return n <= SmallBytes
}
