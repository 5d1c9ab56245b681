package e2e

import (
	"bytes"
	"io"
	"os/exec"
	"slices"
	"syscall"
	"testing"
	"time"
)

// smallFile is one small Gateway and its route: what a pre-commit hook
// hands gwlint when one manifest is staged.
const smallFile = "../../testdata/each-dir/section-typo/example.yaml"

// BenchmarkStartup measures what a process pays before and around its
// work, as whole processes built from this tree: `gwlint version`, and
// `gwlint check --no-config` on one small file, against the floor program
// (hack/floor) on the same file. Each op runs the three in turn, so that a
// change in the machine's load falls on all of them; the metrics are the
// medians over the ops: floor-ms, version-ms, check-ms, their x-floor, and
// check-peak-MiB, the check's peak RSS (which counts the pages of the
// binary that startup touches). See docs/performance.md.
func BenchmarkStartup(b *testing.B) {
	gwlint, flr := command(b, "gwlint"), command(b, "floor")
	runs := map[string][]time.Duration{}
	var peaks []int64
	for b.Loop() {
		runs["floor"] = append(runs["floor"], run(b, nil, flr, smallFile).wall)
		runs["version"] = append(runs["version"], run(b, nil, gwlint, "version").wall)
		c := run(b, nil, gwlint, "check", "--no-config", smallFile)
		runs["check"] = append(runs["check"], c.wall)
		peaks = append(peaks, c.peak)
	}
	floor := median(runs["floor"])
	for _, name := range []string{"floor", "version", "check"} {
		d := median(runs[name])
		b.ReportMetric(float64(d)/float64(time.Millisecond), name+"-ms")
		if name != "floor" {
			b.ReportMetric(float64(d)/float64(floor), name+"-x-floor")
		}
	}
	b.ReportMetric(float64(median(peaks))/(1<<20), "check-peak-MiB")
}

// process is what one run of a command cost.
type process struct {
	wall time.Duration
	peak int64 // bytes of peak RSS
}

// run runs the command to its end, on stdin when it is not nil; exit
// status 1 (findings) is success.
func run(b testing.TB, stdin io.Reader, name string, args ...string) process {
	b.Helper()
	cmd := exec.Command(name, args...)
	cmd.Stdin, cmd.Stdout = stdin, io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if ee, ok := err.(*exec.ExitError); err != nil && (!ok || ee.ExitCode() > 1) {
		b.Fatalf("%s %v: %v\n%s", name, args, err, stderr.String())
	}
	p := process{wall: wall}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		p.peak = ru.Maxrss * 1024 // Linux reports KiB
	}
	return p
}

func median[T int64 | time.Duration](xs []T) T {
	s := slices.Sorted(slices.Values(xs))
	return s[len(s)/2]
}
