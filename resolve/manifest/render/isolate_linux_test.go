package render

import (
	"os/exec"
	"strings"
	"testing"
)

// An isolated worker sees no network interface but its own loopback.
func TestIsolatedHasNoNetwork(t *testing.T) {
	cmd := exec.Command("cat", "/proc/self/net/dev")
	isolate(cmd)
	out, err := cmd.Output()
	if err != nil {
		t.Skip("this system refuses network namespaces here (the worker is disconnected instead):", err)
	}
	var interfaces []string
	for _, line := range strings.Split(string(out), "\n")[2:] {
		if name, _, ok := strings.Cut(strings.TrimSpace(line), ":"); ok {
			interfaces = append(interfaces, name)
		}
	}
	if len(interfaces) != 1 || interfaces[0] != "lo" {
		t.Errorf("interfaces %v, want lo alone", interfaces)
	}
}
