package e2e

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"os"
	"runtime/debug"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/internal/corpus"
	"github.com/gwlint/gwlint/internal/floor"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// BenchmarkPipeline is the benchmark driver: for each corpus size (see
// benchutil.Sizes; `make bench` runs small, medium and large) it measures
// the floor, then each stage of `gwlint check` on its own, then the whole
// of it, and reports each as a multiple of the floor ("x-floor"). The e2e
// sub-benchmark of a size also reports its growth over the previous size
// ("x-<size>", fastest runs), and each size ends with a printed breakdown
// table. Besides x-floor (mean times), each stage reports min-x-floor
// (fastest runs, the steadier estimate on a shared machine) and
// cpu-x-floor (CPU time, which does not show parallelism).
//
//	floor    list, read and yaml.v3-parse every file on every core (internal/floor)
//	read     list and read every file on every core (no parsing)
//	parse    manifest.Read: read, parse, JSON and positions
//	load     resolve.Load: parse, then decode, CRD-validate and default (every core)
//	resolve  resolve.Resolve over loaded inputs
//	rules    lint.Run with every default rule, ignores applied, sorted
//	output   text output of the findings to io.Discard
//	e2e      all of it, as `gwlint check` runs it
func BenchmarkPipeline(b *testing.B) {
	var prev struct {
		size     corpus.Size
		e2e, flr time.Duration
	}
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			paths := []string{dir}
			files, bytes := corpusFiles(b, dir)
			stage := map[string]time.Duration{} // mean wall time per op
			best := map[string]time.Duration{}  // fastest op
			cpu := map[string]time.Duration{}   // mean CPU time per op
			// stage runs body as the named stage's benchmark and reports
			// it against the floor: x-floor (means), min-x-floor (fastest
			// runs: the better estimate on a shared machine) and
			// cpu-x-floor (CPU time, which does not show parallelism).
			stageBench := func(name string, withBytes bool, body func(b *testing.B)) {
				b.Run(name, func(b *testing.B) {
					if withBytes {
						b.SetBytes(bytes)
					}
					m := benchutil.StartCPU()
					var fastest time.Duration
					for b.Loop() {
						start := time.Now()
						body(b)
						if d := time.Since(start); fastest == 0 || d < fastest {
							fastest = d
						}
					}
					cpu[name] = m.PerOp(b) // before ReportFloor, which may run the floor
					stage[name], best[name] = benchutil.PerOp(b), fastest
					if name == "floor" {
						benchutil.SetFloor(dir, stage[name])
					}
					benchutil.ReportFloor(b, dir)
					if f := best["floor"]; f > 0 {
						b.ReportMetric(float64(fastest)/float64(f), "min-x-floor")
					}
					b.ReportMetric(float64(cpu[name])/1e6, "cpu-ms/op")
					if f := cpu["floor"]; f > 0 {
						b.ReportMetric(float64(cpu[name])/float64(f), "cpu-x-floor")
					}
					if name == "e2e" && prev.e2e > 0 {
						b.ReportMetric(float64(fastest)/float64(prev.e2e), "x-"+string(prev.size))
					}
				})
			}

			stageBench("floor", true, func(b *testing.B) {
				if _, err := floor.Run(paths, benchutil.Workers()); err != nil {
					b.Fatal(err)
				}
			})
			stageBench("read", true, func(b *testing.B) {
				fs, err := floor.Files(paths)
				if err != nil {
					b.Fatal(err)
				}
				readAll(b, fs, benchutil.Workers())
			})
			stageBench("parse", true, func(b *testing.B) {
				if _, errs := manifest.Read(paths, nil); len(errs) > 0 {
					b.Fatal(errs[0])
				}
			})
			stageBench("load", true, func(b *testing.B) {
				if in := resolve.Load(paths, nil, checkOptions); len(in.Errors) > 0 {
					b.Fatal(in.Errors[0])
				}
			})
			// Resolve only reads its inputs (the graph is built of result
			// objects of its own), so one load serves every run.
			in := resolve.Load(paths, nil, checkOptions)
			var g *resolve.Graph
			stageBench("resolve", false, func(*testing.B) {
				g = resolve.Resolve(in, checkOptions)
			})
			var findings []lint.Finding
			stageBench("rules", false, func(*testing.B) {
				findings = runRules(g, in)
			})
			in, g = nil, nil
			stageBench("output", false, func(*testing.B) {
				writeText(io.Discard, findings)
			})
			n := 0
			stageBench("e2e", true, func(*testing.B) {
				n = check(paths, io.Discard)
			})
			// With -bench selecting some stages only, there is nothing to
			// compare or tabulate.
			if _, ran := stage["rules"]; ran && n != len(findings) {
				b.Errorf("e2e found %d findings, the stages %d", n, len(findings))
			}
			if len(stage) == len(stageNames) {
				// Printed, not logged: benchmark logs are cut at ten lines.
				fmt.Print(breakdown(size, len(files), bytes, best, cpu, prev.size, prev.e2e, prev.flr))
			}
			prev.size, prev.e2e, prev.flr = size, best["e2e"], best["floor"]
		})
	}
}

// stageNames are BenchmarkPipeline's sub-benchmarks, in order.
var stageNames = []string{"floor", "read", "parse", "load", "resolve", "rules", "output", "e2e"}

// checkOptions are gwlint check's resolve options without a configuration
// file: CRD validation on, standard channel.
var checkOptions = resolve.Options{Validate: true, Channel: crd.Standard, Implementations: implementations.All()}

// check is what `gwlint check --no-config DIRS` does (cmd/gwlint's
// runCheck, every default rule on): walk each directory once (as
// cli.FindInputs does; the corpora hold no kustomization or chart), set
// the collector for the run's size, load the files found, resolve, lint,
// apply ignores, sort and print. It returns the number of findings.
func check(dirs []string, w io.Writer) int {
	// As the process starts, and back after.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	var files []string
	for _, dir := range dirs {
		tree, errs := manifest.Walk(dir, nil, manifest.BoundaryFor(dir))
		if len(errs) > 0 || len(tree.Files) == 0 {
			panic(fmt.Sprintf("%s: no corpus to check (%v)", dir, errs))
		}
		files = append(files, tree.Files...)
	}
	loaded := gcpolicy.Set(files)
	in := resolve.Load(files, nil, checkOptions)
	loaded()
	g := resolve.Resolve(in, checkOptions)
	findings := runRules(g, in)
	writeText(w, findings)
	return len(findings)
}

// runRules is the rules stage of check.
func runRules(g *resolve.Graph, in *resolve.Inputs) []lint.Finding {
	rules := (&lint.Config{}).Rules()
	kept, _ := lint.Suppress(g, lint.Run(g, rules), rules)
	return lint.Sort(append(kept, lint.InvalidManifests(in.Errors)...))
}

// writeText prints findings the way gwlint's text output does
// ("file:line:col: severity: message [rule]", then the related notes),
// buffered.
func writeText(w io.Writer, findings []lint.Finding) {
	bw := bufio.NewWriter(w)
	var buf []byte
	for _, f := range findings {
		buf = append(buf[:0], f.File...)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(f.Line), 10)
		buf = append(buf, ':')
		buf = strconv.AppendInt(buf, int64(f.Col), 10)
		buf = append(buf, ": "...)
		buf = append(buf, f.Severity.String()...)
		buf = append(buf, ": "...)
		buf = append(buf, f.Message...)
		buf = append(buf, " ["...)
		buf = append(buf, f.Rule...)
		buf = append(buf, "]\n"...)
		for _, rel := range f.Related {
			buf = append(buf, "    "...)
			buf = append(buf, rel.Position.String()...)
			buf = append(buf, ": note: "...)
			buf = append(buf, rel.Message...)
			buf = append(buf, '\n')
		}
		bw.Write(buf)
	}
	bw.Flush()
}

// readAll reads every file with the given number of workers.
func readAll(b *testing.B, files []string, workers int) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= len(files) {
					return
				}
				if _, err := os.ReadFile(files[i]); err != nil {
					b.Error(err)
				}
			}
		})
	}
	wg.Wait()
}

// breakdown renders the stages of one size as a table: each stage's own
// cost (parse without read, load without parse) in wall time (the fastest
// run of each) and CPU time (mean), and as multiples of the floor's.
func breakdown(size corpus.Size, files int, bytes int64, s, cpu map[string]time.Duration, prevSize corpus.Size, prevE2E, prevFloor time.Duration) string {
	f, fc := float64(s["floor"]), float64(cpu["floor"])
	own := []struct {
		name   string
		d, cpu time.Duration
	}{
		{"read (list+read files)", s["read"], cpu["read"]},
		{"parse (yaml→JSON+positions)", s["parse"] - s["read"], cpu["parse"] - cpu["read"]},
		{"decode+defaults", s["load"] - s["parse"], cpu["load"] - cpu["parse"]},
		{"resolve", s["resolve"], cpu["resolve"]},
		{"rules", s["rules"], cpu["rules"]},
		{"output", s["output"], cpu["output"]},
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.1fms", float64(d)/1e6) }
	out := fmt.Sprintf("\n%s corpus: %d files, %.1f MB; floor %s wall (fastest run), %s CPU\n", size, files, float64(bytes)/1e6, ms(s["floor"]), ms(cpu["floor"]))
	out += fmt.Sprintf("  %-30s %12s %8s %12s %8s\n", "stage", "wall", "x-floor", "CPU", "x-floor")
	var sum, sumCPU time.Duration
	row := func(name string, d, c time.Duration, note string) {
		out += fmt.Sprintf("  %-30s %12s %8.2f %12s %8.2f%s\n", name, ms(d), float64(d)/f, ms(c), float64(c)/fc, note)
	}
	for _, st := range own {
		sum += st.d
		sumCPU += st.cpu
		row(st.name, st.d, st.cpu, "")
	}
	row("sum of stages", sum, sumCPU, "")
	row("e2e (gwlint check)", s["e2e"], cpu["e2e"], "  (target: wall ≤ 1.5 x-floor)")
	if prevSize != "" && prevE2E > 0 && prevFloor > 0 {
		out += fmt.Sprintf("  growth over %s: e2e %.2fx, floor %.2fx\n", prevSize, float64(s["e2e"])/float64(prevE2E), float64(s["floor"])/float64(prevFloor))
	}
	return out
}
