package gitops

import (
	"bufio"
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// otherRepository is the URL of the GitRepository namespace/name among the
// inputs when it is another repository than this one; "" when it is this
// one, or nothing tells (a source the inputs lack is taken for this
// repository, whose bootstrap made it). This repository is the one whose
// git work tree holds the inputs, by its remote origin's URL, or, where
// the work tree names none, the source most Kustomizations build from
// (thisSource: flux bootstrap's flux-system, usually).
func (b *builder) otherRepository(name, namespace string) string {
	url := b.sources.url("GitRepository", namespace, name)
	if url == "" {
		return ""
	}
	this := b.thisURL()
	if this == "" {
		if name == b.thisSource {
			return ""
		}
		// Another GitRepository than the one the Kustomizations build
		// from most, defined in the repository: one does not define a
		// second source of one's own repository.
		if this = b.sources.url("GitRepository", namespace, b.thisSource); this == "" {
			return url
		}
	}
	if sameRepository(url, this) {
		return ""
	}
	return url
}

// mostUsedSource is the GitRepository most Kustomizations of ks build
// from, flux-system on a tie: what flux bootstrap made of this repository.
func mostUsedSource(ks []deployer) string {
	uses := map[string]int{"flux-system": 0}
	for _, d := range ks {
		if k, ok := d.(*kustomization); ok && k.spec.SourceRef.Kind == "GitRepository" {
			uses[k.spec.SourceRef.Name]++
		}
	}
	best := "flux-system"
	for _, name := range slices.Sorted(maps.Keys(uses)) {
		if uses[name] > uses[best] {
			best = name
		}
	}
	return best
}

// thisURL is the URL of this repository's remote origin, "" when its git
// work tree names none. It is read once: which Kustomizations hold which
// folders asks it of every pair.
func (b *builder) thisURL() string {
	b.origin.Do(func() {
		for _, root := range b.a.Renderer.Boundary.Roots() {
			if url := originURL(filepath.Join(root, ".git", "config")); url != "" {
				b.origin.url = url
				return
			}
		}
	})
	return b.origin.url
}

// originURL reads the url of [remote "origin"] from a git config file.
func originURL(config string) string {
	data, err := os.ReadFile(config)
	if err != nil {
		return ""
	}
	in := false
	for s := bufio.NewScanner(bytes.NewReader(data)); s.Scan(); {
		line := strings.TrimSpace(s.Text())
		switch {
		case strings.HasPrefix(line, "["):
			in = line == `[remote "origin"]`
		case in && strings.HasPrefix(line, "url"):
			if _, v, ok := strings.Cut(line, "="); ok {
				return strings.TrimSpace(v)
			}
		}
	}
	return ""
}

// sameRepository reports whether two git URLs name one repository,
// whatever their protocol: https://github.com/a/b.git, ssh://git@github.com/a/b
// and git@github.com:a/b are the same.
func sameRepository(a, b string) bool {
	return normalURL(a) == normalURL(b)
}

func normalURL(u string) string {
	u = strings.ToLower(strings.TrimSpace(u))
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if at := strings.Index(u, "@"); at >= 0 {
		u = strings.Replace(u[at+1:], ":", "/", 1) // scp-like: git@host:owner/repo
	}
	if at := strings.Index(u, "@"); at >= 0 && at < strings.Index(u+"/", "/") {
		u = u[at+1:] // user@ in a URL
	}
	return strings.TrimSuffix(strings.TrimSuffix(u, "/"), ".git")
}
