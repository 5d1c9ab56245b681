package manifest

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"
	"unique"

	"github.com/gwlint/gwlint/internal/parallel"

	"go.yaml.in/yaml/v3"
)

// MaxFileSize caps what is read from one file or stdin, so that a stray
// multi-gigabyte file is a ReadError rather than an out-of-memory crash.
// It also keeps every line and column within int32 (see pos32).
const MaxFileSize = 512 << 20

// stdinName is how stdin ("-") is shown in Source.File and ReadError.File.
const stdinName = "<stdin>"

// Source says where a document came from.
type Source struct {
	File string // path as given by the user; "-" for stdin is shown as "<stdin>"
	Doc  int    // 0-based index of the YAML document within the file
	Pos  Pos    // position of the object's root node
}

// Object is one Kubernetes object as read, before anything gives it
// meaning: where it is, its apiVersion and kind, its JSON and the position of
// every field.
type Object struct {
	Source     Source
	APIVersion string
	Kind       string
	// JSON is the object as JSON: YAML scalars become JSON values by their
	// resolved tag, aliases and merge keys are expanded.
	JSON []byte
	// Positions are relative to this object; for items of a List, relative
	// to the item.
	Positions *Positions
	// Ignores are the gwlint:ignore directives of the object's file (shared
	// by all its objects).
	Ignores []IgnoreDirective
}

// ReadError is a problem with one file or document; reading goes on with
// the rest.
type ReadError struct {
	File string
	Pos  Pos // zero if unknown; Col is zero when only the line is known
	Msg  string
	// Unknown marks what the inputs cannot show rather than a problem
	// with them (a remote base, a chart that is not in the repository):
	// its objects are unknown, and that is no error.
	Unknown bool `json:",omitempty"`
	// Remote is the URL of the remote entry an Unknown leaves out (a
	// kustomization's resource, a Flux source's directory at its
	// reference), as kustomize names one: what it installs may still be
	// known by its name (a Gateway API release's CRDs).
	Remote string `json:",omitempty"`
	// Release is the Helm release an Unknown chart would install (a
	// kustomization's helmCharts entry that is not vendored): what it may
	// create is still known by its name.
	Release *Release `json:",omitempty"`
}

// Release is a Helm release: its name, and the namespace its objects go
// to ("" for the default one).
type Release struct {
	Name, Namespace string
}

// Error renders "file:line:col: msg", dropping what is unknown.
func (e *ReadError) Error() string {
	switch {
	case e.Pos.Line > 0 && e.Pos.Col > 0:
		return e.File + ":" + strconv.Itoa(e.Pos.Line) + ":" + strconv.Itoa(e.Pos.Col) + ": " + e.Msg
	case e.Pos.Line > 0:
		return e.File + ":" + strconv.Itoa(e.Pos.Line) + ": " + e.Msg
	}
	return e.File + ": " + e.Msg
}

// Read reads every path: a file, a directory (walked recursively for files
// ending in .yaml, .yml or .json, in lexical order of their paths, skipping
// hidden files and directories such as .git), or "-" for stdin.
//
// Objects come in argument order, then file path, then document, then List
// item; errors in the same order. Files are parsed in parallel, but the
// results never depend on scheduling. A problem with one file or document
// is a ReadError and reading goes on with the rest.
func Read(paths []string, stdin io.Reader) ([]*Object, []*ReadError) {
	objs, errs, _ := ReadEach(paths, stdin, func(o *Object) *Object { return o })
	return objs, errs
}

// ReadEach is Read, handing every object to convert right after it is read,
// on the worker that read it (or, for one large file read alone, on any
// core: convert must be safe to call concurrently), and returning what
// convert made of them in Read's order. A caller that decodes objects does it there, so that no
// object's JSON waits for the rest of its file, or the other files, to be
// read. It also returns, in order, the files that are not manifests: every
// document of them is something else (a values file, a tool's
// configuration, a template of one; see header and templateNotObject),
// skipped as no error.
func ReadEach[T any](paths []string, stdin io.Reader, convert func(*Object) T) ([]T, []*ReadError, []string) {
	return readJobs(collect(paths, stdin), convert)
}

// ReadDataEach is ReadEach for one file whose text is given rather than
// read from disk (an editor's unsaved buffer): its objects and errors name
// file as if it had been read.
func ReadDataEach[T any](file string, data []byte, convert func(*Object) T) ([]T, []*ReadError, []string) {
	return readJobs([]job{{file: file, data: data, stdin: true}}, convert)
}

func readJobs[T any](jobs []job, convert func(*Object) T) ([]T, []*ReadError, []string) {
	if len(jobs) == 1 && runtime.GOMAXPROCS(0) > 1 && jobs[0].size() >= pipelineBytes {
		return readLargeFile(jobs[0], convert)
	}
	results := make([]fileResult, len(jobs))
	converted := make([][]T, len(jobs))
	// A converter per worker: its buffers are reused file to file.
	parallel.ForWith(len(jobs), func() *converter { return new(converter) }, func(c *converter, i int) {
		var panics []*ReadError
		results[i] = c.run(jobs[i], func(o *Object) {
			if v, err := convertOne(jobs[i].file, o, convert); err != nil {
				panics = append(panics, err)
			} else {
				converted[i] = append(converted[i], v)
			}
		})
		results[i].errs = append(results[i].errs, panics...)
	})

	// One file (a rendered chart, a cluster's objects) may hold hundreds
	// of thousands: its objects are handed on as they are, not copied.
	var out []T
	if len(jobs) == 1 {
		out = converted[0]
	} else {
		total := 0
		for _, c := range converted {
			total += len(c)
		}
		out = make([]T, 0, total)
	}
	var errs []*ReadError
	var notManifests []string
	for i, r := range results {
		if len(jobs) > 1 {
			out = append(out, converted[i]...)
		}
		errs = append(errs, r.errs...)
		if r.notManifest() {
			notManifests = append(notManifests, jobs[i].file)
		}
	}
	return out, errs, notManifests
}

// convertOne converts one object of file. A panic converting it (a bug)
// drops that object and becomes an error at it: the file's other objects
// are still converted, and on a worker the panic would otherwise end the
// whole process.
func convertOne[T any](file string, o *Object, convert func(*Object) T) (v T, err *ReadError) {
	defer func() {
		if p := recover(); p != nil {
			err = &ReadError{File: file, Pos: o.Source.Pos, Msg: fmt.Sprintf("internal error while reading: %v", p)}
		}
	}()
	return convert(o), nil
}

// pipelineBytes is the size from which a file read alone is converted on
// every core (readLargeFile).
const pipelineBytes = 1 << 20

// readLargeFile is readJobs for one large file (a rendered chart, a
// cluster's objects on stdin): its documents are parsed in order on one
// goroutine, which hands each object to the other cores to convert, and
// converts it itself when they are all busy. Each converted object goes to
// its own slot, so the order is the file's.
func readLargeFile[T any](j job, convert func(*Object) T) ([]T, []*ReadError, []string) {
	type task struct {
		obj *Object
		at  int // the object's place in the file
		to  *T
	}
	var mu sync.Mutex
	var panics []*ReadError
	dropped := map[int]bool{}
	run := func(t task) {
		v, err := convertOne(j.file, t.obj, convert)
		if err != nil {
			mu.Lock()
			defer mu.Unlock()
			dropped[t.at] = true
			panics = append(panics, err)
			return
		}
		*t.to = v
	}
	tasks := make(chan task, 64)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) - 1 {
		wg.Go(func() {
			for t := range tasks {
				run(t)
			}
		})
	}
	// Slots are allocated a block at a time and never move.
	const block = 1024
	var blocks [][]T
	n := 0
	var c converter
	r := c.run(j, func(o *Object) {
		if n%block == 0 {
			blocks = append(blocks, make([]T, block))
		}
		t := task{obj: o, at: n, to: &blocks[n/block][n%block]}
		n++
		select {
		case tasks <- t:
		default:
			run(t)
		}
	})
	close(tasks)
	wg.Wait()
	out := make([]T, 0, n-len(dropped))
	for i := range n {
		if !dropped[i] {
			out = append(out, blocks[i/block][i%block])
		}
	}
	slices.SortStableFunc(panics, func(a, b *ReadError) int {
		return cmp.Or(cmp.Compare(a.Pos.Line, b.Pos.Line), cmp.Compare(a.Pos.Col, b.Pos.Col))
	})
	var notManifests []string
	if r.notManifest() {
		notManifests = []string{j.file}
	}
	return out, append(r.errs, panics...), notManifests
}

// job is one file to read.
type job struct {
	file  string     // as shown in Source.File
	data  []byte     // contents already read (stdin, or given: ReadDataEach)
	stdin bool       // data holds the contents; do not open file
	err   *ReadError // the file cannot be read at all
}

// size is the job's bytes, as far as known before reading: 0 for a file
// that cannot be read or stat'ed.
func (j job) size() int64 {
	switch {
	case j.err != nil:
		return 0
	case j.stdin:
		return int64(len(j.data))
	}
	info, err := os.Stat(j.file)
	if err != nil {
		return 0
	}
	return info.Size()
}

// fileResult is what reading one file gives.
type fileResult struct {
	emit    func(*Object)     // hands each object on as soon as it is read
	ignores []IgnoreDirective // the file's, for each of its objects
	errs    []*ReadError
	// objects counts the objects read, notObjects the documents that are
	// not Kubernetes objects.
	objects, notObjects int
}

// notManifest reports whether the file read is no manifest: every
// document of it is something else, and none is an error.
func (r *fileResult) notManifest() bool {
	return r.notObjects > 0 && r.objects == 0 && len(r.errs) == 0
}

// collect expands the arguments into files, in output order. Stdin is read
// here, once, so workers only touch the file system.
func collect(paths []string, stdin io.Reader) []job {
	var jobs []job
	infos := StatAll(paths)
	for i, p := range paths {
		if p == "-" {
			jobs = append(jobs, readStdin(stdin))
			continue
		}
		info, err := infos[i].Info, infos[i].Err
		switch {
		case err != nil:
			jobs = append(jobs, job{file: p, err: fileError(p, err)})
		case info.IsDir():
			jobs = append(jobs, walk(p)...)
		case info.Mode()&(fs.ModeDevice|fs.ModeSocket) != 0:
			// /dev/zero never ends. A pipe (`gwlint check <(helm
			// template ...)`) is read like stdin.
			jobs = append(jobs, job{file: p, err: &ReadError{File: p, Msg: "a device or socket, not a file"}})
		default:
			jobs = append(jobs, job{file: p})
		}
	}
	return jobs
}

// Stat is what os.Stat said of a path.
type Stat struct {
	Info fs.FileInfo
	Err  error
}

// StatAll stats paths on every core, in order ("-" is left alone). A walk
// hands over thousands of files, each stat'ed before any is read.
func StatAll(paths []string) []Stat {
	stats := make([]Stat, len(paths))
	parallel.For(len(paths), func(i int) {
		if paths[i] != "-" {
			stats[i].Info, stats[i].Err = os.Stat(paths[i])
		}
	})
	return stats
}

func readStdin(stdin io.Reader) job {
	if stdin == nil {
		return job{file: stdinName, err: &ReadError{File: stdinName, Msg: "no standard input"}}
	}
	kept, ok := stdin.(*KeptStdin)
	if !ok {
		kept = KeepStdin(stdin)
	}
	if kept.err != nil {
		return job{file: stdinName, err: &ReadError{File: stdinName, Msg: kept.err.Error()}}
	}
	return job{file: stdinName, data: kept.data, stdin: true}
}

// KeptStdin is standard input read once, within MaxFileSize, for readers
// that read it more than once: every Read given it takes the same bytes,
// without copying them (parsing never writes to them).
type KeptStdin struct {
	data []byte
	err  error
}

// KeepStdin reads r whole, or up to the error that stops it.
func KeepStdin(r io.Reader) *KeptStdin {
	data, err := readLimited(r, 0, nil)
	return &KeptStdin{data: data, err: err}
}

// Read is never called by this package, which takes the bytes whole; it
// makes a KeptStdin an io.Reader where stdin is expected.
func (k *KeptStdin) Read([]byte) (int, error) { return 0, io.EOF }

// walk lists the manifest files under root, sorted by path.
func walk(root string) []job {
	var found []job
	walkManifests(root, nil, BoundaryFor(root), func(path string, err *ReadError) {
		found = append(found, job{file: path, err: err})
	}, nil)
	slices.SortStableFunc(found, func(a, b job) int { return strings.Compare(a.file, b.file) })
	return found
}

// Tree is what a directory walk finds to read.
type Tree struct {
	// Files are the manifest files read one by one, sorted: .yaml, .yml
	// and .json files, without hidden files and directories, and without
	// what the directories below hold.
	Files []string
	// Kustomizations are the directories holding a kustomization file
	// (see KustomizationFile), sorted: what they hold is built, not read
	// file by file. A kustomization's subdirectories are still searched
	// for more kustomizations and charts.
	Kustomizations []string
	// Charts are the Helm chart directories (holding Chart.yaml), sorted:
	// rendered, never read file by file.
	Charts []string
}

// Walk finds, under root, what Read reads when given root (Tree.Files) and
// the kustomizations and Helm charts that a renderer builds instead.
// Paths skip reports are left out (directories with all they hold; a
// kustomization whose kustomization file skip reports is walked as a plain
// directory). What cannot be walked or read (an unreadable directory, a
// dangling link, a link to a directory, a link out of the boundary) is
// returned as errors, as Read reports it.
func Walk(root string, skip func(path string) bool, b Boundary) (Tree, []*ReadError) {
	var t Tree
	var errs []*ReadError
	walkManifests(root, skip, b, func(path string, err *ReadError) {
		if err != nil {
			errs = append(errs, err)
		} else {
			t.Files = append(t.Files, path)
		}
	}, func(dir string, chart bool) {
		if chart {
			t.Charts = append(t.Charts, dir)
		} else {
			t.Kustomizations = append(t.Kustomizations, dir)
		}
	})
	slices.Sort(t.Files)
	slices.Sort(t.Kustomizations)
	slices.Sort(t.Charts)
	return t, errs
}

// walkManifests calls visit for every manifest file under root, and for
// every path that cannot be walked, with its error. Only regular files are
// read, and symbolic links to them: a link is followed, and its target's
// type checked, before anything opens it, so that a FIFO or a device
// (a link to /dev/zero) is skipped like the FIFO or device itself. A link
// to a directory is not followed (a link may lead out of the tree, or
// around in a cycle); one with a manifest's name is reported. A link, root
// included, that leads out of the boundary b is reported and not read.
//
// A Helm chart directory, or a directory holding a kustomization, root
// included, is handed to rendered (when not nil) and its files are not
// visited: they are templates, patches and fragments that mean something
// only once rendered. A chart's templates directory named as root is read
// (and its templates reported as unrendered).
func walkManifests(root string, skip func(string) bool, b Boundary, visit func(string, *ReadError), rendered func(dir string, chart bool)) {
	if err := b.Check(root); err != nil {
		visit(root, &ReadError{File: root, Msg: err.Error()})
		return
	}
	info, err := os.Lstat(root)
	if err == nil && info.Mode()&fs.ModeSymlink != 0 {
		// A link named as the root is followed, and the paths found
		// under it are cleaned of the separator that follows it.
		root += string(filepath.Separator)
		info, err = os.Lstat(root)
	}
	switch {
	case err != nil:
		visit(root, fileError(root, err))
	case info.IsDir():
		w := manifestWalk{skip: skip, b: b, visit: visit, rendered: rendered}
		w.dir(root, false)
	}
}

// manifestWalk is one walk of walkManifests. It reads each directory once
// and asks whether it is a chart or holds a kustomization only when its
// entries hold such a file's name: a monorepo has thousands of
// directories, few of them either.
type manifestWalk struct {
	skip     func(string) bool
	b        Boundary
	visit    func(string, *ReadError)
	rendered func(dir string, chart bool)
}

// dir walks the directory at path (root included); inKustomization says
// that a directory above it holds a kustomization, whose files are not
// read one by one. Entries come in name order, as filepath.WalkDir gives
// them, and what cannot be listed is reported and the walk goes on.
func (w *manifestWalk) dir(path string, inKustomization bool) {
	entries, err := os.ReadDir(path)
	switch w.renders(path, entries, err) {
	case renderedChart:
		return
	case renderedKustomization:
		inKustomization = true
	}
	if err != nil {
		w.visit(path, fileError(path, err))
	}
	for _, e := range entries {
		p := filepath.Join(path, e.Name())
		if strings.HasPrefix(e.Name(), ".") || (w.skip != nil && w.skip(p)) {
			continue
		}
		if e.IsDir() {
			w.dir(p, inKustomization)
			continue
		}
		// Chart.yaml is Helm's chart metadata (apiVersion v2, no kind).
		if inKustomization || !IsManifestName(e.Name()) || e.Name() == chartFile {
			continue
		}
		w.file(p, e.Type())
	}
}

// file visits the manifest file at path, of the entry type typ: a regular
// file, or a link to one within the boundary.
func (w *manifestWalk) file(path string, typ fs.FileMode) {
	switch {
	case typ.IsRegular():
		w.visit(path, nil)
	case typ&fs.ModeSymlink != 0:
		if err := w.b.Check(path); err != nil {
			w.visit(path, &ReadError{File: path, Msg: err.Error()})
			return
		}
		info, err := os.Stat(path)
		switch {
		case err != nil:
			w.visit(path, fileError(path, err))
		case info.Mode().IsRegular():
			w.visit(path, nil)
		case info.IsDir():
			w.visit(path, &ReadError{File: path, Msg: "a symbolic link to a directory, which a directory walk does not follow; name it to read it"})
		}
	}
}

// What renders a directory.
const (
	renderedNot = iota
	renderedChart
	renderedKustomization
)

// renders hands the directory at path to rendered when it is a chart or
// holds a kustomization, and says which it is. A directory that cannot be
// listed is asked by name (a directory may be searchable and not
// readable).
func (w *manifestWalk) renders(path string, entries []fs.DirEntry, listErr error) int {
	var chart bool
	var kustomization string
	if listErr != nil {
		chart, kustomization = isChart(path), KustomizationFile(path, w.skip)
	} else {
		chart, kustomization = marksOf(path, entries, w.skip)
	}
	switch {
	case chart:
		if w.rendered != nil {
			w.rendered(filepath.Clean(path), true)
		}
		return renderedChart
	case kustomization != "":
		if w.rendered != nil {
			w.rendered(filepath.Clean(path), false)
		}
		return renderedKustomization
	}
	return renderedNot
}

// marksOf is isChart and KustomizationFile of the directory at dir, which
// ask os.Stat only when its entries hold one of their names, in any case:
// a name the listing lacks cannot be found by os.Stat either, while one it
// holds is found as os.Stat finds it (through a link, only in a directory
// that can be searched, and in any case on a file system that ignores
// case).
func marksOf(dir string, entries []fs.DirEntry, skip func(string) bool) (chart bool, kustomization string) {
	named := func(names ...string) bool {
		return slices.ContainsFunc(entries, func(e fs.DirEntry) bool { return anyName(e.Name(), names...) })
	}
	if named(chartFile) {
		chart = isChart(dir)
	}
	if named(kustomizationNames...) {
		kustomization = KustomizationFile(dir, skip)
	}
	return chart, kustomization
}

// kustomizationNames are the names kustomize looks for in a directory, in
// its order.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// chartFile is the file that makes a directory a Helm chart.
const chartFile = "Chart.yaml"

// MarksRendered reports whether a file of this name may make the
// directory holding it one that Walk hands on to be rendered, rather than
// reading its files: a kustomization file or a Helm chart's Chart.yaml, in
// any case (a file system that ignores case finds them so). Rendering it
// may read any file below it.
func MarksRendered(name string) bool {
	return anyName(name, chartFile) || anyName(name, kustomizationNames...)
}

// anyName reports whether name is one of names in any case.
func anyName(name string, names ...string) bool {
	return slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(name, n) })
}

// KustomizationFile returns the kustomization file of dir, "" when it has
// none (or skip, when not nil, reports it).
func KustomizationFile(dir string, skip func(string) bool) string {
	for _, name := range kustomizationNames {
		p := filepath.Join(dir, name)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() && (skip == nil || !skip(p)) {
			return p
		}
	}
	return ""
}

// isChart reports whether dir is a Helm chart: it holds Chart.yaml.
func isChart(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, chartFile))
	return err == nil && info.Mode().IsRegular()
}

// IsManifestName reports whether a directory walk reads a file of this
// name: .yaml, .yml or .json, in any case.
func IsManifestName(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".json":
		return true
	}
	return false
}

// fileError reports an OS error without repeating the path, which
// ReadError.Error already shows.
func fileError(path string, err error) *ReadError {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return &ReadError{File: path, Msg: err.Error()}
}

// readLimited reads r to the end into buf's memory (growing it as needed),
// refusing more than MaxFileSize bytes. size is the expected size, to
// allocate at most once.
func readLimited(r io.Reader, size int64, buf []byte) ([]byte, error) {
	if size > MaxFileSize {
		return nil, errTooLarge
	}
	b := bytes.NewBuffer(buf[:0])
	b.Grow(int(size) + bytes.MinRead)
	if _, err := b.ReadFrom(io.LimitReader(r, MaxFileSize+1)); err != nil {
		return nil, err
	}
	if b.Len() > MaxFileSize {
		return nil, errTooLarge
	}
	return b.Bytes(), nil
}

var errTooLarge = fmt.Errorf("file is larger than %d MiB", MaxFileSize>>20)

func readFile(name string, buf []byte) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var size int64
	if info, err := f.Stat(); err == nil {
		size = info.Size()
	}
	return readLimited(f, size, buf)
}

// run reads and parses one file, handing each object to emit.
func (c *converter) run(j job, emit func(*Object)) fileResult {
	if j.err != nil {
		return fileResult{errs: []*ReadError{j.err}}
	}
	data := j.data
	if !j.stdin {
		var err error
		// Nothing read from a file outlives its parse (strings, JSON and
		// positions are copies), so one buffer serves all of a worker's.
		if data, err = readFile(j.file, c.buffer); err != nil {
			return fileResult{errs: []*ReadError{fileError(j.file, err)}}
		}
		c.buffer = data
	}
	r := fileResult{emit: emit}
	c.parseFile(j.file, data, &r)
	return r
}

// parseFile converts every document of one file. The file is read piece
// by piece (see splitDocuments): a document that cannot be read is an
// error, and the documents before and after it are still read.
func (c *converter) parseFile(file string, data []byte, r *fileResult) {
	// Parsing runs on worker goroutines, where a panic (in the YAML library,
	// say) would take the whole program down; make it this file's error.
	defer func() {
		if v := recover(); v != nil {
			r.errs = append(r.errs, &ReadError{File: file, Msg: fmt.Sprintf("internal error while reading: %v", v)})
		}
	}()
	if bytes.HasPrefix(data, gitCryptHeader) {
		r.errs = append(r.errs, &ReadError{File: file, Unknown: true,
			Msg: "encrypted with git-crypt: what it holds is unknown until the repository is unlocked (git-crypt unlock)"})
		return
	}
	text, terr := decodeText(data)
	if terr != nil {
		r.errs = append(r.errs, &ReadError{File: file, Pos: terr.pos, Msg: terr.msg})
		return
	}
	c.aliasBudget = minAliasBudget + len(text)
	r.ignores = IgnoreDirectives(text)
	c.file, c.text = file, text
	defer func() { c.text = nil }()
	doc := 0
	for _, pc := range splitDocuments(text) {
		c.piece = pc
		doc += c.parsePiece(doc, r)
	}
}

// gitCryptHeader begins each file that git-crypt encrypts in a work tree
// it has not unlocked (a CI runner's).
var gitCryptHeader = []byte("\x00GITCRYPT\x00")

// parsePiece converts the documents of c.piece, numbering them from doc,
// and returns how many it held.
func (c *converter) parsePiece(doc int, r *fileResult) int {
	pc := c.piece
	data := c.text[pc.start:pc.end]
	fast, bad := scanText(data)
	if bad >= 0 {
		// libyaml would refuse the whole file, without a line.
		r.errs = append(r.errs, &ReadError{File: c.file, Pos: textPos(c.text, pc.start+bad), Msg: badCharError(data, bad)})
		return 1
	}
	// Most manifests are in the subset the fast parser reads, into the
	// same trees as yaml.v3; it gives up on the rest.
	if fast {
		if docs, ok := c.fast.parse(data, pc.line); ok {
			for i, root := range docs {
				if pc.col > 0 {
					shiftNodes(root, 0, pc.line, pc.col)
				}
				c.document(doc+i, root, r)
			}
			return len(docs)
		}
	}
	breaks := findExtraBreaks(data)
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for n := 0; ; n++ {
		var root yaml.Node
		if err := dec.Decode(&root); err != nil {
			if err == io.EOF {
				return n
			}
			if templateNotObject(data) || c.jsonNotObject(data) {
				r.notObjects++ // what follows is a template's, or a tool's, not an object's
			} else {
				r.errs = append(r.errs, c.syntaxError(data, breaks, err))
			}
			return n + 1
		}
		if breaks != nil {
			breaks.remap(&root)
		}
		if pc.line > 1 || pc.col > 0 {
			shiftNodes(&root, pc.line-1, 1, pc.col)
		}
		c.document(doc+n, &root, r)
	}
}

// shiftNodes moves the positions of a tree read from a piece of a file to
// the file's: lines move down by lines, and columns on line firstLine (of
// the file) move right by cols.
func shiftNodes(n *yaml.Node, lines, firstLine, cols int) {
	n.Line += lines
	if n.Line == firstLine+lines && cols > 0 {
		n.Column += cols
	}
	for _, child := range n.Content {
		shiftNodes(child, lines, firstLine, cols)
	}
}

// textPos is the position of offset i of text.
func textPos(text []byte, i int) Pos {
	lineStart := bytes.LastIndexByte(text[:i], '\n') + 1
	return Pos{Line: 1 + bytes.Count(text[:lineStart], []byte{'\n'}), Col: 1 + utf8.RuneCount(text[lineStart:i])}
}

// document converts one YAML document of the piece into objects: one, none
// for an empty document, or one per item of a List.
func (c *converter) document(doc int, n *yaml.Node, r *fileResult) {
	if n.Kind == yaml.DocumentNode {
		if len(n.Content) == 0 {
			return
		}
		n = n.Content[0]
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // only comments, or an explicit null
	}
	c.objects(doc, n, "", false, r)
}

// objects converts n, a document's root or an item of a List (path names
// it, for errors), into its objects: itself, or the items of a List, which
// may be Lists too. A bad item does not stop the others. aliased is set
// when n was reached through an alias.
func (c *converter) objects(doc int, n *yaml.Node, path string, aliased bool, r *fileResult) {
	if c.aliasBudget < 0 {
		return // spent, and reported, by an earlier item
	}
	h, err := c.header(n, path)
	if h.notObject {
		r.notObjects++
		return // not a Kubernetes object: nothing to check, not an error
	}
	aliased = aliased || h.aliased
	switch {
	case err != nil:
	case strings.Count(path, "items[") > maxDepth:
		err = errorAt(n, "Lists nested deeper than %d levels", maxDepth)
	case aliased:
		// What an alias reaches is a copy, and spends the alias budget like
		// every node an alias expands to, so that Lists of aliases of
		// Lists cannot multiply without bound.
		if c.aliasBudget -= 1 + len(h.items); c.aliasBudget < 0 {
			err = errorAt(n, "%s", aliasBudgetExceeded)
		}
	}
	if err == nil && !h.list {
		err = c.object(doc, n, h, aliased, r)
	}
	if err != nil {
		if ce := (*convError)(nil); errors.As(err, &ce) && ce.template && ToolTemplate(c.text[c.piece.start:c.piece.end]) {
			r.notObjects++ // another tool's template, which YAML read but not as an object
			return
		}
		r.errs = append(r.errs, c.conversionError(err))
		return
	}
	if path != "" {
		path += "."
	}
	for i, item := range h.items {
		c.objects(doc, item, path+"items["+strconv.Itoa(i)+"]", aliased, r)
	}
}

func (c *converter) object(doc int, n *yaml.Node, h header, aliased bool, r *fileResult) error {
	json, positions, err := c.convert(n, aliased)
	if err != nil {
		return err
	}
	r.objects++
	r.emit(&Object{
		Source:     Source{File: c.file, Doc: doc, Pos: nodePos(n)},
		APIVersion: h.apiVersion,
		Kind:       h.kind,
		JSON:       json,
		Positions:  positions,
		Ignores:    r.ignores,
	})
	return nil
}

// header is what an object's top level says about it.
type header struct {
	apiVersion, kind string
	list             bool         // a List wrapper: its items are the objects
	items            []*yaml.Node // the items of a List
	aliased          bool         // the object or its items were reached through an alias
	// notObject: a top-level mapping with neither apiVersion nor kind, such
	// as a Helm values file or a tool's config kept among the manifests, or
	// a top-level sequence of no such object (a JSON data set).
	notObject bool
}

// looksLikeObject reports whether n is a mapping with an apiVersion or a kind
// key: what a sequence written in place of a List would hold.
func looksLikeObject(n *yaml.Node) bool {
	if n.Kind != yaml.MappingNode {
		return false
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if k := n.Content[i].Value; k == "apiVersion" || k == "kind" {
			return true
		}
	}
	return false
}

// header checks that n is a Kubernetes object and reads its apiVersion and
// kind. Errors name path (a List item) first.
func (c *converter) header(n *yaml.Node, path string) (header, error) {
	what := ""
	if path != "" {
		what = path + ": "
	}
	m := n
	if m.Kind == yaml.AliasNode {
		var err error
		if m, err = c.alias(n); err != nil {
			return header{}, err
		}
	}
	if m.Kind == yaml.SequenceNode && path == "" && !slices.ContainsFunc(m.Content, looksLikeObject) {
		return header{notObject: true}, nil // data, such as a JSON array of records
	}
	if m.Kind == yaml.ScalarNode && path == "" && c.file != stdinName {
		// Text, such as a sysctl.d file an Ansible role copies; what is
		// piped in is meant to be manifests.
		return header{notObject: true}, nil
	}
	if m.Kind != yaml.MappingNode {
		return header{}, errorAt(n, "%sexpected a Kubernetes object (a mapping), found a %s", what, kindName(m))
	}
	var apiVersion, kind, items, sops, metadata *yaml.Node
	find := func(name string, v *yaml.Node) {
		switch {
		case name == "sops" && sops == nil:
			sops = v
		case name == "metadata" && metadata == nil:
			metadata = v
		case name == "apiVersion" && apiVersion == nil:
			apiVersion = v
		case name == "kind" && kind == nil:
			kind = v
		case name == "items" && items == nil:
			items = v
		}
	}
	if slices.ContainsFunc(m.Content, isMergeKey) {
		pairs, err := c.pairs(m, 0)
		if err != nil {
			return header{}, err
		}
		for _, p := range pairs {
			find(p.name, p.v)
		}
	} else {
		// Keys that are not scalars have no Value and are reported when
		// the object is converted.
		for i := 0; i+1 < len(m.Content); i += 2 {
			find(m.Content[i].Value, m.Content[i+1])
		}
	}

	switch {
	case apiVersion == nil && kind == nil && path == "":
		return header{notObject: true}, nil
	case apiVersion == nil && sops != nil && path == "":
		// A file SOPS encrypted (its sops: metadata at the top), of
		// something that names no apiVersion: Ansible's vars, say, which
		// some write with a kind. An encrypted object keeps its apiVersion.
		return header{notObject: true}, nil
	case apiVersion == nil && metadata == nil && path == "" && c.file != stdinName:
		// A kind and nothing else of an object's envelope: another tool's
		// document (a Sidero Omni cluster template, Helm values that set
		// a top-level kind). An object missing only its apiVersion still
		// has its metadata, and is an error below; so is what is piped in.
		return header{notObject: true}, nil
	case kind == nil && path == "" && c.file != stdinName && !objectVersion(apiVersion):
		// An apiVersion no Kubernetes API has, and no kind: another
		// tool's format version (Grafana's provisioning files write
		// apiVersion: 1; a Score workload, score.dev/v1b1 and metadata).
		return header{notObject: true}, nil
	case apiVersion == nil && kind == nil:
		return header{}, errorAt(n, `%smissing "apiVersion" and "kind"`, what)
	case apiVersion == nil:
		return header{}, errorAt(n, `%smissing "apiVersion"`, what)
	case kind == nil:
		return header{}, errorAt(n, `%smissing "kind"`, what)
	}
	h := header{aliased: n != m}
	var err error
	if h.apiVersion, err = c.headerString(apiVersion, "apiVersion", what); err != nil {
		return header{}, err
	}
	if h.kind, err = c.headerString(kind, "kind", what); err != nil {
		return header{}, err
	}

	// `kubectl get -o yaml` prints a v1 List, or a <Kind>List, of items;
	// an item may be a List again.
	if !strings.HasSuffix(h.kind, "List") || items == nil {
		return h, nil
	}
	if items.Kind == yaml.AliasNode {
		h.aliased = true
		if items, err = c.alias(items); err != nil {
			return header{}, err
		}
	}
	switch {
	case items.Kind == yaml.SequenceNode:
		h.list, h.items = true, items.Content
	case h.kind == "List" && h.apiVersion == "v1":
		if items.Kind != yaml.ScalarNode || items.Tag != "!!null" {
			return header{}, errorAt(items, "%sthe items of a List must be a sequence, found a %s", what, kindName(items))
		}
		h.list = true // no items
	}
	return h, nil
}

// headerString returns the value of apiVersion or kind, which must be a
// non-empty scalar.
func (c *converter) headerString(v *yaml.Node, field, what string) (string, error) {
	if v.Kind == yaml.AliasNode {
		var err error
		if v, err = c.alias(v); err != nil {
			return "", err
		}
	}
	if v.Kind != yaml.ScalarNode || v.Tag == "!!null" || v.Value == "" {
		return "", errorAt(v, "%s%q must be a non-empty string", what, field)
	}
	// A copy: the value may be a view of the file's text, and the object
	// keeps it.
	return internHeader(v.Value), nil
}

// objectVersion reports whether an apiVersion node may be a Kubernetes
// object's: a string shaped like one (v1, v1beta2, group/v1alpha1).
func objectVersion(n *yaml.Node) bool {
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return n.Kind != yaml.ScalarNode // an alias or a mapping: judged below
	}
	group, version, grouped := strings.Cut(n.Value, "/")
	if !grouped {
		group, version = "", group
	}
	if grouped && (group == "" || strings.ContainsFunc(group, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '.')
	})) {
		return false
	}
	rest, ok := strings.CutPrefix(version, "v")
	digits := func(s string) string { return strings.TrimLeft(s, "0123456789") }
	if !ok || rest == "" || digits(rest) == rest {
		return false
	}
	rest = digits(rest)
	for _, stage := range []string{"alpha", "beta"} {
		if r, ok := strings.CutPrefix(rest, stage); ok && r != "" && digits(r) == "" {
			return true
		}
	}
	return rest == ""
}

// internHeader returns the one copy of an apiVersion or kind: a
// repository's objects share a few dozen.
func internHeader(s string) string { return unique.Make(s).Value() }

// syntaxError turns yaml.v3's error about the current piece ("yaml: line
// 7: mapping values are not allowed in this context") into a ReadError at
// the line of the file where the problem is. yaml.v3 does not report
// columns, and reports some errors at no line or at the start of the
// construct they are in, which may be many lines before the fault (see
// faultLine).
func (c *converter) syntaxError(data []byte, breaks extraBreaks, err error) *ReadError {
	msg, line := splitYAMLError(err)
	if line > 0 {
		line, _ = breaks.pos(line, 1)
	}
	line = max(line, faultLine(data, msg, line))
	var pos Pos
	if line > 0 {
		pos.Line = c.piece.line + line - 1
	}
	if hint, at := c.templateHint(); hint != "" {
		msg += hint
		if pos.Line == 0 {
			pos = at
		}
	}
	return &ReadError{File: c.file, Pos: pos, Msg: msg}
}

// splitYAMLError parses a yaml.v3 error into its message and line (0 when
// it names none).
func splitYAMLError(err error) (string, int) {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if rest, ok := strings.CutPrefix(msg, "line "); ok {
		if i := strings.Index(rest, ": "); i > 0 {
			if line, err := strconv.Atoi(rest[:i]); err == nil {
				return rest[i+2:], line
			}
		}
	}
	return msg, 0
}

// maxFaultSearch bounds the size of a piece whose syntax error faultLine
// looks for by parsing its beginnings again.
const maxFaultSearch = 4 << 20

// faultLine returns the line of data (1-based) at which yaml.v3 first
// fails with msg: the last line of the shortest run of whole lines from
// the start that fails so, found by bisection from the line yaml.v3
// reported (0 if none). yaml.v3 reports an error of the parser at the
// start of the enclosing construct, counted from 0: a misindented key is
// reported at the block mapping it falls out of, maybe many lines before.
func faultLine(data []byte, msg string, reported int) int {
	if len(data) > maxFaultSearch {
		return 0
	}
	var ends []int // ends[i]: the offset after line i+1
	for i := 0; i < len(data); {
		j := bytes.IndexByte(data[i:], '\n')
		if j < 0 {
			ends = append(ends, len(data))
			break
		}
		i += j + 1
		ends = append(ends, i)
	}
	fails := func(lines int) bool {
		dec := yaml.NewDecoder(bytes.NewReader(data[:ends[lines-1]]))
		for {
			var n yaml.Node
			err := dec.Decode(&n)
			if err == nil {
				continue
			}
			m, _ := splitYAMLError(err)
			return err != io.EOF && m == msg
		}
	}
	// The first lo lines read, the first hi fail.
	lo, hi := min(max(reported-2, 0), len(ends)-1), len(ends)
	for hi-lo > 1 {
		mid := (lo + hi) / 2
		if fails(mid) {
			hi = mid
		} else {
			lo = mid
		}
	}
	return hi
}

// conversionError turns a converter error into a ReadError, explaining it
// by unrendered template syntax in the piece where that applies.
func (c *converter) conversionError(err error) *ReadError {
	var ce *convError
	if !errors.As(err, &ce) {
		return &ReadError{File: c.file, Msg: err.Error()}
	}
	msg := ce.msg
	if ce.template {
		hint, _ := c.templateHint()
		msg += hint
	}
	return &ReadError{File: c.file, Pos: ce.pos, Msg: msg}
}

// templateNotObject reports whether a document that YAML cannot read is
// an unrendered template that is not a manifest: it holds template syntax
// (Go's and Helm's {{ }}, Jinja's {% %}) and no top-level apiVersion or
// kind (an Ansible, Talos or helmfile template), or Jinja's statements,
// which no tool that applies manifests renders (an Ansible role's template
// of an object), or is another tool's template (see ToolTemplate). A Helm
// template of an object stays an error: outside its chart, a manifest
// that cannot be read.
func templateNotObject(doc []byte) bool {
	jinja := bytes.Contains(doc, []byte("{%"))
	return jinja || bytes.Contains(doc, []byte("{{")) && (!objectHeader().Match(doc) || ToolTemplate(doc))
}

// ToolTemplate reports whether doc holds {{ }} template syntax that is
// not Helm's, nor that of an object's own strings: none of its actions
// reads Helm's built-in objects (.Values, .Release, .Chart, .Capabilities,
// .Files, .Template) or calls include, template or tpl, nor reads what
// Prometheus and Alertmanager give the templates of a rule or a receiver
// ($labels, $value, .Labels, .Annotations, ...). Such a file is the source
// of another tool (Gruntwork's boilerplate {{ .app_name }}, minijinja's
// {{ ENV.DOMAIN }} in a Go program's embedded templates, cookiecutter),
// which nothing applies before that tool renders it.
func ToolTemplate(doc []byte) bool {
	return bytes.Contains(doc, []byte("{{")) && !helmAction().Match(doc) && !embeddedAction().Match(doc)
}

// helmAction finds a template action that only Helm renders.
var helmAction = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{[^}]*(\$?\.(Values|Release|Chart|Capabilities|Files|Template)\b|\b(include|template|tpl)\s)`)
})

// embeddedAction finds a template action of Prometheus's rules or
// Alertmanager's notifications, which a manifest carries as a string for
// them to render: unquoted, it breaks the YAML of an object meant to be
// applied as it is.
var embeddedAction = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\{\{[^}]*(\$(labels|value|externalLabels|externalURL)\b|\.(Labels|Annotations|CommonLabels|CommonAnnotations|GroupLabels|Alerts)\b)`)
})

// jsonNotObject reports whether a .json file that cannot be read names
// neither an apiVersion nor a kind: a tool's configuration with comments
// or trailing commas (tsconfig.json, .vscode settings), not a manifest.
func (c *converter) jsonNotObject(doc []byte) bool {
	return strings.EqualFold(filepath.Ext(c.file), ".json") &&
		!bytes.Contains(doc, []byte(`"apiVersion"`)) && !bytes.Contains(doc, []byte(`"kind"`))
}

// objectHeader finds a top-level apiVersion or kind key.
var objectHeader = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`(?m)^["']?(apiVersion|kind)["']?[ \t]*:`)
})

// templateHint says where the current piece holds "{{", the mark of an
// unrendered Helm or Go template, which explains most failures to parse
// such a file.
func (c *converter) templateHint() (string, Pos) {
	i := bytes.Index(c.text[c.piece.start:c.piece.end], []byte("{{"))
	if i < 0 {
		return "", Pos{}
	}
	at := textPos(c.text, c.piece.start+i)
	if embeddedAction().Match(c.text[c.piece.start:c.piece.end]) && !helmAction().Match(c.text[c.piece.start:c.piece.end]) {
		return ": {{ ... }} at line " + strconv.Itoa(at.Line) + " is a template for Prometheus or Alertmanager; quote the value, so that YAML reads it as a string", at
	}
	return ": looks like an unrendered Helm template ({{ ... }} at line " + strconv.Itoa(at.Line) + "); render it with `helm template` first", at
}

// Errorf is an error about the object, placed at the field path nearest to
// path that the document writes (the object itself when none).
func (o *Object) Errorf(path, format string, args ...any) *ReadError {
	pos, _ := o.Positions.Nearest(path)
	if pos.Line == 0 {
		pos = o.Source.Pos
	}
	return &ReadError{File: o.Source.File, Pos: pos, Msg: fmt.Sprintf(format, args...)}
}

// Ref is the object's "ns/name" read straight from the document, for error
// messages written before the object is decoded.
func (o *Object) Ref() string {
	var doc struct {
		Metadata struct {
			Name      string `json:"name"`
			Namespace string `json:"namespace"`
		} `json:"metadata"`
	}
	_ = json.Unmarshal(o.JSON, &doc) // best effort: only used to name the object
	if doc.Metadata.Namespace == "" {
		return doc.Metadata.Name
	}
	return doc.Metadata.Namespace + "/" + doc.Metadata.Name
}
