// Package gcpolicy sets the garbage collector for one run of gwlint check
// or a gwctl command, by its size. It is shared by cmd/gwlint, cmd/gwctl
// and the end-to-end benchmark, so that the benchmark measures what users
// run.
package gcpolicy

import (
	"os"
	"runtime"
	"runtime/debug"
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
//     cluster) let the heap grow to five times what the last collection
//     left before collecting again (GOGC=400):
//     their peak stays in the tens of megabytes, and the collections the
//     default would make cost a fifth of their time.
//   - Large runs let the heap grow to three times what the last
//     collection left (GOGC=200) under a soft memory limit: 7.5× their input bytes (at
//     least 64 MiB) from the start (when their size is known), and once
//     loaded, after one collection that measures the live heap, 1.5× the
//     live heap plus 64 MiB where that is more: resolving adds about half
//     the heap loading left (76 MB live after loading, about 120 MB at its
//     largest on the 10,000-route corpus). The limit, not the growth,
//     holds the peak: it makes the runtime collect, and return freed
//     pages, only as the peak nears what the input allows. Below it, the
//     default growth (GOGC=100) collected twice as often for nothing.
//     Measured (docs/performance.md): medium 175 MiB (6.6×) and 8-17%
//     less CPU than at the default growth (170 MiB), itself 10-20% less
//     time than the 50%/30% growth before it; one file of 400,000 small
//     Services 337 MiB (7.7×), held by the limit. The limit is soft: a run
//     whose live heap outgrows it is slowed (the runtime caps collection
//     at half the CPU), never stopped.
func Set(paths []string) (loaded func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	files, bytes := measure(paths)
	if files <= SmallRun && bytes >= 0 && bytes <= SmallBytes {
		debug.SetGCPercent(400)
		return func() {}
	}
	if bytes > 0 {
		debug.SetMemoryLimit(max(inputLimit(bytes), minLimit))
		debug.SetGCPercent(largeGrowth)
	}
	return func() {
		// A collection now measures the live heap exactly: a stale, low
		// measure would set a limit below it.
		runtime.GC()
		debug.SetMemoryLimit(max(liveHeap()*3/2+minLimit, inputLimit(bytes)))
		// Without a size (stdin, or files of no bytes), loading ran at the
		// default growth and no limit: the limit comes only now.
		debug.SetGCPercent(largeGrowth)
	}
}

// largeGrowth is the GOGC of a large run, under its soft memory limit.
// Above 200 the limit binds more often and no run was faster (300 measured).
const largeGrowth = 200

// minLimit is the least soft memory limit: a run of many small files (600
// of 500 bytes) would otherwise start under a limit of a few megabytes,
// below what the runtime itself holds, and collect back to back (350
// collections and 8× the time, measured).
const minLimit = 64 << 20

// inputLimit is the soft memory limit of a large run of the given input
// bytes, 7.5× them: the peak may reach 8× the input, and the binary's
// pages take the rest. At 7× the limit bound on the medium corpus in
// every run, and the collector worked through resolving; at 7.5× it seldom
// does there (a run 3-4% faster, at a peak of 181-186 MiB, 6.8-7.0×),
// and it holds a file of 400,000 small Services at 337 MiB, 7.7×
// (2026-11-27, docs/performance.md).
func inputLimit(bytes int64) int64 { return bytes * 15 / 2 }

// liveHeap returns the bytes of the heap, which are the live heap right
// after a collection. (runtime/metrics says the same, at 0.15 ms more of
// every start to initialise it: a pre-commit run is 5 ms.)
func liveHeap() int64 {
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	return int64(stats.HeapAlloc)
}

// measure counts the manifest files of paths and their bytes; bytes is -1
// when stdin is among them (its size is unknown). What cannot be stat'ed
// counts as a file of no bytes. Paths are stat'ed on every core: a walk
// hands over thousands, one stat each, before anything else can run.
func measure(paths []string) (files int, bytes int64) {
	if slices.Contains(paths, "-") {
		return len(paths), -1
	}
	for i, st := range manifest.StatAll(paths) {
		if st.Err != nil || !st.Info.IsDir() {
			files++
			bytes += sizeOf(st)
			continue
		}
		tree, _ := manifest.Walk(paths[i], nil, manifest.BoundaryFor(paths[i]))
		for _, st := range manifest.StatAll(tree.Files) {
			bytes += sizeOf(st)
		}
		files += len(tree.Files)
	}
	return files, bytes
}

// sizeOf is a stat's size, 0 when there is none.
func sizeOf(st manifest.Stat) int64 {
	if st.Err != nil {
		return 0
	}
	return st.Info.Size()
}
