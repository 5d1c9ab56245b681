//go:build !linux

package render

import "os/exec"

// isolate does nothing here: the worker is disconnected (disconnect).
func isolate(*exec.Cmd) {}
