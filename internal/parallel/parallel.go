// Package parallel runs the independent steps of a loop on every core.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) for each i from 0 to n-1, on as many goroutines as there
// are cores (at most n), each taking the next i as it is done with one,
// and returns when every call has. A panic in a call is raised again in
// For's caller once the other calls are done, where a recover (the
// language server's, around a check) can catch it: on the goroutine that
// made it, it would end the process.
func For(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	var panicked sync.Once
	var first any
	call := func(i int) {
		defer func() {
			if p := recover(); p != nil {
				panicked.Do(func() { first = p })
			}
		}()
		f(i)
	}
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				call(i)
			}
		})
	}
	wg.Wait()
	if first != nil {
		panic(first)
	}
}
