//go:build unix

package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gwlint/gwlint/cmd/internal/clitest"
)

// goodFinding is the finding of testdata/badinput/good.yaml, which sits
// beside every bad input: it must be reported whatever is wrong with the
// other file.
const goodFinding = `good.yaml:26:7: error: Service app/stroe not found; did you mean "store"?; its 50% share of rules[0] gets HTTP 500 [backend-not-found]`

// TestBadInput is the bad-input corpus: each case puts one bad input
// (testdata/badinput, or special files made here) beside good.yaml and
// wants exactly these findings, good.yaml's among them, and this exit
// status. Nothing may hang, panic or lose a document that can be read.
func TestBadInput(t *testing.T) {
	notAttached := func(file, pos, name string) string {
		return file + ":" + pos + ": warning: HTTPRoute bad/" + name + " has no parentRefs, so it attaches to no Gateway or Service [route-not-attached]"
	}
	tests := []struct {
		name  string
		file  string                         // in testdata/badinput
		setup func(t *testing.T, dir string) // special files, made in dir
		code  int
		want  []string // the findings besides good.yaml's
	}{
		{name: "a List inside a List", file: "nested-list.yaml", code: 1,
			want: []string{notAttached("nested-list.yaml", "13:5", "inner")}},
		{name: "control character after a valid document", file: "control-char.yaml", code: 2, want: []string{
			notAttached("control-char.yaml", "6:1", "before"),
			"control-char.yaml:12:48: error: control character U+0001 is not allowed in YAML [invalid-manifest]"}},
		{name: "invalid UTF-8 between valid documents", file: "invalid-utf8.yaml", code: 2, want: []string{
			notAttached("invalid-utf8.yaml", "6:1", "before"),
			"invalid-utf8.yaml:17:16: error: invalid UTF-8 (byte 0xE9): manifests are UTF-8, or UTF-16 with a byte order mark [invalid-manifest]",
			notAttached("invalid-utf8.yaml", "24:1", "after")}},
		{name: "NUL byte", file: "nul-byte.yaml", code: 2, want: []string{
			notAttached("nul-byte.yaml", "6:1", "before"),
			"nul-byte.yaml:15:10: error: NUL character (U+0000) is not allowed in YAML: is this a binary file? [invalid-manifest]"}},
		{name: "binary file with {{ in it: no Helm hint", file: "binary.yaml", code: 2, want: []string{
			"binary.yaml:1:1: error: invalid UTF-8 (byte 0x89): manifests are UTF-8, or UTF-16 with a byte order mark [invalid-manifest]"}},
		{name: "{{ in another document: no Helm hint", file: "helm-elsewhere.yaml", code: 2, want: []string{
			notAttached("helm-elsewhere.yaml", "6:1", "before"),
			"helm-elsewhere.yaml:16:10: error: control character U+007F is not allowed in YAML [invalid-manifest]"}},
		{name: "UTF-16 with an ignore comment", file: "utf16.yaml", code: 1},
		{name: "CR line breaks with an ignore comment", file: "cr-only.yaml", code: 1},
		{name: "JSON objects back to back", file: "json-stream.json", code: 1, want: []string{
			notAttached("json-stream.json", "1:223", "second"),
			"json-stream.json:1:257: warning: Service bad/missing-second is not among the inputs, which hold other Services in namespace bad: it may be defined elsewhere [ref-unlisted]"}},
		{name: "misspelt Gateway API kind", file: "misspelt-kind.yaml", code: 2, want: []string{
			"misspelt-kind.yaml:2:1: error: HTTPRoutez is not a kind of gateway.networking.k8s.io in Gateway API v1.6.3 (did you mean HTTPRoute?); its kinds: BackendTLSPolicy, GRPCRoute, Gateway, GatewayClass, HTTPRoute, ListenerSet, ReferenceGrant, TCPRoute, TLSRoute, UDPRoute [invalid-manifest]"}},
		{name: "indentation error at its line", file: "indentation.yaml", code: 2, want: []string{
			"indentation.yaml:18: error: did not find expected key [invalid-manifest]",
			notAttached("indentation.yaml", "27:1", "after")}},
		{name: "syntax error between valid documents", file: "syntax-error.yaml", code: 2, want: []string{
			notAttached("syntax-error.yaml", "6:1", "before"),
			"syntax-error.yaml:12: error: did not find expected ',' or ']' [invalid-manifest]",
			notAttached("syntax-error.yaml", "19:1", "after")}},
		{name: "wrong type, once at the field", file: "wrong-type.yaml", code: 1, want: []string{
			notAttached("wrong-type.yaml", "6:1", "quoted-port"),
			`wrong-type.yaml:10:7: error: spec.rules[0].backendRefs[0].port: Invalid value: "string": spec.rules[0].backendRefs[0].port in body must be of type integer: "string" [crd-validation]`}},
		{name: "nesting deeper than yaml.v3 allows", code: 2,
			setup: func(t *testing.T, dir string) {
				write(t, filepath.Join(dir, "deep.yaml"), "a: b\n---\nv: "+strings.Repeat("[", 10001)+"\n")
			},
			want: []string{"deep.yaml:3: error: exceeded max depth of 10000 [invalid-manifest]"}},
		{name: "a link to a FIFO is not read", code: 1,
			setup: func(t *testing.T, dir string) {
				fifo := filepath.Join(dir, ".fifo") // hidden: the walk reads only the link
				if err := syscall.Mkfifo(fifo, 0o644); err != nil {
					t.Skip("no FIFOs here:", err)
				}
				symlink(t, fifo, filepath.Join(dir, "fifo.yaml"))
			}},
		{name: "a link to /dev/zero leads out of the repository", code: 2,
			setup: func(t *testing.T, dir string) {
				symlink(t, "/dev/zero", filepath.Join(dir, "zero.yaml"))
			},
			want: []string{"zero.yaml: error: leads outside the inputs' root (.), through a symbolic link or '..': not read; widen the root with --root if it is meant to be [invalid-manifest]"}},
		{name: "a link to a directory named like a manifest", code: 2,
			setup: func(t *testing.T, dir string) {
				if err := os.Mkdir(filepath.Join(dir, ".d"), 0o755); err != nil {
					t.Fatal(err)
				}
				symlink(t, filepath.Join(dir, ".d"), filepath.Join(dir, "x.yaml"))
			},
			want: []string{"x.yaml: error: a symbolic link to a directory, which a directory walk does not follow; name it to read it [invalid-manifest]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range []string{"good.yaml", tt.file} {
				if f == "" {
					continue
				}
				data, err := os.ReadFile(filepath.Join("testdata", "badinput", f))
				if err != nil {
					t.Fatal(err)
				}
				write(t, filepath.Join(dir, f), string(data))
			}
			if tt.setup != nil {
				tt.setup(t, dir)
			}
			t.Chdir(dir)
			var stdout, stderr string
			var code int
			done := make(chan struct{})
			go func() {
				defer close(done)
				stdout, stderr, code = clitest.Run(newRootCmd, "", "check", "--no-config", ".")
			}()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				t.Fatal("gwlint check hangs")
			}
			var got []string
			for _, line := range strings.Split(stdout, "\n") {
				if strings.HasSuffix(line, "]") { // a finding, not the summary
					got = append(got, line)
				}
			}
			// The order of the output is tested elsewhere; here, what is in it.
			want := append(slices.Clone(tt.want), goodFinding)
			slices.Sort(want)
			slices.Sort(got)
			if !slices.Equal(got, want) || code != tt.code || stderr != "" {
				t.Errorf("exit %d, findings:\n%s\nstderr: %s\nwant exit %d, findings:\n%s", code, strings.Join(got, "\n"), stderr, tt.code, strings.Join(want, "\n"))
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
