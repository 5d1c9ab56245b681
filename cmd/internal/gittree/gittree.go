package gittree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/resolve/manifest"
	"github.com/gwlint/gwlint/resolve/manifest/render"
)

// Tree is the part of a revision that was asked for, written out under Dir
// at the same paths it has in the repository.
type Tree struct {
	// Rev is the revision as the user named it; Commit is what it names.
	Rev, Commit string
	// Dir stands for the repository's top level.
	Dir string
	// prefix is the working directory relative to the top level ("" or
	// "a/b/"), so that paths given relative to it find the same files in
	// the revision.
	prefix string
	top    string
	// done ends the removal of Dir on a signal.
	done func()
	// Refused are the entries of the revision that were not written out,
	// in the order git lists them: see blobs and writeBlob.
	Refused []Refused
}

// Refused is an entry of the revision that was not written out, and why.
// The revision is data from whoever pushed it, and its names may be
// anything git can store: ".." or "a/b" in one name, "", ".git".
type Refused struct {
	// Path is the entry's path as git lists it; String quotes it.
	Path   string
	Reason string
}

func (r Refused) String() string {
	return fmt.Sprintf("entry %q not written out: %s", r.Path, r.Reason)
}

// Installed reports whether git can be run.
func Installed() bool {
	_, err := exec.LookPath("git")
	return err == nil
}

// IsRevision reports whether rev names a commit of the repository the
// working directory is in.
func IsRevision(rev string) bool {
	if rev == "" || strings.HasPrefix(rev, "-") || !Installed() {
		return false
	}
	_, err := git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	return err == nil
}

// NotFound is the error for rev, which names neither what (a path: "a
// file") nor a commit of the repository the working directory is in. In a
// shallow clone (actions/checkout fetches one commit by default) the
// commit may be history the clone left out: it says so, and how to fetch
// it.
func NotFound(rev, what string) error {
	if shallow, _ := git(nil, "rev-parse", "--is-shallow-repository"); shallow == "true" {
		return fmt.Errorf("%s is neither %s nor a git revision in this shallow clone (its history was cut at fetch time); "+
			"fetch more history: actions/checkout with fetch-depth: 0, or git fetch --unshallow", rev, what)
	}
	return fmt.Errorf("%s is neither %s nor a git revision", rev, what)
}

// Open writes out into a new temporary directory the files of rev that
// reading paths (relative to the working directory, as -f and --values
// take them) reads in the work tree: what a directory walk reads below
// each, and what a kustomization or a chart there reads from elsewhere in
// the repository (see write). A path outside the repository is left out:
// the revision holds nothing there. Close removes the directory.
func Open(rev string, paths []string) (*Tree, error) {
	commit, err := git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, NotFound(rev, "a file")
	}
	top, err := git(nil, "rev-parse", "--show-toplevel")
	if err != nil {
		return nil, err
	}
	prefix, err := git(nil, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, err
	}
	t := &Tree{Rev: rev, Commit: commit, prefix: prefix, top: top}
	var read []string
	for _, p := range paths {
		if r, err := t.repoPath(p); err == nil {
			read = append(read, r)
		}
	}
	// A signal that ends the command removes the directory too (cli.Main).
	if t.Dir, t.done, err = cli.RemovedOnSignal(func() (string, error) { return os.MkdirTemp("", "gittree-") }); err != nil {
		return nil, err
	}
	if err := t.write(read); err != nil {
		t.Close()
		return nil, fmt.Errorf("reading %s: %w", rev, err)
	}
	return t, nil
}

// Close removes the files written out.
func (t *Tree) Close() error {
	err := os.RemoveAll(t.Dir)
	t.done()
	return err
}

// Paths maps paths given relative to the working directory to where the
// revision's files are under Dir. A path outside the repository, or stdin,
// is an error.
func (t *Tree) Paths(paths []string) ([]string, error) {
	for _, p := range paths {
		if _, err := t.repoPath(p); err != nil {
			return nil, err
		}
	}
	return t.Versioned(paths), nil
}

// Versioned maps paths given relative to the working directory to where
// the revision's files are under Dir, as Paths does, but leaves a path
// outside the repository as it is: git does not version it, so it is the
// same file in every revision (a Helm values file kept elsewhere).
func (t *Tree) Versioned(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = p
		if r, err := t.repoPath(p); err == nil {
			out[i] = filepath.Join(t.Dir, filepath.FromSlash(r))
		}
	}
	return out
}

// Rel maps a path under Dir back to the path the user would give for it
// in the working tree.
func (t *Tree) Rel(file string) string {
	rel, err := filepath.Rel(filepath.Join(t.Dir, filepath.FromSlash(t.prefix)), file)
	if err != nil || (!strings.HasPrefix(file, t.Dir+string(filepath.Separator)) && file != t.Dir) {
		return file
	}
	return rel
}

// repoPath turns p, relative to the working directory or absolute, into a
// slash-separated path relative to the top level ("." for the whole tree).
func (t *Tree) repoPath(p string) (string, error) {
	if p == "-" {
		return "", errors.New("stdin (-) cannot be read from a git revision")
	}
	var r string
	if filepath.IsAbs(p) {
		top, err := filepath.EvalSymlinks(t.top)
		if err != nil {
			return "", err
		}
		abs := p
		if e, err := filepath.EvalSymlinks(p); err == nil {
			abs = e
		}
		if r, err = filepath.Rel(top, abs); err != nil {
			return "", err
		}
	} else {
		r = filepath.Join(filepath.FromSlash(t.prefix), p)
	}
	r = path.Clean(filepath.ToSlash(r))
	if r == ".." || strings.HasPrefix(r, "../") {
		return "", fmt.Errorf("%s is outside the repository", p)
	}
	return r, nil
}

// blob is a file of the commit: its object id and its path from the top
// level.
type blob struct{ id, file string }

// write writes out the files of the commit that reading paths (from the
// top level) reads, as the work tree would give them. Below each path:
// the manifests a directory walk reads, and every file of a directory that
// is rendered (a kustomization's or a chart's, whose patches, generator
// files and templates may have any name). A path that is a file is
// written whatever its name (a values file). Then, for each kustomization
// written, every file below what it names elsewhere (its bases and
// components: render.KustomizationPaths), until nothing new is named.
// Nothing else is needed: kustomize reads no file outside a
// kustomization's directory but those directories, and Helm none outside
// the chart's. Writing the whole revision instead would cost seconds on a
// large repository.
func (t *Tree) write(paths []string) error {
	blobs, err := t.blobs()
	if err != nil {
		return err
	}
	read := pathSet{}
	for _, p := range paths {
		read[p] = true
	}
	// rendered are the paths written out in full.
	rendered := pathSet{}
	for _, b := range blobs {
		if manifest.MarksRendered(path.Base(b.file)) && read.holds(b.file) {
			rendered[path.Dir(b.file)] = true
		}
	}
	written := make([]bool, len(blobs))
	for {
		var batch []blob
		for i, b := range blobs {
			if written[i] || !(rendered.holds(b.file) || read[b.file] ||
				(manifest.IsManifestName(path.Base(b.file)) && read.holds(b.file))) {
				continue
			}
			written[i] = true
			batch = append(batch, b)
		}
		if len(batch) == 0 {
			return nil
		}
		batch, err := t.writeBlobs(batch)
		if err != nil {
			return err
		}
		named, err := t.namedByKustomizations(batch)
		if err != nil {
			return err
		}
		for _, p := range named {
			rendered[p] = true
		}
	}
}

// blobs lists the regular files of the commit. Symbolic links and
// submodules are left out: the readers never follow a link out of the
// tree, since none is written.
//
// An entry whose name git itself refuses to check out (verify_path) is
// refused here, with whatever is below it: joined to Dir, "..", or "../x"
// as one name, would be a path outside it. git ls-tree -r joins the names
// with "/", so a name holding one shows as a path whose directory is no
// tree listed before it (-t lists each tree before what it holds). Such
// a name that spells the path of a tree listed is taken for that path:
// it stays below Dir all the same, or is refused with that tree.
func (t *Tree) blobs() ([]blob, error) {
	out, err := git(nil, "ls-tree", "-r", "-t", "-z", "--full-tree", t.Commit)
	if err != nil {
		return nil, err
	}
	// trees says of each tree listed whether it was accepted; "" is the
	// top level.
	trees := map[string]bool{"": true}
	var blobs []blob
	for _, entry := range strings.Split(out, "\x00") {
		meta, file, ok := strings.Cut(entry, "\t")
		f := strings.Fields(meta) // mode type object
		if !ok || len(f) != 3 {
			continue
		}
		dir, name := "", file
		if i := strings.LastIndexByte(file, '/'); i >= 0 {
			dir, name = file[:i], file[i+1:]
		}
		accepted, listed := trees[dir]
		if listed && !accepted {
			// Below a refused tree: its refusal says it.
			if f[1] == "tree" {
				trees[file] = false
			}
			continue
		}
		reason := refusedName(name)
		switch {
		case !listed:
			reason = "its name holds a /"
		case reason == "" && !filepath.IsLocal(filepath.FromSlash(file)):
			// A name Windows reserves (NUL, COM1) or a drive ("C:").
			reason = "it is no path on this system"
		}
		if f[1] == "tree" {
			trees[file] = reason == ""
		}
		if reason != "" {
			t.Refused = append(t.Refused, Refused{file, reason})
			continue
		}
		if f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue // trees, symlinks, submodules
		}
		blobs = append(blobs, blob{f[2], file})
	}
	return blobs, nil
}

// refusedName says why git would refuse to check out an entry named
// name, or returns "". (An empty name git refuses to list: Open fails.)
func refusedName(name string) string {
	switch {
	case name == "." || name == "..":
		return "its name is " + name
	case strings.EqualFold(name, ".git"):
		return "it is named as git's own directory"
	case strings.Contains(name, `\`):
		return `its name holds a \ (a separator on Windows)`
	}
	return ""
}

// namedByKustomizations returns what the kustomization files among blobs,
// written out, name: paths from the top level, inside the repository.
func (t *Tree) namedByKustomizations(blobs []blob) ([]string, error) {
	var named []string
	for _, b := range blobs {
		file := filepath.Join(t.Dir, filepath.FromSlash(b.file))
		if manifest.KustomizationFile(filepath.Dir(file), nil) != file {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			return nil, err
		}
		for _, p := range render.KustomizationPaths(data) {
			r := path.Join(path.Dir(b.file), filepath.ToSlash(p))
			if r != ".." && !strings.HasPrefix(r, "../") {
				named = append(named, r)
			}
		}
	}
	return named, nil
}

// writeBlobs writes blobs out under Dir, read with one git cat-file, and
// returns those written.
func (t *Tree) writeBlobs(blobs []blob) ([]blob, error) {
	root, err := os.OpenRoot(t.Dir)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var req bytes.Buffer
	for _, b := range blobs {
		req.WriteString(b.id + "\n")
	}
	cmd := exec.Command("git", "cat-file", "--batch")
	cmd.Stdin = &req
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	r := bufio.NewReader(stdout)
	var written []blob
	for _, b := range blobs {
		ok, err := t.writeBlob(root, r, b.file)
		if err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return nil, fmt.Errorf("%q: %w", b.file, err)
		}
		if ok {
			written = append(written, b)
		}
	}
	if err := cmd.Wait(); err != nil {
		return nil, fmt.Errorf("git cat-file: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return written, nil
}

// writeBlob reads one "<id> blob <size>\n<data>\n" answer of cat-file
// --batch into file under root, and reports whether it was written.
//
// The file is created through root, which opens each part of the path
// without following a symbolic link (O_NOFOLLOW on unix) and refuses a
// path leading out of it, and with O_EXCL: a file is never written over,
// nor through a link, whatever the revision's names. A file the revision
// holds twice (two entries of one name, or names this file system does
// not tell apart), or below another file, is refused: the first written
// stands.
func (t *Tree) writeBlob(root *os.Root, r *bufio.Reader, file string) (bool, error) {
	header, err := r.ReadString('\n')
	if err != nil {
		return false, err
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[1] != "blob" {
		return false, fmt.Errorf("unexpected git cat-file answer %q", strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return false, err
	}
	written := true
	w, err := create(root, filepath.FromSlash(file))
	if err != nil {
		t.Refused = append(t.Refused, Refused{file, createError(err)})
		written = false
		_, err = io.CopyN(io.Discard, r, size)
	} else {
		_, err = io.CopyN(w, r, size)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		return false, err
	}
	_, err = r.ReadByte() // the newline after the data
	return written, err
}

// create creates a new file name under root, and the directories above it.
func create(root *os.Root, name string) (*os.File, error) {
	if err := root.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return nil, err
	}
	return root.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}

// createError says why a file could not be created under Dir, without
// the path, which the caller quotes: the path is the revision's data.
func createError(err error) string {
	if errors.Is(err, fs.ErrExist) {
		return "another entry of the revision has that name"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// pathSet is a set of paths from the top level ("." is the top level).
type pathSet map[string]bool

// holds reports whether file is in the set or below a path that is: a
// look-up per directory above it, since a large revision has many files
// and a tree with many kustomizations many paths.
func (s pathSet) holds(file string) bool {
	for p := file; !s[p]; p = path.Dir(p) {
		if p == path.Dir(p) { // "." reached
			return false
		}
	}
	return true
}

// git runs git in the working directory and returns its output, trimmed.
func git(stdin io.Reader, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if msg := strings.TrimSpace(stderr.String()); msg != "" {
			return "", fmt.Errorf("git %s: %s", args[0], msg)
		}
		return "", fmt.Errorf("git %s: %w", args[0], err)
	}
	return strings.TrimRight(stdout.String(), "\n"), nil
}
