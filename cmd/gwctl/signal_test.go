//go:build unix

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// TestDiffCleansUpOnSignal runs gwctl diff REV REV as a process, with
// TMPDIR a directory of its own, and ends it as a shell or a CI runner
// may: SIGINT, SIGTERM or SIGHUP while it reads (after writing both
// revisions out, it waits on a Helm values file that is a FIFO nobody
// writes), or a closed stdout when it writes (gwctl diff | head).
// The copies of the revisions must be gone, and the process must end as
// the signal ends it, quietly.
func TestDiffCleansUpOnSignal(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	repo := t.TempDir()
	deploy := filepath.Join(repo, "deploy")
	if err := os.CopyFS(filepath.Join(deploy, "store"), os.DirFS(filepath.Join("..", "..", "testdata", "helm", "store"))); err != nil {
		t.Fatal(err)
	}
	git := clitest.Git(t, repo)
	git("init", "-q")
	for _, side := range []string{"old", "new"} {
		shop, err := os.ReadFile(filepath.Join("testdata", "diff", "canary", side, "shop.yaml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(deploy, "shop.yaml"), shop, 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", ".")
		git("commit", "-q", "-m", side)
	}

	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGPIPE} {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			tmp := t.TempDir()
			args := []string{"diff", "HEAD~1", "HEAD"}
			fifo := filepath.Join(t.TempDir(), "values.yaml")
			if sig != syscall.SIGPIPE {
				if err := syscall.Mkfifo(fifo, 0o600); err != nil {
					t.Skipf("no FIFO to wait on: %v", err)
				}
				args = append(args, "--values", fifo)
			}
			cmd := clitest.Command(t, args...)
			cmd.Dir = repo
			cmd.Env = append(cmd.Env, "TMPDIR="+tmp)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			// The write end only: whatever gwctl writes, nobody reads.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			r.Close()
			cmd.Stdout = w
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			w.Close()
			exited := make(chan error, 1)
			go func() { exited <- cmd.Wait() }()
			if sig != syscall.SIGPIPE {
				// Once gwctl opens the FIFO, both revisions are written
				// out, and it reads from the FIFO until it is closed: for
				// ever, since the test closes it only once gwctl is gone.
				for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
					// Opening to write without blocking fails while
					// nobody opened the FIFO to read.
					if fd, err := syscall.Open(fifo, syscall.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
						defer syscall.Close(fd)
						break
					}
					select {
					case err := <-exited:
						t.Fatalf("gwctl ended before the signal: %v\n%s", err, stderr.Bytes())
					default:
					}
					if time.Now().After(deadline) {
						t.Fatal("gwctl wrote no revision out in a minute")
					}
				}
				if err := cmd.Process.Signal(sig); err != nil {
					t.Fatal(err)
				}
			}
			select {
			case err = <-exited:
			case <-time.After(time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("gwctl still runs a minute after %s", sig)
			}
			var exit *exec.ExitError
			if !errors.As(err, &exit) {
				t.Fatalf("gwctl: %v, want it ended by %s", err, sig)
			}
			status := exit.Sys().(syscall.WaitStatus)
			if !(status.Signaled() && status.Signal() == sig) && status.ExitStatus() != 128+int(sig) {
				t.Errorf("gwctl ended with %v, want by %s", err, sig)
			}
			if stderr.Len() > 0 {
				t.Errorf("stderr:\n%s", stderr.Bytes())
			}
			if left, err := os.ReadDir(tmp); err != nil || len(left) > 0 {
				t.Errorf("left in TMPDIR: %v, %v", left, err)
			}
		})
	}
}
