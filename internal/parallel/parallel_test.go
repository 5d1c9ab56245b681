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

// Go's wait returns once f has, and raises f's panic in its caller, with
// the stack of f's goroutine; one raised by a For inside f stays as For
// raised it.
func TestGoWaitsAndRaisesInTheCaller(t *testing.T) {
	var done atomic.Bool
	Go(func() { done.Store(true) })()
	if !done.Load() {
		t.Error("wait returned before f did")
	}
	for _, tt := range []struct {
		name string
		f    func()
	}{
		{"own", func() { panic("in f") }},
		{"For's", func() { For(2, func(i int) { panic("in f") }) }},
	} {
		func() {
			defer func() {
				p, ok := recover().(*Panic)
				if !ok || p.Value != "in f" || !strings.Contains(string(p.Stack), "parallel_test.go") {
					t.Errorf("%s panic: recovered %v, want f's with the stack of f", tt.name, p)
				}
			}()
			Go(tt.f)()
			t.Errorf("%s panic: wait returned", tt.name)
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
