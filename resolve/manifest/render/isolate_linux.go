package render

import (
	"os"
	"os/exec"
	"syscall"
)

// isolate starts the worker in a network namespace of its own, which has
// no interface but a loopback that is down: nothing a render does can
// reach a network. A user other than root needs a user namespace for it
// too, which some systems refuse; the caller then starts the worker
// without.
func isolate(cmd *exec.Cmd) {
	attr := &syscall.SysProcAttr{Cloneflags: syscall.CLONE_NEWNET}
	if uid := os.Getuid(); uid != 0 {
		gid := os.Getgid()
		attr.Cloneflags |= syscall.CLONE_NEWUSER
		attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: uid, HostID: uid, Size: 1}}
		attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: gid, HostID: gid, Size: 1}}
	}
	cmd.SysProcAttr = attr
}
