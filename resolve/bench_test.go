package resolve

import (
	"slices"
	"testing"
	"time"

	"github.com/gwlint/gwlint/internal/benchutil"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Stage benchmarks of the resolve package on generated corpora (sizes from
// GWLINT_BENCH_SIZES, see internal/benchutil), each reported as a multiple
// of the floor ("x-floor": read and yaml.v3-parse every file on every core).
// internal/e2e's BenchmarkPipeline is the driver that puts them together.
//
//	read      manifest.Read: read, parse, JSON and positions
//	decode    JSON into typed objects and CRD validation, as Load does it
//	          (serially here; Load spreads it over every core)
//	defaults  applyDefaults on freshly decoded objects
//	load      Load (read + decode + defaults)
//	resolve   Resolve over loaded inputs

func BenchmarkStages(b *testing.B) {
	for _, size := range benchutil.Sizes() {
		b.Run(string(size), func(b *testing.B) {
			dir := benchutil.Corpus(b, size)
			paths := []string{dir}
			opts := Options{Validate: true} // as gwlint check loads

			b.Run("read", func(b *testing.B) {
				for b.Loop() {
					manifest.Read(paths, nil)
				}
				benchutil.ReportFloor(b, dir)
			})
			raws, errs := manifest.Read(paths, nil)
			if len(errs) > 0 {
				b.Fatal(errs[0])
			}
			b.Run("decode", func(b *testing.B) {
				for b.Loop() {
					for _, raw := range raws {
						decode(raw, opts)
					}
				}
				b.ReportMetric(float64(len(raws)), "objects")
				benchutil.ReportFloor(b, dir)
			})
			b.Run("defaults", func(b *testing.B) {
				// Each iteration decodes afresh and times only the
				// defaulting, reported as ns/op: with StopTimer the
				// untimed decoding would make small corpora take minutes.
				objs := make([]Object, 0, len(raws))
				var spent time.Duration
				for b.Loop() {
					objs = objs[:0]
					for _, raw := range raws {
						if obj, _ := decode(raw, opts); obj != nil {
							objs = append(objs, obj)
						}
					}
					start := time.Now()
					for _, obj := range objs {
						applyDefaults(obj)
					}
					spent += time.Since(start)
				}
				perOp := spent / time.Duration(b.N)
				b.ReportMetric(float64(perOp), "ns/op")
				if f := benchutil.Floor(b, dir); f > 0 {
					b.ReportMetric(float64(perOp)/float64(f), "x-floor")
				}
			})
			raws = nil
			b.Run("load", func(b *testing.B) {
				for b.Loop() {
					Load(paths, nil, opts)
				}
				benchutil.ReportFloor(b, dir)
			})
			b.Run("resolve", func(b *testing.B) {
				// Resolve only reads its inputs (the graph is built of
				// result objects of its own), so one load serves every run.
				in := Load(paths, nil, opts)
				for b.Loop() {
					Resolve(in, opts)
				}
				benchutil.ReportFloor(b, dir)
			})
			b.Run("cached", func(b *testing.B) {
				// As the language server resolves after an edit of one
				// route: with a Cache, the world's other objects the same,
				// that route new at each op.
				in := Load(paths, nil, opts)
				i := slices.IndexFunc(in.Objects, func(o Object) bool { _, ok := o.(*Route); return ok })
				route := in.Objects[i].Metadata()
				again := Load([]string{route.Source.File}, nil, opts)
				edited := slices.IndexFunc(again.Objects, func(o Object) bool { return o.Metadata().Ref == route.Ref })
				c := NewCache()
				c.Resolve(in, opts)
				c.EndCheck()
				for b.Loop() {
					// A new object of the same route, as a file read again.
					again = Load([]string{route.Source.File}, nil, opts)
					in.Objects[i] = again.Objects[edited]
					c.Resolve(in, opts)
					c.EndCheck()
				}
				benchutil.ReportFloor(b, dir)
			})
		})
	}
}
