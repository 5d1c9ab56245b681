package clitest

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Git returns a function that runs git in repo to build a test's
// repository: a fixed identity, no signing and no system or user
// configuration, so that the machine's git setup cannot change it. A git
// failure fails the test.
func Git(t testing.TB, repo string) func(args ...string) {
	return func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Dir = repo
		cmd.Env = append(os.Environ(), "GIT_CONFIG_NOSYSTEM=1", "HOME="+repo)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
