//go:build unix

package manifest

import (
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"testing"
	"time"
)

// A walk reads regular files, through links too, and never opens anything
// else: a FIFO would block, /dev/zero never ends. Read and Files agree.
func TestReadWalkSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	tree := filepath.Join(dir, "tree")
	other := filepath.Join(dir, "other")
	for _, d := range []string{tree, other} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	svc := []byte("apiVersion: v1\nkind: Service\nmetadata: {name: s}\n")
	for _, f := range []string{filepath.Join(tree, "a.yaml"), filepath.Join(other, "b.yaml")} {
		if err := os.WriteFile(f, svc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if err := syscall.Mkfifo(filepath.Join(tree, "fifo.yaml"), 0o644); err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"fifo-link.yaml": filepath.Join(dir, "fifo"),
		"zero.yaml":      "/dev/zero",
		"dir-link.yaml":  other,
		"dir-link":       other,
		"file-link.yaml": filepath.Join(other, "b.yaml"),
		"dangling.yaml":  filepath.Join(dir, "nope"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(tree, name)); err != nil {
			t.Fatal(err)
		}
	}
	wantFiles := []string{filepath.Join(tree, "a.yaml"), filepath.Join(tree, "file-link.yaml")}
	wantErrs := []string{
		filepath.Join(tree, "dangling.yaml") + ": no such file or directory",
		filepath.Join(tree, "dir-link.yaml") + ": a symbolic link to a directory, which a directory walk does not follow; name it to read it",
		filepath.Join(tree, "zero.yaml") + ": " + (&OutsideError{roots: []string{dir}}).Error(),
	}
	// Within a boundary that holds what the links lead to.
	found, errs := Walk(tree, nil, NewBoundary(dir))
	files := found.Files
	if !reflect.DeepEqual(files, wantFiles) || !reflect.DeepEqual(readErrorStrings(errs), wantErrs) {
		t.Errorf("Walk = %q, %q\nwant %q, %q", files, readErrorStrings(errs), wantFiles, wantErrs)
	}
	// Read's boundary is the directory named: every link leads out of it.
	outside := func(name string) string {
		return filepath.Join(tree, name) + ": " + (&OutsideError{roots: []string{tree}}).Error()
	}
	wantReadErrs := []string{
		filepath.Join(tree, "dangling.yaml") + ": no such file or directory",
		outside("dir-link.yaml"), outside("fifo-link.yaml"), outside("file-link.yaml"), outside("zero.yaml"),
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		objs, errs := Read([]string{tree}, nil)
		if len(objs) != 1 || !reflect.DeepEqual(readErrorStrings(errs), wantReadErrs) {
			t.Errorf("Read: %d objects, errors %q; want 1, %q", len(objs), readErrorStrings(errs), wantReadErrs)
		}
		// Named, a device is refused before it is read.
		if _, errs := Read([]string{"/dev/zero", filepath.Join(tree, "zero.yaml")}, nil); !reflect.DeepEqual(readErrorStrings(errs), []string{
			"/dev/zero: a device or socket, not a file", filepath.Join(tree, "zero.yaml") + ": a device or socket, not a file"}) {
			t.Errorf("Read(/dev/zero): errors %q", readErrorStrings(errs))
		}
		// Named, a link to a directory is walked.
		objs, errs = Read([]string{filepath.Join(tree, "dir-link")}, nil)
		if got := rawNames(t, objs); len(errs) != 0 || !reflect.DeepEqual(got, []string{filepath.Join(tree, "dir-link", "b.yaml") + "#0 Service/s"}) {
			t.Errorf("Read(dir-link) = %q, %v", got, errs)
		}
	}()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("Read hangs on a special file")
	}
}

// A walk tells charts and kustomizations from a directory's entries as
// os.Stat of the file's name would: a link to a regular file counts, a
// directory or a link to one does not, and of two kustomization files
// kustomize's first name wins.
func TestWalkMarksThroughLinks(t *testing.T) {
	dir := t.TempDir()
	write := func(name string) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, name string) {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	write("shared/Chart.yaml")
	write("shared/kustomization.yaml")
	write("linked-chart/templates/route.yaml")
	link(filepath.Join(dir, "shared/Chart.yaml"), "linked-chart/Chart.yaml")
	write("linked-kustomization/patch.yaml")
	link(filepath.Join(dir, "shared/kustomization.yaml"), "linked-kustomization/kustomization.yml")
	write("dir-not-chart/Chart.yaml/x.txt")
	write("dir-not-chart/route.yaml")
	write("link-to-dir/route.yaml")
	link(filepath.Join(dir, "dir-not-chart"), "link-to-dir/kustomization.yaml")
	write("two/Kustomization")
	write("two/kustomization.yml")
	got, _ := Walk(dir, func(p string) bool { return filepath.Base(p) == "shared" }, BoundaryFor(dir))
	join := func(names ...string) []string { return joinEach(dir, names...) }
	want := Tree{
		Files:          join("dir-not-chart/route.yaml", "link-to-dir/route.yaml"),
		Kustomizations: join("linked-kustomization", "two"),
		Charts:         join("linked-chart"),
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Walk = %+v\nwant %+v", got, want)
	}
	for _, d := range []string{"linked-chart", "linked-kustomization", "dir-not-chart", "link-to-dir", "two"} {
		p := filepath.Join(dir, d)
		entries, err := os.ReadDir(p)
		if err != nil {
			t.Fatal(err)
		}
		chart, kustomization := marksOf(p, entries, nil)
		if chart != isChart(p) || kustomization != KustomizationFile(p, nil) {
			t.Errorf("%s: entries say chart %v, kustomization %q; os.Stat says %v, %q", d, chart, kustomization, isChart(p), KustomizationFile(p, nil))
		}
	}
}
