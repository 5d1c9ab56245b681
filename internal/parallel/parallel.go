// Package parallel runs the independent steps of a loop on every core.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// For calls f(i) for each i from 0 to n-1, on as many goroutines as there
// are cores (at most n), each taking the next i as it is done with one,
// and returns when every call has.
func For(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1)) - 1; i < n; i = int(next.Add(1)) - 1 {
				f(i)
			}
		})
	}
	wg.Wait()
}
