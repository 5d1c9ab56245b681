package lsp

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gwlint/gwlint/cmd/internal/cli"
	"github.com/gwlint/gwlint/internal/gcpolicy"
	"github.com/gwlint/gwlint/lint"
	"github.com/gwlint/gwlint/resolve"
	"github.com/gwlint/gwlint/resolve/manifest"
)

// Setup is how `gwlint check DIR` reads and judges DIR: its configuration
// and flags applied, its inputs found.
type Setup struct {
	Inputs cli.Inputs
	// WalkErrors are what finding the inputs could not walk; they are
	// reported with the first world's errors, as gwlint check does.
	WalkErrors []*manifest.ReadError
	Options    resolve.Options
	Rules      []*lint.Rule
}

// Configure sets up a path (a workspace folder, or a file outside every
// folder) as `gwlint check PATH` would. Its error is a configuration error.
type Configure func(path string) (*Setup, error)

// folder is one workspace folder and what the server holds of it.
type folder struct {
	path      string
	configure Configure

	// mu guards the fields below but last and cache, held only briefly: an
	// edit (forget) never waits for a check, nor a hover for one (last).
	mu sync.Mutex
	// setup is nil until the next check configures the folder again:
	// after a file is saved, created or deleted, which may change the
	// configuration or the files found.
	setup *Setup
	// files are the files read one by one, as loaded: an edit re-reads
	// the file it changed only.
	files map[fileKey]loadedFile
	// forgotten are what files held of the files forgotten since they
	// were last loaded, with the epoch of their last forget: a file read
	// again keeps those of its objects that are the same
	// (resolve.Inputs.KeepSame), which the last graph points at. A check
	// that completes drops those it did not read again (a file deleted,
	// or no longer among the inputs).
	forgotten map[fileKey]forgottenFile
	// loadedWith are the options of the last setup made, which files
	// were loaded with.
	loadedWith resolve.Options
	// epoch counts the forgets, forgotAt is each file's last and
	// reconfiguredAt the last that dropped the setup: a check keeps a
	// file it read, or the setup it made, only if no forget of it came
	// meanwhile (what it read may be older than the edit), and what it
	// found only if no forget at all came.
	epoch          uint64
	forgotAt       map[string]uint64
	reconfiguredAt uint64
	// last is what the last check found.
	last atomic.Pointer[snapshot]
	// cache keeps what resolving derived from the objects of the files
	// not read again, for the next check.
	cache *resolve.Cache
	// gc is the server's collector policy, which a load of every file
	// of the folder follows.
	gc *gcpolicy.Server
}

// loadedFile is what a file held as loaded, and, when it was read from
// disk, its size and modification time then (else zero: read from an
// editor's text).
type loadedFile struct {
	in   *resolve.Inputs
	disk stamp
}

// forgottenFile is what a file held when it was last forgotten, at epoch.
type forgottenFile struct {
	in    *resolve.Inputs
	epoch uint64
}

// fileKey is a file as loaded by one choice of CRDs (Options.CRDChoice):
// the inputs may make it (cli.Inputs.Load), and a file is validated as
// read.
type fileKey struct {
	path string
	crds string
}

// snapshot is one check of a folder: the worlds, their graphs, the
// findings and the configuration error, if any.
type snapshot struct {
	worlds   []*resolve.Inputs
	graphs   []*resolve.Graph
	findings []lint.Finding
	err      error
	options  resolve.Options // the graphs were resolved with
}

func newFolder(path string, configure Configure, gc *gcpolicy.Server) *folder {
	return &folder{path: path, configure: configure, files: map[fileKey]loadedFile{}, forgotten: map[fileKey]forgottenFile{},
		forgotAt: map[string]uint64{}, cache: resolve.NewCache(), gc: gc}
}

// contains reports whether the folder reads path.
func (f *folder) contains(path string) bool {
	rel, err := filepath.Rel(f.path, path)
	return err == nil && (rel == "." || !strings.HasPrefix(rel, ".."))
}

// reads reports whether the folder reads text for path as it is: path is
// a file on disk holding text, among the files the folder found, or the
// folder is about to find its files again (and with them path), and what
// the folder holds of it, if anything, was read from disk as it is now.
// Opening such a file in the editor changes nothing the folder reads.
func (f *folder) reads(path string, text []byte) bool {
	f.mu.Lock()
	s := f.setup
	var held []stamp
	for k, l := range f.files {
		if k.path == path {
			held = append(held, l.disk)
		}
	}
	f.mu.Unlock()
	now := stampOf(path)
	if s != nil && !slices.Contains(s.Inputs.Files, path) || slices.ContainsFunc(held, func(disk stamp) bool { return disk == stamp{} || disk != now }) {
		return false
	}
	data, err := os.ReadFile(path)
	return err == nil && bytes.Equal(data, text)
}

// stamp is a file's size and modification time, zero when it cannot be
// stat'ed (which no file read from disk matches).
type stamp struct {
	size, modified int64
}

func stampOf(path string) stamp {
	info, err := os.Stat(path)
	if err != nil {
		return stamp{}
	}
	return stamp{info.Size(), info.ModTime().UnixNano()}
}

// forget drops what the folder loaded of path, to be read again; with
// reconfigure, the folder's setup too (a file was saved, created or
// deleted: the configuration or the files found may be others).
func (f *folder) forget(path string, reconfigure bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.epoch++
	f.forgotAt[path] = f.epoch
	for k, l := range f.files {
		if k.path == path {
			f.forgotten[k] = forgottenFile{l.in, f.epoch}
			delete(f.files, k)
		}
	}
	for k, old := range f.forgotten {
		if k.path == path {
			f.forgotten[k] = forgottenFile{old.in, f.epoch}
		}
	}
	if reconfigure {
		f.reconfiguredAt = f.epoch
		f.setup = nil
	}
}

// check reads what changed, resolves and lints the folder as gwlint
// check would, reading open documents from text (by path) rather than
// from disk. Checks run one at a time (the server's checkLock). It
// returns nil when an edit came during the check: what it found may mix
// the old text and the new, and the edit has asked for another check.
func (f *folder) check(text func(path string) ([]byte, bool)) *snapshot {
	f.mu.Lock()
	s, epoch := f.setup, f.epoch
	f.mu.Unlock()
	if s == nil {
		var err error
		if s, err = f.configure(f.path); err != nil {
			return f.keep(&snapshot{err: err}, epoch)
		}
		f.mu.Lock()
		// With other options nothing loaded before holds; with the same,
		// a save or a file created re-reads none of the others.
		if !reflect.DeepEqual(f.loadedWith, s.Options) {
			clear(f.files)
			clear(f.forgotten)
			f.loadedWith = s.Options
		}
		if f.reconfiguredAt <= epoch {
			f.setup = s
		}
		f.mu.Unlock()
	}
	f.mu.Lock()
	whole := len(f.files) == 0 && len(s.Inputs.Files) > 0 // every file is read
	f.mu.Unlock()
	if whole {
		f.gc.Load(s.Inputs.Files)
	}
	inputs := s.Inputs
	inputs.LoadFile = func(file string, opts resolve.Options) *resolve.Inputs {
		return f.loadFile(file, opts, text)
	}
	worlds := inputs.Load(nil, s.Options)
	worlds[0].Errors = append(slices.Clip(worlds[0].Errors), s.WalkErrors...)
	graphs := f.resolve(worlds, s.Options)
	findings, _ := cli.LintWorlds(worlds, graphs, s.Rules)
	return f.keep(&snapshot{worlds: worlds, graphs: graphs, findings: findings, options: s.Options}, epoch)
}

// resolve resolves the worlds, or hands back the last check's graphs when
// the worlds hold the very objects the last check's did (an edit that
// changed no object: a comment, a document still or newly broken) and no
// certificate has expired or become valid since, since resolving them
// again would make the same graphs.
func (f *folder) resolve(worlds []*resolve.Inputs, opts resolve.Options) []*resolve.Graph {
	last := f.last.Load()
	if last != nil && last.err == nil && reflect.DeepEqual(last.options, opts) && slices.EqualFunc(last.worlds, worlds, resolve.SameWorld) &&
		!slices.ContainsFunc(last.graphs, func(g *resolve.Graph) bool { return !g.HoldsNow() }) {
		return last.graphs
	}
	graphs := make([]*resolve.Graph, len(worlds))
	for i, w := range worlds {
		graphs[i] = f.cache.Resolve(w, opts)
	}
	f.cache.EndCheck()
	return graphs
}

// keep makes snap the last check unless an edit came since epoch. What
// was forgotten by then and not read again is no longer an input.
func (f *folder) keep(snap *snapshot, epoch uint64) *snapshot {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.epoch != epoch {
		return nil
	}
	f.last.Store(snap)
	// Checks run one at a time: none will load a file forgotten by then
	// with an older epoch than this one's.
	maps.DeleteFunc(f.forgotten, func(_ fileKey, old forgottenFile) bool { return old.epoch <= epoch })
	maps.DeleteFunc(f.forgotAt, func(_ string, at uint64) bool { return at <= epoch })
	return snap
}

// loadFile loads one file, or hands back what it loaded before. A panic
// (a bug) becomes the file's error, so that the check loses that file
// rather than every file of the folder.
func (f *folder) loadFile(file string, opts resolve.Options, text func(string) ([]byte, bool)) (in *resolve.Inputs) {
	defer func() {
		if p := recover(); p != nil {
			in = &resolve.Inputs{Skipped: map[string]int{}, Errors: []*manifest.ReadError{{File: file, Msg: fmt.Sprintf("internal error while reading: %v", p)}}}
		}
	}()
	key := fileKey{path: file, crds: opts.CRDChoice()}
	f.mu.Lock()
	loaded, ok := f.files[key]
	epoch := f.epoch
	f.mu.Unlock()
	if ok {
		return loaded.in
	}
	if data, open := text(file); open {
		in = resolve.LoadData(file, data, opts)
	} else {
		loaded.disk = stampOf(file) // before reading: a later change shows
		in = resolve.Load([]string{file}, nil, opts)
	}
	loaded.in = in
	f.mu.Lock()
	before := f.forgotten[key].in
	f.mu.Unlock()
	if before != nil {
		// The objects the last graph points at, where the edit left them
		// as they were: the graph can serve again when all are
		// (folder.resolve), and the Cache finds what it derived of them.
		in.KeepSame(before)
	}
	f.mu.Lock()
	if f.forgotAt[file] <= epoch {
		f.files[key] = loaded
		delete(f.forgotten, key)
	}
	f.mu.Unlock()
	return in
}
