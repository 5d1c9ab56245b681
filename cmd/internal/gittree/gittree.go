package gittree

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
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

// Open writes out the files of rev under paths (relative to the working
// directory, as -f takes them; a directory stands for every file below it)
// into a new temporary directory. Close removes it.
func Open(rev string, paths []string) (*Tree, error) {
	commit, err := git(nil, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil {
		return nil, fmt.Errorf("%s is neither a file nor a git revision", rev)
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
	wanted := make([]string, 0, len(paths))
	for _, p := range paths {
		r, err := t.repoPath(p)
		if err != nil {
			return nil, err
		}
		wanted = append(wanted, r)
	}
	if t.Dir, err = os.MkdirTemp("", "gittree-"); err != nil {
		return nil, err
	}
	if err := t.write(wanted); err != nil {
		t.Close()
		return nil, fmt.Errorf("reading %s: %w", rev, err)
	}
	return t, nil
}

// Close removes the files written out.
func (t *Tree) Close() error { return os.RemoveAll(t.Dir) }

// Paths maps paths given relative to the working directory to where the
// revision's files are under Dir.
func (t *Tree) Paths(paths []string) ([]string, error) {
	out := make([]string, len(paths))
	for i, p := range paths {
		r, err := t.repoPath(p)
		if err != nil {
			return nil, err
		}
		out[i] = filepath.Join(t.Dir, filepath.FromSlash(r))
	}
	return out, nil
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

// write writes out the blobs of the commit under wanted: the manifest files
// (.yaml, .yml, .json) below a wanted directory, and any file named
// exactly.
func (t *Tree) write(wanted []string) error {
	out, err := git(nil, "ls-tree", "-r", "-z", "--full-tree", t.Commit)
	if err != nil {
		return err
	}
	type blob struct{ id, file string }
	var blobs []blob
	for _, entry := range strings.Split(out, "\x00") {
		meta, file, ok := strings.Cut(entry, "\t")
		if !ok {
			continue
		}
		f := strings.Fields(meta) // mode type object
		if len(f) != 3 || f[1] != "blob" || (f[0] != "100644" && f[0] != "100755") {
			continue // symlinks, submodules
		}
		if selected(file, wanted) {
			blobs = append(blobs, blob{f[2], file})
		}
	}
	if len(blobs) == 0 {
		return nil
	}
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
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	r := bufio.NewReader(stdout)
	for _, b := range blobs {
		if err := t.writeBlob(r, b.file); err != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return fmt.Errorf("%s: %w", b.file, err)
		}
	}
	if err := cmd.Wait(); err != nil {
		return fmt.Errorf("git cat-file: %w: %s", err, strings.TrimSpace(stderr.String()))
	}
	return nil
}

// writeBlob reads one "<id> blob <size>\n<data>\n" answer of cat-file
// --batch into file under Dir.
func (t *Tree) writeBlob(r *bufio.Reader, file string) error {
	header, err := r.ReadString('\n')
	if err != nil {
		return err
	}
	f := strings.Fields(header)
	if len(f) != 3 || f[1] != "blob" {
		return fmt.Errorf("unexpected git cat-file answer %q", strings.TrimSpace(header))
	}
	size, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil {
		return err
	}
	dst := filepath.Join(t.Dir, filepath.FromSlash(file))
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	w, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.CopyN(w, r, size); err != nil {
		w.Close()
		return err
	}
	if err := w.Close(); err != nil {
		return err
	}
	_, err = r.ReadByte() // the newline after the data
	return err
}

func selected(file string, wanted []string) bool {
	manifest := false
	switch strings.ToLower(path.Ext(file)) {
	case ".yaml", ".yml", ".json":
		manifest = true
	}
	for _, w := range wanted {
		if file == w || (manifest && (w == "." || strings.HasPrefix(file, w+"/"))) {
			return true
		}
	}
	return false
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
