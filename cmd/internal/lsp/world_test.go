package lsp

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/crd"
	"github.com/gwlint/gwlint/resolve/implementations"
)

// An edit that changes no object (a comment, a document still or newly
// broken) serves the last graph again, with the findings of a cold check;
// an edit that changes one resolves again.
func TestCheckResolvesOnlyChangedObjects(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	read := func(name string) string {
		data, err := os.ReadFile(filepath.Join("testdata", "edit", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(data)
	}
	write("gateway.yaml", read("gateway.yaml"))
	route := read("route.yaml") // its one backend's port is not the Service's
	routeFile := write("route.yaml", route)

	open := map[string][]byte{}
	f := newFolder(dir, configure, nil)
	edit := func(path, text string) *snapshot {
		open[path] = []byte(text)
		f.forget(path, false)
		return f.check(func(p string) ([]byte, bool) { return textOf(open, p) })
	}
	first := f.check(func(p string) ([]byte, bool) { return textOf(open, p) })
	if first == nil || len(first.findings) == 0 {
		t.Fatal("the first check found nothing")
	}
	cold := func() []lint.Finding {
		for p, data := range open {
			write(filepath.Base(p), string(data))
		}
		return coldCheck(t, dir)
	}
	for _, tt := range []struct {
		name, text string
		same       bool
	}{
		{"a comment at the end", route + "# more to come\n", true},
		{"a broken document after it", route + "---\nkind: [\n", true},
		{"a broken document, still broken", route + "---\nkind: [ x\n", true},
		{"the port written as a float", route[:len(route)-5] + "8080.0}]\n", false},
		{"the port mended", route[:len(route)-5] + "8080}]\n", false},
		{"the route moved down a line", "\n" + route, false},
		{"an ignore comment", "# gwlint:ignore backend-not-found -- on purpose\n" + route, false},
	} {
		before := f.last.Load()
		snap := edit(routeFile, tt.text)
		if snap == nil || snap.err != nil {
			t.Fatalf("%s: no check", tt.name)
		}
		if reused := reflect.ValueOf(snap.graphs).Pointer() == reflect.ValueOf(before.graphs).Pointer(); reused != tt.same {
			t.Errorf("%s: last graph served again: %v, want %v", tt.name, reused, tt.same)
		}
		if want := cold(); !reflect.DeepEqual(snap.findings, want) {
			t.Errorf("%s: findings\n%v\nwant those of a cold check\n%v", tt.name, snap.findings, want)
		}
	}
	// A file deleted is forgotten for good once a check completes.
	delete(open, routeFile)
	if err := os.Remove(routeFile); err != nil {
		t.Fatal(err)
	}
	f.forget(routeFile, true)
	if f.check(func(p string) ([]byte, bool) { return textOf(open, p) }) == nil || len(f.forgotten) > 0 {
		t.Errorf("after a check, %d files forgotten are still held", len(f.forgotten))
	}
}

// configure sets a folder up as gwlint check does without a
// configuration: the release and channel assumed, to be chosen by the
// CRDs among the inputs.
func configure(path string) (*Setup, error) {
	inputs, walkErrs := cli.FindInputs([]string{path}, func(string) bool { return false }, nil)
	return &Setup{Inputs: inputs, WalkErrors: walkErrs, Rules: (&lint.Config{}).Rules(), Options: resolve.Options{
		Validate: true, Release: crd.Pinned, Channel: crd.Standard, ReleaseAssumed: true, ChannelAssumed: true,
		Implementations: implementations.All(),
	}}, nil
}

// coldCheck is what gwlint check, not the server, finds in dir.
func coldCheck(t *testing.T, dir string) []lint.Finding {
	t.Helper()
	s, _ := configure(dir)
	s.Inputs.LoadFile = nil
	worlds := s.Inputs.Load(nil, s.Options)
	worlds[0].Errors = append(worlds[0].Errors, s.WalkErrors...)
	graphs := make([]*resolve.Graph, len(worlds))
	for i, w := range worlds {
		graphs[i] = resolve.Resolve(w, s.Options)
	}
	findings, _ := cli.LintWorlds(worlds, graphs, s.Rules)
	return findings
}

// The files a world loads again by the CRDs it installs are read anew,
// not served as first read by the assumed release and channel.
func TestCheckReadsByTheCRDsInstalled(t *testing.T) {
	dir, _ := filepath.Abs(filepath.Join("testdata", "crds"))
	snap := newFolder(dir, configure, nil).check(func(string) ([]byte, bool) { return nil, false })
	if want := coldCheck(t, dir); snap == nil || !reflect.DeepEqual(snap.findings, want) {
		t.Errorf("findings\n%v\nwant those of gwlint check\n%v", snap.findings, want)
	}
}

func textOf(open map[string][]byte, path string) ([]byte, bool) {
	data, ok := open[path]
	return data, ok
}

// Opening a file changes nothing the folder reads when the editor's text
// is the file's on disk, and the folder found the file or is about to
// find its files again.
func TestFolderReadsOpenedText(t *testing.T) {
	dir := t.TempDir()
	gateway, err := os.ReadFile(filepath.Join("testdata", "edit", "gateway.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	found := filepath.Join(dir, "gateway.yaml")
	if err := os.WriteFile(found, gateway, 0o644); err != nil {
		t.Fatal(err)
	}
	f := newFolder(dir, configure, nil)
	if !f.reads(found, gateway) {
		t.Error("before its first check, the folder does not read a file's text from disk")
	}
	if f.check(func(string) ([]byte, bool) { return nil, false }) == nil {
		t.Fatal("no check")
	}
	later := filepath.Join(dir, "later.yaml") // created after the files were found
	if err := os.WriteFile(later, gateway, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name  string
		path  string
		text  []byte
		reads bool
	}{
		{"a file found, as on disk", found, gateway, true},
		{"a file found, edited before it was saved", found, append(slices.Clip(gateway), "# unsaved\n"...), false},
		{"a file created since the files were found", later, gateway, false},
		{"a new file, never saved", filepath.Join(dir, "new.yaml"), gateway, false},
	} {
		if got := f.reads(tt.path, tt.text); got != tt.reads {
			t.Errorf("%s: reads %v, want %v", tt.name, got, tt.reads)
		}
	}
	f.forget(later, true)
	if !f.reads(later, gateway) {
		t.Error("a folder about to find its files again does not read a new file's text from disk")
	}
	// Changed on disk since the folder read it, with no word to the
	// server (a git pull): what the folder holds is not the text.
	pulled := append(slices.Clip(gateway), "# pulled\n"...)
	if err := os.WriteFile(found, pulled, 0o644); err != nil {
		t.Fatal(err)
	}
	if f.reads(found, pulled) {
		t.Error("a file changed on disk since it was read is read as it is now")
	}
}
