package cli

import (
	"os"
	"os/signal"
	"slices"
	"sync"
	"syscall"

	"github.com/spf13/cobra"
)

// exitBrokenPipe is the status a shell reports for a process that SIGPIPE
// ended (128 + 13): what gwctl diff | head saw before Main caught it.
const exitBrokenPipe = 128 + 13

// removeOnSignal holds the temporary files and directories that a signal
// ending the process must not leave behind. It is package state because
// signals are the process's: one handler (Main's) serves every command.
var removeOnSignal = struct {
	sync.Mutex
	next  int
	paths map[int]string
}{paths: map[int]string{}}

// RemovedOnSignal calls create, which makes a temporary file or directory
// and returns its path, and has that path removed should a signal end the
// process (see Main) before done is called; done does not remove it.
// create runs under the lock the signal handler takes, so that no path is
// made and then missed by it.
func RemovedOnSignal(create func() (string, error)) (path string, done func(), err error) {
	r := &removeOnSignal
	r.Lock()
	defer r.Unlock()
	catchEndSignals()
	if path, err = create(); err != nil {
		return "", nil, err
	}
	id := r.next
	r.next++
	r.paths[id] = path
	return path, func() {
		r.Lock()
		delete(r.paths, id)
		r.Unlock()
	}, nil
}

// endSignals end a command: ^C, kill, and the terminal going away.
var endSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}

// catchEndSignals has the end signals remove what RemovedOnSignal
// registered before they end the process. It runs when the first path is
// registered, not at start: until then the signals' own action is the
// same, and catching them costs a round trip to the runtime's signal
// thread each, 0.35 ms of the 3.2 ms that `gwlint version` took.
var catchEndSignals = sync.OnceFunc(func() {
	sigs := make(chan os.Signal, 1)
	for _, s := range endSignals {
		// A signal the process was started to ignore (nohup) stays
		// ignored: Notify would install a handler for it.
		if !signal.Ignored(s) {
			signal.Notify(sigs, s)
		}
	}
	go func() {
		for s := range sigs {
			removeAndDie(s)
		}
	}()
})

// Main runs a command as the process, with its arguments and streams (Run,
// System), and returns the exit status. A signal that ends the command
// removes first what RemovedOnSignal registered (gwctl diff's and
// --new-from-rev's copies of a revision), then ends the process by that
// signal. A closed stdout (gwctl diff | head) is an EPIPE error instead
// of death by SIGPIPE inside the write, so that the command's deferred
// clean-ups run; Run then exits quietly, as SIGPIPE would have. SIGPIPE
// is ignored rather than caught for that, which costs nothing at start.
// The programs the commands start inherit the ignoring: the render worker
// does not mind (Go installs its own handler), and git takes EPIPE as it
// takes SIGPIPE.
func Main(newRoot func(*IOStreams) *cobra.Command) int {
	signal.Ignore(syscall.SIGPIPE)
	return Run(newRoot, os.Args[1:], System())
}

// removeAndDie removes what RemovedOnSignal registered and ends the process
// by sig. The lock is never released: nothing new is made, and a command
// that finishes meanwhile waits in its done.
func removeAndDie(sig os.Signal) {
	r := &removeOnSignal
	r.Lock()
	ids := make([]int, 0, len(r.paths))
	for id := range r.paths {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	for _, id := range ids {
		// The command may still be writing into a directory: what it
		// adds while RemoveAll walks makes the directory not empty, so
		// try again. Once the directory is gone nothing can be made in
		// it.
		for range 10 {
			if os.RemoveAll(r.paths[id]) == nil {
				break
			}
		}
	}
	signal.Reset(sig)
	if p, err := os.FindProcess(os.Getpid()); err == nil {
		_ = p.Signal(sig)
	}
	// Where a signal cannot be sent again (Windows), exit with the
	// status a shell gives a process that sig ended.
	code := 128 + 15
	if s, ok := sig.(syscall.Signal); ok {
		code = 128 + int(s)
	}
	os.Exit(code)
}
