// Package parallel runs the independent steps of a loop on every core.
package parallel

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
)

// For calls f(i) for each i from 0 to n-1, on as many goroutines as there
// are cores (at most n), each taking the next i as it is done with one,
// and returns when every call has. A panic in a call is raised again in
// For's caller, as a *Panic, once the other calls are done, where a
// recover (the language server's around a check, the commands' around a
// run) can catch it: on the goroutine that made it, it would end the
// process.
func For(n int, f func(i int)) {
	ForWith(n, func() struct{} { return struct{}{} }, func(_ struct{}, i int) { f(i) })
}

// ForWith is For with state that each goroutine makes once (state) and
// hands to every step it runs: buffers a step reuses from the one before.
func ForWith[S any](n int, state func() S, f func(s S, i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked sync.Once
	var first *Panic
	// keep holds on to the first panic, of a step or of making a
	// goroutine's state, for the caller; the other steps go on.
	keep := func() {
		if p := recover(); p != nil {
			panicked.Do(func() { first = captured(p) })
		}
	}
	call := func(s S, i int) {
		defer keep()
		f(s, i)
	}
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			defer keep()
			s := state()
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				call(s, i)
			}
		})
	}
	wg.Wait()
	if first != nil {
		panic(first)
	}
}

// captured is a recovered panic with the stack it was raised at: the one
// it carries when a For or Beside inside raised it again, else the panicking
// goroutine's, which a deferred recover still sees.
func captured(p any) *Panic {
	if inner, ok := p.(*Panic); ok {
		return inner
	}
	return &Panic{Value: p, Stack: debug.Stack()}
}

// Beside runs f on a goroutine of its own beside work, which runs on the
// caller's, and returns once both have. A panic in either is raised again
// in the caller, as For raises one, once both are done: work's when both
// panic. So f never outlives a work that panics, and what f uses (a
// renderer that closes when its caller returns) is not taken from under
// it.
func Beside(f, work func()) {
	done := make(chan *Panic, 1)
	go func() { done <- run(f) }()
	raised := run(work)
	if other := <-done; raised == nil {
		raised = other
	}
	if raised != nil {
		panic(raised)
	}
}

// run calls f and returns its panic, if any, captured.
func run(f func()) (raised *Panic) {
	defer func() {
		if p := recover(); p != nil {
			raised = captured(p)
		}
	}()
	f()
	return nil
}

// Panic is a panic in a step of For, with the stack of the goroutine that
// made it: the stack where For raises it again shows For, not the bug.
type Panic struct {
	Value any
	Stack []byte
}

func (p *Panic) Error() string { return fmt.Sprint(p.Value) }

// StackOf is the stack to report a recovered panic v with: the stack a
// *Panic carries, or the current goroutine's.
func StackOf(v any) []byte {
	if p, ok := v.(*Panic); ok {
		return p.Stack
	}
	return debug.Stack()
}
