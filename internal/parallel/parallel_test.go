package parallel

import (
	"strings"
	"sync/atomic"
	"testing"
)

// Every index is handed out once, whatever n is against the cores.
func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 1000} {
		calls := make([]atomic.Int32, n)
		For(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if c := calls[i].Load(); c != 1 {
				t.Fatalf("n=%d: f(%d) called %d times", n, i, c)
			}
		}
	}
}

// A panic in a call reaches For's caller, after the other calls.
func TestForRaisesAPanicInTheCaller(t *testing.T) {
	var done atomic.Int32
	defer func() {
		p, ok := recover().(*Panic)
		if !ok || p.Value != "step 3" || !strings.Contains(string(p.Stack), "parallel_test.go") {
			t.Errorf("recovered %v, want step 3's panic with the stack of its step", p)
		}
		if n := done.Load(); n != 99 {
			t.Errorf("%d other calls done before the panic came back, want 99", n)
		}
	}()
	For(100, func(i int) {
		if i == 3 {
			panic("step 3")
		}
		done.Add(1)
	})
	t.Error("For returned")
}

// A panic while a goroutine makes its state reaches ForWith's caller too,
// instead of ending the process.
func TestForWithRaisesAStatesPanicInTheCaller(t *testing.T) {
	defer func() {
		if p, ok := recover().(*Panic); !ok || p.Value != "no state" {
			t.Errorf("recovered %v, want the state's panic", p)
		}
	}()
	ForWith(10, func() int { panic("no state") }, func(int, int) {})
	t.Error("ForWith returned")
}

// Beside returns once f and work both have, and raises a panic of either
// in its caller, with the stack of the goroutine that made it (one raised
// by a For inside stays as For raised it), work's when both panic, and
// only once f is done.
func TestBesideWaitsForBothAndRaisesInTheCaller(t *testing.T) {
	var f, work atomic.Bool
	Beside(func() { f.Store(true) }, func() { work.Store(true) })
	if !f.Load() || !work.Load() {
		t.Error("Beside returned before f and work did")
	}
	release := make(chan struct{})
	for _, tt := range []struct {
		name     string
		f, work  func()
		want     string
		fIsEnded func() bool
	}{
		{"f's own", func() { panic("in f") }, func() {}, "in f", nil},
		{"For's in f", func() { For(2, func(i int) { panic("in f") }) }, func() {}, "in f", nil},
		{"work's, while f still runs", func() { <-release; f.Store(false) }, func() { close(release); panic("in work") }, "in work",
			func() bool { return !f.Load() }},
		{"both: work's", func() { panic("in f") }, func() { panic("in work") }, "in work", nil},
	} {
		f.Store(true)
		func() {
			defer func() {
				p, ok := recover().(*Panic)
				if !ok || p.Value != tt.want || !strings.Contains(string(p.Stack), "parallel_test.go") {
					t.Errorf("%s: recovered %v, want %q with the stack that raised it", tt.name, p, tt.want)
				}
				if tt.fIsEnded != nil && !tt.fIsEnded() {
					t.Errorf("%s: raised before f was done", tt.name)
				}
			}()
			Beside(tt.f, tt.work)
			t.Errorf("%s: Beside returned", tt.name)
		}()
	}
}

// A panic in a For inside a step of another keeps its value and the stack
// of the step that raised it, not of the inner For raising it again.
func TestNestedForKeepsThePanicsStack(t *testing.T) {
	defer func() {
		p, ok := recover().(*Panic)
		if !ok || p.Value != "inner" || !strings.Contains(string(p.Stack), "innerStep") {
			t.Errorf("recovered %#v, want the inner step's panic with its stack", p)
		}
	}()
	For(2, func(int) { For(2, innerStep) })
}

func innerStep(int) { panic("inner") }
